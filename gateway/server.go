// Package gateway is the gateway listener's HTTP surface: the REST proxy,
// health, metrics, and the mounting of MCP, chat completions, OAuth and the
// admin API, all listed in one routes function.
package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/favicon"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/middleware"
	"github.com/gtmgate/gtmgate/routes"
	"github.com/gtmgate/gtmgate/telemetry"
	"github.com/gtmgate/gtmgate/toolrun"
)

// Options configures the gateway surface. Runner, Auth and Store are required.
type Options struct {
	Runner       *toolrun.Runner
	Auth         *Authenticator
	Store        gtmgate.Store
	StoreBackend string
	Version      string
	MaxBodyBytes int64
	Metrics      *middleware.Metrics
	Logger       *slog.Logger
	// Admin, Console, MCP, Chat and OAuth are mounted when set.
	Admin   http.Handler
	Console http.Handler
	MCP     http.Handler
	Chat    ChatHandler
	OAuth   Mounter
	// Public mount pages that take no credential of their own (connect links').
	Public []Mounter
	// Grading, when set, is reported by /health.
	Grading *GradingHealth
	// Audit, when set, is reported by /health.
	Audit AuditState
	// Cache, when set, is the store cache: readiness holds through a store
	// outage while it can serve calls.
	Cache CacheState
	// Lifecycle, when set, is the process's state: /health/ready answers
	// 503 while starting or draining. Nil counts as serving.
	Lifecycle *Lifecycle
	// Snapshot, when set, returns the latest system health snapshot's
	// status and reasons: /health reports degraded with them.
	Snapshot func(ctx context.Context) (status string, reasons []string, takenAt time.Time)
	// OpenAPI serves GET /openapi.json, the description of this surface.
	OpenAPI http.Handler
}

// ChatHandler serves the OpenAI-compatible routes.
type ChatHandler interface {
	ServeChatCompletions(w http.ResponseWriter, r *http.Request)
	ServeModels(w http.ResponseWriter, r *http.Request)
}

// Mounter adds its own routes to a mux.
type Mounter interface {
	Mount(mux gtmgate.Router)
}

// Server is the gateway surface.
type Server struct {
	opts     Options
	started  time.Time
	handler  http.Handler
	mux      *http.ServeMux
	recorded *routes.Recorder
}

// New builds the gateway surface.
func New(opts Options) *Server {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &Server{opts: opts, started: time.Now()}
	s.handler = middleware.Chain(s.routes(), middleware.RequestID(opts.Logger), telemetry.ServerMiddleware("gateway"),
		middleware.Observe("gateway", opts.Metrics), middleware.Recover,
		middleware.Headers(middleware.GatewayHeaders))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) routes() *http.ServeMux {
	root := http.NewServeMux()
	mux := routes.NewRecorder(root)
	s.mux, s.recorded = root, mux
	auth := s.opts.Auth.Require
	// /health is /health/ready under its first name, so a load balancer
	// pointed at it keeps replicas that serve through a store outage.
	mux.HandleFunc("GET /health", s.handleReady)
	mux.HandleFunc("GET /health/ready", s.handleReady)
	mux.HandleFunc("GET /health/live", s.handleLive)
	if s.opts.Metrics != nil {
		mux.Handle("GET /metrics", s.opts.Metrics.Handler())
	}
	mux.Handle("POST /api/v1/{tenant}/{domain}", auth(http.HandlerFunc(s.handleToolCall)))
	// The tools of a tenant's upstream MCP server "x" are in domain mcp/x.
	mux.Handle("POST /api/v1/{tenant}/mcp/{server}", auth(http.HandlerFunc(s.handleToolCall)))
	mux.Handle("GET /api/v1/{tenant}/approvals/{id}", auth(http.HandlerFunc(s.handleApprovalStatus)))
	if s.opts.MCP != nil {
		mux.Handle("/mcp", s.opts.MCP)
	}
	if s.opts.Chat != nil {
		mux.Handle("POST /v1/chat/completions", auth(http.HandlerFunc(s.opts.Chat.ServeChatCompletions)))
		mux.Handle("GET /v1/models", auth(http.HandlerFunc(s.opts.Chat.ServeModels)))
	}
	if s.opts.OAuth != nil {
		s.opts.OAuth.Mount(mux)
	}
	for _, m := range s.opts.Public {
		m.Mount(mux)
	}
	if s.opts.OpenAPI != nil {
		mux.Handle("GET /openapi.json", s.opts.OpenAPI)
	}
	// The admin API and the fallback are listed by Patterns apart: the admin
	// handler records its own routes.
	if s.opts.Admin != nil {
		root.Handle("/admin/", middleware.Headers(middleware.AdminHeaders)(s.opts.Admin))
	}
	if s.opts.Console != nil {
		root.Handle("/console", s.opts.Console)
		root.Handle("/console/", s.opts.Console)
	}
	// The icon is for browsers, not part of the API Patterns describes.
	root.Handle("GET "+favicon.Path, favicon.Handler())
	root.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ENotFound, "no route %s %s", r.Method, r.URL.Path).
			WithHint("tool calls go to POST /api/v1/{tenant}/{domain}; MCP to /mcp; see the docs host"))
	})
	return root
}

// Patterns lists every route of the gateway surface, the admin API's
// included, as registered on their muxes.
func (s *Server) Patterns() []string {
	out := s.recorded.Patterns()
	if a, ok := s.opts.Admin.(interface{ Patterns() []string }); ok {
		out = append(out, a.Patterns()...)
	}
	return out
}

// Route returns the registered pattern that serves r, or "" when only the
// not-found fallback would: the test that holds the API description to the
// routes asks it where each described operation lands.
func (s *Server) Route(r *http.Request) string {
	_, pattern := s.mux.Handler(r)
	if pattern == "/admin/" {
		if a, ok := s.opts.Admin.(interface{ Route(*http.Request) string }); ok {
			return a.Route(r)
		}
	}
	if pattern == "/" || pattern == "/admin/" {
		return ""
	}
	return pattern
}
