package app

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/mcpsandbox"
	"github.com/gtmgate/gtmgate/mcpupstream"
	"github.com/riverqueue/river"
)

// mcpRefreshTick is how often the refresh job looks for upstream MCP
// servers due a refresh (GTMGATE_MCP_REFRESH_EVERY says when one is).
const mcpRefreshTick = time.Minute

// DemoMCPServer is the name of the demo tenant's upstream MCP server.
const DemoMCPServer = "notes"

// buildFederation creates the pool of sessions to tenants' upstream MCP
// servers and the catalogue of their tools. Upstream addresses follow the
// outbound policy: public only, plus the ranges the operator allows, plus
// loopback for the demo's own sandbox.
func (a *App) buildFederation() {
	var catalog *federation.Catalog
	a.mcpPool = mcpupstream.NewPool(mcpupstream.Options{
		Policy:  egress.Policy{AllowLoopback: a.cfg.Demo, Allow: a.cfg.MCPUpstreamAllow},
		Version: a.version,
		OnToolsChanged: func(tenantID, server string) {
			catalog.ToolsChanged(tenantID, server)
		},
		// Kept open from one scheduled refresh to the next, so the
		// upstream's list_changed keeps arriving.
		IdleTimeout: a.cfg.MCPRefreshEvery + time.Minute,
		Grants:      mcpGrants{a},
		Logger:      a.logger.With("component", "mcp-upstream"),
	})
	catalog = federation.New(federation.Options{Store: a.store, Upstream: a.mcpPool, Recorder: a.recorder, Logger: a.logger.With("component", "federation"),
		ToolChanged: a.gradeToolChange})
	a.federation = catalog
}

// seedDemoMCPServer serves the demo's notes MCP server on loopback and
// registers it as the demo tenant's upstream MCP server, its tools listed.
func (a *App) seedDemoMCPServer(ctx context.Context) error {
	token := "notes_" + hex.EncodeToString(a.derivedKey("gtmgate demo mcp server"))[:32]
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpsandbox.New(token).Handler())
	url, err := a.startSandbox(gtmgate.ProviderSandbox{Provider: "mcp-notes", Handler: mux})
	if err != nil {
		return err
	}
	s := &gtmgate.MCPServer{TenantID: DemoTenant, Name: DemoMCPServer, URL: url + "/mcp",
		Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthBearer, Secret: token}}
	if existing, err := a.store.GetMCPServer(ctx, DemoTenant, DemoMCPServer); err == nil {
		s.Tools, s.Overrides = existing.Tools, existing.Overrides
	}
	if _, err := a.store.PutMCPServer(ctx, s); err != nil {
		return err
	}
	a.federation.Changed(DemoTenant, DemoMCPServer)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := a.federation.Refresh(rctx, DemoTenant, DemoMCPServer); err != nil {
		a.logger.Warn("demo MCP server: tool list not refreshed", "err", gtmgate.AsError(err).Message)
	}
	// The demo's own server is trusted: its listing is accepted as seeded.
	if _, err := a.federation.Accept(ctx, DemoTenant, DemoMCPServer, federation.AcceptRequest{All: true}, "demo"); err != nil {
		a.logger.Warn("demo MCP server: tools not accepted", "err", gtmgate.AsError(err).Message)
	}
	return nil
}

// mcpRefreshArgs is the job that refreshes upstream MCP servers due.
type mcpRefreshArgs struct{}

func (mcpRefreshArgs) Kind() string { return "mcp_tools_refresh" }

// InsertOpts implements river.JobArgsWithInsertOpts: one at a time.
func (mcpRefreshArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, mcpRefreshTick)
}

type mcpRefreshWorker struct {
	river.WorkerDefaults[mcpRefreshArgs]
	a *App
}

func (w *mcpRefreshWorker) Work(ctx context.Context, _ *river.Job[mcpRefreshArgs]) error {
	refreshed, failed, err := w.a.federation.RefreshDue(ctx, w.a.cfg.MCPRefreshEvery)
	if refreshed > 0 {
		w.a.logger.Info("upstream MCP servers refreshed", "refreshed", refreshed, "unreachable", failed)
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func (w *mcpRefreshWorker) Timeout(*river.Job[mcpRefreshArgs]) time.Duration { return 5 * time.Minute }

func mcpRefreshJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(mcpRefreshTick),
		func() (river.JobArgs, *river.InsertOpts) { return mcpRefreshArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})
}
