package app_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/hubspot"
)

// TestProviderTokenRefreshesItself: a tenant's HubSpot token was refused; with
// OAuth seeded, the tool call refreshes it (refresh_token grant) and retries.
func TestProviderTokenRefreshesItself(t *testing.T) {
	t.Parallel()
	var grant atomic.Value
	grant.Store("ok")
	var hits atomic.Int32
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		if grant.Load() != "ok" || r.Form.Get("refresh_token") != "refresh-secret-1" {
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"invalid_grant","error_description":"refresh token revoked"}`)
			return
		}
		io.WriteString(w, `{"access_token":"`+hubspot.SandboxToken+`","token_type":"Bearer","expires_in":3600,"refresh_token":"refresh-secret-1"}`)
	}))
	defer endpoint.Close()
	env := apptest.Start(t, func(c *config.Config) { c.AllowInsecureTokenEndpoint = true })
	account := "portal-24681357"
	if r := env.Admin("PUT", "/admin/tokens/demo/hubspot/"+account, map[string]any{"access_token": "revoked-token", "expires_at": 4102444800, "token_type": "Bearer"}); r.Status != 200 {
		t.Fatalf("store token: %s", r.Body)
	}
	if r := env.Tool(env.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "r"}); r.ErrorCode(t) != "REAUTH_REQUIRED" {
		t.Fatalf("refused token without OAuth: %d %s", r.Status, r.Body)
	}
	seed := map[string]any{"tenant_id": "demo", "provider": "hubspot", "account_id": account, "client_id": "cid",
		"client_secret": "client-secret-1", "token_endpoint": endpoint.URL, "refresh_token": "refresh-secret-1"}
	r := env.Admin("POST", "/admin/seed-oauth", seed)
	if r.Status != 200 || strings.Contains(string(r.Body), "secret-1") {
		t.Fatalf("seed-oauth: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(env.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "r"}); r.Status != 200 {
		t.Fatalf("call after seeding: %d %s", r.Status, r.Body)
	}
	// The refresh token is revoked at the provider: the account needs re-authorisation.
	grant.Store("revoked")
	env.Admin("PUT", "/admin/tokens/demo/hubspot/"+account, map[string]any{"access_token": "revoked-token", "expires_at": 4102444800, "token_type": "Bearer"})
	r = env.Tool(env.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "r"})
	if r.ErrorCode(t) != "REAUTH_REQUIRED" || !strings.Contains(string(r.Body), account) {
		t.Fatalf("after invalid_grant: %d %s", r.Status, r.Body)
	}
	list := env.Admin("GET", "/admin/oauth-refresh?tenant=demo", nil)
	if !strings.Contains(string(list.Body), `"needs_reauth":true`) || strings.Contains(string(list.Body), "secret-1") {
		t.Fatalf("refresh status: %s", list.Body)
	}
	// It is an account to connect again, with the provider's refusal.
	re := env.Admin("GET", "/admin/reauth?tenant=demo", nil)
	if !strings.Contains(string(re.Body), `"account_id":"`+account+`","family":"hubspot","kind":"refused","reason":"the provider refused the refresh: `) {
		t.Fatalf("reauth: %s", re.Body)
	}
}
