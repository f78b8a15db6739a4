package gtmgate

import (
	"context"
	"encoding/json"
	"time"
)

// Issue is one of the nine problems a judge may name in a verdict.
type Issue string

// The nine issue values of the quality rubric.
const (
	IssueIncomplete      Issue = "incomplete"
	IssueHallucination   Issue = "hallucination"
	IssueToolMisuse      Issue = "tool_misuse"
	IssueMissedContext   Issue = "missed_context"
	IssueVerbose         Issue = "verbose"
	IssueWrongDomain     Issue = "wrong_domain"
	IssueUnsafeAction    Issue = "unsafe_action"
	IssueFormatViolation Issue = "format_violation"
	IssueRegression      Issue = "regression"
)

// Issues lists every issue in rubric order.
var Issues = []Issue{
	IssueIncomplete, IssueHallucination, IssueToolMisuse, IssueMissedContext, IssueVerbose,
	IssueWrongDomain, IssueUnsafeAction, IssueFormatViolation, IssueRegression,
}

// Verdict is one judge's grade of one trace (the specification's Judge verdict).
type Verdict struct {
	Reasoning  string   `json:"reasoning"`
	Category   Category `json:"category"`
	Quality    int      `json:"quality"`
	Issues     []Issue  `json:"issues"`
	Confidence float64  `json:"confidence"`
}

// Trace is what the judges see of one finished tool call. Input has secrets
// removed; Result and Error are bounded excerpts.
type Trace struct {
	ID string `json:"id"`
	// Kind is empty for a tool call's trace; "federation.tool_changed" for
	// an upstream tool's changed definition (Input holds the change).
	Kind     string    `json:"kind,omitempty"`
	Time     time.Time `json:"time"`
	TenantID string    `json:"tenant_id"`
	Tool     string    `json:"tool"`
	Action   string    `json:"action"`
	// ToolDescription is set for a tool of an upstream MCP server: its
	// description as the upstream gave it.
	ToolDescription string   `json:"tool_description,omitempty"`
	Expected        Category `json:"expected_category"`
	Mutating        bool     `json:"mutating"`
	Source          string   `json:"source"`
	RequestID       string   `json:"request_id"`
	// Key is the agent whose call this is, as the call's audit entry names
	// it (a token id, "oauth:<grant id>", "agent:<run id>"). The judges do
	// not see it: a verdict is about the call, not about who made it.
	Key string `json:"key,omitempty"`
	// ParentRequestID links a call made by an agent run to the run's request.
	ParentRequestID string          `json:"parent_request_id,omitempty"`
	Input           json.RawMessage `json:"input"`
	// InputShape names the input class: the tool path and the input's keys
	// and value types, without values.
	InputShape string          `json:"input_shape"`
	Result     json.RawMessage `json:"result,omitempty"`
	// Truncated reports that Result was cut to its excerpt.
	Truncated bool        `json:"result_truncated,omitempty"`
	Error     *TraceError `json:"error,omitempty"`
	LatencyMS float64     `json:"latency_ms"`
	Sample    Sample      `json:"sample"`
	// KnownGood is the last well-graded result of the same input class, when one exists.
	KnownGood *KnownGood `json:"known_good,omitempty"`
}

// ToolPath is "tool.action".
func (t *Trace) ToolPath() string { return t.Tool + "." + t.Action }

// TraceError is the error a failed call answered with.
type TraceError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Sample records why a trace was graded: the rate it was drawn at and what raised it.
type Sample struct {
	Rate    float64  `json:"rate"`
	Reasons []string `json:"reasons,omitempty"`
}

// KnownGood is a result the panel graded well, kept per input class so
// judges can tell a regression.
type KnownGood struct {
	TraceID string          `json:"trace_id"`
	Time    time.Time       `json:"time"`
	Result  json.RawMessage `json:"result"`
}

// Judge names.
const (
	JudgeAlpha = "alpha"
	JudgeBeta  = "beta"
	JudgeGamma = "gamma"
)

// JudgeResult is one judge's outcome on a trace: a verdict, or why it has none.
type JudgeResult struct {
	Judge   string   `json:"judge"`
	Model   string   `json:"model"`
	Verdict *Verdict `json:"verdict,omitempty"`
	// Error says why the judge gave no valid verdict (after one corrective retry).
	Error      string  `json:"error,omitempty"`
	Attempts   int     `json:"attempts"`
	DurationMS float64 `json:"duration_ms"`
}

// Panel is the jury's combined verdict.
type Panel struct {
	// Quality is the median of the judges' qualities (the lower middle of two).
	Quality int `json:"quality"`
	// Category is the majority category, "" when no two judges agree.
	Category Category `json:"category,omitempty"`
	// Issues are those named by at least two judges.
	Issues []Issue `json:"issues"`
	// Spread is the highest quality minus the lowest.
	Spread int `json:"spread"`
	// RoutingDefect: the judges disagree on the category, or their majority
	// differs from the tool's expected category.
	RoutingDefect bool `json:"routing_defect"`
	// Judges is how many judges' verdicts the panel combines.
	Judges int `json:"judges"`
}

// Grading states of a stored verdict.
const (
	VerdictGraded = "graded"
	// VerdictFailed: fewer than two judges gave a valid verdict on the last attempt.
	VerdictFailed = "failed"
)

// GraderVerdict is one grading of one trace: the three judges and the panel
// (a record of the grader_verdicts collection).
type GraderVerdict struct {
	ID            string        `json:"id"`
	TraceID       string        `json:"trace_id"`
	Time          time.Time     `json:"time"`
	TenantID      string        `json:"tenant_id"`
	Tool          string        `json:"tool"`
	Action        string        `json:"action"`
	Expected      Category      `json:"expected_category"`
	Status        string        `json:"status"`
	RubricVersion string        `json:"rubric_version"`
	Judges        []JudgeResult `json:"judges"`
	Panel         *Panel        `json:"panel,omitempty"`
	Error         string        `json:"error,omitempty"`
	Trace         *Trace        `json:"trace,omitempty"`
	Label         *VerdictLabel `json:"label,omitempty"`
	// IncidentID is the incident this verdict opened or closed, if any.
	IncidentID string `json:"incident_id,omitempty"`
	// IncidentEvent is "opened" or "closed" when IncidentID is set.
	IncidentEvent string `json:"incident_event,omitempty"`
}

// VerdictLabel is an operator's judgement of a panel verdict. For a wrong
// verdict Quality (and optionally Category) give the right answer.
type VerdictLabel struct {
	Correct  bool      `json:"correct"`
	Quality  int       `json:"quality,omitempty"`
	Category Category  `json:"category,omitempty"`
	Note     string    `json:"note,omitempty"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// VerdictFilter selects verdicts, newest first.
type VerdictFilter struct {
	TenantID string
	Tool     string
	// Key selects the verdicts of one agent's calls (Trace.Key).
	Key string
	// MaxQuality keeps verdicts whose panel quality is at most this (0 = any).
	MaxQuality    int
	Issue         Issue
	RoutingDefect *bool
	Labelled      *bool
	Since         time.Time
	Limit         int
}

// PathRules says how panel verdicts move a tool path's state.
type PathRules struct {
	// BadQuality: a panel quality at or below it is bad (2).
	BadQuality int
	// OpenAfter consecutive bad verdicts open an incident (3).
	OpenAfter int
	// CloseAfter consecutive good verdicts close it and end the path's
	// raised sampling (3).
	CloseAfter int
}

// PathState is the quality state of one tenant's tool path.
type PathState struct {
	TenantID        string `json:"tenant_id"`
	Tool            string `json:"tool"`
	Action          string `json:"action"`
	ConsecutiveBad  int    `json:"consecutive_bad"`
	ConsecutiveGood int    `json:"consecutive_good"`
	// Degraded: a bad verdict was seen and has not been followed by CloseAfter good ones.
	Degraded   bool      `json:"degraded"`
	IncidentID string    `json:"incident_id,omitempty"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// Incident states (ledger entries of kind incident).
const (
	IncidentOpen     = "open"
	IncidentResolved = "resolved"
)

// WebhookDelivery is one attempt to deliver an outbound webhook.
type WebhookDelivery struct {
	ID         int64     `json:"id"`
	WebhookID  string    `json:"webhook_id"`
	Event      string    `json:"event"`
	TenantID   string    `json:"tenant_id,omitempty"`
	Attempt    int       `json:"attempt"`
	Time       time.Time `json:"time"`
	Status     int       `json:"status,omitempty"`
	OK         bool      `json:"ok"`
	Error      string    `json:"error,omitempty"`
	DurationMS float64   `json:"duration_ms"`
	// Endpoint is the approval route webhook ("whk_…") the message went
	// to, "" for the alert webhook; Receiver is its URL redacted to scheme
	// and host (RedactURL).
	Endpoint string `json:"endpoint,omitempty"`
	Receiver string `json:"receiver,omitempty"`
}

// DeliveryFilter selects webhook deliveries, newest first.
type DeliveryFilter struct {
	WebhookID string
	Event     string
	Since     time.Time
	Limit     int
}

// QualityStore keeps verdicts, tool path states, incidents, known-good
// results and webhook deliveries.
type QualityStore interface {
	// RecordVerdict stores v and, for a graded verdict, moves its tool path's
	// state by rules, opening or closing the path's incident and updating the
	// known-good result of the trace's input class, all in one transaction.
	// It is idempotent on v.ID: recording a verdict already stored returns
	// the stored one (with the incident it opened or closed) and changes nothing.
	RecordVerdict(ctx context.Context, v *GraderVerdict, rules PathRules) (*GraderVerdict, error)
	// GetVerdict returns ErrNotFound for an unknown id.
	GetVerdict(ctx context.Context, id string) (*GraderVerdict, error)
	// LatestVerdict returns a trace's newest verdict, or ErrNotFound.
	LatestVerdict(ctx context.Context, traceID string) (*GraderVerdict, error)
	ListVerdicts(ctx context.Context, f VerdictFilter) ([]*GraderVerdict, error)
	// LabelVerdict stores an operator's label; ErrNotFound for an unknown id.
	LabelVerdict(ctx context.Context, id string, l VerdictLabel) (*GraderVerdict, error)
	// KnownGood returns the input class's known-good result, or ErrNotFound.
	KnownGood(ctx context.Context, tenantID, shape string) (*KnownGood, error)
	// ListPathStates returns the states of tool paths, of all tenants when tenantID is "".
	ListPathStates(ctx context.Context, tenantID string, degradedOnly bool) ([]*PathState, error)
	// OpenIncident returns the open incident on any action of a tenant's
	// tool, or ErrNotFound.
	OpenIncident(ctx context.Context, tenantID, tool string) (*LedgerEntry, error)
	// ResolveIncident closes an open incident as an operator; ErrNotFound for
	// an unknown id, ErrConflict when it is not open. The path's bad streak
	// starts again from zero.
	ResolveIncident(ctx context.Context, id, by string, at time.Time) (*LedgerEntry, error)
	AddDelivery(ctx context.Context, d *WebhookDelivery) error
	ListDeliveries(ctx context.Context, f DeliveryFilter) ([]*WebhookDelivery, error)
}

// FinishedCall is a tool call as the runner saw it finish, handed to a
// CallObserver when sampled. Input and Result are shared with the caller's
// response and must only be read.
type FinishedCall struct {
	Time            time.Time
	TenantID        string
	Tool            string
	Action          Action
	Input           map[string]any
	Result          any
	Err             error
	DurationMS      float64
	Source          string
	RequestID       string
	ParentRequestID string
	// Key is the agent whose call it was (the audit entry's key).
	Key    string
	Sample Sample
	// ToolDescription is, for a tool of an upstream MCP server, what the
	// upstream says the tool does: the judges know nothing else of it.
	ToolDescription string
}

// CallObserver watches finished tool calls (the quality harness). Sample is
// called for every finished call and must be cheap; Observe only for sampled
// ones, and must never block.
type CallObserver interface {
	Sample(tenantID string, production bool, tool string, a Action) (Sample, bool)
	Observe(c *FinishedCall)
}
