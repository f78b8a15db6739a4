package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestConnectedHubSpotRefreshes: a HubSpot account connected through a
// link is renewed by the refresher when its access token is refused (the
// sandbox's refresh endpoint), the tool call then succeeds on the new
// token, and the refresh record shows when; a second refusal refreshes
// again with the refresh token the first refresh left stored.
func TestConnectedHubSpotRefreshes(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	token := e.NewTenant("acme-co", nil)
	created := createLink(t, e, "acme-co", map[string]any{"provider": "hubspot"})
	b := newConnectBrowser(t, e)
	link := b.gateway(created["url"].(string))
	callback := b.consent(b.openLink(link), true)
	if done := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil); done.status != 200 {
		t.Fatalf("callback: %d %s", done.status, done.body)
	}
	var records struct {
		Accounts []struct {
			AccountID     string  `json:"account_id"`
			LastRefreshAt *string `json:"last_refresh_at"`
			NeedsReauth   bool    `json:"needs_reauth"`
		} `json:"accounts"`
	}
	listRefresh := func() {
		t.Helper()
		r := e.Admin("GET", "/admin/oauth-refresh?tenant=acme-co", nil)
		records.Accounts = nil
		if err := json.Unmarshal(r.Body, &records); err != nil || len(records.Accounts) != 1 {
			t.Fatalf("refresh records: %v %s", err, r.Body)
		}
	}
	listRefresh()
	account := records.Accounts[0].AccountID
	if records.Accounts[0].LastRefreshAt != nil {
		t.Fatalf("refreshed before any refusal: %+v", records.Accounts[0])
	}

	for round := 1; round <= 2; round++ {
		// The provider refuses the stored access token: the refresher renews it.
		if r := e.Admin("PUT", "/admin/tokens/acme-co/hubspot/"+account,
			map[string]any{"access_token": "revoked-token", "expires_at": 4102444800, "token_type": "Bearer"}); r.Status != 200 {
			t.Fatalf("round %d: store token: %s", round, r.Body)
		}
		if r := e.Tool(token, "acme-co", "crm", "crm_contacts", listInput()); r.Status != 200 {
			t.Fatalf("round %d: tool call after refresh: %d %s", round, r.Status, r.Body)
		}
		// The renewed token was stored, not only used once.
		if r := e.Tool(token, "acme-co", "crm", "crm_contacts", listInput()); r.Status != 200 {
			t.Fatalf("round %d: second tool call: %d %s", round, r.Status, r.Body)
		}
		listRefresh()
		rec := records.Accounts[0]
		if rec.LastRefreshAt == nil || rec.NeedsReauth {
			t.Fatalf("round %d: refresh record: %+v", round, rec)
		}
	}
	if r := e.Admin("GET", "/admin/oauth-refresh?tenant=acme-co", nil); strings.Contains(string(r.Body), "revoked-token") {
		t.Errorf("a token is in the refresh records: %s", r.Body)
	}
}
