package gateway

import (
	"context"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate/buildinfo"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Health is the answer of GET /health/ready and GET /health.
type Health struct {
	// Status is ok, degraded (ready, with reasons) or unavailable (not
	// ready: 503).
	Status string `json:"status"`
	// Ready says whether this replica can serve calls: the status code is
	// 200 when it can, 503 when it cannot.
	Ready     bool         `json:"ready"`
	Version   string       `json:"version"`
	Commit    string       `json:"commit,omitempty"`
	GoVersion string       `json:"go_version"`
	Uptime    float64      `json:"uptime_seconds"`
	Store     StoreHealth  `json:"store"`
	Audit     *AuditHealth `json:"audit,omitempty"`
	Cache     *CacheHealth `json:"cache,omitempty"`
	// Grading says whether the quality harness grades calls, and if not why.
	Grading *GradingHealth `json:"grading,omitempty"`
	// Reasons say why the replica is not ready or degraded, or what the
	// latest system health snapshot warns of while ok, such as a provider
	// API version nearing its sunset (counts and component names only;
	// GET /admin/system-health has the detail).
	Reasons    []string   `json:"reasons,omitempty"`
	SnapshotAt *time.Time `json:"snapshot_at,omitempty"`
}

// Liveness is the answer of GET /health/live.
type Liveness struct {
	// Status is ok, or draining while the process shuts down (503).
	Status string  `json:"status"`
	Uptime float64 `json:"uptime_seconds"`
}

// GradingHealth is the quality harness's part of the health answer.
type GradingHealth struct {
	Enabled    bool    `json:"enabled"`
	SampleRate float64 `json:"sample_rate"`
	Reason     string  `json:"reason,omitempty"`
}

// AuditHealth says whether calls' audit records can be made durable: when
// they cannot, tool calls and chat completions are refused with 503.
type AuditHealth struct {
	Durable bool `json:"durable"`
	// Journaled says records go to the local audit journal first, so they
	// stay durable while the store is unreachable.
	Journaled bool `json:"journaled"`
	// Backlog is the number of recorded calls not yet in the store.
	Backlog uint64 `json:"backlog"`
	Error   string `json:"error,omitempty"`
}

// AuditState is what health needs of the audit writer.
type AuditState interface {
	Check() error
	Backlog() uint64
	Journaled() bool
}

// CacheHealth is the store cache's part of the health answer.
type CacheHealth struct {
	// Servable is how many bearer tokens the cache could serve calls for
	// now (token and tenant cached, fresh or within the outage allowance)
	// if the store were unreachable.
	Servable int `json:"servable_credentials"`
}

// CacheState is what health needs of the store cache.
type CacheState interface {
	Servable() int
}

// StoreHealth is the store's part of the health answer.
type StoreHealth struct {
	Backend   string  `json:"backend"`
	Reachable bool    `json:"reachable"`
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
}

// pingTimeout bounds the store ping of a readiness answer, so a black-holed
// store still lets it answer within a probe's usual time-out.
const pingTimeout = 500 * time.Millisecond

// handleLive serves GET /health/live: no auth; 200 while the process runs
// and its listener answers, 503 once it is shutting down.
func (s *Server) handleLive(w http.ResponseWriter, r *http.Request) {
	body, status := Liveness{Status: "ok", Uptime: time.Since(s.started).Seconds()}, http.StatusOK
	if s.opts.Lifecycle.State() == Draining {
		body.Status, status = "draining", http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	jsonapi.Write(w, status, body)
}

// handleReady serves GET /health/ready and GET /health: no auth; 200 while
// this replica can serve calls (degraded, with reasons, when it serves them
// from the cache and the audit journal during a store outage), 503 when it
// cannot. Causes are logged; the answer names no host, path or secret.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	body := s.readiness(r.Context())
	status := http.StatusOK
	if !body.Ready {
		status = http.StatusServiceUnavailable
	}
	w.Header().Set("Cache-Control", "no-store")
	jsonapi.Write(w, status, body)
}

func (s *Server) readiness(ctx context.Context) Health {
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	start := time.Now()
	err := s.opts.Store.Ping(pctx)
	bi := buildinfo.Get()
	body := Health{Status: "ok", Version: s.opts.Version, Commit: bi.Commit, GoVersion: bi.GoVersion, Uptime: time.Since(s.started).Seconds(),
		Store:   StoreHealth{Backend: s.opts.StoreBackend, Reachable: err == nil, LatencyMS: float64(time.Since(start).Microseconds()) / 1000},
		Grading: s.opts.Grading}
	var notReady, degraded []string
	switch s.opts.Lifecycle.State() {
	case Starting:
		notReady = append(notReady, "starting: not serving calls yet")
	case Draining:
		notReady = append(notReady, "draining: the process is shutting down")
	}
	log := jsonapi.LoggerFrom(ctx)
	if s.opts.Audit != nil {
		body.Audit = &AuditHealth{Durable: true, Journaled: s.opts.Audit.Journaled(), Backlog: s.opts.Audit.Backlog()}
		if aerr := s.opts.Audit.Check(); aerr != nil {
			// The cause names paths and hosts: logged, not shown here.
			body.Audit.Durable = false
			body.Audit.Error = "audit records cannot be made durable; tool calls are refused"
			notReady = append(notReady, body.Audit.Error)
			log.Warn("health: audit records cannot be made durable", "err", aerr)
		}
	}
	if s.opts.Cache != nil {
		body.Cache = &CacheHealth{Servable: s.opts.Cache.Servable()}
	}
	if err != nil {
		// The cause can name hosts; keep it out of an unauthenticated answer.
		body.Store.Error = "store unreachable"
		log.Warn("health: store unreachable", "err", err)
		switch {
		case body.Audit == nil || !body.Audit.Journaled:
			notReady = append(notReady, "store unreachable and no audit journal to keep call records in")
		case body.Cache == nil || body.Cache.Servable == 0:
			notReady = append(notReady, "store unreachable and the cache holds no credential to serve calls for")
		case body.Audit.Durable:
			degraded = append(degraded, "store unreachable: serving calls from the cache and the audit journal")
		}
	}
	switch {
	case len(notReady) > 0:
		body.Status, body.Reasons = "unavailable", append(notReady, degraded...)
		return body
	case len(degraded) > 0:
		body.Status, body.Ready, body.Reasons = "degraded", true, degraded
		return body
	}
	body.Ready = true
	if s.opts.Snapshot != nil {
		// An ok snapshot can carry reasons too: warnings that fail nothing
		// yet, such as a provider API version nearing its sunset.
		if st, reasons, at := s.opts.Snapshot(ctx); st != "" && (st != "ok" || len(reasons) > 0) {
			body.Reasons, body.SnapshotAt = reasons, &at
			if st != "ok" {
				body.Status = "degraded"
			}
		}
	}
	return body
}
