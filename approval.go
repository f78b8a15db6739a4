package gtmgate

import (
	"encoding/json"
	"time"
)

// Approval states. A gate starts pending; approve moves it to approved and then
// executed or failed once the stored call ran; reject, expiry and withdrawal
// (the agent run whose step it holds was cancelled) are final.
const (
	ApprovalPending   = "pending"
	ApprovalApproved  = "approved"
	ApprovalExecuted  = "executed"
	ApprovalFailed    = "failed"
	ApprovalRejected  = "rejected"
	ApprovalExpired   = "expired"
	ApprovalWithdrawn = "withdrawn"
)

// Approval is a gated tool call waiting for, or past, a human decision.
type Approval struct {
	ID        string          `json:"id"`
	TenantID  string          `json:"tenant_id"`
	Status    string          `json:"status"`
	Tool      string          `json:"tool"`
	Action    string          `json:"action"`
	Category  string          `json:"category"`
	AccountID string          `json:"account_id,omitempty"`
	Input     json.RawMessage `json:"input"`
	Source    string          `json:"source"`
	RequestID string          `json:"request_id"`
	CreatedAt time.Time       `json:"created_at"`
	ExpiresAt time.Time       `json:"expires_at"`
	DecidedAt *time.Time      `json:"decided_at,omitempty"`
	DecidedBy string          `json:"decided_by,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	// Result holds the executed call's result or error body.
	Result json.RawMessage `json:"result,omitempty"`
	// Gate is why the call was held: GatePolicy (the tenant's approval
	// policy) or GateQuality (an open quality incident on the tool).
	Gate string `json:"gate"`
	// IncidentID is the incident behind a quality gate.
	IncidentID string `json:"incident_id,omitempty"`
	// ParentRequestID is the agent run's request a held step belongs to.
	ParentRequestID string `json:"parent_request_id,omitempty"`
	// RunID is the agent run whose step the gate holds; cancelling the run
	// withdraws the gate.
	RunID string `json:"run_id,omitempty"`
}

// Gate kinds.
const (
	GatePolicy  = "policy"
	GateQuality = "quality"
)

// ApprovalFilter selects approvals, newest first.
type ApprovalFilter struct {
	TenantID string
	Status   string
	// Gate selects policy or quality gates ("" = both).
	Gate  string
	Limit int
	// AsOf, when set, is the time of the read: a pending gate whose
	// deadline has passed by then is listed (and filtered) as expired,
	// whether or not the expiry job has stored that yet.
	AsOf time.Time
}

// AsOf reports the gate as it stands at now: a pending gate past its
// deadline is expired, though the store may not have recorded it yet.
func (a *Approval) AsOf(now time.Time) *Approval {
	if a != nil && a.Status == ApprovalPending && !now.Before(a.ExpiresAt) {
		a.Status = ApprovalExpired
	}
	return a
}

// ApprovalWithdrawal withdraws the pending gates of an agent run that was
// cancelled: they can no longer be approved.
type ApprovalWithdrawal struct {
	TenantID string
	RunID    string
	// Reason says why (the run's cancellation); By who cancelled it.
	Reason string
	By     string
	At     time.Time
}

// ApprovalDecision moves a pending approval to approved or rejected.
type ApprovalDecision struct {
	ID        string
	Status    string // ApprovalApproved or ApprovalRejected
	DecidedBy string
	Reason    string
	At        time.Time
}
