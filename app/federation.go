package app

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/mcpsandbox"
	"github.com/gtmgate/gtmgate/mcpsandbox/oauthsandbox"
	"github.com/gtmgate/gtmgate/mcpupstream"
	"github.com/riverqueue/river"
)

// mcpRefreshTick is how often the refresh job looks for upstream MCP
// servers due a refresh (GTMGATE_MCP_REFRESH_EVERY says when one is).
const mcpRefreshTick = time.Minute

// DemoMCPServer is the name of the demo tenant's upstream MCP server.
const DemoMCPServer = "notes"

// DemoOAuthMCPServer is the name of the demo tenant's OAuth MCP server,
// seeded not connected so that a person can connect it through a link.
const DemoOAuthMCPServer = "crm-notes"

// buildFederation creates the pool of sessions to tenants' upstream MCP
// servers and the catalogue of their tools. Upstream addresses follow the
// outbound policy: public only, plus the ranges the operator allows, plus
// loopback for the demo's own sandbox.
func (a *App) buildFederation() {
	a.mcpGrants.refresher = a.refresher
	var catalog *federation.Catalog
	a.mcpPool = mcpupstream.NewPool(mcpupstream.Options{
		Policy:  egress.Policy{AllowLoopback: a.cfg.Demo, Allow: a.cfg.MCPUpstreamAllow},
		Version: a.version,
		OnToolsChanged: func(tenantID, server string) {
			catalog.ToolsChanged(tenantID, server)
		},
		// Kept open from one scheduled refresh to the next, so the
		// upstream's list_changed keeps arriving.
		IdleTimeout:     a.cfg.MCPRefreshEvery + time.Minute,
		Grants:          a.mcpGrants,
		ProtocolVersion: a.cfg.MCPUpstreamProtocol,
		Logger:          a.logger.With("component", "mcp-upstream"),
	})
	catalog = federation.New(federation.Options{Store: a.store, Upstream: a.mcpPool, Recorder: a.recorder, Logger: a.logger.With("component", "federation"),
		ToolChanged: a.gradeToolChange})
	a.federation = catalog
}

// seedDemoMCPServer serves the demo's notes MCP server on loopback and
// registers it as the demo tenant's upstream MCP server, its tools listed;
// then the sandbox OAuth MCP server, not connected.
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
	return a.seedDemoOAuthMCPServer(ctx)
}

// seedDemoOAuthMCPServer serves the demo's sandbox OAuth MCP server (its
// own authorization server in front of a notes service) on loopback and
// registers it as the demo tenant's server DemoOAuthMCPServer, auth kind
// oauth, not connected: a person connects it from its console page. Its
// keys derive from the encryption key and it keeps its port across
// restarts when it can, so a grant made before a restart still works.
func (a *App) seedDemoOAuthMCPServer(ctx context.Context) error {
	existing, getErr := a.store.GetMCPServer(ctx, DemoTenant, DemoOAuthMCPServer)
	// It accepts gtmgate's client ID metadata document, so the demo connects
	// it as the MCP specification prefers (no registration).
	sb := oauthsandbox.New(oauthsandbox.Options{MCP: mcpsandbox.New("").Handler(),
		Key: a.derivedKey("gtmgate demo oauth mcp server"), ClientMetadataDocuments: true})
	ln, err := listenDemoSandbox(existing, getErr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	sb.SetBase(base)
	srv := &http.Server{Handler: sb.Handler(), ReadHeaderTimeout: 5 * time.Second}
	a.sandboxes = append(a.sandboxes, srv)
	go srv.Serve(ln)
	s := &gtmgate.MCPServer{TenantID: DemoTenant, Name: DemoOAuthMCPServer, URL: base + "/mcp",
		Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthOAuth, Scopes: []string{"notes"}}}
	if getErr == nil {
		s.Tools, s.Overrides = existing.Tools, existing.Overrides
	}
	if _, err := a.store.PutMCPServer(ctx, s); err != nil {
		return err
	}
	a.federation.Changed(DemoTenant, DemoOAuthMCPServer)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// Without a grant this records "not connected: connect it at …".
	if _, err := a.federation.Refresh(rctx, DemoTenant, DemoOAuthMCPServer); err != nil {
		a.logger.Info("demo OAuth MCP server: "+gtmgate.AsError(err).Message, "mcp_server", DemoOAuthMCPServer)
	}
	return nil
}

// listenDemoSandbox listens on the loopback port the seeded server had,
// so that its grant (which names the token endpoint) survives a restart,
// or on a new port when that one is taken or there was none.
func listenDemoSandbox(existing *gtmgate.MCPServer, getErr error) (net.Listener, error) {
	if getErr == nil {
		if u, err := url.Parse(existing.URL); err == nil && u.Hostname() == "127.0.0.1" {
			if ln, err := net.Listen("tcp", u.Host); err == nil {
				return ln, nil
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("sandbox %s: %w", DemoOAuthMCPServer, err)
	}
	return ln, nil
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
