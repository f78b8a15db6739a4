package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// startOAuthMCPServer builds and runs e2e/oauthmcpsrv in its own process
// and returns its base URL.
func startOAuthMCPServer(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(testBinary(t, "./oauthmcpsrv/cmd/oauthmcpsrv"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	addr := strings.TrimPrefix(strings.TrimSpace(line), "listening http://")
	if _, _, err := net.SplitHostPort(addr); err != nil {
		t.Fatalf("oauthmcpsrv did not start: %q", line)
	}
	go io.Copy(io.Discard, stdout)
	return "http://" + addr
}

// TestMCPOAuthUpstream: a person adds an OAuth-protected MCP server in the
// console and connects it through a link in Chromium (issue #42, upstream
// OAuth); its tools are listed and accepted, an agent calls one; the
// upstream's token expires early and is refreshed; the grant revoked at
// the authorization server makes the next call REAUTH_REQUIRED and lists
// the grant for re-authorisation; one more Connect restores it.
func TestMCPOAuthUpstream(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	up := startOAuthMCPServer(t)
	p := startKnownGateway(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gtmgate stderr:\n%s", p.stderr.String())
		}
	})
	const server = "secure"
	shots := os.Getenv("GTMGATE_SCREENSHOTS")
	connect := func(mode string) int {
		t.Helper()
		var got struct {
			Checks    int
			Failures  []string
			ConnectMS int `json:"connect_ms"`
		}
		runNodeScript(t, p, "mcpoauth-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
			"UPSTREAM_URL="+up+"/mcp", "SERVER="+server, "MODE="+mode, "CHROMIUM="+chromium, "SCREENSHOT_DIR="+shots)
		for _, f := range got.Failures {
			t.Error(f)
		}
		if got.Checks < 6 {
			t.Errorf("%s: only %d checks ran", mode, got.Checks)
		}
		t.Logf("%s: the connect part (Connect, Continue, Allow) took %d ms in Chromium", mode, got.ConnectMS)
		return got.ConnectMS
	}
	served := func() []string {
		t.Helper()
		var names []string
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			var one struct {
				Server mcpServerView `json:"server"`
			}
			call(t, p, "GET", "/admin/tenants/demo/mcp-servers/"+server, "", nil, &one)
			names = names[:0]
			for _, tool := range one.Server.ServedTools {
				if tool.Served {
					names = append(names, tool.Name)
				}
			}
			if len(names) > 0 {
				return names
			}
			time.Sleep(200 * time.Millisecond)
		}
		return nil
	}

	if ms := connect("add"); ms > 120_000 {
		t.Errorf("connecting took %d ms, over two minutes", ms)
	}
	if names := served(); len(names) != 5 {
		t.Fatalf("served tools after connect: %v, want the upstream's 5, accepted", names)
	}

	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, nil)
	if err != nil {
		t.Fatalf("connect to gtmgate's /mcp: %v", err)
	}
	lookup := func() *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: server + "__lookup", Arguments: map[string]any{"id": "c1", "rationale": "check the OAuth grant works"}})
		if err != nil {
			t.Fatalf("tools/call %s__lookup: %v", server, err)
		}
		return res
	}
	text := func(res *mcp.CallToolResult) string {
		b, _ := json.Marshal(res)
		return string(b)
	}
	if res := lookup(); res.IsError {
		t.Fatalf("lookup through the grant failed: %s", text(res))
	}

	// The upstream stops taking its access token: gtmgate refreshes the
	// grant and the call goes through.
	post := func(path string) {
		t.Helper()
		resp, err := http.Post(up+path, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	post("/admin/expire")
	if res := lookup(); res.IsError {
		t.Fatalf("lookup after the token expired: %s", text(res))
	}
	var stats struct{ Refreshes, Grants, Registrations int }
	resp, err := http.Get(up + "/admin/stats")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&stats)
	resp.Body.Close()
	if stats.Refreshes < 1 || stats.Registrations != 1 {
		t.Errorf("authorization server stats %+v: want a refresh and one registration", stats)
	}

	// Revoked at the authorization server: REAUTH_REQUIRED, listed.
	post("/admin/revoke")
	res := lookup()
	if !res.IsError || !strings.Contains(text(res), "REAUTH_REQUIRED") {
		t.Errorf("lookup after revocation: %s, want REAUTH_REQUIRED", text(res))
	}
	var reauth struct {
		Accounts []struct{ Provider, AccountID string } `json:"accounts"`
	}
	call(t, p, "GET", "/admin/reauth?tenant=demo", "", nil, &reauth)
	listed := false
	for _, a := range reauth.Accounts {
		listed = listed || a.Provider == "mcp:"+server
	}
	if !listed {
		t.Errorf("the revoked grant is not listed for re-authorisation: %+v", reauth.Accounts)
	}
	var health json.RawMessage
	call(t, p, "GET", "/admin/system-health?fresh=1", "", nil, &health)
	if !strings.Contains(string(health), `"provider":"mcp:`+server+`"`) {
		t.Errorf("system health does not name the revoked grant: %s", health)
	}

	// One more Connect restores it.
	connect("reconnect")
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := lookup()
		if !res.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lookup after re-connecting: %s", text(res))
		}
		time.Sleep(300 * time.Millisecond)
	}

	// The server moved to another origin: its grant is never sent there.
	moved := strings.Replace(up, "127.0.0.1", "localhost", 1) + "/mcp"
	if st := call(t, p, "PUT", "/admin/tenants/demo/mcp-servers/"+server, "", map[string]any{"url": moved, "auth": map[string]any{"kind": "oauth"}}, nil); st != 200 {
		t.Fatalf("PUT with a new origin: %d", st)
	}
	if res := lookup(); !res.IsError || !strings.Contains(text(res), "REAUTH_REQUIRED") {
		t.Errorf("lookup after the server moved origin: %s, want REAUTH_REQUIRED", text(res))
	}
}
