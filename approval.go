package gtmgate

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate/jsonvalue"
)

// Approval states. A gate starts pending; approve moves it to approved and then
// executed or failed once the stored call ran (a gate that requires two
// approvals stays pending after the first); reject, expiry and withdrawal
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

// Events that announce a gate (approvalnotice sends them to the webhooks
// of the tenant's approval route, or the alert webhook).
const (
	EventApprovalRequested = "approval.requested"
	EventApprovalDecided   = "approval.decided"
	EventApprovalExpired   = "approval.expired"
	// EventApprovalReminder announces a gate still pending when a fifth of
	// its life remains.
	EventApprovalReminder = "approval.reminder"
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
	// Digest binds the gate to the exact call it holds (see CallDigest):
	// an approval executes that call or nothing.
	Digest string `json:"digest,omitempty"`
	// PolicyVersion names the approval policy that held the call (see
	// PolicyVersion); "" for a quality gate.
	PolicyVersion string `json:"policy_version,omitempty"`
	// Agent is the key of the agent whose call it is, as its audit entries
	// name it; Person the person that agent acts for ("" for none).
	Agent  string `json:"agent,omitempty"`
	Person string `json:"person,omitempty"`
	// ApprovalsRequired is how many different deciders must approve before
	// the call runs: 2 for a destructive action held under the tenant's
	// two_approvers_for_destructive, fixed when the call is held; 0
	// (omitted) for one.
	ApprovalsRequired int `json:"approvals_required,omitempty"`
	// Approvals are the approvals given so far, oldest first, of a gate
	// that requires more than one. The gate stays pending until the last
	// of them; that one executes the call and is also decided_by.
	Approvals []ApprovalGiven `json:"approvals,omitempty"`
	// TraceParent is the W3C traceparent of the held call: its execution,
	// on whoever's request approves it, continues the agent's trace.
	TraceParent string `json:"trace_parent,omitempty"`
	// Before is the state the held call would change, read from the
	// provider when the call was held (the action's BeforeRead): a JSON
	// object such as {"daily_budget": 50, "currency": "EUR"} or
	// {"status": "ACTIVE"}. Absent when the action has no such read or it
	// failed.
	Before json.RawMessage `json:"before,omitempty"`
	// BeforeError says why that read failed, in words safe to show an
	// approver; the call was held all the same.
	BeforeError string `json:"before_error,omitempty"`
}

// ApprovalGiven is one approval of a gate that requires more than one.
type ApprovalGiven struct {
	// By is who approved, as decided_by names them: a person's email, an
	// admin key's name, "admin key".
	By string `json:"by"`
	// Decider is who the approval counts as, as the audit names actors:
	// "person:p_…", "api-key:ak_…" or "admin-key". The approvals of one
	// gate have different deciders.
	Decider string    `json:"decider"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason,omitempty"`
}

// Required returns how many approvals the gate needs before it runs: at
// least one.
func (a *Approval) Required() int { return max(a.ApprovalsRequired, 1) }

// ApprovedBy reports whether decider has already given one of the gate's
// approvals.
func (a *Approval) ApprovedBy(decider string) bool {
	return slices.ContainsFunc(a.Approvals, func(g ApprovalGiven) bool { return g.Decider == decider })
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

// ApprovalDecision moves a pending approval to approved or rejected. An
// approval of a gate that requires more than one is recorded among its
// Approvals, and the gate stays pending until the last.
type ApprovalDecision struct {
	ID        string
	Status    string // ApprovalApproved or ApprovalRejected
	DecidedBy string
	// Decider is who the decision counts as ("person:p_…", "api-key:ak_…",
	// "admin-key"): a gate's approvals need different deciders. ""
	// counts as DecidedBy.
	Decider string
	Reason  string
	At      time.Time
}

// DigestPrefix starts every call digest: the scheme, so a later one can
// be told apart.
const DigestPrefix = "v1:"

// CallDigest is what binds a gate to the call it holds: an HMAC-SHA256,
// under key, of the tenant, tool, action, account and the input in
// canonical form (keys sorted, no insignificant space, numbers as
// written), so the same call always has the same digest and any change to
// what is stored (a field of the input, the account, the action) has
// another. Without a key it is a plain SHA-256, which notices a damaged
// row but not one rewritten by someone who can recompute it.
func CallDigest(key []byte, tenantID, tool, action, accountID string, input json.RawMessage) (string, error) {
	canonical, err := jsonvalue.Canonical(input)
	if err != nil {
		return "", fmt.Errorf("call digest: %w", err)
	}
	fields, _ := json.Marshal([]any{tenantID, tool, action, accountID, json.RawMessage(canonical)})
	if len(key) == 0 {
		sum := sha256.Sum256(fields)
		return DigestPrefix + hex.EncodeToString(sum[:]), nil
	}
	h := hmac.New(sha256.New, key)
	h.Write(fields)
	return DigestPrefix + hex.EncodeToString(h.Sum(nil)), nil
}

// PolicyVersion names an approval policy by its content: "pol_" and the
// first 12 hex digits of the SHA-256 of its JSON. A gate records the
// version that held it, so a later change of policy is visible beside it.
func PolicyVersion(p ApprovalPolicy) string {
	// Routes say where gates are announced, not what is held: changing
	// them keeps the version.
	p.Routes = nil
	b, _ := json.Marshal(p)
	sum := sha256.Sum256(b)
	return "pol_" + hex.EncodeToString(sum[:6])
}
