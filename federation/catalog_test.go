package federation_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeUpstream answers ListTools with tools, or fails with down; CallTool
// echoes its arguments.
type fakeUpstream struct {
	mu     sync.Mutex
	tools  []*mcp.Tool
	down   error
	calls  []string
	args   []json.RawMessage
	result *mcp.CallToolResult
}

func (f *fakeUpstream) ListTools(context.Context, *gtmgate.MCPServer) ([]*mcp.Tool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down != nil {
		return nil, f.down
	}
	return f.tools, nil
}

func (f *fakeUpstream) CallTool(_ context.Context, s *gtmgate.MCPServer, tool string, args json.RawMessage, _ bool, _ func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s.TenantID+"/"+s.Name+"/"+tool)
	f.args = append(f.args, args)
	if f.result != nil {
		return f.result, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(args)}}}, nil
}

func (f *fakeUpstream) Forget(string, string) {}

func ptr[T any](v T) *T { return &v }

var objectSchema = map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []any{"text"}}

func newCatalog(t *testing.T) (*federation.Catalog, gtmgate.Store, *fakeUpstream) {
	t.Helper()
	st := storetest.TenantWithToken(t)
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "globex", Name: "Globex", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	up := &fakeUpstream{tools: []*mcp.Tool{
		{Name: "read", Description: "Reads.", InputSchema: objectSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "post", Description: "Posts.", InputSchema: objectSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		{Name: "plain", InputSchema: map[string]any{"type": "object"}},
		{Name: "tricky", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/x"}}}},
	}}
	c := federation.New(federation.Options{Store: st, Upstream: up, CacheFor: time.Hour})
	return c, st, up
}

func TestRefreshBuildsTenantTools(t *testing.T) {
	ctx := t.Context()
	c, st, _ := newCatalog(t)
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", AutoAcceptChanges: true,
		Overrides: map[string]gtmgate.MCPToolOverride{"plain": {Mutating: ptr(false), Category: gtmgate.CategoryCRMRead}}})
	v, err := c.Refresh(ctx, "acme", "up")
	if err != nil {
		t.Fatal(err)
	}
	if !v.State.Reachable || v.State.ToolsRefreshedAt == nil {
		t.Fatalf("state %+v", v.State)
	}
	want := map[string]struct {
		served                bool
		mutating, destructive bool
		category              gtmgate.Category
		refused               string
	}{
		"up__read":   {served: true, category: gtmgate.CategoryDataQuery},
		"up__post":   {served: true, mutating: true, category: gtmgate.CategoryDataQuery},
		"up__plain":  {served: true, category: gtmgate.CategoryCRMRead}, // overridden: no annotations would mean mutating and destructive
		"up__tricky": {refused: "$ref", mutating: true, destructive: true},
	}
	for _, tv := range v.Tools {
		w, ok := want[tv.Name]
		if !ok {
			t.Fatalf("unexpected tool %s", tv.Name)
		}
		if tv.Served != w.served || tv.Mutating != w.mutating || tv.Destructive != w.destructive ||
			(w.served && tv.Category != w.category) || !strings.Contains(tv.Refused, w.refused) {
			t.Errorf("%s = %+v, want %+v", tv.Name, tv, w)
		}
	}
	tools, rev, err := c.Tools(ctx, "acme")
	if err != nil || len(tools) != 3 || rev == "" {
		t.Fatalf("Tools = %d tools, revision %q, %v", len(tools), rev, err)
	}
	if others, _, _ := c.Tools(ctx, "globex"); len(others) != 0 {
		t.Fatalf("another tenant sees %d federated tools", len(others))
	}
	if _, err := c.Tool(ctx, "globex", "up__read"); !errors.Is(err, gtmgate.ErrNotFound) {
		t.Fatalf("another tenant finds up__read: %v", err)
	}
}

func TestAllowListLeavesToolsOut(t *testing.T) {
	ctx := t.Context()
	c, st, _ := newCatalog(t)
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", Tools: []string{"read"}, AutoAcceptChanges: true})
	v, err := c.Refresh(ctx, "acme", "up")
	if err != nil {
		t.Fatal(err)
	}
	for _, tv := range v.Tools {
		if tv.Served != (tv.Upstream == "read") {
			t.Errorf("%s served = %v", tv.Name, tv.Served)
		}
	}
	if _, err := c.Tool(ctx, "acme", "up__post"); !errors.Is(err, gtmgate.ErrNotFound) {
		t.Fatalf("a tool outside the allow-list is found: %v", err)
	}
}

func TestLastGoodListKeptWhileDown(t *testing.T) {
	ctx := t.Context()
	c, st, up := newCatalog(t)
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", AutoAcceptChanges: true})
	if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
		t.Fatal(err)
	}
	up.down = gtmgate.Errorf(gtmgate.EUnavailable, `upstream MCP server "up" is unreachable`)
	v, err := c.Refresh(ctx, "acme", "up")
	if gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
		t.Fatalf("err = %v, want UNAVAILABLE", err)
	}
	if v.State.Reachable || !strings.Contains(v.State.Error, "unreachable") {
		t.Fatalf("state %+v", v.State)
	}
	if _, err := c.Tool(ctx, "acme", "up__read"); err != nil {
		t.Fatalf("the last good list was dropped: %v", err)
	}
}

func TestRunSendsArgumentsWithoutRationale(t *testing.T) {
	ctx := t.Context()
	c, st, up := newCatalog(t)
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", AutoAcceptChanges: true})
	if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
		t.Fatal(err)
	}
	e, err := c.Tool(ctx, "acme", "up__post")
	if err != nil {
		t.Fatal(err)
	}
	input := json.RawMessage(`{"rationale":"why","text":"hello"}`)
	if _, _, err := e.Validate(input); err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(ctx, &gtmgate.Call{TenantID: "acme", Input: input})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(*mcp.CallToolResult); !ok {
		t.Fatalf("result %T", res)
	}
	if got := string(up.args[0]); got != `{"text":"hello"}` || up.calls[0] != "acme/up/post" {
		t.Fatalf("upstream got %s %s", up.calls[0], got)
	}
	up.result = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "channel not found"}}}
	_, err = e.Run(ctx, &gtmgate.Call{TenantID: "acme", Input: input})
	if gtmgate.ErrorCode(err) != gtmgate.EUpstream || !strings.Contains(err.Error(), `"up"`) || !strings.Contains(err.Error(), "channel not found") {
		t.Fatalf("isError result gave %v", err)
	}
}

func TestRefreshDueSkipsFreshServers(t *testing.T) {
	ctx := t.Context()
	c, st, _ := newCatalog(t)
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "a", URL: "https://a.example/mcp", AutoAcceptChanges: true})
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "globex", Name: "b", URL: "https://b.example/mcp", AutoAcceptChanges: true})
	n, failed, err := c.RefreshDue(ctx, time.Hour)
	if err != nil || n != 2 || failed != 0 {
		t.Fatalf("first pass: %d refreshed, %d failed, %v", n, failed, err)
	}
	if n, _, _ := c.RefreshDue(ctx, time.Hour); n != 0 {
		t.Fatalf("second pass refreshed %d fresh servers", n)
	}
}

// A refresh that finds the same tools leaves the tenant's revision, and so
// its MCP server and entries, as they were; a changed list moves it.
func TestRevisionMovesOnlyWithTheTools(t *testing.T) {
	ctx := t.Context()
	c, st, up := newCatalog(t)
	st.PutMCPServer(ctx, &gtmgate.MCPServer{TenantID: "acme", Name: "up", URL: "https://mcp.example/mcp", AutoAcceptChanges: true})
	if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
		t.Fatal(err)
	}
	_, first, _ := c.Tools(ctx, "acme")
	if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
		t.Fatal(err)
	}
	if _, again, _ := c.Tools(ctx, "acme"); again != first {
		t.Fatalf("revision moved from %q to %q with the same tools", first, again)
	}
	up.mu.Lock()
	up.tools = up.tools[:1]
	up.mu.Unlock()
	if _, err := c.Refresh(ctx, "acme", "up"); err != nil {
		t.Fatal(err)
	}
	if tools, changed, _ := c.Tools(ctx, "acme"); changed == first || len(tools) != 1 {
		t.Fatalf("revision %q (was %q), %d tools after the list shrank to one", changed, first, len(tools))
	}
}
