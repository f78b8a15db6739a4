package e2e

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/oauth/oauthtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// TestOAuthWithMCPClient runs what an MCP client does to connect without a
// pasted token, against the real binary: a 401 with resource metadata,
// discovery, dynamic registration, the consent page approved like a browser
// with the tenant's credential, the PKCE code exchange, tools/list with the
// official Go SDK client, then a refresh and tools/list again.
func TestOAuthWithMCPClient(t *testing.T) {
	ctx := t.Context()
	// OAuth metadata names GATEWAY_URL, so the gateway needs a known port.
	p := startKnownGateway(t, t.TempDir())
	mcpURL := p.gateway + "/mcp"

	resp, err := http.Post(mcpURL, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	chs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if resp.StatusCode != 401 || err != nil || len(chs) == 0 {
		t.Fatalf("401 challenge: %d %q %v", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), err)
	}
	prm, err := oauthex.GetProtectedResourceMetadata(ctx, chs[0].Params["resource_metadata"], mcpURL, nil)
	if err != nil {
		t.Fatalf("protected resource metadata: %v", err)
	}
	asm, err := oauthex.GetAuthServerMeta(ctx, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", prm.AuthorizationServers[0], nil)
	if err != nil {
		t.Fatalf("authorization server metadata: %v", err)
	}
	const redirect = "http://127.0.0.1:53682/callback"
	reg, err := oauthex.RegisterClient(ctx, asm.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{redirect}, ClientName: "e2e agent", TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"},
	}, nil)
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	conf := &oauth2.Config{ClientID: reg.ClientID, RedirectURL: redirect, Scopes: []string{"tools:read"},
		Endpoint: oauth2.Endpoint{AuthURL: asm.AuthorizationEndpoint, TokenURL: asm.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams}}
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("st-1", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	loc := oauthtest.Approve(t, authURL, asm.AuthorizationEndpoint, p.demoToken)
	if loc.Query().Get("state") != "st-1" || loc.Query().Get("code") == "" {
		t.Fatalf("redirect %s", loc)
	}
	tok, err := conf.Exchange(ctx, loc.Query().Get("code"), oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}

	listTools := func(tok *oauth2.Token) int {
		t.Helper()
		client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: conf.Client(context.Background(), tok)}, nil)
		if err != nil {
			t.Fatalf("connect with OAuth token: %v", err)
		}
		defer cs.Close()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		// A read works with tools:read; a mutation needs tools:write (step-up).
		out, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "crm_pipelines", Arguments: map[string]any{"action": "list", "rationale": "oauth e2e"}})
		if err != nil || out.IsError {
			t.Fatalf("read call with tools:read: %v %+v", err, out)
		}
		return len(res.Tools)
	}
	if n := listTools(tok); n < 30 {
		t.Fatalf("tools/list returned %d tools", n)
	}
	stepUpRequired(t, mcpURL, tok.AccessToken)
	next, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil || next.AccessToken == tok.AccessToken {
		t.Fatalf("refresh: %v", err)
	}
	listTools(next)
	// The rotated-out refresh token is refused now.
	if _, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("reused refresh token accepted")
	}
}

// stepUpRequired checks that a tools:read token cannot run a mutation, also
// with a body crafted to confuse a scope check that parses the body apart
// from the MCP SDK: the answer is 403 with an insufficient_scope challenge.
func stepUpRequired(t *testing.T, mcpURL, accessToken string) {
	t.Helper()
	const create = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"crm_contacts","arguments":` +
		`{"action":"create","rationale":"oauth e2e","properties":{"email":"stepup@example.com"}}}}`
	for _, body := range []string{create, create + "}", strings.Replace(create, `"method"`, `"Method":"ping","method"`, 1)} {
		req, err := http.NewRequest(http.MethodPost, mcpURL, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+accessToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="insufficient_scope"`) {
			t.Fatalf("mutation with tools:read: status %d, challenge %q: %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), b)
		}
	}
}
