package mcpupstream

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	gtmgate "github.com/gtmgate/gtmgate"
)

// fakeGrants is a GrantSource: token is the grant's access token ("" for
// none); a refresh gives next ("" refuses it). With people set, each
// account's grant is people[account] instead, and lister lists.
type fakeGrants struct {
	mu          sync.Mutex
	token, next string
	refreshes   int
	rejected    []string
	people      map[string]string
	lister      string
	asked       []string // the accounts GrantToken was asked for
}

func (g *fakeGrants) GrantToken(_ context.Context, _, server, account, stale string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked = append(g.asked, account)
	if g.people != nil {
		if tok := g.people[account]; tok != "" {
			return tok, nil
		}
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q is not connected for person %s", server, account)
	}
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

func (g *fakeGrants) GrantRejected(_ context.Context, _, _, _, token string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.rejected = append(g.rejected, token)
}

func (g *fakeGrants) ListingAccount(_ context.Context, _, server string) (string, error) {
	if g.lister == "" {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "upstream MCP server %q is not connected: no person's grant holds", server)
	}
	return g.lister, nil
}

// TestPerPersonGrants: a per-person server's calls each send the grant of
// the person the caller acts for, on a session of that person's own (two
// people, two sessions, two tokens); a call for a person who has not
// connected, or for no person, is REAUTH_REQUIRED naming whose grant is
// missing and where to connect it, and never falls back to another's; a
// listing uses the grant ListingAccount names.
func TestPerPersonGrants(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	u.srv.AddTool(&mcp.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(req.Extra.Header.Get("Authorization")), nil
		})
	g := &fakeGrants{people: map[string]string{"p_ann": "at-ann", "p_bob": "at-bob"}, lister: "p_bob"}
	p := newPool(t, Options{Grants: g})
	s := u.server("crm")
	s.Auth = gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthOAuth, Grant: gtmgate.MCPGrantPerPerson}
	as := func(person string) context.Context {
		return gtmgate.NewContextWithPrincipal(ctxTimeout(t), &gtmgate.Principal{TenantID: "t1", KeyID: "tok_" + person,
			Kind: gtmgate.PrincipalToken, Person: person})
	}
	for _, person := range []string{"p_ann", "p_bob", "p_ann"} {
		res, err := p.CallTool(as(person), s, "whoami", nil, true, nil)
		if err != nil {
			t.Fatalf("call as %s: %v", person, err)
		}
		if got, want := res.Content[0].(*mcp.TextContent).Text, "Bearer "+g.people[person]; got != want {
			t.Errorf("call as %s sent %q, want %q", person, got, want)
		}
	}
	if n := u.inits.Load(); n != 2 {
		t.Errorf("initialize requests = %d, want 2: one session per person, reused", n)
	}
	if toks := p.AccessTokens("t1", "crm"); len(toks) != 2 {
		t.Errorf("AccessTokens = %d tokens, want both people's (scrubbed from upstream texts)", len(toks))
	}

	// An agent run acting for a person uses theirs too.
	run := gtmgate.NewContextWithPrincipal(ctxTimeout(t), &gtmgate.Principal{TenantID: "t1", Kind: "agent_run",
		OnBehalfOf: &gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_x", Person: "p_ann"}})
	if res, err := p.CallTool(run, s, "whoami", nil, true, nil); err != nil || res.Content[0].(*mcp.TextContent).Text != "Bearer at-ann" {
		t.Errorf("agent run for p_ann: %v, %v", res, err)
	}

	asked := len(g.asked)
	_, err := p.CallTool(as("p_cy"), s, "whoami", nil, true, nil)
	e := wantCode(t, err, gtmgate.EReauthRequired)
	for _, want := range []string{"person p_cy", "/console/connect/t1/mcp:crm"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q does not say %q", e.Message, want)
		}
	}
	if u, ok := gtmgate.UnconnectedAccountOf(e); !ok || u.Person != "p_cy" || u.Provider != "mcp:crm" {
		t.Errorf("detail = %+v, want the unconnected account of p_cy", e.Detail)
	}
	for _, a := range g.asked[asked:] {
		if a != "p_cy" {
			t.Errorf("a call for p_cy asked for %q's grant", a)
		}
	}

	_, err = p.CallTool(ctxTimeout(t), s, "whoami", nil, true, nil)
	if e := wantCode(t, err, gtmgate.EReauthRequired); !strings.Contains(e.Message, "acts for no person") {
		t.Errorf("a call for no person: %q", e.Message)
	}

	if _, err := p.ListTools(ctxTimeout(t), s); err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if n := u.inits.Load(); n != 2 {
		t.Errorf("initialize requests = %d after listing, want 2: the listing uses p_bob's session", n)
	}
	g.lister = ""
	p.Forget("t1", "crm")
	_, err = p.ListTools(ctxTimeout(t), s)
	if e := wantCode(t, err, gtmgate.EReauthRequired); !strings.Contains(e.Message, "no person has connected") {
		t.Errorf("listing with no person's grant: %q", e.Message)
	}
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
