package app_test

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/reauth"
)

// reauthClock is the fixed "now" of the re-authorisation tests.
var reauthClock = time.Date(2040, 1, 1, 12, 0, 0, 0, time.UTC)

// startWithExpiringMeta starts the demo with a Meta token of the demo tenant
// that expires two days after reauthClock and has no refresh record.
func startWithExpiringMeta(t *testing.T) *apptest.Env {
	t.Helper()
	env := apptest.Start(t, nil)
	env.App.SetConnectClock(func() time.Time { return reauthClock })
	exp := reauthClock.Add(48 * time.Hour).Unix()
	if r := env.Admin("PUT", "/admin/tokens/demo/meta_ads/act_1012345678901234", map[string]any{"access_token": "long-lived", "expires_at": exp, "token_type": "Bearer"}); r.Status != 200 {
		t.Fatalf("store token: %d %s", r.Status, r.Body)
	}
	return env
}

// TestReauthListsExpiringToken: GET /admin/reauth names a token that expires
// within the warning window and cannot be refreshed; an unknown tenant is 404.
func TestReauthListsExpiringToken(t *testing.T) {
	t.Parallel()
	env := startWithExpiringMeta(t)
	r := env.Admin("GET", "/admin/reauth?tenant=demo", nil)
	if r.Status != 200 {
		t.Fatalf("GET /admin/reauth: %d %s", r.Status, r.Body)
	}
	var body struct{ Accounts []reauth.Account }
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, a := range body.Accounts {
		if a.Provider == "meta_ads" && a.AccountID == "act_1012345678901234" {
			found = a.Family == "meta" && a.Kind == reauth.KindExpiring
		}
	}
	if !found {
		t.Fatalf("act_1012345678901234 not listed as expiring: %s", r.Body)
	}
	if all := env.Admin("GET", "/admin/reauth", nil); all.Status != 200 || !json.Valid(all.Body) {
		t.Fatalf("all tenants: %d %s", all.Status, all.Body)
	}
	if r := env.Admin("GET", "/admin/reauth?tenant=nobody", nil); r.Status != 404 {
		t.Fatalf("unknown tenant: %d %s", r.Status, r.Body)
	}
}

// TestReauthInHealthAndBrief: system health and the daily brief name an
// account whose token cannot be refreshed and expires within the window,
// the brief in its figures.
func TestReauthInHealthAndBrief(t *testing.T) {
	t.Parallel()
	env := startWithExpiringMeta(t)
	h := env.Admin("GET", "/admin/system-health?fresh=1", nil)
	var rep struct {
		Accounts struct {
			Reconnect      []reauth.Account `json:"reconnect"`
			ReconnectCount int              `json:"reconnect_count"`
		} `json:"accounts"`
	}
	if err := json.Unmarshal(h.Body, &rep); err != nil || h.Status != 200 {
		t.Fatalf("system health: %d %s", h.Status, h.Body)
	}
	if rep.Accounts.ReconnectCount < 1 || !strings.Contains(string(h.Body), "act_1012345678901234") {
		t.Fatalf("system health does not name the account: %s", h.Body)
	}
	b := env.Admin("POST", "/admin/daily-brief/trigger", nil)
	// Under --demo the sandbox model writes the markdown from the figures;
	// the template's line with the command is tested in package brief.
	want := `"reauth":[{"tenant_id":"demo","provider":"meta_ads","account_id":"act_1012345678901234","kind":"expiring"`
	if b.Status != 201 || !strings.Contains(string(b.Body), want) {
		t.Fatalf("brief figures do not name the account: %d %s", b.Status, b.Body)
	}
}

// TestConsoleReconnect: the tenant page lists the account under Needs
// re-authorisation with a Send re-connect link button; the button posts the
// Connect account form for its family and account, and the link is shown
// once like any connect link, its page naming the tenant.
func TestConsoleReconnect(t *testing.T) {
	t.Parallel()
	env := startWithExpiringMeta(t)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	code, page := o.get("/console/tenants/demo")
	button := `<input type="hidden" name="provider" value="meta"><input type="hidden" name="account_hint" value="act_1012345678901234"><button type="submit">Send re-connect link</button>`
	if code != 200 || !strings.Contains(page, "Needs re-authorisation") || !strings.Contains(page, button) {
		t.Fatalf("tenant page: %d\n%s", code, page)
	}
	resp, page := o.do("POST", "/console/tenants/demo/connect-links", url.Values{"provider": {"meta"},
		"account_hint": {"act_1012345678901234"}, "csrf": {o.csrf}})
	link := regexp.MustCompile(`id="new-link" class="secret">(http[^<]+/connect/[A-Za-z0-9_-]+)<`).FindStringSubmatch(page)
	if resp.StatusCode != 201 || link == nil || !strings.Contains(page, `rel="noopener noreferrer">Open</a>`) {
		t.Fatalf("re-connect link: %d %s", resp.StatusCode, page)
	}
	secretPath := link[1][strings.Index(link[1], "/connect/"):]
	if r := env.Do("GET", env.GatewayURL+secretPath, nil); r.Status != 200 || !strings.Contains(string(r.Body), "demo") {
		t.Fatalf("the link's page: %d %s", r.Status, r.Body)
	}
}
