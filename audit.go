package gtmgate

import (
	"context"
	"time"
)

// Audit sources: which surface a call came through.
const (
	SourceREST  = "rest"
	SourceMCP   = "mcp"
	SourceChat  = "chat"
	SourceAdmin = "admin"
	// SourceConsole is an admin operation made in the operator console.
	SourceConsole = "console"
	SourceCron    = "cron"
)

// Audit outcomes.
const (
	OutcomeOK      = "ok"
	OutcomeError   = "error"
	OutcomeDenied  = "denied"
	OutcomePending = "pending_approval"
)

// AuditEntry records one call. It never holds a secret: Key identifies the
// credential by id or prefix only, or, for admin requests and console
// actions, the actor ("person:<id>", "admin-key"); Via says how that actor
// signed in.
type AuditEntry struct {
	ID         int64     `json:"id"`
	Time       time.Time `json:"time"`
	TenantID   string    `json:"tenant,omitempty"`
	Action     string    `json:"action"`
	Source     string    `json:"source"`
	Key        string    `json:"key,omitempty"`
	Via        string    `json:"via,omitempty"`
	Outcome    string    `json:"outcome"`
	Status     int       `json:"status"`
	ErrorCode  string    `json:"error_code,omitempty"`
	DurationMS float64   `json:"duration_ms"`
	RequestID  string    `json:"request_id"`
	// Detail is a short, secret-free note (for example who decided an approval).
	Detail string `json:"detail,omitempty"`
	// TraceID is the OpenTelemetry trace of the request, when it was traced.
	TraceID string `json:"trace_id,omitempty"`
	// ParentRequestID is the request an agent run's call was made for.
	ParentRequestID string `json:"parent_request_id,omitempty"`
	// CorrelationID is the X-Request-Id the client sent, if any: its own
	// name for the call, meaningful only within the entry's tenant.
	CorrelationID string `json:"correlation_id,omitempty"`
	// Failure is a failed call's error ledger entry. It travels with the
	// call's audit entry, through the audit journal and into the store in
	// the same transaction, so a failure recorded during a store outage can
	// still be replayed once the store is back. Only written, never read back.
	Failure *LedgerEntry `json:"-"`
}

// AuditFilter selects audit entries, newest first.
type AuditFilter struct {
	TenantID string
	Action   string
	Source   string
	Key      string
	// Parent selects the calls made for one request (an agent run's).
	Parent string
	// RequestID selects the entries of one request.
	RequestID string
	// CorrelationID selects the entries whose client sent this X-Request-Id;
	// it needs TenantID (see Validate).
	CorrelationID string
	Since         time.Time
	// Before is the cursor: only entries with ID < Before (0 = no bound).
	Before int64
	Limit  int
}

// Validate returns a VALIDATION_ERROR when f would select by correlation id
// across tenants: clients choose correlation ids, so two tenants can share
// one, and only (tenant, correlation id) names a client's calls.
func (f AuditFilter) Validate() error {
	if f.CorrelationID != "" && f.TenantID == "" {
		return Errorf(EValidation, "correlation_id needs tenant: a correlation id is the client's own X-Request-Id "+
			"and is only looked up within one tenant").WithHint("add tenant=<tenant id>, or use request_id, the server's id of the call")
	}
	return nil
}

// AuditStats aggregates the audit log over fixed windows.
type AuditStats struct {
	GeneratedAt time.Time              `json:"generated_at"`
	Windows     map[string]AuditWindow `json:"windows"` // "24h", "7d", "30d"
}

// AuditWindow holds the counts of one window.
type AuditWindow struct {
	Since     time.Time              `json:"since"`
	Total     int64                  `json:"total"`
	Errors    int64                  `json:"errors"`
	ErrorRate float64                `json:"error_rate"`
	ByTenant  map[string]AuditCounts `json:"by_tenant"`
	BySource  map[string]AuditCounts `json:"by_source"`
	ByAction  map[string]AuditCounts `json:"by_action"`
}

// AuditCounts is a call count with its errors.
type AuditCounts struct {
	Total     int64   `json:"total"`
	Errors    int64   `json:"errors"`
	ErrorRate float64 `json:"error_rate"`
}

// UsageEvent meters one tool or chat call for a tenant.
type UsageEvent struct {
	Time     time.Time
	TenantID string
	// Key is the agent that made the call: its audit entry's Key (a token
	// id, "oauth:<grant id>", "agent:<run id>"), "" when none.
	Key        string `json:"key,omitempty"`
	Source     string
	Tool       string // tool name, or ChatUsageTool
	Action     string // action, or the model for chat
	OK         bool
	DurationMS float64
	UpstreamMS float64
	// Tokens, for chat calls.
	PromptTokens     int64
	CompletionTokens int64
	// Reservation is the quota place the call was admitted with, if any:
	// counting the event settles it (see QuotaReservation).
	Reservation QuotaReservation `json:"-"`
}

// ChatUsageTool is the Tool of a chat call's usage; its Action is the model.
const ChatUsageTool = "chat"

// UsageQuery selects a tenant's usage over [From, To) days (UTC).
type UsageQuery struct {
	TenantID string
	// Key selects one agent's events (UsageEvent.Key). Rollups are kept per
	// tenant only, so ListUsageRollups refuses it.
	Key  string
	From time.Time
	To   time.Time
}

type absenceExpectedKey struct{}

// WithAbsenceExpected marks ctx's admin read as asking whether something
// optional exists (a tenant's billing plan, read for a console page): its
// 404 answers the question, so the audit records it with OutcomeOK, not as
// an error. Only in-process callers can set it; HTTP clients cannot.
func WithAbsenceExpected(ctx context.Context) context.Context {
	return context.WithValue(ctx, absenceExpectedKey{}, true)
}

// AbsenceExpected reports whether ctx was marked by WithAbsenceExpected.
func AbsenceExpected(ctx context.Context) bool {
	v, _ := ctx.Value(absenceExpectedKey{}).(bool)
	return v
}
