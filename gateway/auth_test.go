package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// oneToken knows one tenant token.
type oneToken struct {
	gtmgate.TokenStore
	hash string
}

func (s oneToken) FindTenantToken(_ context.Context, hash string) (*gtmgate.TenantToken, error) {
	if hash == s.hash {
		return &gtmgate.TenantToken{ID: "tok_1", TenantID: "acme"}, nil
	}
	return nil, gtmgate.ErrNotFound
}

// TestChallenge checks the 401's WWW-Authenticate against RFC 6750 §3: no
// error code when the request carried no bearer token (none, another
// scheme, x-api-key), error="invalid_token" when it carried one that is not
// valid; the configured challenge (the MCP resource metadata) kept in both.
func TestChallenge(t *testing.T) {
	t.Parallel()
	const mcpChallenge = `Bearer resource_metadata="https://gw.example/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:write"`
	tests := []struct {
		name      string
		challenge string
		header    [2]string
		status    int
		want      string
	}{
		{"no credential", mcpChallenge, [2]string{}, 401, mcpChallenge},
		{"another scheme", mcpChallenge, [2]string{"Authorization", "Basic YTpi"}, 401, mcpChallenge},
		{"key in x-api-key", mcpChallenge, [2]string{"X-Api-Key", "good"}, 401, mcpChallenge},
		{"bad token", mcpChallenge, [2]string{"Authorization", "Bearer wrong"}, 401, mcpChallenge + `, error="invalid_token"`},
		{"bad token, plain challenge", "", [2]string{"Authorization", "Bearer wrong"}, 401, `Bearer error="invalid_token"`},
		{"no credential, plain challenge", "", [2]string{}, 401, `Bearer`},
		{"good token", mcpChallenge, [2]string{"Authorization", "Bearer good"}, 204, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &Authenticator{Tokens: oneToken{hash: secret.HashToken("good")}, Challenge: tc.challenge}
			h := a.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
			req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			if tc.header[0] != "" {
				req.Header.Set(tc.header[0], tc.header[1])
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status || rec.Header().Get("WWW-Authenticate") != tc.want {
				t.Fatalf("status %d, WWW-Authenticate %q; want %d, %q", rec.Code, rec.Header().Get("WWW-Authenticate"), tc.status, tc.want)
			}
		})
	}
}
