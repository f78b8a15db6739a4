package mcpupstream

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	gtmgate "github.com/gtmgate/gtmgate"
)

// fakeGrants is a GrantSource: token is the grant's access token ("" for
// none); a refresh gives next ("" refuses it).
type fakeGrants struct {
	mu          sync.Mutex
	token, next string
	refreshes   int
	rejected    []string
}

func (g *fakeGrants) GrantToken(_ context.Context, _, server, stale string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.token == "" {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q is not connected", server)
	}
	if stale == "" || stale != g.token {
		return g.token, nil
	}
	g.refreshes++
	if g.next == "" {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "the refresh was refused")
	}
	g.token, g.next = g.next, ""
	return g.token, nil
}

func (g *fakeGrants) GrantRejected(_ context.Context, _, _, token string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.rejected = append(g.rejected, token)
}

// TestOAuthGrant: an oauth server gets the grant's token; without a grant
// it is not connected; a 401 challenge refreshes the grant and sends the
// request again; a refused refresh marks the grant and says REAUTH_REQUIRED.
func TestOAuthGrant(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		token, next string
		accepted    string // the token the upstream takes
		wantCode    string
		wantRefresh int
		wantMarked  bool
	}{
		{name: "grant sent", token: "at-1", accepted: "at-1"},
		{name: "no grant", wantCode: gtmgate.EReauthRequired},
		{name: "expired at the upstream, refreshed", token: "at-old", next: "at-new", accepted: "at-new", wantRefresh: 1},
		{name: "revoked", token: "at-old", accepted: "at-other", wantCode: gtmgate.EReauthRequired, wantRefresh: 1, wantMarked: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u := newUpstream(t, nil)
			addTool(u.srv, "echo", echo)
			u.authorize = func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+tc.accepted }
			g := &fakeGrants{token: tc.token, next: tc.next}
			p := newPool(t, Options{Grants: g})
			s := u.server("crm")
			s.Auth = gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthOAuth}
			// The challenge: the test upstream's 401 has none, so add one.
			base := u.authorize
			u.intercept = nil
			u.authorize = nil
			inner := u.ts.Config.Handler
			u.ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !base(r) {
					w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+u.ts.URL+`/.well-known/oauth-protected-resource"`)
					http.Error(w, "invalid token", http.StatusUnauthorized)
					return
				}
				inner.ServeHTTP(w, r)
			})
			tools, err := p.ListTools(ctxTimeout(t), s)
			if tc.wantCode != "" {
				e := wantCode(t, err, tc.wantCode)
				if tc.token == "" && !strings.Contains(e.Message, "connect it at /console/tenants/t1/mcp-servers/crm") {
					t.Errorf("message %q does not say where to connect it", e.Message)
				}
			} else if err != nil || len(tools) != 1 {
				t.Fatalf("ListTools = %v, %v", tools, err)
			}
			// A refused refresh may be asked again when the listing is
			// retried on a new session; the real refresher answers it from
			// the marked record.
			if g.refreshes < tc.wantRefresh || tc.wantRefresh == 0 && g.refreshes > 0 {
				t.Errorf("refreshes = %d, want %d", g.refreshes, tc.wantRefresh)
			}
			if marked := len(g.rejected) > 0; marked != tc.wantMarked {
				t.Errorf("grant marked for re-authorisation = %v, want %v", marked, tc.wantMarked)
			}
		})
	}
}
