package gateway

import (
	"context"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate/buildinfo"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Health is GET /health's answer.
type Health struct {
	Status    string       `json:"status"`
	Version   string       `json:"version"`
	Commit    string       `json:"commit,omitempty"`
	GoVersion string       `json:"go_version"`
	Uptime    float64      `json:"uptime_seconds"`
	Store     StoreHealth  `json:"store"`
	Audit     *AuditHealth `json:"audit,omitempty"`
	// Grading says whether the quality harness grades calls, and if not why.
	Grading *GradingHealth `json:"grading,omitempty"`
	// Reasons say why the latest system health snapshot is not ok, or what
	// it warns of while ok, such as a provider API version nearing its sunset
	// (counts and component names only; GET /admin/system-health has the detail).
	Reasons    []string   `json:"reasons,omitempty"`
	SnapshotAt *time.Time `json:"snapshot_at,omitempty"`
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
	// Backlog is the number of recorded calls not yet in the store.
	Backlog uint64 `json:"backlog"`
	Error   string `json:"error,omitempty"`
}

// AuditState is what health needs of the audit writer.
type AuditState interface {
	Check() error
	Backlog() uint64
}

// StoreHealth is the store's part of the health answer.
type StoreHealth struct {
	Backend   string  `json:"backend"`
	Reachable bool    `json:"reachable"`
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
}

// handleHealth serves GET /health: no auth; 503 when the store is unreachable.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	start := time.Now()
	err := s.opts.Store.Ping(ctx)
	bi := buildinfo.Get()
	body := Health{Status: "ok", Version: s.opts.Version, Commit: bi.Commit, GoVersion: bi.GoVersion, Uptime: time.Since(s.started).Seconds(),
		Store: StoreHealth{Backend: s.opts.StoreBackend, Reachable: err == nil, LatencyMS: float64(time.Since(start).Microseconds()) / 1000}}
	status := http.StatusOK
	body.Grading = s.opts.Grading
	if s.opts.Audit != nil {
		body.Audit = &AuditHealth{Durable: true, Backlog: s.opts.Audit.Backlog()}
		if aerr := s.opts.Audit.Check(); aerr != nil {
			// The cause names paths and hosts: logged, not shown here.
			body.Status, body.Audit.Durable, status = "unavailable", false, http.StatusServiceUnavailable
			body.Audit.Error = "audit records cannot be made durable; tool calls are refused"
			jsonapi.LoggerFrom(r.Context()).Warn("health: audit records cannot be made durable", "err", aerr)
		}
	}
	if err != nil {
		// The cause can name hosts; keep it out of an unauthenticated answer.
		body.Status, body.Store.Error, status = "unavailable", "store unreachable", http.StatusServiceUnavailable
		jsonapi.LoggerFrom(r.Context()).Warn("health: store unreachable", "err", err)
	}
	if s.opts.Snapshot != nil && body.Status == "ok" {
		// An ok snapshot can carry reasons too: warnings that fail nothing
		// yet, such as a provider API version nearing its sunset.
		if st, reasons, at := s.opts.Snapshot(ctx); st != "" && (st != "ok" || len(reasons) > 0) {
			body.Reasons, body.SnapshotAt = reasons, &at
			if st != "ok" {
				body.Status = "degraded"
			}
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	jsonapi.Write(w, status, body)
}
