package app_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/mcpsandbox"
	"github.com/gtmgate/gtmgate/mcpservers"
)

// notesUpstream serves the notes MCP server on loopback (which --demo's
// upstream pool may reach), requiring token.
func notesUpstream(t *testing.T, token string) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpsandbox.New(token).Handler())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func mcpServerView(t *testing.T, r *apptest.Response) mcpservers.View {
	t.Helper()
	var v mcpservers.View
	if err := json.Unmarshal(r.Body, &v); err != nil || v.Name == "" {
		t.Fatalf("not a server: %v: %d %s", err, r.Status, r.Body)
	}
	return v
}

// TestMCPServerAdmin: through the real handlers, a tenant's upstream MCP
// server is registered (its tools listed from a live MCP server at once),
// read, listed, refreshed and deleted; another tenant never sees it; the
// secret is never echoed nor audited; refusals name the field.
func TestMCPServerAdmin(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	env.NewTenant("mcp-a", nil)
	env.NewTenant("mcp-b", nil)
	const token = "notes-upstream-secret-0123456789"
	upstream := notesUpstream(t, token)

	r := env.Admin("PUT", "/admin/tenants/mcp-a/mcp-servers/notes", map[string]any{"url": upstream,
		"auth": map[string]any{"kind": "bearer", "token": token}, "tools": []string{"search_notes", "add_note"},
		"overrides": map[string]any{"add_note": map[string]any{"category": "crm_write", "destructive": false}}})
	if r.Status != http.StatusCreated || strings.Contains(string(r.Body), token) {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	v := mcpServerView(t, r)
	if !v.State.Reachable || v.State.ToolsRefreshedAt == nil || !v.Auth.SecretSet || v.Auth.Kind != "bearer" || len(v.ServedTools) != 3 {
		t.Fatalf("created server: %s", r.Body)
	}
	tools := map[string]string{}
	for _, tv := range v.ServedTools {
		state := "served"
		if !tv.Served {
			state = "not served: " + tv.Refused
		}
		tools[tv.Name] = state + " " + string(tv.Category)
	}
	if tools["notes__search_notes"] != "served data_query" || tools["notes__add_note"] != "served crm_write" ||
		!strings.HasPrefix(tools["notes__delete_note"], "not served") {
		t.Fatalf("tools: %v", tools)
	}

	if r := env.Admin("GET", "/admin/tenants/mcp-a/mcp-servers/notes", nil); r.Status != 200 || !strings.Contains(string(r.Body), `"name":"notes__search_notes"`) {
		t.Fatalf("get: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/tenants/mcp-a/mcp-servers", nil); r.Status != 200 || strings.Count(string(r.Body), `"name":"notes"`) != 1 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}

	// Tenant isolation: B's routes never show A's server.
	if r := env.Admin("GET", "/admin/tenants/mcp-b/mcp-servers", nil); r.Status != 200 || strings.TrimSpace(string(r.Body)) != `{"servers":[]}` {
		t.Fatalf("B's list: %d %s", r.Status, r.Body)
	}
	for _, req := range [][2]string{{"GET", "/admin/tenants/mcp-b/mcp-servers/notes"}, {"POST", "/admin/tenants/mcp-b/mcp-servers/notes/refresh"},
		{"DELETE", "/admin/tenants/mcp-b/mcp-servers/notes"}} {
		if r := env.Admin(req[0], req[1], nil); r.Status != 404 || r.ErrorCode(t) != "NOT_FOUND" {
			t.Fatalf("%s %s: %d %s", req[0], req[1], r.Status, r.Body)
		}
	}
	if r := env.Admin("GET", "/admin/tenants/ghost/mcp-servers", nil); r.Status != 404 || r.ErrorCode(t) != "TENANT_NOT_FOUND" {
		t.Fatalf("unknown tenant: %d %s", r.Status, r.Body)
	}

	// Refusals.
	for _, c := range []struct {
		path string
		body any
		want string
	}{
		{"/admin/tenants/mcp-a/mcp-servers/bad__name", map[string]any{"url": upstream}, "cannot hold '_'"},
		{"/admin/tenants/mcp-a/mcp-servers/plain", map[string]any{"url": "http://mcp.example.com/mcp"}, "must use https"},
		{"/admin/tenants/mcp-a/mcp-servers/plain", map[string]any{"url": upstream, "auth": map[string]any{"kind": "bearer"}}, "auth.token is required"},
		{"/admin/tenants/mcp-a/mcp-servers/plain", map[string]any{"url": upstream, "auth": map[string]any{"kind": "header", "header": "X-Key", "value": "a\nb"}}, "control characters"},
		{"/admin/tenants/mcp-a/mcp-servers/plain", map[string]any{"url": upstream, "overrides": map[string]any{"x": map[string]any{"category": "nope"}}}, "category"},
		{"/admin/tenants/mcp-a/mcp-servers/plain", `{"url":"` + upstream + `","extra":1}`, "unknown field"},
	} {
		r := env.Admin("PUT", c.path, c.body)
		if r.Status != 400 || r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), c.want) {
			t.Errorf("PUT %s %v: %d %s", c.path, c.body, r.Status, r.Body)
		}
	}
	if r := env.Admin("PUT", "/admin/tenants/ghost/mcp-servers/notes", map[string]any{"url": upstream}); r.Status != 404 || r.ErrorCode(t) != "TENANT_NOT_FOUND" {
		t.Fatalf("PUT for an unknown tenant: %d %s", r.Status, r.Body)
	}

	// A wrong token: saved, unreachable, the reason shown, no secret in it.
	r = env.Admin("PUT", "/admin/tenants/mcp-b/mcp-servers/notes", map[string]any{"url": upstream,
		"auth": map[string]any{"kind": "bearer", "token": "wrong-token-abcdef"}})
	if v := mcpServerView(t, r); r.Status != 201 || v.State.Reachable || v.State.Error == "" || strings.Contains(string(r.Body), "wrong-token") {
		t.Fatalf("wrong token: %d %s", r.Status, r.Body)
	}
	// A replace without the token keeps it; refresh lists the tools again.
	if r := env.Admin("PUT", "/admin/tenants/mcp-a/mcp-servers/notes", map[string]any{"url": upstream, "auth": map[string]any{"kind": "bearer"}}); r.Status != 200 ||
		!mcpServerView(t, r).State.Reachable {
		t.Fatalf("replace keeping the token: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/tenants/mcp-a/mcp-servers/notes/refresh", nil); r.Status != 200 || !mcpServerView(t, r).State.Reachable {
		t.Fatalf("refresh: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/tenants/mcp-b/mcp-servers/notes/refresh", nil); r.Status != 200 || mcpServerView(t, r).State.Reachable {
		t.Fatalf("refresh with a wrong token: %d %s", r.Status, r.Body)
	}

	// The health snapshot names the unreachable server and degrades.
	h := env.Admin("GET", "/admin/system-health?fresh=1", nil)
	var rep struct {
		Status     string
		Reasons    []string
		MCPServers []struct {
			TenantID  string `json:"tenant_id"`
			Name      string
			Host      string
			Reachable bool
			Error     string
		} `json:"mcp_servers"`
	}
	if err := json.Unmarshal(h.Body, &rep); err != nil {
		t.Fatalf("system health: %v %s", err, h.Body)
	}
	host := strings.TrimPrefix(strings.TrimSuffix(upstream, "/mcp"), "http://")
	found := 0
	for _, s := range rep.MCPServers {
		if s.TenantID == "mcp-b" && s.Name == "notes" && !s.Reachable && s.Error != "" && s.Host == host {
			found++
		}
		if s.TenantID == "mcp-a" && s.Name == "notes" && s.Reachable && s.Host == host {
			found++
		}
	}
	if found != 2 || rep.Status == "down" || !strings.Contains(strings.Join(rep.Reasons, "\n"), "upstream MCP server(s) unreachable") {
		t.Fatalf("system health: %s %v %+v", rep.Status, rep.Reasons, rep.MCPServers)
	}

	// The console's tenant page shows the server and its tools.
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	if status, page := o.get("/console/tenants/mcp-a"); status != 200 || !strings.Contains(page, "notes__search_notes") ||
		!strings.Contains(page, "Refresh tools") || strings.Contains(page, token) {
		t.Fatalf("console tenant page: %d", status)
	}
	if status, page := o.get("/console/health"); status != 200 || !strings.Contains(page, "Upstream MCP servers") ||
		!strings.Contains(page, `href="/console/tenants/mcp-b#mcp-servers"`) {
		t.Fatalf("console health page: %d", status)
	}
	resp := o.post("/console/tenants/mcp-a/mcp-servers/refresh", url.Values{"server": {"notes"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("console refresh: %d", resp.StatusCode)
	}

	if r := env.Admin("DELETE", "/admin/tenants/mcp-a/mcp-servers/notes", nil); r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/tenants/mcp-a/mcp-servers", nil); strings.TrimSpace(string(r.Body)) != `{"servers":[]}` {
		t.Fatalf("list after delete: %s", r.Body)
	}
	if r := env.Admin("GET", "/admin/tenants/mcp-b/mcp-servers/notes", nil); r.Status != 200 {
		t.Fatalf("B's own server after A's delete: %d %s", r.Status, r.Body)
	}

	audit := env.Admin("GET", "/admin/audit?tenant=mcp-a&limit=100", nil)
	if !strings.Contains(string(audit.Body), "MCP server notes created, host "+host+", auth bearer; 3 tools listed, 2 served") ||
		!strings.Contains(string(audit.Body), "MCP server notes deleted") || strings.Contains(string(audit.Body), token) {
		t.Errorf("audit: %s", audit.Body)
	}
}
