package mcpservers

import (
	"context"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/health"
)

// Health returns the system health source of every tenant's upstream MCP
// servers (health.Sources.MCPServers): each server's last check, the host
// of its URL, and how many of its tools are served.
func Health(store gtmgate.MCPServerStore, catalog Catalog) func(ctx context.Context) ([]health.MCPServer, error) {
	return func(ctx context.Context) ([]health.MCPServer, error) {
		all, err := store.ListMCPServers(ctx, "")
		if err != nil {
			return nil, err
		}
		// The served tools as calls find them: the catalogue's cached view,
		// so the minute's snapshot neither reloads nor invalidates it.
		type key struct{ tenant, name string }
		served := map[key]int{}
		seen := map[string]bool{}
		for _, s := range all {
			if seen[s.TenantID] {
				continue
			}
			seen[s.TenantID] = true
			tools, _, err := catalog.Tools(ctx, s.TenantID)
			if err != nil {
				return nil, err
			}
			for _, e := range tools {
				served[key{s.TenantID, e.Federated().Server}]++
			}
		}
		out := make([]health.MCPServer, 0, len(all))
		for _, s := range all {
			out = append(out, health.MCPServer{TenantID: s.TenantID, Name: s.Name, Host: hostOf(s.URL),
				Reachable: s.State.Reachable, LatencyMS: s.State.LatencyMS, CheckedAt: s.State.CheckedAt,
				ToolsRefreshedAt: s.State.ToolsRefreshedAt, ServedTools: served[key{s.TenantID, s.Name}], Error: s.State.Error,
				NotConnected: s.State.NotConnected})
		}
		return out, nil
	}
}
