package app_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestRequestIDsAreTheServers reproduces issue 30 item 4: a tenant sent
// another tenant's X-Request-Id, the gateway adopted it as its own request
// id, and the audit log and the console's call page then showed both
// tenants' entries as one call. The request id is now always the server's;
// the client's id is only a correlation id, looked up within one tenant.
func TestRequestIDsAreTheServers(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	rival := env.NewTenant("rival", nil)
	const shared = "order-sync-0042"
	call := func(token, tenant string) *apptest.Response {
		t.Helper()
		return env.Do("POST", env.GatewayURL+"/api/v1/"+tenant+"/crm", map[string]any{"tool": "crm_contacts", "input": listInput()},
			"Authorization", "Bearer "+token, "X-Request-Id", shared)
	}
	victim, attacker := call(env.DemoToken, "demo"), call(rival, "rival")
	victimID, attackerID := victim.Header.Get("X-Request-Id"), attacker.Header.Get("X-Request-Id")

	// Each request id names one call, of one tenant.
	for id, tenant := range map[string]string{victimID: "demo", attackerID: "rival"} {
		entries := auditEntries(t, env, "request_id="+url.QueryEscape(id))
		if len(entries) != 1 || entries[0]["tenant"] != tenant || entries[0]["correlation_id"] != shared {
			t.Fatalf("audit entries of %s's request %s: %v, want its one call with correlation_id %q", tenant, id, entries, shared)
		}
	}
	for _, r := range []*apptest.Response{victim, attacker} {
		id := r.Header.Get("X-Request-Id")
		if id == shared || len(id) != 32 || r.JSON(t)["request_id"] != id || r.Header.Get("X-Correlation-Id") != shared {
			t.Fatalf("X-Request-Id %q, body request_id %v, X-Correlation-Id %q: want a server id and the client's echoed",
				id, r.JSON(t)["request_id"], r.Header.Get("X-Correlation-Id"))
		}
	}
	if victimID == attackerID {
		t.Fatalf("two calls share the request id %s", victimID)
	}
	if entries := auditEntries(t, env, "request_id="+shared); len(entries) != 0 {
		t.Fatalf("the client's id is a request id: %v", entries)
	}

	// The correlation id finds a tenant's own calls, and only with the tenant.
	for _, q := range []string{"correlation_id=" + shared, "correlation_id=" + shared + "&after="} {
		r := env.Admin("GET", "/admin/audit?"+q, nil)
		if r.Status != 400 || r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), "correlation_id needs tenant") {
			t.Fatalf("%s without tenant: %d %s", q, r.Status, r.Body)
		}
	}
	mcp := env.Do("POST", env.GatewayURL+"/mcp", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "crm_contacts", "arguments": listInput()}},
		"Authorization", "Bearer "+rival, "Accept", "application/json, text/event-stream", "X-Request-Id", shared)
	mcpID := mcp.Header.Get("X-Request-Id")
	if mcp.Status != 200 || mcpID == shared || mcp.Header.Get("X-Correlation-Id") != shared {
		t.Fatalf("MCP: %d, X-Request-Id %q, X-Correlation-Id %q", mcp.Status, mcpID, mcp.Header.Get("X-Correlation-Id"))
	}
	var got []string
	for _, e := range auditEntries(t, env, "tenant=rival&correlation_id="+shared) {
		if e["tenant"] != "rival" || e["correlation_id"] != shared {
			t.Fatalf("entry of another tenant or id: %v", e)
		}
		got = append(got, e["request_id"].(string))
	}
	if strings.Join(got, " ") != mcpID+" "+attackerID {
		t.Fatalf("rival's calls by correlation id: %v, want [%s %s]", got, mcpID, attackerID)
	}

	// The console's call page shows one call, of its tenant.
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	code, page := o.get("/console/calls/" + victimID)
	if code != 200 || !strings.Contains(page, "/console/tenants/demo") || strings.Contains(page, "rival") || !strings.Contains(page, shared) {
		t.Fatalf("call page of demo's request: %d %s", code, page)
	}
	if code, _ := o.get("/console/calls/" + shared); code != 404 {
		t.Fatalf("call page of the client's id: %d, want 404", code)
	}
}

// auditEntries returns GET /admin/audit?query's entries.
func auditEntries(t *testing.T, env *apptest.Env, query string) []map[string]any {
	t.Helper()
	r := env.Admin("GET", "/admin/audit?"+query, nil)
	if r.Status != 200 {
		t.Fatalf("audit ?%s: %d %s", query, r.Status, r.Body)
	}
	var body struct{ Entries []map[string]any }
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Entries
}
