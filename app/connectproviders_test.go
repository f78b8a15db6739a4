package app_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/metaads"
)

// connectedTenant is the part of GET /admin/tenants/{id}'s tenant and
// GET /admin/tenants/{id}/provider-tokens these tests read.
type connectedTenant struct {
	Providers map[string]struct {
		Default  string `json:"default"`
		Accounts []struct {
			ID              string `json:"id"`
			LoginCustomerID string `json:"login_customer_id"`
		} `json:"accounts"`
	} `json:"providers"`
	Tokens []struct {
		Provider  string    `json:"provider"`
		AccountID string    `json:"account_id"`
		ExpiresAt time.Time `json:"expires_at"`
	} `json:"provider_tokens"`
}

// onlyAccount checks that key holds exactly one account, the default, and
// that the tenant's one stored token is that account's; it returns the
// account's id and login customer id.
func (c connectedTenant) onlyAccount(t *testing.T, key string) (id, loginCustomerID string) {
	t.Helper()
	pa := c.Providers[key]
	if len(pa.Accounts) != 1 || pa.Default != pa.Accounts[0].ID {
		t.Fatalf("%s accounts: %+v", key, pa)
	}
	if len(c.Tokens) != 1 || c.Tokens[0].Provider != key || c.Tokens[0].AccountID != pa.Accounts[0].ID {
		t.Fatalf("tokens: %+v", c.Tokens)
	}
	return pa.Accounts[0].ID, pa.Accounts[0].LoginCustomerID
}

// connectThrough walks a link of provider for tenant to its end: consent
// allowed, and on a picker the choices pick returns. It returns the
// tenant's providers and stored tokens afterwards.
func connectThrough(t *testing.T, e *apptest.Env, tenant, provider string, pick func([]string) []string) connectedTenant {
	t.Helper()
	b := newConnectBrowser(t, e)
	created := createLink(t, e, tenant, map[string]any{"provider": provider})
	callback := b.consent(b.openLink(b.gateway(created["url"].(string))), true)
	done := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil)
	if choices := pickerChoice.FindAllStringSubmatch(done.body, -1); done.status == 200 && len(choices) > 0 {
		var values []string
		for _, c := range choices {
			values = append(values, c[1])
		}
		chosen := pick(values)
		if len(chosen) == 0 {
			t.Fatalf("nothing to choose in %v", values)
		}
		state, _ := url.ParseQuery(callback)
		done = b.do("POST", e.GatewayURL+"/connect/choose", url.Values{"state": {state.Get("state")}, "account": chosen})
	}
	if done.status != 200 || !strings.Contains(done.body, "connected") {
		t.Fatalf("%s connect: %d %s", provider, done.status, done.body)
	}
	var out connectedTenant
	wrapped := struct {
		Tenant *connectedTenant `json:"tenant"`
	}{&out}
	if r := e.Admin("GET", "/admin/tenants/"+tenant, nil); r.Status != 200 || json.Unmarshal(r.Body, &wrapped) != nil {
		t.Fatalf("tenant: %d %s", r.Status, r.Body)
	}
	if r := e.Admin("GET", "/admin/tenants/"+tenant+"/provider-tokens", nil); r.Status != 200 || json.Unmarshal(r.Body, &out) != nil {
		t.Fatalf("provider tokens: %d %s", r.Status, r.Body)
	}
	return out
}

// firstWithPrefix picks the first choice of a provider key.
func firstWithPrefix(prefix string) func([]string) []string {
	return func(values []string) []string {
		for _, v := range values {
			if strings.HasPrefix(v, prefix) {
				return []string{v}
			}
		}
		return nil
	}
}

// TestConnectMeta: a Meta link for a fresh tenant connects an ad account
// in the act_ form the tools use, on the long-lived (60-day) token, with no
// refresh record (Meta issues no refresh token); a Meta Ads call then runs.
func TestConnectMeta(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	token := e.NewTenant("umbrella", nil)
	if r := e.Tool(token, "umbrella", "ads", "meta_ads_campaigns", listInput()); r.Status == 200 {
		t.Fatalf("a tenant with no account called Meta: %s", r.Body)
	}
	got := connectThrough(t, e, "umbrella", "meta", firstWithPrefix("meta_ads:"))
	if id, _ := got.onlyAccount(t, "meta_ads"); id != metaads.AccountID(id) {
		t.Fatalf("meta_ads account %q is not in the tools' act_ form", id)
	}
	if left := time.Until(got.Tokens[0].ExpiresAt); left < 59*24*time.Hour || left > 61*24*time.Hour {
		t.Errorf("token expires in %v, not about 60 days: no long-lived exchange?", left)
	}
	if r := e.Admin("GET", "/admin/oauth-refresh?tenant=umbrella", nil); strings.Contains(string(r.Body), `"provider":"meta_ads"`) {
		t.Errorf("a refresh record was seeded for Meta: %s", r.Body)
	}
	if r := e.Tool(token, "umbrella", "ads", "meta_ads_campaigns", listInput()); r.Status != 200 {
		t.Errorf("meta_ads_campaigns with the connected token: %d %s", r.Status, r.Body)
	}
}

// TestConnectLinkedIn: a LinkedIn link for a fresh tenant connects an ad
// account under linkedin_ads; the sandbox app issues refresh tokens, so the
// refresher is seeded; a LinkedIn Ads call then runs.
func TestConnectLinkedIn(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	token := e.NewTenant("hooli", nil)
	if r := e.Tool(token, "hooli", "ads", "linkedin_ads_campaigns", listInput()); r.Status == 200 {
		t.Fatalf("a tenant with no account called LinkedIn: %s", r.Body)
	}
	got := connectThrough(t, e, "hooli", "linkedin", firstWithPrefix("linkedin_ads:"))
	id, _ := got.onlyAccount(t, "linkedin_ads")
	if r := e.Admin("GET", "/admin/oauth-refresh?tenant=hooli", nil); !strings.Contains(string(r.Body), `"provider":"linkedin_ads"`) ||
		!strings.Contains(string(r.Body), id) {
		t.Errorf("refresher not seeded for LinkedIn: %s", r.Body)
	}
	if r := e.Tool(token, "hooli", "ads", "linkedin_ads_campaigns", listInput()); r.Status != 200 {
		t.Errorf("linkedin_ads_campaigns with the connected token: %d %s", r.Status, r.Body)
	}
}

// TestConnectGoogleAdsThroughManager: a Google Ads client account reached
// only through a manager is stored with the manager as login_customer_id,
// and a Google Ads call for it runs.
func TestConnectGoogleAdsThroughManager(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	token := e.NewTenant("vandelay", nil)
	got := connectThrough(t, e, "vandelay", "google", func(values []string) []string {
		for _, v := range values {
			if v == "google_ads:4440002222" {
				return []string{v}
			}
		}
		t.Fatalf("the client account through the manager is not offered: %v", values)
		return nil
	})
	if id, login := got.onlyAccount(t, "google_ads"); id != "4440002222" || login != "5550001111" {
		t.Fatalf("google_ads account %s through %s, want 4440002222 through 5550001111", id, login)
	}
	if r := e.Tool(token, "vandelay", "ads", "google_ads_campaigns", listInput()); r.Status != 200 {
		t.Errorf("google_ads_campaigns through the manager: %d %s", r.Status, r.Body)
	}
}
