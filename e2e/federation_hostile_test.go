package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/e2e/hostilesrv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFederationHostileUpstream registers a hostile upstream (e2e/hostilesrv,
// in the test's process, gtmgate in its own) as the demo tenant's MCP server
// and checks through the real binary that what it does is scrubbed,
// coalesced or refused (#42): its secret echoed in an isError text and in a
// protocol error reaches neither the MCP answer nor the error ledger; a
// burst of list_changed costs at most two listings and a flood of 10,000
// one per 2 s; a listing of
// 20,000 tools is refused with the reason in the server's state while the
// last good tool stays served.
func TestFederationHostileUpstream(t *testing.T) {
	const secret = "hostile-secret/+=0123456789"
	h := hostilesrv.New(secret)
	srv := httptest.NewServer(h.Handler())
	t.Cleanup(srv.Close)
	p := start(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gtmgate stderr:\n%s", p.stderr.String())
		}
	})
	forms := []string{secret, url.QueryEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret))}
	showsSecret := func(s string) string {
		for _, f := range forms {
			if strings.Contains(s, f) {
				return f
			}
		}
		return ""
	}

	var v mcpServerView
	fedGoAdmin(t, p, "PUT", "/admin/tenants/demo/mcp-servers/hostile", map[string]any{
		"url": srv.URL + "/mcp", "auth": map[string]any{"kind": "bearer", "token": secret}, "auto_accept_changes": true,
	}, http.StatusCreated, &v)
	if !v.State.Reachable || len(v.ServedTools) != 1 || !v.ServedTools[0].Served {
		t.Fatalf("registered: %+v", v)
	}
	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(name string) *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"rationale": "e2e: hostile upstream"}})
		if err != nil {
			t.Fatalf("tools/call %s: %v", name, err)
		}
		return res
	}

	t.Run("secret scrubbed from isError", func(t *testing.T) {
		res := call("hostile__echo")
		text := resultText(res)
		if !res.IsError || !strings.Contains(text, "[secret]") || !strings.Contains(text, "UPSTREAM_ERROR") {
			t.Fatalf("answer %s", text)
		}
		if f := showsSecret(text); f != "" {
			t.Fatalf("the answer shows the secret as %q: %s", f, text)
		}
	})

	t.Run("secret scrubbed from a protocol error", func(t *testing.T) {
		// The listed tool, answered with a JSON-RPC error this time.
		h.ProtocolErrors(true)
		defer h.ProtocolErrors(false)
		res := call("hostile__echo")
		text := resultText(res)
		if !res.IsError || !strings.Contains(text, "[secret]") {
			t.Fatalf("answer %s", text)
		}
		if f := showsSecret(text); f != "" {
			t.Fatalf("the answer shows the secret as %q: %s", f, text)
		}
	})

	t.Run("error ledger", func(t *testing.T) {
		raw := fedGoAdmin(t, p, "GET", "/admin/errors?tenant=demo", nil, http.StatusOK, nil)
		if !strings.Contains(string(raw), "[secret]") {
			t.Fatalf("the ledger has no scrubbed hostile error: %.2000s", raw)
		}
		if f := showsSecret(string(raw)); f != "" {
			t.Fatalf("the error ledger shows the secret as %q", f)
		}
	})

	// flood has the upstream write n list_changed and waits until they are
	// written (to the socket: gtmgate reads them at its own pace).
	flood := func(t *testing.T, n int64) {
		t.Helper()
		before := hostileStats(t, srv.URL)
		if before.Open == 0 {
			t.Fatal("gtmgate opened no standalone stream to the upstream")
		}
		resp, err := http.Post(srv.URL+"/admin/flood?n="+strconv.FormatInt(n, 10), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		deadline := time.Now().Add(20 * time.Second)
		for hostileStats(t, srv.URL).Sent < before.Sent+n {
			if time.Now().After(deadline) {
				t.Fatalf("the flood was not written: %+v", hostileStats(t, srv.URL))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	t.Run("list_changed burst coalesced", func(t *testing.T) {
		// 500 notifications (45 KB) fit in what gtmgate reads of the
		// stream at once: they arrive as one burst.
		before := hostileStats(t, srv.URL)
		flood(t, 500)
		listedAfter(t, srv.URL, before.Lists)
		time.Sleep(5 * time.Second) // a second refresh may follow, 2 s apart; no third
		if n := hostileStats(t, srv.URL).Lists - before.Lists; n < 1 || n > 2 {
			t.Fatalf("a burst of 500 list_changed made %d listings, want 1 or 2", n)
		}
	})

	t.Run("list_changed flood coalesced", func(t *testing.T) {
		// 10,000 (900 KB) are read at gtmgate's bounded rate, so they
		// keep coming for a while: one listing per 2 s gap at most.
		before := hostileStats(t, srv.URL)
		start := time.Now()
		flood(t, 10000)
		listedAfter(t, srv.URL, before.Lists)
		time.Sleep(6 * time.Second)
		n := hostileStats(t, srv.URL).Lists - before.Lists
		window := time.Since(start)
		if most := 1 + int64(window/(2*time.Second)); n < 1 || n > most {
			t.Fatalf("10,000 list_changed made %d listings in %v, want 1 to %d", n, window.Round(time.Second), most)
		}
		t.Logf("10,000 list_changed notifications: %d listings in %v", n, window.Round(time.Second))
	})

	t.Run("20,000 tools refused", func(t *testing.T) {
		resp, err := http.Post(srv.URL+"/admin/many?n=20000", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		// The refresh answers the server's view, its state saying why.
		st, raw := fedGoDo(t, context.Background(), p, "POST", "/admin/tenants/demo/mcp-servers/hostile/refresh", "", nil)
		if !strings.Contains(string(raw), "declares 20000 tools; at most 500") {
			t.Errorf("refresh answered %d %.1000s", st, raw)
		}
		var one struct {
			Server mcpServerView `json:"server"`
		}
		fedGoAdmin(t, p, "GET", "/admin/tenants/demo/mcp-servers/hostile", nil, http.StatusOK, &one)
		if !strings.Contains(one.Server.State.Error, "declares 20000 tools; at most 500") {
			t.Errorf("state error %q", one.Server.State.Error)
		}
		if len(one.Server.ServedTools) != 1 || one.Server.ServedTools[0].Name != "hostile__echo" {
			t.Errorf("served tools after the refused listing: %+v", one.Server.ServedTools)
		}
		tools := fedGoListTools(t, cs)
		if tools["hostile__echo"] == nil || tools["hostile__tool_0"] != nil {
			t.Errorf("gtmgate's tools/list after the refused listing: hostile__echo %v, hostile__tool_0 %v",
				tools["hostile__echo"] != nil, tools["hostile__tool_0"] != nil)
		}
	})
}

func hostileStats(t *testing.T, base string) hostilesrv.Stats {
	t.Helper()
	resp, err := http.Get(base + "/admin/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var s hostilesrv.Stats
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("stats %s: %v", b, err)
	}
	return s
}

// listedAfter waits until the upstream at url was listed more than before
// times: a slow machine delays the refresh a notification starts, never
// drops it. The deadline only bounds a failure.
func listedAfter(t *testing.T, url string, before int64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); hostileStats(t, url).Lists <= before; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("list_changed led to no listing")
		}
	}
}
