package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/internal/nodetools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tenants' own MCP servers (#34) end to end: the real binary federates
// @modelcontextprotocol/server-everything and the go-sdk upstream, and
// serves their tools to the official TypeScript SDK client, to the go-sdk
// client and over REST, one tenant's never to another; the demo's notes
// server's calls are graded like any other.

// mcpServerView is the part of the admin API's view of a tenant's upstream
// MCP server (package mcpservers) the federated tests read.
type mcpServerView struct {
	TenantID string `json:"tenant_id"`
	Name     string `json:"name"`
	URL      string `json:"url"`
	Auth     struct {
		Kind      string `json:"kind"`
		SecretSet bool   `json:"secret_set"`
	} `json:"auth"`
	State struct {
		Reachable        bool       `json:"reachable"`
		Error            string     `json:"error"`
		CheckedAt        *time.Time `json:"checked_at"`
		ToolsRefreshedAt *time.Time `json:"tools_refreshed_at"`
	} `json:"state"`
	ServedTools []struct {
		Name        string `json:"name"`
		Upstream    string `json:"upstream"`
		Served      bool   `json:"served"`
		Refused     string `json:"refused"`
		Mutating    bool   `json:"mutating"`
		Destructive bool   `json:"destructive"`
	} `json:"served_tools"`
}

// fedEvAnswer is a REST tool call's answer.
type fedEvAnswer struct {
	OK     bool   `json:"ok"`
	Tool   string `json:"tool"`
	Action string `json:"action"`
	Result struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent map[string]any `json:"structuredContent"`
	} `json:"result"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

func (a fedEvAnswer) text() string {
	var b strings.Builder
	for _, c := range a.Result.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func (a fedEvAnswer) code() string {
	if a.Error == nil {
		return ""
	}
	return a.Error.Code
}

// fedEvPut registers (or replaces) tenant's upstream MCP server name
// through the admin API and returns the answer's view; it fails the test
// unless the answer is 201 or 200.
func fedEvPut(t *testing.T, p *process, tenant, name string, body map[string]any) mcpServerView {
	t.Helper()
	var v mcpServerView
	st := call(t, p, "PUT", "/admin/tenants/"+tenant+"/mcp-servers/"+name, "", body, &v)
	if st != 201 && st != 200 {
		t.Fatalf("PUT /admin/tenants/%s/mcp-servers/%s: %d %+v\n%s", tenant, name, st, v, p.stderr.String())
	}
	return v
}

// served says whether the tool named name ("server__tool") is served.
func (v mcpServerView) served(name string) bool {
	for _, tool := range v.ServedTools {
		if tool.Name == name {
			return tool.Served
		}
	}
	return false
}

// fedEvREST posts a federated tool call to /api/v1/{tenant}/mcp/{server} with
// token and returns the status and decoded answer.
func fedEvREST(t *testing.T, p *process, tenant, server, token, tool string, input map[string]any) (int, fedEvAnswer) {
	t.Helper()
	var a fedEvAnswer
	st := call(t, p, "POST", "/api/v1/"+tenant+"/mcp/"+server, token, map[string]any{"tool": tool, "input": input}, &a)
	return st, a
}

// errorCode reads the gateway's JSON error body from an MCP isError result.
func fedEvMCPCode(r *mcp.CallToolResult) string {
	var body struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal([]byte(resultText(r)), &body)
	return body.Error.Code
}

// fedEvNode runs an ES module given as source with the project's Node
// from e2e/node (so the packages installed there resolve), env added to the
// environment, and decodes the JSON summary it prints as its last line.
func fedEvNode(t *testing.T, p *process, source string, summary any, env ...string) {
	t.Helper()
	cmd := exec.Command(nodetools.Node(t), "--input-type=module", "-e", source)
	cmd.Dir = nodetools.Dir(t)
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s\n%s", err, out, p.stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), summary); err != nil {
		t.Fatalf("node summary: %v\n%s", err, out)
	}
}

// fedEvTSClient drives gtmgate's /mcp with the official TypeScript
// SDK client and nothing else: list the tools (every page), call
// server-everything's echo, trigger-long-running-operation with onprogress
// and get-structured-content (whose structuredContent the SDK validates
// against the outputSchema it listed). A call that throws is reported as
// {thrown}. Prints one JSON summary line.
const fedEvTSClient = `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const transport = new StreamableHTTPClientTransport(new URL(process.env.GTMGATE_MCP_URL), {
  requestInit: { headers: { Authorization: "Bearer " + process.env.GTMGATE_TOKEN } },
});
const client = new Client({ name: "gtmgate-e2e-federation", version: "1.0.0" });
await client.connect(transport);

const out = { server: client.getServerVersion(), tools: [] };
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : undefined);
  for (const t of page.tools) out.tools.push({ name: t.name, hasOutputSchema: !!t.outputSchema });
  cursor = page.nextCursor;
} while (cursor);

const text = (r) => (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
const settle = async (name, fn) => {
  try {
    out[name] = await fn();
  } catch (e) {
    out[name] = { thrown: String((e && e.message) || e) };
  }
};

await settle("echo", async () => {
  const r = await client.callTool({
    name: "everything__echo",
    arguments: { rationale: "e2e: echo through gtmgate", message: "hello from the TypeScript SDK" },
  });
  return { isError: !!r.isError, text: text(r), meta: r._meta ?? null };
});

const progress = [];
await settle("long", async () => {
  const r = await client.callTool(
    { name: "everything__trigger-long-running-operation", arguments: { rationale: "e2e: progress through gtmgate", duration: 0.6, steps: 3 } },
    undefined,
    { onprogress: (p) => progress.push(p) },
  );
  // Notifications are handled apart from the result: give a late one a moment.
  for (let i = 0; i < 50 && progress.length === 0; i++) await new Promise((res) => setTimeout(res, 100));
  return { isError: !!r.isError, text: text(r), progress };
});

await settle("structured", async () => {
  const r = await client.callTool({
    name: "everything__get-structured-content",
    arguments: { rationale: "e2e: structured content through gtmgate", location: "Chicago" },
  });
  return { isError: !!r.isError, text: text(r), structuredContent: r.structuredContent ?? null };
});

console.log(JSON.stringify(out));
await client.close();
`

// TestFederatedEverything registers server-everything as the demo tenant's
// MCP server "everything" and uses its tools through gtmgate: over MCP with
// the official TypeScript SDK client (tools listed beside the built-in ones,
// echo, progress relayed, structured content that validates against the
// served outputSchema), over REST (get-sum; the wrong server and a missing
// rationale refused), and the call is in the audit log as
// everything__echo.call.
func TestFederatedEverything(t *testing.T) {
	nodetools.Dir(t) // skip before starting anything when the Node tools are missing
	p := start(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")
	endpoint := startServerEverything(t)

	v := fedEvPut(t, p, "demo", "everything", map[string]any{"url": endpoint, "auth": map[string]any{"kind": "none"}})
	if !v.State.Reachable {
		t.Fatalf("server-everything not reachable: %+v", v.State)
	}
	for _, name := range []string{"everything__echo", "everything__get-sum", "everything__trigger-long-running-operation", "everything__get-structured-content"} {
		if !v.served(name) {
			t.Errorf("%s is not served: %+v", name, v.ServedTools)
		}
	}
	for _, tool := range v.ServedTools {
		if !tool.Served && tool.Refused == "" {
			t.Errorf("%s is neither served nor refused with a reason (no allow-list was set)", tool.Name)
		}
		if !tool.Served {
			t.Logf("not served: %s: %s", tool.Name, tool.Refused)
		}
	}

	t.Run("TypeScript SDK client", func(t *testing.T) {
		type callOut struct {
			Thrown            string           `json:"thrown"`
			IsError           bool             `json:"isError"`
			Text              string           `json:"text"`
			Meta              map[string]any   `json:"meta"`
			Progress          []map[string]any `json:"progress"`
			StructuredContent map[string]any   `json:"structuredContent"`
		}
		var got struct {
			Server struct{ Name string }
			Tools  []struct {
				Name            string
				HasOutputSchema bool
			}
			Echo, Long, Structured callOut
		}
		fedEvNode(t, p, fedEvTSClient, &got, "GTMGATE_MCP_URL="+p.gateway+"/mcp", "GTMGATE_TOKEN="+p.demoToken)
		names := map[string]bool{}
		for _, tool := range got.Tools {
			names[tool.Name] = tool.HasOutputSchema
		}
		for _, name := range []string{"crm_deals", "everything__echo", "everything__get-sum", "everything__trigger-long-running-operation", "everything__get-structured-content", "notes__search_notes"} {
			if _, ok := names[name]; !ok {
				t.Errorf("tools/list lacks %s", name)
			}
		}
		if !names["everything__get-structured-content"] {
			t.Errorf("everything__get-structured-content is listed without its outputSchema")
		}

		if c := got.Echo; c.Thrown != "" || c.IsError || c.Text != "Echo: hello from the TypeScript SDK" {
			t.Errorf("everything__echo: %+v", c)
		} else if c.Meta["gtmgate/request_id"] == nil {
			t.Errorf("everything__echo: _meta lacks gtmgate/request_id: %v", c.Meta)
		}
		if c := got.Long; c.Thrown != "" || c.IsError {
			t.Errorf("everything__trigger-long-running-operation: %+v", c)
		} else if len(c.Progress) < 1 {
			t.Errorf("everything__trigger-long-running-operation: no progress notification reached the client: %+v", c)
		} else {
			t.Logf("progress notifications: %v", c.Progress)
		}
		if c := got.Structured; c.Thrown != "" || c.IsError || c.StructuredContent == nil {
			t.Errorf("everything__get-structured-content: %+v", c)
		} else if _, ok := c.StructuredContent["temperature"]; !ok {
			t.Errorf("everything__get-structured-content: structuredContent %v has no temperature", c.StructuredContent)
		}
	})

	t.Run("REST", func(t *testing.T) {
		st, a := fedEvREST(t, p, "demo", "everything", p.demoToken, "everything__get-sum",
			map[string]any{"rationale": "e2e: add two numbers", "a": 2, "b": 40})
		if st != 200 || !a.OK || a.Tool != "everything__get-sum" || !strings.Contains(a.text(), "42") {
			t.Fatalf("get-sum: %d %+v", st, a)
		}
		for _, c := range []struct {
			name, server string
			input        map[string]any
			status       int
			code         string
		}{
			{"wrong server", "other", map[string]any{"rationale": "e2e", "a": 1, "b": 2}, 404, "TOOL_NOT_FOUND"},
			{"no rationale", "everything", map[string]any{"a": 1, "b": 2}, 400, "VALIDATION_ERROR"},
		} {
			t.Run(c.name, func(t *testing.T) {
				st, a := fedEvREST(t, p, "demo", c.server, p.demoToken, "everything__get-sum", c.input)
				if st != c.status || a.OK || a.code() != c.code {
					t.Errorf("POST /api/v1/demo/mcp/%s: %d %+v, want %d %s", c.server, st, a, c.status, c.code)
				}
			})
		}
	})

	t.Run("audit", func(t *testing.T) {
		var audit auditPage
		eventually(t, "everything__echo.call in the audit log", 10*time.Second, func() bool {
			call(t, p, "GET", "/admin/audit?tenant=demo&action="+url.QueryEscape("everything__echo.call"), "", nil, &audit)
			return len(audit.Entries) > 0
		})
		if e := audit.Entries[0]; e.Outcome != "ok" || e.RequestID == "" {
			t.Errorf("audit entry %+v", e)
		}
	})
}

// TestFederatedTenantIsolation: the demo tenant's MCP server "everything"
// (a go-sdk upstream) is demo's alone: acme does not see its tools, cannot
// call them by MCP or REST, nor reach demo's REST route with its own token,
// and has no servers. Then acme registers its own "everything" at another
// upstream with a bearer credential: each tenant lists and calls its own.
func TestFederatedTenantIsolation(t *testing.T) {
	ctx := context.Background()
	// The upstreams start first so that cleanup kills gtmgate before closing
	// them: an httptest.Server's Close waits for gtmgate's open streams.
	_, demoUp := startUpstream(t, "")
	const acmeUpToken = "acme-upstream-token-0123456789"
	_, acmeUp := startUpstream(t, acmeUpToken)
	addUpstreamTool(t, acmeUp, "acme_only")
	p := start(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")

	if st := call(t, p, "PUT", "/admin/tenants/acme", "", map[string]any{"name": "Acme", "status": "active", "providers": map[string]any{}}, nil); st != 201 {
		t.Fatalf("put tenant acme: %d", st)
	}
	const acmeToken = "tok-acme-federation-0123456789"
	if st := call(t, p, "POST", "/admin/auth", "", map[string]any{"tenant_id": "acme", "token": acmeToken}, nil); st != 201 {
		t.Fatalf("register acme's token: %d", st)
	}
	v := fedEvPut(t, p, "demo", "everything", map[string]any{"url": demoUp, "auth": map[string]any{"kind": "none"}})
	if !v.served("everything__lookup") {
		t.Fatalf("demo's everything__lookup is not served: %+v", v)
	}

	listTools := func(t *testing.T, token string) []string {
		t.Helper()
		cs, err := connectMCP(t, p.gateway+"/mcp", token, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return toolNames(res.Tools)
	}
	federated := func(names []string) []string {
		var out []string
		for _, n := range names {
			if strings.Contains(n, "__") {
				out = append(out, n)
			}
		}
		return out
	}
	demoTools := federated(listTools(t, p.demoToken))
	if !slices.Contains(demoTools, "everything__lookup") || !slices.Contains(demoTools, "notes__search_notes") {
		t.Fatalf("demo's federated tools: %v", demoTools)
	}

	t.Run("acme sees none of demo's", func(t *testing.T) {
		if got := federated(listTools(t, acmeToken)); len(got) != 0 {
			t.Errorf("acme's tools/list has federated tools %v", got)
		}
		cs, err := connectMCP(t, p.gateway+"/mcp", acmeToken, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "everything__lookup", Arguments: map[string]any{"rationale": "e2e", "id": "c1"}})
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "everything__lookup") {
				t.Errorf("acme's MCP call of everything__lookup: %v", err)
			}
			t.Logf("acme's MCP call of everything__lookup: protocol error %v", err)
		case !r.IsError || fedEvMCPCode(r) != "TOOL_NOT_FOUND":
			t.Errorf("acme's MCP call of everything__lookup: %+v %s", r, resultText(r))
		}
		for _, c := range []struct {
			name, tenant string
			status       int
			code         string
		}{
			{"acme's route", "acme", 404, "TOOL_NOT_FOUND"},
			{"demo's route", "demo", 404, "TENANT_NOT_FOUND"},
		} {
			t.Run(c.name, func(t *testing.T) {
				st, a := fedEvREST(t, p, c.tenant, "everything", acmeToken, "everything__lookup", map[string]any{"rationale": "e2e", "id": "c1"})
				if st != c.status || a.OK || a.code() != c.code {
					t.Errorf("POST /api/v1/%s/mcp/everything with acme's token: %d %+v, want %d %s", c.tenant, st, a, c.status, c.code)
				}
			})
		}
		var list struct {
			Servers []mcpServerView `json:"servers"`
		}
		if st := call(t, p, "GET", "/admin/tenants/acme/mcp-servers", "", nil, &list); st != 200 || len(list.Servers) != 0 {
			t.Errorf("GET /admin/tenants/acme/mcp-servers: %d %+v", st, list)
		}
		if st := upstreamStats(t, demoUp, "lookup"); st.Calls != 0 {
			t.Errorf("demo's upstream saw %d lookup calls from acme", st.Calls)
		}
	})

	t.Run("each its own everything", func(t *testing.T) {
		av := fedEvPut(t, p, "acme", "everything", map[string]any{"url": acmeUp, "auth": map[string]any{"kind": "bearer", "token": acmeUpToken}})
		if !av.State.Reachable || !av.served("everything__acme_only") || !av.served("everything__lookup") || av.Auth.Kind != "bearer" || !av.Auth.SecretSet {
			t.Fatalf("acme's everything: %+v", av)
		}
		acmeTools, demoTools := federated(listTools(t, acmeToken)), federated(listTools(t, p.demoToken))
		if !slices.Contains(acmeTools, "everything__acme_only") || slices.Contains(acmeTools, "notes__search_notes") {
			t.Errorf("acme's federated tools: %v", acmeTools)
		}
		if slices.Contains(demoTools, "everything__acme_only") || !slices.Contains(demoTools, "everything__lookup") {
			t.Errorf("demo's federated tools: %v", demoTools)
		}
		for _, c := range []struct {
			tenant, token, id, name string
		}{
			{"demo", p.demoToken, "c1", "Ada Lovelace"},
			{"acme", acmeToken, "c2", "Grace Hopper"},
		} {
			st, a := fedEvREST(t, p, c.tenant, "everything", c.token, "everything__lookup", map[string]any{"rationale": "e2e: whose upstream", "id": c.id})
			if st != 200 || !a.OK || a.Result.StructuredContent["name"] != c.name {
				t.Errorf("%s's everything__lookup: %d %+v", c.tenant, st, a)
			}
		}
		if st := upstreamStats(t, demoUp, "lookup"); st.Calls != 1 {
			t.Errorf("demo's upstream saw %d lookup calls, want 1 (demo's)", st.Calls)
		}
		if st := upstreamStats(t, acmeUp, "lookup"); st.Calls != 1 {
			t.Errorf("acme's upstream saw %d lookup calls, want 1 (acme's)", st.Calls)
		}
		for tenant, want := range map[string]string{"demo": demoUp, "acme": acmeUp} {
			var list struct {
				Servers []mcpServerView `json:"servers"`
			}
			call(t, p, "GET", "/admin/tenants/"+tenant+"/mcp-servers", "", nil, &list)
			var everything []string
			for _, s := range list.Servers {
				if s.Name == "everything" {
					everything = append(everything, s.URL)
				}
			}
			if !slices.Equal(everything, []string{want}) {
				t.Errorf("%s's servers named everything: %v, want [%s]", tenant, everything, want)
			}
		}
	})
}

// TestFederatedGradingUnderDemo: under --demo with every call sampled and
// the sandbox judges, calls of the demo's notes server's tools are graded
// like built-in ones, and the trace the judges saw carries the upstream's
// own description of the tool.
func TestFederatedGradingUnderDemo(t *testing.T) {
	ctx := context.Background()
	p := start(t, t.TempDir(), "GRADER_SAMPLE_RATE=1")
	var grader struct {
		Enabled bool   `json:"enabled"`
		Reason  string `json:"reason"`
	}
	adminGet(t, p, "/admin/grader", &grader)
	if !grader.Enabled {
		t.Fatalf("grading is off under --demo with GRADER_SAMPLE_RATE=1: %s", grader.Reason)
	}
	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	descriptions := map[string]string{}
	for _, tool := range res.Tools {
		descriptions[tool.Name] = tool.Description
	}
	calls := []struct {
		tool, upstreamDescription string
		args                      map[string]any
	}{
		{"notes__search_notes", "Search the team's meeting and account notes by words in their title or body.",
			map[string]any{"rationale": "e2e: find the pricing notes", "query": "pricing"}},
		{"notes__add_note", "Add a note to the team's notes. It only adds; no note is changed.",
			map[string]any{"rationale": "e2e: record the call", "title": "Graded call", "body": "Added through gtmgate."}},
	}
	for _, c := range calls {
		if _, ok := descriptions[c.tool]; !ok {
			t.Fatalf("tools/list lacks %s", c.tool)
		}
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || r.IsError {
			t.Fatalf("%s: %v %+v %s", c.tool, err, r, resultText(r))
		}
	}
	for _, c := range calls {
		t.Run(c.tool, func(t *testing.T) {
			var list verdictList
			eventually(t, "a verdict on "+c.tool, 60*time.Second, func() bool {
				adminGet(t, p, "/admin/grader/verdicts?tenant=demo&tool="+url.QueryEscape(c.tool), &list)
				return len(list.Verdicts) > 0
			})
			var v struct {
				Tool   string `json:"tool"`
				Action string `json:"action"`
				Status string `json:"status"`
				Trace  *struct {
					Tool            string `json:"tool"`
					ToolDescription string `json:"tool_description"`
				} `json:"trace"`
			}
			adminGet(t, p, "/admin/grader/verdicts/"+list.Verdicts[0].ID, &v)
			if v.Tool != c.tool || v.Action != "call" || v.Status != "graded" {
				t.Errorf("verdict %+v", v)
			}
			if v.Trace == nil || v.Trace.Tool != c.tool || v.Trace.ToolDescription != c.upstreamDescription {
				t.Errorf("the judged trace of %s: %+v, want tool_description %q", c.tool, v.Trace, c.upstreamDescription)
			}
		})
	}
}
