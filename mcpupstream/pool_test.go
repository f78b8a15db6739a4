package mcpupstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	gtmgate "github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
)

// waitFor bounds how long a test waits for something that should happen
// promptly; it is a safety net, never a synchronisation.
const waitFor = 10 * time.Second

// upstream is an in-process MCP server behind an httptest server. Its
// handler sits behind an atomic pointer so a test can swap it, making the
// upstream forget its sessions as a restart would.
type upstream struct {
	t       testing.TB
	srv     *mcp.Server
	handler atomic.Pointer[http.Handler]
	ts      *httptest.Server

	inits     atomic.Int32 // initialize requests
	lists     atomic.Int32 // tools/list requests
	gets      chan struct{}
	authorize func(*http.Request) bool
	// intercept, when set, handles a POST instead of the MCP handler
	// (body already read; it returns false to let the handler run).
	intercept func(w http.ResponseWriter, r *http.Request, body []byte, next http.Handler) bool

	mu      sync.Mutex
	headers []http.Header
}

func newUpstream(t testing.TB, opts *mcp.ServerOptions) *upstream {
	t.Helper()
	u := &upstream{t: t, srv: mcp.NewServer(&mcp.Implementation{Name: "test-upstream", Version: "1"}, opts), gets: make(chan struct{}, 16)}
	u.forgetSessions()
	u.ts = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.ts.Close)
	return u
}

// forgetSessions installs a fresh handler: the sessions of the old one are
// unknown to it.
func (u *upstream) forgetSessions() {
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return u.srv }, nil)
	u.handler.Store(&h)
}

func (u *upstream) serve(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	u.headers = append(u.headers, r.Header.Clone())
	u.mu.Unlock()
	if u.authorize != nil && !u.authorize(r) {
		http.Error(w, "invalid token", http.StatusUnauthorized)
		return
	}
	next := *u.handler.Load()
	if r.Method == http.MethodGet {
		select {
		case u.gets <- struct{}{}:
		default:
		}
	}
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		switch msg.Method {
		case "initialize":
			u.inits.Add(1)
		case "tools/list":
			u.lists.Add(1)
		}
		if u.intercept != nil && u.intercept(w, r, body, next) {
			return
		}
	}
	next.ServeHTTP(w, r)
}

func (u *upstream) lastHeader(name string) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	for i := len(u.headers) - 1; i >= 0; i-- {
		if v := u.headers[i].Get(name); v != "" {
			return v
		}
	}
	return ""
}

func (u *upstream) server(name string) *gtmgate.MCPServer {
	return &gtmgate.MCPServer{TenantID: "t1", Name: name, URL: u.ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone},
		UpdatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
}

func addTool(srv *mcp.Server, name string, h mcp.ToolHandler) {
	srv.AddTool(&mcp.Tool{Name: name, Description: name, InputSchema: map[string]any{"type": "object"}}, h)
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return text(string(req.Params.Arguments)), nil
}

func newPool(t testing.TB, opts Options) *Pool {
	t.Helper()
	opts.Policy.AllowLoopback = true
	p := NewPool(opts)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func ctxTimeout(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	t.Cleanup(cancel)
	return ctx
}

func wantCode(t *testing.T, err error, code string) *gtmgate.Error {
	t.Helper()
	var ge *gtmgate.Error
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v (%T), want a *gtmgate.Error %s", err, err, code)
	}
	if ge.Code != code {
		t.Fatalf("code = %s (%v), want %s", ge.Code, err, code)
	}
	return ge
}

func resultText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res == nil || len(res.Content) != 1 {
		t.Fatalf("result = %+v, want one content", res)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content = %T, want text", res.Content[0])
	}
	return tc.Text
}

func TestListToolsPaginates(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, &mcp.ServerOptions{PageSize: 2})
	for i := range 5 {
		addTool(u.srv, fmt.Sprintf("tool_%d", i), echo)
	}
	p := newPool(t, Options{})
	tools, err := p.ListTools(ctxTimeout(t), u.server("crm"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if got, want := strings.Join(names, ","), "tool_0,tool_1,tool_2,tool_3,tool_4"; got != want {
		t.Errorf("tools = %s, want %s", got, want)
	}
	if n := u.lists.Load(); n != 3 {
		t.Errorf("tools/list requests = %d, want 3 pages", n)
	}
}

func TestSessionReusedAcrossCalls(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	addTool(u.srv, "echo", echo)
	p := newPool(t, Options{})
	s := u.server("crm")
	ctx := ctxTimeout(t)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := p.CallTool(ctx, s, "echo", json.RawMessage(`{"a":1}`), false, nil); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	for range 3 {
		if _, err := p.ListTools(ctx, s); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Ping(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := u.inits.Load(); n != 1 {
		t.Errorf("initialize requests = %d, want 1", n)
	}
}

func TestNewSessionWhen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(p *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer
		inits  int32
	}{
		{"unchanged", func(_ *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer { return s }, 1},
		{"updated", func(_ *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer {
			c := *s
			c.UpdatedAt = c.UpdatedAt.Add(time.Second)
			return &c
		}, 2},
		{"auth changed", func(_ *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer {
			c := *s
			c.Auth = gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthHeader, Header: "X-Api-Key", Secret: "k"}
			return &c
		}, 2},
		{"forgotten", func(p *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer { p.Forget(s.TenantID, s.Name); return s }, 2},
		{"other tenant", func(_ *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer {
			c := *s
			c.TenantID = "t2"
			return &c
		}, 2},
		{"idle", func(p *Pool, s *gtmgate.MCPServer) *gtmgate.MCPServer {
			p.closeIdle(time.Now().Add(p.opts.IdleTimeout))
			return s
		}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u := newUpstream(t, nil)
			addTool(u.srv, "echo", echo)
			p := newPool(t, Options{})
			s := u.server("crm")
			ctx := ctxTimeout(t)
			if _, err := p.ListTools(ctx, s); err != nil {
				t.Fatal(err)
			}
			if _, err := p.ListTools(ctx, tc.change(p, s)); err != nil {
				t.Fatal(err)
			}
			if n := u.inits.Load(); n != tc.inits {
				t.Errorf("initialize requests = %d, want %d", n, tc.inits)
			}
		})
	}
}

func TestToolsChangedNotifies(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	addTool(u.srv, "echo", echo)
	type change struct{ tenant, server string }
	changed := make(chan change, 8)
	p := newPool(t, Options{OnToolsChanged: func(tenant, server string) { changed <- change{tenant, server} }})
	s := u.server("crm")
	if _, err := p.ListTools(ctxTimeout(t), s); err != nil {
		t.Fatal(err)
	}
	select { // the standalone stream is open
	case <-u.gets:
	case <-time.After(waitFor):
		t.Fatal("the client opened no standalone stream")
	}
	addTool(u.srv, "added", echo)
	select {
	case c := <-changed:
		if c != (change{"t1", "crm"}) {
			t.Errorf("OnToolsChanged(%q, %q), want (t1, crm)", c.tenant, c.server)
		}
	case <-time.After(waitFor):
		t.Fatal("OnToolsChanged was not called")
	}
	tools, err := p.ListTools(ctxTimeout(t), s)
	if err != nil || len(tools) != 2 {
		t.Fatalf("after the change: %d tools, %v; want 2", len(tools), err)
	}
}

func TestProgressRoutedToItsCall(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	addTool(u.srv, "work", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct{ Who string }
		_ = json.Unmarshal(req.Params.Arguments, &args)
		tok := req.Params.GetProgressToken()
		for i := range 3 {
			if tok == nil {
				break
			}
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i + 1), Total: 3, Message: args.Who}); err != nil {
				return nil, err
			}
		}
		return text(args.Who), nil
	})
	p := newPool(t, Options{})
	s := u.server("crm")
	ctx := ctxTimeout(t)
	var wg sync.WaitGroup
	for _, who := range []string{"alice", "bob", "carol"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mu sync.Mutex
			var got []string
			res, err := p.CallTool(ctx, s, "work", json.RawMessage(`{"who":"`+who+`"}`), false, func(n *mcp.ProgressNotificationParams) {
				mu.Lock()
				got = append(got, fmt.Sprintf("%s %g/%g", n.Message, n.Progress, n.Total))
				mu.Unlock()
			})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			want := fmt.Sprintf("%[1]s 1/3,%[1]s 2/3,%[1]s 3/3", who)
			if strings.Join(got, ",") != want || resultText(t, res) != who {
				t.Errorf("%s got progress %v, want %s", who, got, want)
			}
		}()
	}
	wg.Wait()
	// Without a callback no token is sent.
	if _, err := p.CallTool(ctx, s, "work", json.RawMessage(`{"who":"dave"}`), false, nil); err != nil {
		t.Fatal(err)
	}
	p.progressMu.Lock()
	defer p.progressMu.Unlock()
	if len(p.progress) != 0 {
		t.Errorf("%d progress routes left after the calls returned", len(p.progress))
	}
}

func TestCancellationReachesTheUpstreamTool(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	started, cancelled := make(chan struct{}), make(chan struct{})
	addTool(u.srv, "slow", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	p := newPool(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := p.CallTool(ctx, u.server("crm"), "slow", nil, false, nil)
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(waitFor):
		t.Fatal("the tool never started")
	}
	cancel()
	var err error
	select {
	case err = <-errc:
	case <-time.After(waitFor):
		t.Fatal("CallTool did not return after its context was cancelled")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want one that is context.Canceled", err)
	}
	select {
	case <-cancelled:
	case <-time.After(waitFor):
		t.Fatal("the upstream tool's context was not cancelled")
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	addTool(u.srv, "fails", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such deal"}}}, nil
	})
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	addTool(u.srv, "hangs", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-ctx.Done():
		case <-hang:
		}
		return text("late"), nil
	})
	p := newPool(t, Options{})
	s := u.server("crm")

	t.Run("isError is a result", func(t *testing.T) {
		res, err := p.CallTool(ctxTimeout(t), s, "fails", json.RawMessage(`{}`), false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || resultText(t, res) != "no such deal" {
			t.Errorf("result = %+v, want isError with the upstream's text", res)
		}
	})
	t.Run("unknown tool is an upstream error", func(t *testing.T) {
		_, err := p.CallTool(ctxTimeout(t), s, "nope", nil, false, nil)
		ge := wantCode(t, err, gtmgate.EUpstream)
		if !strings.HasPrefix(ge.Message, `upstream MCP server "crm": `) || !strings.Contains(ge.Message, "nope") {
			t.Errorf("message = %q, want the server named and the upstream's words", ge.Message)
		}
	})
	t.Run("deadline is a timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := p.CallTool(ctx, s, "hangs", nil, false, nil)
		ge := wantCode(t, err, gtmgate.EUpstreamTimeout)
		if !strings.Contains(ge.Message, `"crm" did not answer within`) {
			t.Errorf("message = %q", ge.Message)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
		}
	})
	t.Run("arguments must be an object", func(t *testing.T) {
		_, err := p.CallTool(ctxTimeout(t), s, "fails", json.RawMessage(`[1]`), false, nil)
		wantCode(t, err, gtmgate.EValidation)
	})
	t.Run("session still works", func(t *testing.T) {
		if _, err := p.Ping(ctxTimeout(t), s); err != nil {
			t.Fatal(err)
		}
		if n := u.inits.Load(); n != 1 {
			t.Errorf("initialize requests = %d, want 1", n)
		}
	})
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/mcp?key=query-secret"
	l.Close()
	u := newUpstream(t, nil)

	tests := []struct {
		name     string
		policy   egress.Policy
		url      string
		wantMsg  string
		wantHint string
	}{
		{"closed port", egress.Policy{AllowLoopback: true}, closed, `upstream MCP server "crm" is unreachable`, ""},
		{"loopback refused", egress.Policy{}, u.ts.URL + "?key=query-secret", `upstream MCP server "crm": its address is not allowed`, AllowHint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := NewPool(Options{Policy: tc.policy})
			defer p.Close()
			s := u.server("crm")
			s.URL = tc.url
			for _, call := range []func() error{
				func() error { _, err := p.ListTools(ctxTimeout(t), s); return err },
				func() error { _, err := p.CallTool(ctxTimeout(t), s, "x", nil, false, nil); return err },
				func() error { _, err := p.Ping(ctxTimeout(t), s); return err },
			} {
				err := call()
				ge := wantCode(t, err, gtmgate.EUnavailable)
				if !strings.HasPrefix(ge.Message, tc.wantMsg) || ge.Hint != tc.wantHint {
					t.Errorf("error = %q (hint %q), want %q… (hint %q)", ge.Message, ge.Hint, tc.wantMsg, tc.wantHint)
				}
				if strings.Contains(err.Error(), "query-secret") {
					t.Errorf("error %q shows the URL's query", err)
				}
			}
		})
	}
	t.Run("allowed range lets loopback through", func(t *testing.T) {
		t.Parallel()
		p := NewPool(Options{Policy: egress.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
		defer p.Close()
		if _, err := p.Ping(ctxTimeout(t), u.server("crm")); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAuth(t *testing.T) {
	t.Parallel()
	var tokenRequests atomic.Int32
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tokenRequests.Add(1)
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		w.Header().Set("Content-Type", "application/json")
		if r.PostForm.Get("grant_type") != "client_credentials" || id != "gtmgate" || secret != "cc-secret" || r.PostForm.Get("scope") != "tools.read tools.call" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"invalid_client"}`)
			return
		}
		fmt.Fprint(w, `{"access_token":"issued-token","token_type":"Bearer","expires_in":3600}`)
	}))
	t.Cleanup(tokens.Close)

	tests := []struct {
		name       string
		auth       gtmgate.MCPServerAuth
		header     string // the upstream requires this header…
		value      string // …with this value
		wantCode   string // of a ListTools, "" for success
		wantTokens int32
	}{
		{"none", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}, "", "", "", 0},
		{"bearer", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthBearer, Secret: "bearer-secret"}, "Authorization", "Bearer bearer-secret", "", 0},
		{"header", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthHeader, Header: "X-Api-Key", Secret: "header-secret"}, "X-Api-Key", "header-secret", "", 0},
		{"client credentials", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthClientCredentials, ClientID: "gtmgate", Secret: "cc-secret", TokenURL: tokens.URL, Scopes: []string{"tools.read", "tools.call"}},
			"Authorization", "Bearer issued-token", "", 1},
		{"header without a name", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthHeader, Secret: "wrong-secret"}, "", "", gtmgate.EValidation, 0},
		{"unknown kind", gtmgate.MCPServerAuth{Kind: "magic", Secret: "wrong-secret"}, "", "", gtmgate.EValidation, 0},
		{"wrong bearer", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthBearer, Secret: "wrong-secret"}, "Authorization", "Bearer bearer-secret", gtmgate.EUpstream, 0},
		{"wrong header", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthHeader, Header: "X-Api-Key", Secret: "wrong-secret"}, "X-Api-Key", "header-secret", gtmgate.EUpstream, 0},
		{"wrong client secret", gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthClientCredentials, ClientID: "gtmgate", Secret: "wrong-secret", TokenURL: tokens.URL, Scopes: []string{"tools.read", "tools.call"}},
			"Authorization", "Bearer issued-token", gtmgate.EUpstream, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := newUpstream(t, nil)
			addTool(u.srv, "echo", echo)
			if tc.header != "" {
				u.authorize = func(r *http.Request) bool { return r.Header.Get(tc.header) == tc.value }
			}
			p := newPool(t, Options{})
			s := u.server("crm")
			s.Auth = tc.auth
			before := tokenRequests.Load()
			ctx := ctxTimeout(t)
			_, err := p.ListTools(ctx, s)
			if tc.wantCode == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := p.CallTool(ctx, s, "echo", nil, false, nil); err != nil {
					t.Fatal(err)
				}
				if tc.header != "" && u.lastHeader(tc.header) != tc.value {
					t.Errorf("%s = %q, want %q", tc.header, u.lastHeader(tc.header), tc.value)
				}
			} else {
				ge := wantCode(t, err, tc.wantCode)
				if !strings.Contains(ge.Message, `upstream MCP server "crm"`) || (tc.wantCode == gtmgate.EUpstream && !strings.Contains(ge.Message, "rejected gtmgate's")) || ge.Hint == "" {
					t.Errorf("error = %q (hint %q), want the server named, the credential rejected and a hint", ge.Message, ge.Hint)
				}
				if strings.Contains(err.Error(), "wrong-secret") || strings.Contains(fmt.Sprintf("%+v", ge.Err), "wrong-secret") {
					t.Errorf("error %q shows the secret", err)
				}
			}
			if n := tokenRequests.Load() - before; tc.wantTokens >= 0 && n != tc.wantTokens {
				t.Errorf("token requests = %d, want %d (the token is cached)", n, tc.wantTokens)
			}
		})
	}
}

func TestUpstreamRestartReestablishes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		call func(ctx context.Context, p *Pool, s *gtmgate.MCPServer) error
	}{
		{"list", func(ctx context.Context, p *Pool, s *gtmgate.MCPServer) error {
			_, err := p.ListTools(ctx, s)
			return err
		}},
		{"ping", func(ctx context.Context, p *Pool, s *gtmgate.MCPServer) error { _, err := p.Ping(ctx, s); return err }},
		// A 404 for the session proves the call never reached the tool.
		{"call", func(ctx context.Context, p *Pool, s *gtmgate.MCPServer) error {
			_, err := p.CallTool(ctx, s, "echo", nil, false, nil)
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			u := newUpstream(t, nil)
			addTool(u.srv, "echo", echo)
			p := newPool(t, Options{})
			s := u.server("crm")
			ctx := ctxTimeout(t)
			if _, err := p.ListTools(ctx, s); err != nil {
				t.Fatal(err)
			}
			u.forgetSessions()
			if err := tc.call(ctx, p, s); err != nil {
				t.Fatalf("after the restart: %v", err)
			}
			if n := u.inits.Load(); n != 2 {
				t.Errorf("initialize requests = %d, want 2", n)
			}
		})
	}
}

// A call the upstream may have received is never sent again, even when the
// connection broke before its answer.
func TestCallNotRepeatedAfterItMayHaveRun(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	var runs atomic.Int32
	addTool(u.srv, "charge", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		runs.Add(1)
		return text("charged"), nil
	})
	u.intercept = func(w http.ResponseWriter, r *http.Request, body []byte, next http.Handler) bool {
		if !bytes.Contains(body, []byte(`"tools/call"`)) {
			return false
		}
		next.ServeHTTP(httptest.NewRecorder(), r) // the tool runs…
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close() // …and the answer is lost
		}
		return true
	}
	p := newPool(t, Options{})
	_, err := p.CallTool(ctxTimeout(t), u.server("crm"), "charge", nil, false, nil)
	if err == nil {
		t.Fatal("CallTool succeeded; want the broken connection reported")
	}
	var ge *gtmgate.Error
	t.Logf("err = %v", err)
	if !errors.As(err, &ge) || !strings.Contains(ge.Message, `"crm"`) {
		t.Errorf("err = %v, want a *gtmgate.Error naming the server", err)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want 1", n)
	}
}

// TestReadRepeatedAfterLostAnswer: a read whose answer was lost with its
// connection is sent once more on a fresh session, as provider reads are
// retried; the mutation above is not.
func TestReadRepeatedAfterLostAnswer(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	var runs atomic.Int32
	addTool(u.srv, "lookup", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		runs.Add(1)
		return text("found"), nil
	})
	var broken atomic.Bool
	u.intercept = func(w http.ResponseWriter, r *http.Request, body []byte, next http.Handler) bool {
		if !bytes.Contains(body, []byte(`"tools/call"`)) || broken.Swap(true) {
			return false
		}
		next.ServeHTTP(httptest.NewRecorder(), r) // the read runs…
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close() // …and the answer is lost, once
		}
		return true
	}
	p := newPool(t, Options{})
	res, err := p.CallTool(ctxTimeout(t), u.server("crm"), "lookup", nil, true, nil)
	if err != nil || res.IsError {
		t.Fatalf("CallTool of a read = %v, %v; want its answer from the second try", res, err)
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("the read ran %d times, want 2", n)
	}
}

func TestResponseBounded(t *testing.T) {
	t.Parallel()
	for _, jsonResponse := range []bool{false, true} {
		t.Run(fmt.Sprintf("json %v", jsonResponse), func(t *testing.T) {
			t.Parallel()
			srv := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
			addTool(srv, "big", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(strings.Repeat("x", 10000)), nil
			})
			addTool(srv, "small", echo)
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse}))
			t.Cleanup(ts.Close)
			p := newPool(t, Options{MaxResponseBytes: 4096})
			s := &gtmgate.MCPServer{TenantID: "t1", Name: "crm", URL: ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
			ctx := ctxTimeout(t)
			if _, err := p.CallTool(ctx, s, "small", nil, false, nil); err != nil {
				t.Fatal(err)
			}
			_, err := p.CallTool(ctx, s, "big", nil, false, nil)
			ge := wantCode(t, err, gtmgate.EUpstream)
			if !strings.Contains(ge.Message, "too large") {
				t.Errorf("message = %q, want the response too large", ge.Message)
			}
			if _, err := p.CallTool(ctx, s, "small", nil, false, nil); err != nil {
				t.Fatalf("the next call: %v", err)
			}
		})
	}
}

func TestWrongPathIsUnreachable(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(ts.Close)
	p := newPool(t, Options{})
	s := &gtmgate.MCPServer{TenantID: "t1", Name: "crm", URL: ts.URL + "/not-mcp", Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
	_, err := p.ListTools(ctxTimeout(t), s)
	ge := wantCode(t, err, gtmgate.EUnavailable)
	if ge.Message != `upstream MCP server "crm" is unreachable (its URL answered HTTP 404)` {
		t.Errorf("message = %q", ge.Message)
	}
}

// Forget while a call is in flight: the call finishes on the old session.
func TestForgetLetsTheCallInFlightFinish(t *testing.T) {
	t.Parallel()
	u := newUpstream(t, nil)
	started, release := make(chan struct{}), make(chan struct{})
	addTool(u.srv, "slow", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-release
		return text("done"), nil
	})
	p := newPool(t, Options{})
	s := u.server("crm")
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := p.CallTool(ctxTimeout(t), s, "slow", nil, false, nil)
		done <- result{res, err}
	}()
	select {
	case <-started:
	case <-time.After(waitFor):
		t.Fatal("the tool never started")
	}
	p.Forget("t1", "crm")
	close(release)
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := resultText(t, r.res); got != "done" {
		t.Errorf("result = %q", got)
	}
}

func TestStatelessUpstream(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "stateless", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
	addTool(srv, "a", echo)
	addTool(srv, "b", echo)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	p := newPool(t, Options{})
	s := &gtmgate.MCPServer{TenantID: "t1", Name: "crm", URL: ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
	ctx := ctxTimeout(t)
	tools, err := p.ListTools(ctx, s)
	if err != nil || len(tools) != 2 {
		t.Fatalf("ListTools = %d tools, %v; want 2", len(tools), err)
	}
	res, err := p.CallTool(ctx, s, "a", json.RawMessage(`{"x":1}`), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, res); got != `{"x":1}` {
		t.Errorf("echo = %s", got)
	}
}

func BenchmarkCallTool(b *testing.B) {
	u := newUpstream(b, nil)
	addTool(u.srv, "echo", echo)
	p := newPool(b, Options{})
	s := u.server("crm")
	ctx := context.Background()
	args := json.RawMessage(`{"message":"hello"}`)
	if _, err := p.CallTool(ctx, s, "echo", args, false, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.CallTool(ctx, s, "echo", args, false, nil); err != nil {
			b.Fatal(err)
		}
	}
}
