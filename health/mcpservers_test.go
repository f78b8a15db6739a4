package health_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/health"
)

// TestSnapshotMCPServers: an upstream MCP server whose last check failed
// degrades the status (never down) with a reason that names no tenant; the
// section names each server, and one never checked degrades nothing.
func TestSnapshotMCPServers(t *testing.T) {
	now := time.Now()
	st := openStore(t)
	checked := now.Add(-time.Minute)
	src := sources(st, t.TempDir(), now, nil)

	none := health.Take(t.Context(), src)
	if none.Status != health.StatusOK || none.MCPServers == nil || len(none.MCPServers) != 0 {
		t.Fatalf("without the source: %s %v %v", none.Status, none.Reasons, none.MCPServers)
	}

	src.MCPServers = func(context.Context) ([]health.MCPServer, error) {
		return []health.MCPServer{
			{TenantID: "acme", Name: "slack", Host: "mcp.slack.example", Reachable: true, LatencyMS: 42, CheckedAt: &checked, ToolsRefreshedAt: &checked, ServedTools: 7},
			{TenantID: "acme", Name: "new", Host: "new.example"},
		}, nil
	}
	ok := health.Take(t.Context(), src)
	if ok.Status != health.StatusOK || len(ok.Reasons) != 0 || len(ok.MCPServers) != 2 || ok.MCPServers[0].ServedTools != 7 {
		t.Fatalf("reachable and unchecked servers: %s %v %+v", ok.Status, ok.Reasons, ok.MCPServers)
	}

	src.MCPServers = func(context.Context) ([]health.MCPServer, error) {
		return []health.MCPServer{
			{TenantID: "acme", Name: "slack", Host: "mcp.slack.example", Reachable: true, CheckedAt: &checked},
			{TenantID: "beta", Name: "crm", Host: "10.0.0.7:8080", CheckedAt: &checked, ToolsRefreshedAt: &checked, ServedTools: 3,
				Error: "upstream MCP server \"crm\" answered 503"},
		}, nil
	}
	down := health.Take(t.Context(), src)
	want := "1 upstream MCP server(s) unreachable: their tools fail until they answer (see mcp_servers)"
	if down.Status != health.StatusDegraded || !slices.Contains(down.Reasons, want) || len(down.MCPServers) != 2 ||
		down.MCPServers[1].Name != "crm" || down.MCPServers[1].Error == "" {
		t.Fatalf("an unreachable server: %s %v %+v", down.Status, down.Reasons, down.MCPServers)
	}
	for _, r := range down.Reasons {
		if strings.Contains(r, "beta") || strings.Contains(r, "crm") || strings.Contains(r, "503") {
			t.Errorf("a reason /health shows names tenant data: %q", r)
		}
	}

	// An OAuth server no one has connected yet is not unreachable.
	src.MCPServers = func(context.Context) ([]health.MCPServer, error) {
		return []health.MCPServer{{TenantID: "acme", Name: "crm-notes", Host: "127.0.0.1:9", CheckedAt: &checked, NotConnected: true,
			Error: "upstream MCP server \"crm-notes\" is not connected: connect it at /console/tenants/acme/mcp-servers/crm-notes"}}, nil
	}
	if waiting := health.Take(t.Context(), src); waiting.Status != health.StatusOK || len(waiting.Reasons) != 0 {
		t.Fatalf("a server waiting to be connected: %s %v", waiting.Status, waiting.Reasons)
	}

	src.MCPServers = func(context.Context) ([]health.MCPServer, error) { return nil, errors.New("database is locked") }
	failed := health.Take(t.Context(), src)
	if failed.Status != health.StatusDegraded || failed.Errors["mcp_servers"] != "database is locked" ||
		!slices.Contains(failed.Reasons, "upstream MCP servers cannot be read") {
		t.Fatalf("an unreadable source: %s %v %v", failed.Status, failed.Reasons, failed.Errors)
	}
}
