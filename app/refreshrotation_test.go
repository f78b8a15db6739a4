package app_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/hubspot"
)

// TestRefreshStoresRotatedRefreshToken: a token endpoint that rotates
// refresh tokens (a new one on every refresh, the old one retired) keeps
// working refresh after refresh, so the rotated token is what was stored.
// No provider sandbox rotates (oauthsandbox.Options.RotateRefresh is set
// by none, as HubSpot, Google and LinkedIn keep the refresh token), so the
// endpoint here is the test's own, seeded through POST /admin/seed-oauth.
func TestRefreshStoresRotatedRefreshToken(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	live, issued := "refresh-secret-0", 0
	var refused []string
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if got := r.Form.Get("refresh_token"); got != live {
			refused = append(refused, got)
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"invalid_grant","error_description":"refresh token was rotated"}`)
			return
		}
		issued++
		live = fmt.Sprintf("refresh-secret-%d", issued)
		io.WriteString(w, `{"access_token":"`+hubspot.SandboxToken+`","token_type":"Bearer","expires_in":3600,"refresh_token":"`+live+`"}`)
	}))
	defer endpoint.Close()
	env := apptest.Start(t, func(c *config.Config) { c.AllowInsecureTokenEndpoint = true })
	account := "portal-24681357"
	seed := map[string]any{"tenant_id": "demo", "provider": "hubspot", "account_id": account, "client_id": "cid",
		"client_secret": "client-secret-1", "token_endpoint": endpoint.URL, "refresh_token": "refresh-secret-0"}
	if r := env.Admin("POST", "/admin/seed-oauth", seed); r.Status != 200 {
		t.Fatalf("seed-oauth: %d %s", r.Status, r.Body)
	}
	for round := 1; round <= 3; round++ {
		if r := env.Admin("PUT", "/admin/tokens/demo/hubspot/"+account,
			map[string]any{"access_token": "revoked-token", "expires_at": 4102444800, "token_type": "Bearer"}); r.Status != 200 {
			t.Fatalf("round %d: store token: %s", round, r.Body)
		}
		if r := env.Tool(env.DemoToken, "demo", "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "r"}); r.Status != 200 {
			t.Fatalf("round %d: call after refresh: %d %s", round, r.Status, r.Body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if issued != 3 || len(refused) != 0 {
		t.Fatalf("%d refreshes, refused %v; want 3 refreshes each with the rotated token", issued, refused)
	}
	if list := env.Admin("GET", "/admin/oauth-refresh?tenant=demo", nil); !strings.Contains(string(list.Body), `"last_refresh_at":`) ||
		strings.Contains(string(list.Body), "refresh-secret-") {
		t.Fatalf("refresh records: %s", list.Body)
	}
}
