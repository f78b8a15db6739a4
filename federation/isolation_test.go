package federation_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hostileUpstream counts listings per server, can hold them (until
// released or their context ends) and answers every call with isError
// text, or a protocol error, set by the test.
type hostileUpstream struct {
	mu      sync.Mutex
	lists   map[string]int
	hang    map[string]bool // server → its listings wait for their context
	gate    chan struct{}   // when set, every listing waits for it
	started chan string     // when set, told of each listing
	done    map[string]time.Time
	tools   []*mcp.Tool
	errText string
	callErr error
	token   string
}

func newHostile() *hostileUpstream {
	return &hostileUpstream{lists: map[string]int{}, hang: map[string]bool{}, done: map[string]time.Time{},
		tools: []*mcp.Tool{{Name: "echo", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}}}
}

func (h *hostileUpstream) ListTools(ctx context.Context, s *gtmgate.MCPServer) ([]*mcp.Tool, error) {
	key := s.TenantID + "/" + s.Name
	h.mu.Lock()
	h.lists[key]++
	hang, gate, started, tools := h.hang[key], h.gate, h.started, h.tools
	h.mu.Unlock()
	if started != nil {
		started <- key
	}
	if hang {
		<-ctx.Done()
		return nil, gtmgate.Errorf(gtmgate.EUpstreamTimeout, "upstream MCP server %q did not answer", s.Name)
	}
	if gate != nil {
		<-gate
	}
	h.mu.Lock()
	h.done[key] = time.Now()
	h.mu.Unlock()
	return tools, nil
}

func (h *hostileUpstream) CallTool(context.Context, *gtmgate.MCPServer, string, json.RawMessage, bool, func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.callErr != nil {
		return nil, h.callErr
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: h.errText}}}, nil
}

func (h *hostileUpstream) Forget(string, string) {}

func (h *hostileUpstream) AccessTokens(string, string) []string { return []string{h.token} }

func (h *hostileUpstream) count(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lists[key]
}

// A flood of list_changed costs at most two listings, and a notification
// during a refresh still leads to one more.
func TestToolsChangedCoalesces(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	h := newHostile()
	c := federation.New(federation.Options{Store: st, Upstream: h, CacheFor: time.Hour, ListChangedGap: 50 * time.Millisecond})
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp"})

	gate, started := make(chan struct{}), make(chan string, 16)
	h.mu.Lock()
	h.gate, h.started = gate, started
	h.mu.Unlock()
	c.ToolsChanged("acme", "up")
	<-started // the first refresh is listing, held by gate
	for range 10000 {
		c.ToolsChanged("acme", "up")
	}
	close(gate)
	waitFor(t, func() bool { return h.count("acme/up") == 2 })
	time.Sleep(200 * time.Millisecond) // nothing more comes
	if n := h.count("acme/up"); n != 2 {
		t.Fatalf("10,001 notifications made %d listings, want 2", n)
	}

	// A notification arriving while a refresh is in flight (after it
	// listed, so the listing may miss the change) is not lost: one more
	// listing follows, and only one.
	for len(started) > 0 {
		<-started
	}
	gate2 := make(chan struct{})
	h.mu.Lock()
	h.gate = gate2
	h.mu.Unlock()
	c.ToolsChanged("acme", "up")
	<-started
	c.ToolsChanged("acme", "up")
	close(gate2)
	waitFor(t, func() bool { return h.count("acme/up") == 4 })
	time.Sleep(200 * time.Millisecond)
	if n := h.count("acme/up"); n != 4 {
		t.Fatalf("a notification during a refresh made %d listings in all, want 4", n)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// One tenant's ten hanging servers hold one refresh slot: another tenant's
// server is refreshed while they all still hang (they never time out on
// their own here, so no clock decides the outcome).
func TestRefreshDueHangingTenantHoldsNoOther(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	if _, err := st.PutTenant(ctx, &gtmgate.Tenant{ID: "globex", Name: "Globex", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	h := newHostile()
	c := federation.New(federation.Options{Store: st, Upstream: h, CacheFor: time.Hour, ListTimeout: time.Hour})
	for i := range 10 {
		name := fmt.Sprintf("hang%d", i)
		st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: name, URL: "https://hang.example/mcp"})
		h.hang["acme/"+name] = true
	}
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "globex", Name: "fine", URL: "https://fine.example/mcp"})
	round, stop := context.WithCancel(ctx)
	type outcome struct {
		n, failed int
	}
	ended := make(chan outcome, 1)
	go func() {
		n, failed, _ := c.RefreshDue(round, time.Hour)
		ended <- outcome{n, failed}
	}()
	listed := func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return !h.done["globex/fine"].IsZero()
	}
	// The deadline only bounds a failure: with a slot held per hanging
	// server, globex would wait for a hour-long time-out.
	for deadline := time.Now().Add(30 * time.Second); !listed(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			stop()
			t.Fatal("globex's server was not refreshed while acme's servers hung")
		}
	}
	stop() // the hanging listings end with the round; the rest are not begun
	if got := <-ended; got.n-got.failed != 1 {
		t.Fatalf("%d refreshed, %d failed; want globex's alone to succeed", got.n, got.failed)
	}
	if h.count("globex/fine") != 1 {
		t.Fatal("globex's server was not listed once")
	}
}

// A listing over a bound is refused whole: the last good list stays served
// and the server's state says why.
func TestRefreshRefusesAnOversizedListing(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	h := newHostile()
	c := federation.New(federation.Options{Store: st, Upstream: h, CacheFor: time.Hour})
	// Auto-accept: the tool is served without a person accepting it
	// (pinning is another test's matter).
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", AutoAcceptChanges: true})
	if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
		t.Fatal(err)
	}
	many := make([]*mcp.Tool, 20000)
	for i := range many {
		many[i] = &mcp.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: map[string]any{"type": "object"}}
	}
	h.mu.Lock()
	h.tools = many
	h.mu.Unlock()
	v, err := c.Refresh(ctx, "acme", "up")
	if err == nil || !strings.Contains(v.State.Error, "declares 20000 tools; at most 500") {
		t.Fatalf("refresh gave %v, state error %q", err, v.State.Error)
	}
	tools, _, err := c.Tools(ctx, "acme")
	if err != nil || len(tools) != 1 || tools[0].Name != "up__echo" {
		t.Fatalf("served %d tools after a refused listing (%v), want the last good one", len(tools), err)
	}
}

// The server's secret, in any form it may be echoed, never reaches the
// caller from an isError text or a protocol error.
func TestRunScrubsTheServersSecret(t *testing.T) {
	const secret = "sk/live+Zx9=q 42"
	const token = "at-0123456789abcdef"
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret),
		base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawURLEncoding.EncodeToString([]byte(secret)),
		base64.StdEncoding.EncodeToString([]byte("client-1:" + secret)), token}
	for _, kind := range []string{gtmgate.MCPAuthBearer, gtmgate.MCPAuthHeader, gtmgate.MCPAuthClientCredentials} {
		t.Run(kind, func(t *testing.T) {
			ctx := t.Context()
			st := storetest.TenantWithToken(t)
			h := newHostile()
			h.token = token
			c := federation.New(federation.Options{Store: st, Upstream: h, CacheFor: time.Hour})
			auth := gtmgate.MCPServerAuth{Kind: kind, Secret: secret}
			switch kind {
			case gtmgate.MCPAuthHeader:
				auth.Header = "X-Api-Key"
			case gtmgate.MCPAuthClientCredentials:
				auth.TokenURL, auth.ClientID = "https://id.example/token", "client-1"
			}
			if _, err := st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", Auth: auth, AutoAcceptChanges: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
				t.Fatal(err)
			}
			e, err := c.Tool(ctx, "acme", "up__echo")
			if err != nil {
				t.Fatal(err)
			}
			echo := "denied; you sent: " + strings.Join(forms, " | ")
			for _, tc := range []struct {
				name    string
				errText string
				callErr error
			}{
				{"isError text", echo, nil},
				{"protocol error", "", &gtmgate.Error{Code: gtmgate.EUpstream, Message: echo, Hint: "retry with " + secret,
					Detail: &gtmgate.UpstreamDetail{Provider: "mcp:up", Body: echo}}},
			} {
				h.mu.Lock()
				h.errText, h.callErr = tc.errText, tc.callErr
				h.mu.Unlock()
				_, err := e.Run(ctx, &gtmgate.Call{TenantID: "acme", Input: json.RawMessage(`{}`)})
				ge := gtmgate.AsError(err)
				shown := ge.Message + " " + ge.Hint
				if d, ok := ge.Detail.(*gtmgate.UpstreamDetail); ok {
					shown += " " + d.Body
				}
				for _, f := range forms {
					if strings.Contains(shown, f) {
						t.Errorf("%s: %q shows %q", tc.name, shown, f)
					}
				}
				if !strings.Contains(shown, "[secret]") || ge.Code != gtmgate.EUpstream {
					t.Errorf("%s: %s %q", tc.name, ge.Code, shown)
				}
			}
		})
	}
}
