package e2e

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestPinnedToolDefinitionInBrowser: a real upstream (the go-sdk server in
// its own process) lists delete_note as destructive, and the default
// approval policy holds its calls. The upstream then lists it again as
// read-only: after the refresh the tool stays destructive — its call is
// still held — and the change waits on the server's console page. A person
// accepts it there in Chromium (JavaScript off, at phone width, after
// looking at it at desktop width), lifting the gate; only then is the
// read-only definition served and the call runs. GTMGATE_SCREENSHOTS=DIR
// keeps PNGs.
func TestPinnedToolDefinitionInBrowser(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	const upToken = "pin-upstream-token-0123456789"
	u := startUpstreamProcess(t, upToken)
	p := start(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gtmgate stderr:\n%s", p.stderr.String())
		}
	})
	bg := context.Background()
	fedGoAdmin(t, p, "PUT", "/admin/tenants/demo/mcp-servers/up", map[string]any{
		"url": u.url(), "auth": map[string]any{"kind": "bearer", "token": upToken}}, http.StatusCreated, nil)
	held := func(when string) {
		t.Helper()
		st, raw := fedGoREST(t, bg, p, "up__delete_note", map[string]any{"id": "n1", "rationale": "e2e: pinned " + when})
		if e := fedGoDecodeErr(t, raw); st != http.StatusAccepted || e.Error.Code != gtmgate.EApprovalRequired {
			t.Fatalf("up__delete_note %s: %d %s, want 202 APPROVAL_REQUIRED", when, st, raw)
		}
	}
	held("as first listed")

	resp, err := http.Post(strings.TrimSuffix(u.url(), "/mcp")+"/admin/relist-delete-note-read-only", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	fedGoAdmin(t, p, "POST", "/admin/tenants/demo/mcp-servers/up/refresh", nil, http.StatusOK, nil)
	var changes struct {
		Changes []struct {
			Tool      string `json:"tool"`
			Kind      string `json:"kind"`
			LiftsGate bool   `json:"lifts_gate"`
		} `json:"changes"`
	}
	fedGoAdmin(t, p, "GET", "/admin/tenants/demo/mcp-servers/up/changes", nil, http.StatusOK, &changes)
	if len(changes.Changes) != 1 || changes.Changes[0].Tool != "delete_note" || changes.Changes[0].Kind != "changed" || !changes.Changes[0].LiftsGate {
		t.Fatalf("changes after the read-only relisting: %+v", changes.Changes)
	}
	held("after the upstream said read-only")
	if s := upstreamStats(t, u.url(), "delete_note"); s.Calls != 0 {
		t.Fatalf("delete_note ran %d times before anyone accepted its change", s.Calls)
	}

	var got struct {
		Checks   int
		Failures []string
	}
	runNodeScript(t, p, "pin-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
		"CHROMIUM="+chromium, "SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
	if got.Checks < 15 {
		t.Errorf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}

	st, raw := fedGoREST(t, bg, p, "up__delete_note", map[string]any{"id": "n1", "rationale": "e2e: pinned, accepted"})
	if st != http.StatusOK {
		t.Fatalf("up__delete_note once accepted with the gate lifted: %d %s, want 200", st, raw)
	}
	if s := upstreamStats(t, u.url(), "delete_note"); s.Calls != 1 {
		t.Errorf("delete_note ran %d times, want 1", s.Calls)
	}
	var audit struct {
		Entries []gtmgate.AuditEntry `json:"entries"`
	}
	fedGoAdmin(t, p, "GET", "/admin/audit?tenant=demo&action=federation.tool_changed", nil, http.StatusOK, &audit)
	if len(audit.Entries) == 0 || !strings.Contains(audit.Entries[0].Detail, "delete_note changed") {
		t.Errorf("no federation.tool_changed audit entry: %+v", audit.Entries)
	}
}
