package app

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/quality"
)

// gradeToolChange hands a tool definition change the federation catalog
// found to the quality harness, which grades every one (when grading is on).
func (a *App) gradeToolChange(ctx context.Context, tenantID, server string, ch federation.Change) {
	if a.harness == nil {
		return
	}
	raw, err := json.Marshal(ch)
	if err != nil {
		a.logger.Warn("a tool change could not be encoded for grading", "tenant", tenantID, "server", server, "tool", ch.Tool, "err", err)
		return
	}
	var kinds []string
	for _, f := range ch.Flags {
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	a.harness.ToolChanged(ctx, quality.ToolChange{TenantID: tenantID, Server: server, Tool: ch.Tool, Change: raw, Flags: kinds,
		RequestID: gtmgate.RequestIDFromContext(ctx)})
}
