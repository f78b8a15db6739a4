package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fedGoErr is the gateway's error body, as REST answers it and as the text
// of an MCP isError result.
type fedGoErr struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Hint    string `json:"hint"`
	} `json:"error"`
	ApprovalID string `json:"approval_id"`
	RequestID  string `json:"request_id"`
}

// fedGoDo sends a JSON request to p's gateway (the admin key when token is
// "", else the bearer token) and returns the status and the raw answer.
func fedGoDo(t *testing.T, ctx context.Context, p *process, method, path, token string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.gateway+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token == "" {
		req.Header.Set("X-Admin-Key", adminKey)
	} else {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{Timeout: 90 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read answer: %v", method, path, err)
	}
	return resp.StatusCode, raw
}

// fedGoAdmin calls an admin route, wants status want, and decodes into v.
func fedGoAdmin(t *testing.T, p *process, method, path string, body any, want int, v any) []byte {
	t.Helper()
	st, raw := fedGoDo(t, context.Background(), p, method, path, "", body)
	if st != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, st, raw, want)
	}
	if v != nil {
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return raw
}

// fedGoREST calls a tool of the demo tenant's upstream server "up" over
// REST with the demo token.
func fedGoREST(t *testing.T, ctx context.Context, p *process, tool string, input map[string]any) (int, []byte) {
	t.Helper()
	return fedGoDo(t, ctx, p, "POST", "/api/v1/demo/mcp/up", p.demoToken, map[string]any{"tool": tool, "input": input})
}

func fedGoDecodeErr(t *testing.T, raw []byte) fedGoErr {
	t.Helper()
	var e fedGoErr
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("not an error body: %v: %s", err, raw)
	}
	return e
}

// fedGoMCPErr reads the error body an isError result carries as text.
func fedGoMCPErr(t *testing.T, res *mcp.CallToolResult) fedGoErr {
	t.Helper()
	if !res.IsError {
		t.Fatalf("result is not an error: %s", resultText(res))
	}
	return fedGoDecodeErr(t, []byte(resultText(res)))
}

func fedGoListTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		tools[tool.Name] = tool
	}
	return tools
}

type fedGoAuditEntry struct {
	Action    string `json:"action"`
	Outcome   string `json:"outcome"`
	ErrorCode string `json:"error_code"`
	RequestID string `json:"request_id"`
	Key       string `json:"key"`
	Source    string `json:"source"`
}

type fedGoAudit struct {
	Entries []fedGoAuditEntry `json:"entries"`
}

// TestFederatedGoUpstream runs gtmgate with the go-sdk upstream
// (e2e/upstreamsrv, its own process, bearer-protected) registered as the
// demo tenant's MCP server "up", and checks the federated tools through
// MCP and REST: discovery and annotations, pass-through results, approval
// gates (a tenant's action policy and the default destructive one), upstream
// errors in the error ledger and their replay, the call time-out, client
// cancellation reaching the upstream, progress, tools/list_changed, and an
// upstream that goes away and comes back.
func TestFederatedGoUpstream(t *testing.T) {
	const upToken = "fed-go-upstream-token-0123456789"
	u := startUpstreamProcess(t, upToken)
	// GTMGATE_UPSTREAM_TIMEOUT=1s makes the call time-out 4*1s+5s = 9s;
	// GTMGATE_MCP_UPSTREAM_ALLOW lets the loopback upstream in (as --demo
	// would anyway): nothing must break with it set.
	p := start(t, t.TempDir(), "GTMGATE_UPSTREAM_TIMEOUT=1s", "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gtmgate stderr:\n%s", p.stderr.String())
		}
	})
	var progress atomic.Int32
	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, &mcp.ClientOptions{
		Capabilities:                &mcp.ClientCapabilities{},
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress.Add(1) },
	})
	if err != nil {
		t.Fatalf("connect to gtmgate's /mcp: %v", err)
	}
	bg := context.Background()
	callMCP := func(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(bg, 60*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("tools/call %s: %v", name, err)
		}
		return res
	}
	wantTools := []string{"up__create_note", "up__delete_note", "up__fail", "up__lookup", "up__wait"}

	ok := t.Run("register", func(t *testing.T) {
		var v mcpServerView
		raw := fedGoAdmin(t, p, "PUT", "/admin/tenants/demo/mcp-servers/up", map[string]any{
			"url":       u.url(),
			"auth":      map[string]any{"kind": "bearer", "token": upToken},
			"overrides": map[string]any{"create_note": map[string]any{"mutating": true}},
		}, http.StatusCreated, &v)
		if strings.Contains(string(raw), upToken) {
			t.Errorf("the PUT answer shows the bearer token: %s", raw)
		}
		if v.Name != "up" || v.Auth.Kind != "bearer" || !v.Auth.SecretSet || !v.State.Reachable || v.State.Error != "" || v.State.ToolsRefreshedAt == nil {
			t.Errorf("view after PUT: %s", raw)
		}
		var names []string
		for _, tool := range v.ServedTools {
			if !tool.Served {
				t.Errorf("tool %s not served: %q", tool.Name, tool.Refused)
			}
			names = append(names, tool.Name)
			switch tool.Upstream {
			case "lookup", "wait", "fail":
				if tool.Mutating || tool.Destructive {
					t.Errorf("%s: mutating %v destructive %v, want a read-only tool", tool.Name, tool.Mutating, tool.Destructive)
				}
			case "create_note":
				if !tool.Mutating || tool.Destructive {
					t.Errorf("%s: mutating %v destructive %v, want mutating only", tool.Name, tool.Mutating, tool.Destructive)
				}
			case "delete_note":
				if !tool.Mutating || !tool.Destructive {
					t.Errorf("%s: mutating %v destructive %v, want destructive", tool.Name, tool.Mutating, tool.Destructive)
				}
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, wantTools) {
			t.Fatalf("served_tools %v, want %v", names, wantTools)
		}
		var one struct {
			Server mcpServerView `json:"server"`
		}
		fedGoAdmin(t, p, "GET", "/admin/tenants/demo/mcp-servers/up", nil, http.StatusOK, &one)
		if one.Server.Name != "up" || len(one.Server.ServedTools) != len(wantTools) {
			t.Errorf("GET one: %+v", one.Server)
		}
		var list struct {
			Servers []mcpServerView `json:"servers"`
		}
		fedGoAdmin(t, p, "GET", "/admin/tenants/demo/mcp-servers", nil, http.StatusOK, &list)
		if !slices.ContainsFunc(list.Servers, func(s mcpServerView) bool { return s.Name == "up" }) {
			t.Errorf("GET list does not have up: %+v", list.Servers)
		}

		// gtmgate's own tools/list for the demo tenant.
		tools := fedGoListTools(t, cs)
		for _, name := range wantTools {
			if tools[name] == nil {
				t.Fatalf("gtmgate's tools/list lacks %s; it has %d tools", name, len(tools))
			}
		}
		lookup, create, del := tools["up__lookup"], tools["up__create_note"], tools["up__delete_note"]
		if a := lookup.Annotations; a == nil || !a.ReadOnlyHint || (a.DestructiveHint != nil && *a.DestructiveHint) {
			t.Errorf("up__lookup annotations %+v, want readOnlyHint true", a)
		}
		if a := del.Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
			t.Errorf("up__delete_note annotations %+v, want destructiveHint true", a)
		}
		if a := create.Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("up__create_note annotations %+v, want neither read-only nor destructive", a)
		}
		schema, _ := json.Marshal(lookup.InputSchema)
		if !strings.Contains(string(schema), `"rationale"`) || !strings.Contains(string(schema), `"id"`) {
			t.Errorf("up__lookup input schema %s, want id and rationale", schema)
		}
	})
	if !ok {
		t.Fatal("registration failed; the other subtests need it")
	}

	t.Run("lookup over MCP and REST", func(t *testing.T) {
		res := callMCP(t, "up__lookup", map[string]any{"id": "c1", "rationale": "e2e: read a contact"})
		if res.IsError {
			t.Fatalf("MCP up__lookup: %s", resultText(res))
		}
		if rec, _ := res.StructuredContent.(map[string]any); rec["name"] != "Ada Lovelace" || rec["company"] != "Analytical Engines" {
			t.Errorf("MCP up__lookup structuredContent %v", res.StructuredContent)
		}
		if !strings.Contains(resultText(res), "Ada Lovelace") {
			t.Errorf("MCP up__lookup content %q", resultText(res))
		}

		st, raw := fedGoREST(t, bg, p, "up__lookup", map[string]any{"id": "c2", "rationale": "e2e: read another contact"})
		if st != http.StatusOK {
			t.Fatalf("REST up__lookup: %d %s", st, raw)
		}
		var out fedEvAnswer // a REST tool call's answer (federation_everything_test.go)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("REST up__lookup: %v: %s", err, raw)
		}
		if !out.OK || out.Tool != "up__lookup" || out.Action != "call" || out.Result.StructuredContent["name"] != "Grace Hopper" ||
			len(out.Result.Content) == 0 || !strings.Contains(out.Result.Content[0].Text, "Grace Hopper") {
			t.Errorf("REST up__lookup: %s", raw)
		}
		if s := upstreamStats(t, u.url(), "lookup"); s.Calls != 2 {
			t.Errorf("upstream lookup ran %d times, want 2", s.Calls)
		}
		var audit fedGoAudit
		fedGoAdmin(t, p, "GET", "/admin/audit?tenant=demo&action=up__lookup.call", nil, http.StatusOK, &audit)
		if len(audit.Entries) != 2 {
			t.Errorf("audit has %d up__lookup.call entries, want 2: %+v", len(audit.Entries), audit.Entries)
		}
	})

	t.Run("destructive gated by the default policy", func(t *testing.T) {
		res := callMCP(t, "up__delete_note", map[string]any{"id": "n1", "rationale": "e2e: delete a note"})
		e := fedGoMCPErr(t, res)
		if e.Error.Code != gtmgate.EApprovalRequired || e.ApprovalID == "" {
			t.Fatalf("MCP up__delete_note: %s, want APPROVAL_REQUIRED with an approval_id", resultText(res))
		}
		st, raw := fedGoREST(t, bg, p, "up__delete_note", map[string]any{"id": "n1", "rationale": "e2e: delete a note"})
		if e := fedGoDecodeErr(t, raw); st != http.StatusAccepted || e.Error.Code != gtmgate.EApprovalRequired || e.ApprovalID == "" {
			t.Fatalf("REST up__delete_note: %d %s, want 202 APPROVAL_REQUIRED", st, raw)
		}
		if s := upstreamStats(t, u.url(), "delete_note"); s.Calls != 0 {
			t.Errorf("upstream delete_note ran %d times before any approval", s.Calls)
		}
		var a gtmgate.Approval
		fedGoAdmin(t, p, "GET", "/admin/approvals/"+e.ApprovalID, nil, http.StatusOK, &a)
		if a.Status != gtmgate.ApprovalPending || a.Tool != "up__delete_note" || a.Action != "call" || a.TenantID != "demo" {
			t.Errorf("approval %s: %+v", e.ApprovalID, a)
		}
	})

	t.Run("approval policy action", func(t *testing.T) {
		var got struct {
			Tenant map[string]any `json:"tenant"`
		}
		fedGoAdmin(t, p, "GET", "/admin/tenants/demo", nil, http.StatusOK, &got)
		body := got.Tenant
		for _, k := range []string{"id", "created_at", "updated_at"} {
			delete(body, k)
		}
		policy := gtmgate.DefaultApprovalPolicy()
		policy.Actions = append(policy.Actions, "up__create_note.call")
		body["approval_policy"] = policy
		fedGoAdmin(t, p, "PUT", "/admin/tenants/demo", body, http.StatusOK, nil)

		st, raw := fedGoREST(t, bg, p, "up__create_note", map[string]any{"text": "call back Ada", "rationale": "e2e: remember to call back"})
		e := fedGoDecodeErr(t, raw)
		if st != http.StatusAccepted || e.Error.Code != gtmgate.EApprovalRequired || e.ApprovalID == "" {
			t.Fatalf("REST up__create_note: %d %s, want 202 APPROVAL_REQUIRED", st, raw)
		}
		if s := upstreamStats(t, u.url(), "create_note"); s.Calls != 0 {
			t.Fatalf("upstream create_note ran %d times before the approval", s.Calls)
		}
		var pending struct {
			Approvals []gtmgate.Approval `json:"approvals"`
		}
		fedGoAdmin(t, p, "GET", "/admin/approvals?tenant=demo", nil, http.StatusOK, &pending)
		if !slices.ContainsFunc(pending.Approvals, func(a gtmgate.Approval) bool {
			return a.ID == e.ApprovalID && a.Tool == "up__create_note" && a.Action == "call"
		}) {
			t.Fatalf("pending approvals lack %s: %+v", e.ApprovalID, pending.Approvals)
		}

		var decided gtmgate.Approval
		fedGoAdmin(t, p, "POST", "/admin/approvals/"+e.ApprovalID+"/approve", map[string]any{"decided_by": "e2e"}, http.StatusOK, &decided)
		if decided.Status != gtmgate.ApprovalExecuted || !strings.Contains(string(decided.Result), `"n1"`) {
			t.Errorf("approve: status %s result %s, want executed with note n1", decided.Status, decided.Result)
		}
		if s := upstreamStats(t, u.url(), "create_note"); s.Calls != 1 {
			t.Errorf("upstream create_note ran %d times after the approval, want 1", s.Calls)
		}
		// The agent's view of the outcome.
		st, raw = fedGoDo(t, bg, p, "GET", "/api/v1/demo/approvals/"+e.ApprovalID, p.demoToken, nil)
		if st != http.StatusOK || !strings.Contains(string(raw), gtmgate.ApprovalExecuted) || !strings.Contains(string(raw), `n1`) {
			t.Errorf("GET /api/v1/demo/approvals/%s: %d %s, want executed with its result", e.ApprovalID, st, raw)
		}
		// A second approve conflicts and runs nothing.
		st, raw = fedGoDo(t, bg, p, "POST", "/admin/approvals/"+e.ApprovalID+"/approve", "", map[string]any{})
		if ee := fedGoDecodeErr(t, raw); st != http.StatusConflict || ee.Error.Code != gtmgate.EConflict {
			t.Errorf("second approve: %d %s, want 409 CONFLICT", st, raw)
		}
		if s := upstreamStats(t, u.url(), "create_note"); s.Calls != 1 {
			t.Errorf("upstream create_note ran %d times after a second approve, want 1", s.Calls)
		}
		var audit fedGoAudit
		fedGoAdmin(t, p, "GET", "/admin/audit?tenant=demo&action=up__create_note.call", nil, http.StatusOK, &audit)
		if !slices.ContainsFunc(audit.Entries, func(a fedGoAuditEntry) bool {
			return a.Key == "approval:"+e.ApprovalID && a.Outcome == gtmgate.OutcomeOK
		}) {
			t.Errorf("audit lacks the approved up__create_note.call: %+v", audit.Entries)
		}
	})

	t.Run("upstream error, ledger and replay", func(t *testing.T) {
		res := callMCP(t, "up__fail", map[string]any{"reason": "on purpose", "rationale": "e2e: see a failure"})
		if e := fedGoMCPErr(t, res); e.Error.Code != gtmgate.EUpstream || !strings.Contains(e.Error.Message, `upstream MCP server "up"`) ||
			!strings.Contains(e.Error.Message, "on purpose") {
			t.Errorf("MCP up__fail: %s, want UPSTREAM_ERROR naming \"up\" with the upstream's text", resultText(res))
		}
		st, raw := fedGoREST(t, bg, p, "up__fail", map[string]any{"reason": "rest too", "rationale": "e2e: see a failure"})
		e := fedGoDecodeErr(t, raw)
		want := `upstream MCP server "up": tool "fail" returned an error: fail: this tool always fails: rest too`
		if st != http.StatusBadGateway || e.Error.Code != gtmgate.EUpstream || e.Error.Message != want {
			t.Errorf("REST up__fail: %d %s, want 502 UPSTREAM_ERROR %q", st, raw, want)
		}
		if e.RequestID == "" {
			t.Fatalf("REST up__fail answer has no request_id: %s", raw)
		}
		var entry gtmgate.LedgerEntry
		eventually(t, "the ledger entry of up__fail", 15*time.Second, func() bool {
			var ledger struct {
				Entries []gtmgate.LedgerEntry `json:"entries"`
			}
			fedGoAdmin(t, p, "GET", "/admin/errors?tenant=demo&request_id="+e.RequestID, nil, http.StatusOK, &ledger)
			if len(ledger.Entries) == 0 {
				return false
			}
			entry = ledger.Entries[0]
			return true
		})
		if entry.Tool != "up__fail" || entry.ErrorCode != gtmgate.EUpstream || !strings.Contains(entry.Message, `"up"`) ||
			!strings.Contains(string(entry.Input), "rest too") {
			t.Errorf("ledger entry %+v", entry)
		}
		before := upstreamStats(t, u.url(), "fail").Calls
		var replay struct {
			EntryID string `json:"entry_id"`
			OK      bool   `json:"ok"`
			Error   struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		fedGoAdmin(t, p, "POST", "/admin/replay", map[string]any{"entry_id": entry.ID}, http.StatusOK, &replay)
		if replay.OK || replay.Error.Code != gtmgate.EUpstream || !strings.Contains(replay.Error.Message, "rest too") {
			t.Errorf("replay: %+v, want it to fail again with UPSTREAM_ERROR", replay)
		}
		if after := upstreamStats(t, u.url(), "fail").Calls; after != before+1 {
			t.Errorf("upstream fail ran %d times during the replay, want 1", after-before)
		}
		var again gtmgate.LedgerEntry
		fedGoAdmin(t, p, "GET", "/admin/errors/"+entry.ID, nil, http.StatusOK, &again)
		if len(again.Replays) != 1 || again.Replays[0].OK || again.Replays[0].ErrorCode != gtmgate.EUpstream {
			t.Errorf("ledger entry's replays after one replay: %+v", again.Replays)
		}
	})

	// waitAudits counts the up__wait.call audit entries; lastWaitAudit
	// waits until there are more than n and returns the newest one's error
	// code.
	waitAudits := func(t *testing.T) int {
		t.Helper()
		var audit fedGoAudit
		fedGoAdmin(t, p, "GET", "/admin/audit?tenant=demo&action=up__wait.call&limit=1000", nil, http.StatusOK, &audit)
		return len(audit.Entries)
	}
	lastWaitAudit := func(t *testing.T, n int) string {
		t.Helper()
		var audit fedGoAudit
		eventually(t, "the up__wait.call audit entry", 30*time.Second, func() bool {
			fedGoAdmin(t, p, "GET", "/admin/audit?tenant=demo&action=up__wait.call&limit=1000", nil, http.StatusOK, &audit)
			return len(audit.Entries) > n
		})
		return audit.Entries[0].ErrorCode
	}

	t.Run("call time-out", func(t *testing.T) {
		before := upstreamStats(t, u.url(), "wait")
		audits := waitAudits(t)
		// 120 s is far past the call time-out (4*1s+5s = 9s).
		st, raw := fedGoREST(t, bg, p, "up__wait", map[string]any{"seconds": 120, "steps": 1, "rationale": "e2e: hang"})
		e := fedGoDecodeErr(t, raw)
		if st != http.StatusGatewayTimeout || e.Error.Code != gtmgate.EUpstreamTimeout {
			t.Errorf("REST up__wait past the time-out: %d %s, want 504 UPSTREAM_TIMEOUT", st, raw)
		}
		t.Logf("time-out answer: %d %s", st, raw)
		eventually(t, "the upstream to see the wait cancelled", 30*time.Second, func() bool {
			s := upstreamStats(t, u.url(), "wait")
			return s.Cancelled >= before.Cancelled+1 && s.Running == 0
		})
		if code := lastWaitAudit(t, audits); code != gtmgate.EUpstreamTimeout {
			t.Errorf("audit of the timed-out call: error_code %q, want UPSTREAM_TIMEOUT", code)
		}
	})

	t.Run("client cancellation", func(t *testing.T) {
		for _, via := range []string{"MCP", "REST"} {
			before := upstreamStats(t, u.url(), "wait")
			audits := waitAudits(t)
			ctx, cancel := context.WithCancel(bg)
			done := make(chan error, 1)
			go func() {
				args := map[string]any{"seconds": 120, "steps": 1, "rationale": "e2e: to be cancelled"}
				if via == "MCP" {
					_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "up__wait", Arguments: args})
					done <- err
					return
				}
				body, _ := json.Marshal(map[string]any{"tool": "up__wait", "input": args})
				req, _ := http.NewRequestWithContext(ctx, "POST", p.gateway+"/api/v1/demo/mcp/up", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+p.demoToken)
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					err = fmt.Errorf("answered %d %s", resp.StatusCode, b)
				}
				done <- err
			}()
			eventually(t, via+": the upstream wait to run", 20*time.Second, func() bool {
				return upstreamStats(t, u.url(), "wait").Calls > before.Calls
			})
			cancel()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "context canceled") {
					t.Errorf("%s: the cancelled call returned %v, want a cancellation error", via, err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s: the cancelled call did not return", via)
			}
			eventually(t, via+": the upstream to see the cancellation", 30*time.Second, func() bool {
				s := upstreamStats(t, u.url(), "wait")
				return s.Cancelled >= before.Cancelled+1 && s.Running == 0
			})
			// CLIENT_CLOSED, not UPSTREAM_TIMEOUT: the cancellation reached
			// the upstream, not the call time-out.
			if code := lastWaitAudit(t, audits); code != gtmgate.EClientClosed {
				t.Errorf("%s: audit of the cancelled call: error_code %q, want CLIENT_CLOSED", via, code)
			}
		}
	})

	t.Run("progress", func(t *testing.T) {
		before := progress.Load()
		params := &mcp.CallToolParams{Name: "up__wait", Arguments: map[string]any{"seconds": 1, "steps": 3, "rationale": "e2e: progress"}}
		params.SetProgressToken("fed-go-progress-1")
		ctx, cancel := context.WithTimeout(bg, 60*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Fatalf("up__wait with a progress token: %v", err)
		}
		if res.IsError {
			t.Fatalf("up__wait with a progress token: %s", resultText(res))
		}
		if sc, _ := res.StructuredContent.(map[string]any); sc["steps"] != float64(3) {
			t.Errorf("up__wait structuredContent %v", res.StructuredContent)
		}
		eventually(t, "a progress notification", 10*time.Second, func() bool { return progress.Load() > before })
		t.Logf("%d progress notifications reached the client; the upstream sent %d in all", progress.Load()-before, upstreamStats(t, u.url(), "wait").Progress)
	})

	t.Run("tools list_changed", func(t *testing.T) {
		addUpstreamTool(t, u.url(), "added_later")
		has := func() bool { return fedGoListTools(t, cs)["up__added_later"] != nil }
		deadline := time.Now().Add(30 * time.Second)
		for !has() && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		// A tool the upstream adds is pinned (#42): listed on list_changed,
		// it waits for acceptance, and is served once accepted.
		listed := func() bool {
			var found struct {
				Server mcpServerView `json:"server"`
			}
			fedGoAdmin(t, p, "GET", "/admin/tenants/demo/mcp-servers/up", nil, http.StatusOK, &found)
			for _, tool := range found.Server.ServedTools {
				if tool.Upstream == "added_later" {
					return true
				}
			}
			return false
		}
		for !listed() && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		if !listed() {
			t.Errorf("NOTE: gtmgate has not listed added_later 30 s after the upstream's notifications/tools/list_changed, though its session was open (calls ran on it just before); refreshing by hand")
			var v mcpServerView
			fedGoAdmin(t, p, "POST", "/admin/tenants/demo/mcp-servers/up/refresh", nil, http.StatusOK, &v)
		}
		if has() {
			t.Errorf("up__added_later is served before anyone accepted it")
		}
		fedGoAdmin(t, p, "POST", "/admin/tenants/demo/mcp-servers/up/changes/accept", map[string]any{"tools": []string{"added_later"}}, http.StatusOK, nil)
		eventually(t, "up__added_later once accepted", 15*time.Second, has)
		st, raw := fedGoREST(t, bg, p, "up__added_later", map[string]any{"rationale": "e2e: the new tool"})
		if st != http.StatusOK || !strings.Contains(string(raw), "added_later ran") {
			t.Errorf("REST up__added_later: %d %s", st, raw)
		}
	})

	t.Run("upstream goes away and comes back", func(t *testing.T) {
		u.kill()
		st, raw := fedGoREST(t, bg, p, "up__lookup", map[string]any{"id": "c1", "rationale": "e2e: upstream down"})
		e := fedGoDecodeErr(t, raw)
		if st != http.StatusServiceUnavailable || e.Error.Code != gtmgate.EUnavailable || !strings.Contains(e.Error.Message, `"up"`) {
			t.Errorf("REST up__lookup with the upstream down: %d %s, want 503 UNAVAILABLE naming \"up\"", st, raw)
		}
		res := callMCP(t, "up__lookup", map[string]any{"id": "c1", "rationale": "e2e: upstream down"})
		if e := fedGoMCPErr(t, res); e.Error.Code != gtmgate.EUnavailable || !strings.Contains(e.Error.Message, `"up"`) {
			t.Errorf("MCP up__lookup with the upstream down: %s, want UNAVAILABLE naming \"up\"", resultText(res))
		}
		if tools := fedGoListTools(t, cs); tools["up__lookup"] == nil {
			t.Errorf("tools/list with the upstream down lacks up__lookup (the last good list must stay served)")
		}
		var v mcpServerView
		raw = fedGoAdmin(t, p, "POST", "/admin/tenants/demo/mcp-servers/up/refresh", nil, http.StatusOK, &v)
		if v.State.Reachable || v.State.Error == "" || len(v.ServedTools) != len(wantTools)+1 {
			t.Errorf("refresh with the upstream down: %s, want reachable false, an error and the last good tools", raw)
		}
		if tools := fedGoListTools(t, cs); tools["up__lookup"] == nil {
			t.Errorf("tools/list after a failed refresh lacks up__lookup (the last good list must stay served)")
		}
		var h struct {
			Status     string   `json:"status"`
			Reasons    []string `json:"reasons"`
			MCPServers []struct {
				TenantID  string `json:"tenant_id"`
				Name      string `json:"name"`
				Host      string `json:"host"`
				Reachable bool   `json:"reachable"`
				Error     string `json:"error"`
			} `json:"mcp_servers"`
		}
		raw = fedGoAdmin(t, p, "GET", "/admin/system-health?fresh=1", nil, http.StatusOK, &h)
		named := false
		for _, s := range h.MCPServers {
			if s.TenantID == "demo" && s.Name == "up" {
				named = !s.Reachable && s.Error != ""
			}
		}
		if h.Status != "degraded" || !named || !strings.Contains(strings.Join(h.Reasons, "; "), "unreachable") {
			t.Errorf("system health with the upstream down: status %s reasons %q mcp_servers %+v, want degraded naming up unreachable",
				h.Status, h.Reasons, h.MCPServers)
		}

		u.restart()
		v = mcpServerView{} // Unmarshal leaves fields the answer omits (state.error) as they were
		raw = fedGoAdmin(t, p, "POST", "/admin/tenants/demo/mcp-servers/up/refresh", nil, http.StatusOK, &v)
		served := 0
		for _, tool := range v.ServedTools {
			if tool.Served {
				served++
			}
		}
		if !v.State.Reachable || v.State.Error != "" || served != len(wantTools) {
			// The restarted process has no runtime tool: added_later is gone
			// (not served; shown as removed until someone accepts it, #42).
			t.Errorf("refresh after the restart: %s, want reachable with the five tools served", raw)
		}
		st, raw = fedGoREST(t, bg, p, "up__lookup", map[string]any{"id": "c2", "rationale": "e2e: upstream back"})
		if st != http.StatusOK || !strings.Contains(string(raw), "Grace Hopper") {
			t.Errorf("REST up__lookup after the restart: %d %s", st, raw)
		}
		res = callMCP(t, "up__lookup", map[string]any{"id": "c1", "rationale": "e2e: upstream back"})
		if res.IsError {
			t.Errorf("MCP up__lookup after the restart: %s", resultText(res))
		}
		if s := upstreamStats(t, u.url(), "lookup"); s.Calls != 2 {
			t.Errorf("the restarted upstream ran lookup %d times, want 2", s.Calls)
		}
		raw = fedGoAdmin(t, p, "GET", "/admin/system-health?fresh=1", nil, http.StatusOK, &h)
		for _, s := range h.MCPServers {
			if s.TenantID == "demo" && s.Name == "up" && !s.Reachable {
				t.Errorf("system health after the restart still has up unreachable: %s", raw)
			}
		}
	})
}
