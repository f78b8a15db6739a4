package connectflow_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connectflow"
)

// mcpAuthServer is an OAuth-protected MCP server and its authorization
// server on one origin: 401 with the resource metadata, RFC 8414 metadata,
// dynamic registration, and a token endpoint that issues the secrets above.
func mcpAuthServer(t *testing.T) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{srv.URL}})
	})
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"issuer": srv.URL, "authorization_endpoint": srv.URL + "/authorize", "token_endpoint": srv.URL + "/token",
			"registration_endpoint": srv.URL + "/register", "code_challenge_methods_supported": []string{"S256"}})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 201, map[string]any{"client_id": "registered-1"})
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		if r.PostForm.Get("code_verifier") == "" || r.PostForm.Get("resource") != srv.URL+"/mcp" || r.PostForm.Get("client_id") != "registered-1" {
			writeJSON(w, 400, map[string]any{"error": "invalid_grant"})
			return
		}
		writeJSON(w, 200, map[string]any{"access_token": accessToken, "refresh_token": refreshToken, "expires_in": 3600, "token_type": "Bearer"})
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestMCPServerLink: a link to an oauth MCP server discovers its
// authorization server, registers a client, sends the person to consent
// with PKCE and the resource, and stores the grant (sealed) under
// mcp:<server> for the tenant, seeding the refresher; a server of another
// auth kind gets no link.
func TestMCPServerLink(t *testing.T) {
	as := mcpAuthServer(t)
	var connected []string
	e := newEnvWith(t, func(o *connectflow.Options) {
		o.MCPClient = as.Client()
		o.OnMCPConnected = func(tenant, server, by string) { connected = append(connected, tenant+"/"+server) }
	})
	ctx := context.Background()
	for name, kind := range map[string]string{"crm": gtmgate.MCPAuthOAuth, "plain": gtmgate.MCPAuthNone} {
		if _, err := e.store.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: name, URL: as.URL + "/mcp",
			Auth: gtmgate.MCPServerAuth{Kind: kind}}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		body string
		code int
	}{
		{`{"provider":"mcp:plain"}`, http.StatusBadRequest},
		{`{"provider":"mcp:nothere"}`, http.StatusNotFound},
		{`{"provider":"mcp:crm","products":["x"]}`, http.StatusBadRequest},
	}
	for _, tc := range tests {
		if w := e.createLink(tc.body); w.Code != tc.code {
			t.Errorf("%s: %d %s, want %d", tc.body, w.Code, w.Body, tc.code)
		}
	}

	secret := e.linkTo(t, "mcp:crm")
	w := e.pressContinue(t, secret)
	loc, err := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusSeeOther || err != nil {
		t.Fatalf("continue: %d %s", w.Code, w.Body)
	}
	q := loc.Query()
	if loc.Path != "/authorize" || q.Get("client_id") != "registered-1" || q.Get("code_challenge_method") != "S256" ||
		q.Get("resource") != as.URL+"/mcp" || q.Get("redirect_uri") != "https://gw.example/connect/callback" {
		t.Fatalf("authorize URL: %s", loc)
	}
	cookie := stateCookie(w.Result().Cookies())
	w = e.do("GET", "/connect/callback?state="+url.QueryEscape(q.Get("state"))+"&code=the-code", cookie)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "crm MCP server") {
		t.Fatalf("callback: %d %s", w.Code, w.Body)
	}
	tok, err := e.store.GetProviderToken(ctx, "acme", "mcp:crm", gtmgate.MCPGrantTenant)
	if err != nil || tok.AccessToken != accessToken {
		t.Fatalf("stored grant: %+v, %v", tok, err)
	}
	if len(e.seeder.recs) != 1 || e.seeder.recs[0].Provider != "mcp:crm" || e.seeder.recs[0].ClientID != "registered-1" ||
		e.seeder.recs[0].RefreshToken != refreshToken || e.seeder.recs[0].TokenEndpoint != as.URL+"/token" {
		t.Errorf("refresher seeded with %+v", e.seeder.recs)
	}
	for _, s := range []string{accessToken, refreshToken, secret} {
		if strings.Contains(e.logs.String(), s) || strings.Contains(w.Body.String(), s) {
			t.Errorf("a secret (%.6s…) shows in the logs or the page", s)
		}
	}
}
