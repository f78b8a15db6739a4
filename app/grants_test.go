package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/oauth"
	"github.com/gtmgate/gtmgate/oauth/oauthtest"
)

// TestTenantGrantsAndProviderTokens: the admin API lists a tenant's provider
// tokens without the token and the OAuth clients holding its tokens, and a
// revoked grant stops the client's access token at once.
func TestTenantGrantsAndProviderTokens(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	if r := env.Admin("PUT", "/admin/tokens/demo/hubspot/portal-24681357", map[string]any{"access_token": "sandbox-hubspot-token",
		"expires_at": 4102444800}); r.Status != 200 {
		t.Fatalf("store token: %d %s", r.Status, r.Body)
	}
	r := env.Admin("GET", "/admin/tenants/demo/provider-tokens", nil)
	if r.Status != 200 || strings.Contains(string(r.Body), "sandbox-hubspot-token") ||
		!strings.Contains(string(r.Body), `"account_id":"portal-24681357"`) || !strings.Contains(string(r.Body), `"expires_at":"2100-01-01T00:00:00Z"`) {
		t.Fatalf("provider tokens: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/tenants/nobody/provider-tokens", nil); r.Status != 404 {
		t.Fatalf("unknown tenant: %d", r.Status)
	}

	const redirect = "http://127.0.0.1:9/cb"
	reg, err := oauthex.RegisterClient(t.Context(), env.GatewayURL+"/oauth/register",
		&oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirect}, ClientName: "Grant Test", TokenEndpointAuthMethod: "none"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conf := &oauth2.Config{ClientID: reg.ClientID, RedirectURL: redirect, Scopes: oauth.Scopes(),
		Endpoint: oauth2.Endpoint{AuthURL: env.GatewayURL + "/oauth/authorize", TokenURL: env.GatewayURL + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams}}
	verifier := oauth2.GenerateVerifier()
	b := oauthtest.Browser(t)
	_, form := oauthtest.ConsentForm(t, b, conf.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", env.Config.GatewayURL+"/mcp"))) // the configured URL, the tokens' audience
	form.Set("credential", env.DemoToken)
	form.Set("decision", "approve")
	resp, err := b.PostForm(env.GatewayURL+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := resp.Location()
	if loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("consent: %d, redirect %v", resp.StatusCode, loc)
	}
	tok, err := conf.Exchange(t.Context(), loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	mcp := func() int {
		return env.Do("POST", env.GatewayURL+"/mcp", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
			"Authorization", "Bearer "+tok.AccessToken, "Accept", "application/json, text/event-stream").Status
	}
	if s := mcp(); s != http.StatusOK {
		t.Fatalf("MCP with the OAuth token: %d", s)
	}

	g := env.Admin("GET", "/admin/tenants/demo/oauth-grants", nil)
	if g.Status != 200 || !strings.Contains(string(g.Body), `"client_id":"`+reg.ClientID+`"`) ||
		!strings.Contains(string(g.Body), `"client_name":"Grant Test"`) || !strings.Contains(string(g.Body), `"active_tokens":2`) {
		t.Fatalf("grants: %d %s", g.Status, g.Body)
	}
	if r := env.Admin("POST", "/admin/tenants/demo/oauth-grants/revoke", map[string]any{}); r.Status != 400 {
		t.Fatalf("revoke without a client: %d", r.Status)
	}
	if r := env.Admin("POST", "/admin/tenants/acme/oauth-grants/revoke", map[string]any{"client_id": reg.ClientID}); r.Status != 404 {
		t.Fatalf("revoke through another tenant: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/tenants/demo/oauth-grants/revoke", map[string]any{"client_id": reg.ClientID}); r.Status != 200 ||
		!strings.Contains(string(r.Body), `"revoked_tokens":2`) {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if s := mcp(); s != http.StatusUnauthorized {
		t.Fatalf("MCP after the grant was revoked: %d, want 401", s)
	}
	if g := env.Admin("GET", "/admin/tenants/demo/oauth-grants", nil); !strings.Contains(string(g.Body), `"oauth_grants":[]`) {
		t.Fatalf("grants after revoke: %s", g.Body)
	}
}
