// Package app wires gtmgate together: configuration in, listeners, store,
// tools and workers out. It is the only package that imports every other;
// end-to-end tests start it on port 0 with a temporary data dir.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/agent"
	"github.com/gtmgate/gtmgate/audit"
	"github.com/gtmgate/gtmgate/brief"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/mcpupstream"
	"github.com/gtmgate/gtmgate/middleware"
	"github.com/gtmgate/gtmgate/openapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/quality"
	"github.com/gtmgate/gtmgate/quota"
	"github.com/gtmgate/gtmgate/ratelimit"
	"github.com/gtmgate/gtmgate/reauth"
	"github.com/gtmgate/gtmgate/refresh"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/schedule"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storecache"
	"github.com/gtmgate/gtmgate/toolrun"
)

// App is one running gtmgate process.
type App struct {
	cfg     config.Config
	logger  *slog.Logger
	version string
	// dataDirLock is held while this process serves from the data directory.
	dataDirLock *os.File

	store gtmgate.Store
	// cache is the read-through cache in front of the store; readiness
	// asks it whether it could serve calls through a store outage.
	cache   *storecache.Store
	backend string
	// lifecycle is starting, serving or draining, for /health/ready.
	lifecycle gateway.Lifecycle
	sealer    *secret.Sealer
	// key is the encryption key; the demo token is derived from it.
	key      []byte
	recorder *audit.Writer
	// calls is the recorder of calls: recorder, counted by meter.
	calls gtmgate.Recorder
	meter *quota.Meter
	// limiter enforces tenants' rate limits, shared among the replicas
	// that heartbeat counts.
	limiter   *ratelimit.Limiter
	replicas  *ratelimit.Replicas
	heartbeat *ratelimit.Heartbeat
	// started is when this process started; latestHealth the last
	// health snapshot /health reports from.
	started      time.Time
	latestHealth healthCache
	registry     *registry.Registry
	// clients are the provider clients by provider key, and Google's tokeninfo.
	clients map[string]*upstream.Client
	// gatewayAPI is the gateway's OpenAPI document, published on the docs
	// host; held compressed until the docs host is first asked for it.
	gatewayAPI *openapi.Published
	runner     *toolrun.Runner
	// mcpPool holds the sessions to tenants' upstream MCP servers, whose
	// tools federation keeps.
	mcpPool    *mcpupstream.Pool
	federation *federation.Catalog
	// mcpGrants are the oauth MCP servers' grants, their tokens cached.
	mcpGrants *mcpGrants
	metrics   *middleware.Metrics
	refresher *refresh.Refresher
	reauth    *reauth.Lister
	jobs      *jobs.Engine
	harness   *quality.Harness
	grading   quality.Status
	agents    *agent.Agents
	scheduler *schedule.Scheduler
	brief     *brief.Writer

	stopWorkers context.CancelFunc
	workersDone chan struct{}

	// AdminKey is set when the admin key was generated on this start; it is
	// printed once and never stored.
	AdminKey string
	// DemoToken is the demo tenant's bearer token when --demo is on.
	DemoToken string

	handlers  map[string]http.Handler
	servers   map[string]*http.Server
	addrs     map[string]string
	sandboxes []*http.Server
	// connectBases and demoOAuthApps are the demo's sandbox authorization
	// servers for connect links (connectdemo.go); empty without --demo.
	connectBases  map[string]string
	demoOAuthApps map[string]gtmgate.OAuthApp
	// demoRoute is the sandbox receiver's webhook the demo tenant's
	// approval route posts to (demoapprovals.go); no URL without one.
	demoRoute gtmgate.ApprovalWebhook

	// connectClock holds a test's clock for connect links (SetConnectClock).
	connectClock atomic.Value

	serveErr  chan error
	closeOnce sync.Once
	// requests is every request's base context; cancelled (cause
	// gtmgate.ErrShuttingDown) when shutdown runs out of time.
	requests       context.Context
	cancelRequests context.CancelCauseFunc
}

// Surfaces are the three listeners.
const (
	SurfaceSite    = "site"
	SurfaceGateway = "gateway"
	SurfaceDocs    = "docs"
	// SurfaceDebug serves Go's pprof profiles when GTMGATE_DEBUG_ADDR is set.
	SurfaceDebug = "debug"
)

// New opens the store and builds every surface; it does not listen yet.
func New(ctx context.Context, cfg config.Config, logger *slog.Logger, version string) (_ *App, err error) {
	a := &App{cfg: cfg, logger: logger, version: version, handlers: map[string]http.Handler{},
		servers: map[string]*http.Server{}, addrs: map[string]string{}, serveErr: make(chan error, 8)}
	a.started = time.Now()
	a.requests, a.cancelRequests = context.WithCancelCause(context.Background())
	defer func() {
		if err != nil {
			a.closeResources()
		}
	}()
	if err := a.openStore(ctx); err != nil {
		return nil, err
	}
	journal := ""
	if cfg.AuditJournal {
		journal = filepath.Join(cfg.DataDir, "journal")
	}
	if a.recorder, err = audit.NewWriter(a.store, &audit.Options{JournalDir: journal, Logger: logger}); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if err := a.buildLimits(ctx); err != nil {
		return nil, err
	}
	a.metrics = middleware.NewMetrics()
	a.handlers[SurfaceDebug] = debugHandler()
	if err := a.startModelSandbox(); err != nil {
		return nil, err
	}
	if err := a.startAlertReceiver(); err != nil {
		return nil, err
	}
	if err := a.buildQuality(); err != nil {
		return nil, err
	}
	if err := a.buildAgents(); err != nil {
		return nil, err
	}
	if err := a.buildTools(ctx); err != nil {
		return nil, err
	}
	if err := a.openJobs(ctx); err != nil {
		return nil, err
	}
	if err := a.buildSurfaces(ctx); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *App) openStore(ctx context.Context) error {
	if err := a.makeDataDir(); err != nil {
		return err
	}
	if a.usesDataDir() {
		if err := a.lockDataDir(); err != nil {
			return err
		}
	}
	key, err := a.encryptionKey()
	if err != nil {
		return err
	}
	a.key = key
	if a.sealer, err = secret.NewSealer(key); err != nil {
		return fmt.Errorf("GTMGATE_ENCRYPTION_KEY: %w", err)
	}
	opts := &sqlstore.Options{Sealer: a.sealer}
	var st *sqlstore.Store
	if a.cfg.DatabaseURL != "" {
		a.backend = "postgres"
		st, err = postgres.Open(ctx, a.cfg.DatabaseURL, opts)
	} else {
		a.backend = "sqlite"
		st, err = sqlite.Open(ctx, filepath.Join(a.cfg.DataDir, "gtmgate.db"), opts)
	}
	if err != nil {
		// st is a nil pointer here; keep it out of a.store so cleanup skips it.
		// The message names the setting to change and the cause once (the
		// wrapped chain says "unavailable" at every layer).
		if a.cfg.DatabaseURL != "" {
			return fmt.Errorf("DATABASE_URL: the PostgreSQL store could not be opened; check the URL, and that the server is up and reachable from here: %w",
				rootCause(err))
		}
		return fmt.Errorf("GTMGATE_DATA_DIR (--data-dir): the SQLite store in %s could not be opened: %w", a.cfg.DataDir, rootCause(err))
	}
	a.store = st
	if err := a.checkEncryptionKey(ctx, st); err != nil {
		return err
	}
	// Every tool call reads its token, tenant and provider token; a short
	// cache keeps those reads off the hot path (see storecache for the TTL).
	a.cache = storecache.New(a.store, 0, nil)
	a.cache.Logger = a.logger.With("component", "storecache")
	a.store = a.cache
	return nil
}

// rootCause is the innermost error of a chain of single wraps.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

func (a *App) encryptionKey() ([]byte, error) {
	if a.cfg.EncryptionKey != "" {
		k, err := secret.ParseKey(a.cfg.EncryptionKey)
		if err != nil {
			return nil, fmt.Errorf("GTMGATE_ENCRYPTION_KEY: %w", err)
		}
		return k, nil
	}
	path := a.keyFile()
	k, created, err := secret.LoadOrCreateKey(path)
	if err != nil {
		return nil, fmt.Errorf("GTMGATE_ENCRYPTION_KEY: %w", err)
	}
	if created {
		a.logger.Warn("generated an encryption key; back it up or set GTMGATE_ENCRYPTION_KEY — without it stored provider tokens cannot be read, and every other replica of this store must be started with it", "path", path)
	}
	return k, nil
}

// Registry returns the tool registry the gateway serves.
func (a *App) Registry() *registry.Registry { return a.registry }

// Start binds the enabled listeners and serves them.
func (a *App) Start() error {
	for _, s := range []struct{ name, addr string }{
		{SurfaceSite, a.cfg.SiteAddr}, {SurfaceGateway, a.cfg.GatewayAddr}, {SurfaceDocs, a.cfg.DocsAddr},
		{SurfaceDebug, a.cfg.DebugAddr},
	} {
		h, ok := a.handlers[s.name]
		if !ok || !config.Enabled(s.addr) {
			continue
		}
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			env, flag := listenerSetting(s.name)
			return fmt.Errorf("%s (%s): the %s listener cannot listen on %s: %w; give a free address, or off", env, flag, s.name, s.addr, err)
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: min(10*time.Second, a.cfg.ReadTimeout), ReadTimeout: a.cfg.ReadTimeout,
			IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10, ErrorLog: slog.NewLogLogger(a.logger.Handler(), slog.LevelWarn),
			BaseContext: func(net.Listener) context.Context { return a.requests }}
		if s.name != SurfaceGateway {
			// The gateway streams (chat); its handlers bound themselves. The
			// other surfaces answer from memory and never need long.
			srv.WriteTimeout = contentWriteTimeout
		}
		a.servers[s.name] = srv
		a.addrs[s.name] = ln.Addr().String()
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				a.serveErr <- fmt.Errorf("%s listener: %w", s.name, err)
			}
		}()
		a.logger.Info("listening", "surface", s.name, "addr", ln.Addr().String())
	}
	wctx, cancel := context.WithCancel(context.Background())
	a.stopWorkers, a.workersDone = cancel, make(chan struct{})
	go func() {
		defer close(a.workersDone)
		var wg sync.WaitGroup
		wg.Go(func() { a.refresher.Run(wctx) })
		wg.Go(func() { a.meter.Run(wctx) })
		wg.Go(func() { a.heartbeat.Run(wctx) })
		if a.harness != nil {
			wg.Go(func() { a.harness.Run(wctx) })
		}
		wg.Wait()
	}()
	if err := a.jobs.Start(wctx); err != nil {
		return err
	}
	a.lifecycle.Serve()
	// Building the surfaces (specs, schemas, content, templates) leaves
	// twice the live heap in garbage, which the runtime would hand back to
	// the system only over minutes: an idle gtmgate then held some 20 MB
	// more private memory than it uses. One collection now gives it back.
	debug.FreeOSMemory()
	return nil
}

// contentWriteTimeout bounds writing a response on the site, docs and debug listeners.
const contentWriteTimeout = 60 * time.Second

// shutdownGrace is how long requests still running when the shutdown time-out
// passes get to answer after being cancelled.
const shutdownGrace = 3 * time.Second

// Addr returns the bound address of a surface ("" when off).
func (a *App) Addr(surface string) string { return a.addrs[surface] }

// Handler returns a surface's handler (nil when the surface is not built).
func (a *App) Handler(surface string) http.Handler { return a.handlers[surface] }

// Errors reports a listener that failed while serving.
func (a *App) Errors() <-chan error { return a.serveErr }

// Close shuts down in order: stop accepting and drain requests, stop the
// sandboxes, flush the audit writer, close the store.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	a.closeOnce.Do(func() {
		a.lifecycle.Drain()
		results := make(chan error, len(a.servers))
		var cancelOnce sync.Once
		for name, srv := range a.servers {
			go func() {
				err := srv.Shutdown(ctx)
				if err != nil {
					// Past the time-out: cancel what is still running, so each
					// call answers 503 and is recorded, then wait briefly.
					cancelOnce.Do(func() {
						a.logger.Warn("shutdown time-out reached; cancelling requests still in flight", "surface", name)
						a.cancelRequests(gtmgate.ErrShuttingDown)
					})
					gctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
					err = srv.Shutdown(gctx)
					cancel()
				}
				if err != nil {
					srv.Close()
					err = fmt.Errorf("shutdown %s: %w", name, err)
				}
				results <- err
			}()
		}
		for range a.servers {
			errs = append(errs, <-results)
		}
		if ctx.Err() != nil {
			// The refresher's in-flight refreshes were cancelled with their calls.
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.Background(), shutdownGrace)
			defer cancel()
		}
		if a.stopWorkers != nil {
			a.stopWorkers()
			<-a.workersDone
		}
		if a.jobs != nil {
			// Jobs still running get until ctx ends; River retries them later.
			errs = append(errs, a.jobs.Close(ctx))
			a.jobs = nil
		}
		if a.refresher != nil {
			errs = append(errs, a.refresher.Close(ctx))
		}
		errs = append(errs, a.closeResources())
	})
	return errors.Join(errs...)
}

func (a *App) closeResources() error {
	if a.jobs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		a.jobs.Close(ctx)
		cancel()
	}
	if a.mcpPool != nil {
		a.mcpPool.Close()
	}
	for _, s := range a.sandboxes {
		s.Close()
	}
	if a.recorder != nil {
		a.recorder.Close()
	}
	var err error
	if a.store != nil {
		err = a.store.Close()
	}
	a.unlockDataDir()
	return err
}

// debugHandler serves the runtime profiles of net/http/pprof, for finding
// where a slow or busy gtmgate spends its time.
func debugHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// listenerSetting names the setting and flag of a surface's address.
func listenerSetting(surface string) (env, flag string) {
	return "GTMGATE_" + strings.ToUpper(surface) + "_ADDR", "--" + surface + "-addr"
}
