package gtmgate

import (
	"encoding/json"
	"time"
)

// Ledger entry kinds.
const (
	LedgerFailure  = "failure"
	LedgerIncident = "incident"
)

// LedgerEntry is a failed call kept with what is needed to replay it (secrets
// removed), or an incident opened by the quality harness.
type LedgerEntry struct {
	ID       string    `json:"id"`
	Kind     string    `json:"kind"`
	Time     time.Time `json:"time"`
	TenantID string    `json:"tenant_id"`
	Source   string    `json:"source"`
	// Key is the agent whose call failed: the call's audit entry's Key.
	Key      string `json:"key,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Action   string `json:"action,omitempty"`
	Mutating bool   `json:"mutating"`
	// Input is the validated tool input (no credentials are ever part of it).
	Input     json.RawMessage `json:"input,omitempty"`
	ErrorCode string          `json:"error_code"`
	Message   string          `json:"message"`
	Detail    json.RawMessage `json:"error_detail,omitempty"`
	RequestID string          `json:"request_id"`
	// Replays lists the request ids of replays, newest last.
	Replays []LedgerReplay `json:"replays,omitempty"`
	// Status is IncidentOpen or IncidentResolved for an incident, "" for a failure.
	Status     string     `json:"status,omitempty"`
	ResolvedAt *time.Time `json:"resolved_at,omitempty"`
	ResolvedBy string     `json:"resolved_by,omitempty"`
}

// LedgerReplay links a replay's outcome to the entry it replayed.
type LedgerReplay struct {
	Time      time.Time `json:"time"`
	RequestID string    `json:"request_id"`
	OK        bool      `json:"ok"`
	ErrorCode string    `json:"error_code,omitempty"`
	Forced    bool      `json:"forced,omitempty"`
}

// LedgerFilter selects ledger entries, newest first.
type LedgerFilter struct {
	TenantID string
	Kind     string
	// Status selects incidents by state (IncidentOpen, IncidentResolved).
	Status string
	// RequestID selects the entries of one request.
	RequestID string
	// Key selects the failures of one agent (LedgerEntry.Key).
	Key   string
	Since time.Time
	Limit int
}

// Feedback severities.
const (
	SeverityLow  = "low"
	SeverityMed  = "med"
	SeverityHigh = "high"
)

// Feedback is an agent's report of a blocker (tool submit_feedback).
type Feedback struct {
	ID              string     `json:"id"`
	TenantID        string     `json:"tenant_id"`
	Time            time.Time  `json:"time"`
	AttemptedAction string     `json:"attempted_action"`
	ExpectedOutcome string     `json:"expected_outcome"`
	ActualOutcome   string     `json:"actual_outcome"`
	ToolCalled      string     `json:"tool_called"`
	ErrorSeen       string     `json:"error_seen"`
	Severity        string     `json:"severity"`
	RequestID       string     `json:"request_id"`
	ResolvedAt      *time.Time `json:"resolved_at,omitempty"`
	ResolvedBy      string     `json:"resolved_by,omitempty"`
}

// FeedbackFilter selects feedback, newest first.
type FeedbackFilter struct {
	TenantID string
	Severity string
	Since    time.Time
	// Resolved: nil for all, else only resolved (true) or open (false).
	Resolved *bool
	Limit    int
}
