package agenttools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// ApprovalView is what an agent and the REST status route see of a gate.
type ApprovalView struct {
	ApprovalID string          `json:"approval_id"`
	Status     string          `json:"status"`
	Tool       string          `json:"tool"`
	Action     string          `json:"action"`
	CreatedAt  time.Time       `json:"created_at"`
	ExpiresAt  time.Time       `json:"expires_at"`
	DecidedAt  *time.Time      `json:"decided_at,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Next       string          `json:"next"`
}

// LookupApproval returns a tenant's gate as ApprovalView; another tenant's
// gate is NOT_FOUND, exactly like a missing one.
func LookupApproval(ctx context.Context, store gtmgate.ApprovalStore, tenantID, id string, now time.Time) (*ApprovalView, error) {
	a, err := store.GetApproval(ctx, id)
	if errors.Is(err, gtmgate.ErrNotFound) || (err == nil && a.TenantID != tenantID) {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no approval %q for this tenant", id)
	} else if err != nil {
		return nil, err
	}
	status := a.AsOf(now).Status
	v := &ApprovalView{ApprovalID: a.ID, Status: status, Tool: a.Tool, Action: a.Action, CreatedAt: a.CreatedAt,
		ExpiresAt: a.ExpiresAt, DecidedAt: a.DecidedAt, Reason: a.Reason, Result: a.Result}
	v.Next = map[string]string{
		gtmgate.ApprovalPending:   "waiting for an operator; check again later",
		gtmgate.ApprovalApproved:  "approved and executing; check again shortly",
		gtmgate.ApprovalExecuted:  "the call ran; its result is in result",
		gtmgate.ApprovalFailed:    "the call ran and failed; the error is in result",
		gtmgate.ApprovalRejected:  "an operator rejected it; do not retry without addressing the reason",
		gtmgate.ApprovalExpired:   "nobody decided in time; make the call again to request a new approval",
		gtmgate.ApprovalWithdrawn: "the agent run that made this call was cancelled, so the call was withdrawn and will not run; reason says why",
	}[status]
	if status == gtmgate.ApprovalPending && len(a.Approvals) > 0 {
		v.Next = fmt.Sprintf("%d of %d approvals given; waiting for a different approver to give the next; check again later",
			len(a.Approvals), a.Required())
	}
	return v, nil
}

func approvalStatusTool(store Store, now func() time.Time) gtmgate.Tool {
	return gtmgate.Tool{
		Name:        "approval_status",
		Domain:      "agents",
		Title:       "Check an approval gate",
		Description: "Check a call held for human approval, by the approval_id APPROVAL_REQUIRED gave: pending, executed with its result, or why not.",
		Actions:     []gtmgate.Action{{Name: "get", Category: gtmgate.CategoryAgentOrchestration, Required: []string{"approval_id"}}},
		Properties: map[string]*jsonschema.Schema{
			"approval_id": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(64)},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in struct {
				ApprovalID string `json:"approval_id"`
			}
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			return LookupApproval(ctx, store, call.TenantID, in.ApprovalID, now())
		},
	}
}
