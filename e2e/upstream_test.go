package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/e2e/upstreamsrv"
	"github.com/gtmgate/gtmgate/internal/nodetools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Upstream MCP servers for the tests of tenants' own MCP servers (#34):
// @modelcontextprotocol/server-everything from npm (startServerEverything)
// and the go-sdk server of package upstreamsrv, in-process
// (startUpstream) or as its own process (startUpstreamProcess).

// lockedBuffer collects a child process's output for failure messages while
// the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// freeLoopbackPort returns a port that was free on 127.0.0.1 a moment ago.
func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServerEverything starts @modelcontextprotocol/server-everything (the
// version pinned in e2e/node/package.json) over streamable HTTP on a free
// port with the project's Node 22, waits until it answers, and kills it at
// cleanup. It returns the MCP endpoint, http://127.0.0.1:PORT/mcp. Like the
// other Node-based tests it skips (fails when CI=true) when the Node tools
// are not installed.
//
// The server is stateful (Mcp-Session-Id), listens on every interface (it
// takes no host, only PORT), and its get-env tool returns its whole
// environment, so it runs with PORT alone in its environment.
func startServerEverything(t *testing.T) string {
	t.Helper()
	node := nodetools.Node(t)
	entry := nodetools.Bin(t, "@modelcontextprotocol/server-everything", "dist/index.js")
	for attempt := 1; ; attempt++ {
		port := freeLoopbackPort(t)
		out := &lockedBuffer{}
		cmd := exec.Command(node, entry, "streamableHttp")
		cmd.Dir = nodetools.Dir(t)
		cmd.Env = []string{fmt.Sprintf("PORT=%d", port)}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		t.Cleanup(func() { cmd.Process.Kill(); <-exited })
		endpoint := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
		if answers(endpoint, exited, 30*time.Second) {
			return endpoint
		}
		if strings.Contains(out.String(), "already in use") && attempt < 3 {
			continue // someone took the port between freeLoopbackPort and listen
		}
		t.Fatalf("server-everything did not answer at %s:\n%s", endpoint, out.String())
	}
}

// answers polls endpoint with a GET until the server answers (any status)
// or the process exits or within passes.
func answers(endpoint string, exited <-chan struct{}, within time.Duration) bool {
	deadline := time.Now().Add(within)
	client := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		if resp, err := client.Get(endpoint); err == nil {
			resp.Body.Close()
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// startUpstream serves a fresh upstreamsrv.Server in-process (httptest on
// 127.0.0.1), requiring token as bearer on /mcp when it is not empty. It
// returns the server, for its Stats and AddTool, and its MCP endpoint
// (base URL + /mcp; /calls and /admin/* hang off the same base).
func startUpstream(t *testing.T, token string) (*upstreamsrv.Server, string) {
	t.Helper()
	srv := upstreamsrv.New(upstreamsrv.Options{Token: token})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, ts.URL + "/mcp"
}

// upstreamBinary builds e2e/upstreamsrv/cmd/upstreamsrv once per test run.
func upstreamBinary(t *testing.T) string {
	return testBinary(t, "./upstreamsrv/cmd/upstreamsrv")
}

// testBinaries are the test servers built this run, by package.
var testBinaries sync.Map // package → func() (string, error)

// testBinary builds the test server in package pkg (relative to e2e) once
// per test run and returns its path; each runs as its own process.
func testBinary(t *testing.T, pkg string) string {
	t.Helper()
	build, _ := testBinaries.LoadOrStore(pkg, sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "gtmgate-e2e-"+filepath.Base(pkg))
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
		return bin, nil
	}))
	bin, err := build.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// upstreamProcess is the go-sdk upstream running as its own process, which
// a test kills to make the upstream go away and restarts on the same
// address. A restarted process starts from scratch: no sessions, notes,
// counters or runtime tools.
type upstreamProcess struct {
	t      *testing.T
	token  string
	addr   string // host:port, kept across restarts
	cmd    *exec.Cmd
	exited chan struct{}
	out    *lockedBuffer
}

// startUpstreamProcess builds and starts cmd/upstreamsrv on a free loopback
// port, requiring token as bearer on /mcp when it is not empty, and kills it
// at cleanup.
func startUpstreamProcess(t *testing.T, token string) *upstreamProcess {
	t.Helper()
	u := &upstreamProcess{t: t, token: token, addr: "127.0.0.1:0"}
	u.start()
	t.Cleanup(u.kill)
	return u
}

func (u *upstreamProcess) start() {
	t := u.t
	t.Helper()
	u.out = &lockedBuffer{}
	u.cmd = exec.Command(upstreamBinary(t), "-addr", u.addr)
	u.cmd.Env = append(os.Environ(), "UPSTREAMSRV_TOKEN="+u.token)
	stdout, err := u.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	u.cmd.Stderr = u.out
	if err := u.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	u.exited = make(chan struct{})
	addr := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n') // "listening http://ADDR", printed once before serving
		addr <- strings.TrimPrefix(strings.TrimSpace(line), "listening http://")
		io.Copy(u.out, r)
		u.cmd.Wait()
		close(u.exited)
	}()
	select {
	case a := <-addr:
		if _, _, err := net.SplitHostPort(a); err != nil {
			t.Fatalf("upstreamsrv did not start: %q\n%s", a, u.out.String())
		}
		u.addr = a
	case <-time.After(30 * time.Second):
		t.Fatalf("upstreamsrv did not start:\n%s", u.out.String())
	}
}

// base is the process's base URL, for /calls and /admin/*.
func (u *upstreamProcess) base() string { return "http://" + u.addr }

// url is the process's MCP endpoint.
func (u *upstreamProcess) url() string { return u.base() + "/mcp" }

// kill SIGKILLs the process (if running) and waits for it to exit.
func (u *upstreamProcess) kill() {
	if u.cmd == nil {
		return
	}
	u.cmd.Process.Kill()
	<-u.exited
	u.cmd = nil
}

// restart kills the process if it runs and starts a new one on the same
// address.
func (u *upstreamProcess) restart() {
	u.t.Helper()
	u.kill()
	u.start()
}

// upstreamStats reads GET /calls?tool=TOOL from a go-sdk upstream whose
// MCP endpoint is endpoint.
func upstreamStats(t *testing.T, endpoint, tool string) upstreamsrv.Stats {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(endpoint, "/mcp") + "/calls?tool=" + tool)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st upstreamsrv.Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// addUpstreamTool adds tool name at runtime to a go-sdk upstream whose MCP
// endpoint is endpoint (POST /admin/add-tool), which sends
// notifications/tools/list_changed to its sessions.
func addUpstreamTool(t *testing.T, endpoint, name string) {
	t.Helper()
	resp, err := http.Post(strings.TrimSuffix(endpoint, "/mcp")+"/admin/add-tool?name="+name, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("add-tool %s: %s", name, resp.Status)
	}
}

// bearerTransport adds Authorization: Bearer token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectMCP connects the go-sdk client to endpoint over streamable HTTP,
// sending token as bearer when it is not empty, and closes the session at
// cleanup. opts may be nil (the SDK's default client, which declares the
// roots capability).
func connectMCP(t *testing.T, endpoint, token string, opts *mcp.ClientOptions) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: endpoint}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearerTransport{token}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gtmgate-e2e", Version: "1.0.0"}, opts).Connect(ctx, tr, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return cs, nil
}

func toolNames(tools []*mcp.Tool) []string {
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func resultText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestUpstreamHelpers exercises the upstream helpers with the go-sdk client:
// server-everything's tools, echo and progress; the go-sdk upstream's
// bearer check, tools, counters, progress, cancellation and list_changed,
// in-process and as a process that is killed and restarted.
func TestUpstreamHelpers(t *testing.T) {
	ctx := context.Background()

	t.Run("server-everything", func(t *testing.T) {
		endpoint := startServerEverything(t)
		var progress atomic.Int32
		cs, err := connectMCP(t, endpoint, "", &mcp.ClientOptions{
			Capabilities:                &mcp.ClientCapabilities{}, // no roots, sampling or elicitation
			ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile("testdata/server-everything-tools.json")
		if err != nil {
			t.Fatal(err)
		}
		var recorded mcp.ListToolsResult
		if err := json.Unmarshal(raw, &recorded); err != nil {
			t.Fatal(err)
		}
		if got, want := toolNames(res.Tools), toolNames(recorded.Tools); !slices.Equal(got, want) {
			t.Fatalf("tools %v, testdata/server-everything-tools.json has %v", got, want)
		}
		echo, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}})
		if err != nil || echo.IsError || resultText(echo) != "Echo: hello" {
			t.Fatalf("echo: %v %+v", err, echo)
		}
		params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.4, "steps": 2}}
		params.SetProgressToken("p1")
		long, err := cs.CallTool(ctx, params)
		if err != nil || long.IsError {
			t.Fatalf("trigger-long-running-operation: %v %+v", err, long)
		}
		// The client handles notifications apart from results: the last
		// progress notification may follow the result.
		eventually(t, "2 progress notifications", 5*time.Second, func() bool { return progress.Load() == 2 })
	})

	t.Run("go-sdk in-process", func(t *testing.T) {
		const token = "upstream-token-0123"
		_, endpoint := startUpstream(t, token)
		if _, err := connectMCP(t, endpoint, "", nil); err == nil {
			t.Fatal("connected without the bearer token")
		}
		if _, err := connectMCP(t, endpoint, "wrong", nil); err == nil {
			t.Fatal("connected with a wrong bearer token")
		}
		listChanged := make(chan struct{}, 10)
		var progress atomic.Int32
		cs, err := connectMCP(t, endpoint, token, &mcp.ClientOptions{
			ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { listChanged <- struct{}{} },
			ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := toolNames(res.Tools); !slices.Equal(got, []string{"create_note", "delete_note", "fail", "lookup", "wait"}) {
			t.Fatalf("tools %v", got)
		}

		lookup, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup", Arguments: map[string]any{"id": "c1"}})
		if err != nil || lookup.IsError {
			t.Fatalf("lookup: %v %+v", err, lookup)
		}
		if rec, _ := lookup.StructuredContent.(map[string]any); rec["name"] != "Ada Lovelace" {
			t.Fatalf("lookup structured content %v", lookup.StructuredContent)
		}

		note, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_note", Arguments: map[string]any{"text": "call back"}})
		if err != nil || note.IsError {
			t.Fatalf("create_note: %v %+v", err, note)
		}
		if st := upstreamStats(t, endpoint, "create_note"); st.Calls != 1 || st.Running != 0 {
			t.Fatalf("create_note stats %+v", st)
		}

		fail, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail", Arguments: map[string]any{"reason": "on purpose"}})
		if err != nil || !fail.IsError || !strings.Contains(resultText(fail), "on purpose") {
			t.Fatalf("fail: %v %+v", err, fail)
		}

		params := &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{"seconds": 0.3, "steps": 3}}
		params.SetProgressToken("w1")
		if r, err := cs.CallTool(ctx, params); err != nil || r.IsError {
			t.Fatalf("wait: %v %+v", err, r)
		}
		eventually(t, "3 progress notifications", 5*time.Second, func() bool { return progress.Load() == 3 })

		callCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{"seconds": 60}})
			done <- err
		}()
		eventually(t, "wait to run", 10*time.Second, func() bool { return upstreamStats(t, endpoint, "wait").Running == 1 })
		cancel()
		if err := <-done; err == nil {
			t.Fatal("cancelled wait returned no error")
		}
		eventually(t, "wait to see its cancellation", 10*time.Second, func() bool { return upstreamStats(t, endpoint, "wait").Cancelled == 1 })
		if st := upstreamStats(t, endpoint, "wait"); st.Calls != 2 || st.Completed != 1 || st.Progress != 3 || st.Running != 0 {
			t.Fatalf("wait stats %+v", st)
		}

		addUpstreamTool(t, endpoint, "added_later")
		select {
		case <-listChanged:
		case <-time.After(10 * time.Second):
			t.Fatal("no notifications/tools/list_changed after add-tool")
		}
		added, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "added_later"})
		if err != nil || resultText(added) != "added_later ran" {
			t.Fatalf("added_later: %v %+v", err, added)
		}
	})

	t.Run("go-sdk process", func(t *testing.T) {
		u := startUpstreamProcess(t, "")
		cs, err := connectMCP(t, u.url(), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_note", Arguments: map[string]any{"text": "x"}}); err != nil {
			t.Fatal(err)
		}
		if st := upstreamStats(t, u.url(), "create_note"); st.Calls != 1 {
			t.Fatalf("create_note stats %+v", st)
		}
		u.kill()
		callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if _, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "lookup", Arguments: map[string]any{"id": "c1"}}); err == nil {
			t.Fatal("lookup succeeded with the upstream killed")
		}
		addr := u.addr
		u.restart()
		if u.addr != addr {
			t.Fatalf("restarted on %s, not %s", u.addr, addr)
		}
		cs2, err := connectMCP(t, u.url(), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := cs2.CallTool(ctx, &mcp.CallToolParams{Name: "lookup", Arguments: map[string]any{"id": "c2"}}); err != nil || r.IsError {
			t.Fatalf("lookup after restart: %v %+v", err, r)
		}
		if st := upstreamStats(t, u.url(), "create_note"); st.Calls != 0 {
			t.Fatalf("restarted process kept its counters: %+v", st)
		}
	})
}
