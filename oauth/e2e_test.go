package oauth

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/gtmgate/gtmgate"
)

// TestEndToEnd drives what an MCP client does: a 401 from /mcp, discovery
// through both metadata documents, registration, the consent page submitted
// like a browser, the code exchange with PKCE S256, a call with the access
// token, and a refresh.
func TestEndToEnd(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()

	// 1. Unauthenticated call: 401 with the resource metadata URL and scope.
	resp := e.callMCP(t, "/mcp", "", toolsList)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: status %d, want 401", resp.StatusCode)
	}
	chs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(chs) != 1 || chs[0].Scheme != "bearer" {
		t.Fatalf("challenge %q: %v", resp.Header.Get("WWW-Authenticate"), err)
	}
	if got := chs[0].Params["scope"]; got != "tools:read tools:write" {
		t.Errorf("challenge scope = %q", got)
	}

	// 2. Discovery with the MCP SDK's own client functions, which validate.
	prm, err := oauthex.GetProtectedResourceMetadata(ctx, chs[0].Params["resource_metadata"], e.base+"/mcp", nil)
	if err != nil {
		t.Fatalf("protected resource metadata: %v", err)
	}
	if len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != e.base {
		t.Fatalf("authorization_servers = %v", prm.AuthorizationServers)
	}
	if _, err := oauthex.GetProtectedResourceMetadata(ctx, e.base+"/.well-known/oauth-protected-resource", e.base+"/mcp", nil); err != nil {
		t.Errorf("root protected resource metadata: %v", err)
	}
	var asm *oauthex.AuthServerMeta
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		asm, err = oauthex.GetAuthServerMeta(ctx, e.base+p, e.base, nil)
		if err != nil || asm == nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if !asm.ClientIDMetadataDocumentSupported || asm.CodeChallengeMethodsSupported[0] != "S256" || len(asm.CodeChallengeMethodsSupported) != 1 {
		t.Errorf("server metadata: %+v", asm)
	}

	// 3. Registration (public client, as Claude or the Inspector register).
	reg, err := oauthex.RegisterClient(ctx, asm.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{redirectURI}, ClientName: "Test Agent", TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"},
	}, nil)
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	if reg.ClientSecret != "" {
		t.Error("public client got a secret")
	}
	conf := &oauth2.Config{
		ClientID: reg.ClientID, RedirectURL: redirectURI, Scopes: []string{ScopeRead, ScopeWrite},
		Endpoint: oauth2.Endpoint{AuthURL: asm.AuthorizationEndpoint, TokenURL: asm.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams},
	}

	// 4. Authorization in the browser: GET the page, POST it with the token.
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("state-123", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	q := e.authorize(t, authURL, e.tokens["acme"])
	if q.Get("state") != "state-123" || q.Get("iss") != e.base || q.Get("code") == "" {
		t.Fatalf("redirect query = %v", q)
	}

	// 5. Code exchange with the verifier.
	tok, err := conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	if tok.TokenType != "Bearer" || tok.RefreshToken == "" || tok.Extra("scope") != "tools:read tools:write" {
		t.Errorf("token = %+v scope %v", tok, tok.Extra("scope"))
	}

	// 6. The access token reaches /mcp as an OAuth principal of acme.
	p := whoami(t, conf.Client(ctx, tok), e.base+"/mcp")
	if p.TenantID != "acme" || p.Kind != "oauth" || p.ClientID != reg.ClientID || len(p.Scopes) != 2 || p.KeyID[:6] != "oauth:" {
		t.Errorf("principal = %+v", p)
	}

	// 7. Refresh: a new pair, the old refresh token spent.
	expired := &oauth2.Token{RefreshToken: tok.RefreshToken}
	next, err := conf.TokenSource(ctx, expired).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if next.AccessToken == tok.AccessToken || next.RefreshToken == tok.RefreshToken {
		t.Error("refresh did not rotate the tokens")
	}
	if p := whoami(t, conf.Client(ctx, next), e.base+"/mcp"); p.TenantID != "acme" {
		t.Errorf("after refresh: principal %+v", p)
	}
}

func whoami(t *testing.T, c *http.Client, url string) *gtmgate.Principal {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(toolsList))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d (%s)", url, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	var p gtmgate.Principal
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	return &p
}
