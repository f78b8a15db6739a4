package toolrun

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/gtmgate/gtmgate"
)

// gated reports whether the tenant's approval policy holds this action for a human.
func gated(t *gtmgate.Tenant, tool *gtmgate.Tool, a gtmgate.Action) bool {
	p := gtmgate.DefaultApprovalPolicy()
	if t.Approval != nil {
		p = *t.Approval
	}
	return slices.Contains(p.Categories, string(a.Category)) ||
		slices.Contains(p.Actions, tool.Name+"."+a.Name) ||
		(p.Destructive && a.Destructive)
}

// gate stores the validated call as a pending approval and answers APPROVAL_REQUIRED.
func (r *Runner) gate(ctx context.Context, c *call) error {
	now := r.opts.Now()
	a := &gtmgate.Approval{
		ID: gtmgate.NewID("apr_"), TenantID: c.tenant.ID, Status: gtmgate.ApprovalPending,
		Tool: c.entry.Name, Action: c.action.Name, Category: string(c.action.Category), AccountID: c.account.ID,
		Input: c.req.Input, Source: c.req.Source, RequestID: c.req.RequestID,
		CreatedAt: now, ExpiresAt: now.Add(r.opts.ApprovalTTL),
	}
	if err := r.opts.Store.CreateApproval(ctx, a); err != nil {
		return err
	}
	return &gtmgate.Error{
		Code:       gtmgate.EApprovalRequired,
		Message:    c.entry.Name + "." + c.action.Name + " needs a human's approval; it has not been executed",
		Hint:       "check the outcome with the approval_status tool or GET /api/v1/" + c.tenant.ID + "/approvals/" + a.ID,
		ApprovalID: a.ID,
	}
}

// Decision is an operator's approve or reject of a gate.
type Decision struct {
	ApprovalID string
	Approve    bool
	DecidedBy  string
	Reason     string
	RequestID  string
}

// Decide approves (and then executes, exactly once) or rejects a pending gate.
// A gate that is not pending is a CONFLICT carrying its current state.
func (r *Runner) Decide(ctx context.Context, d Decision) (*gtmgate.Approval, error) {
	status := gtmgate.ApprovalRejected
	if d.Approve {
		status = gtmgate.ApprovalApproved
	} else if d.Reason == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "reason is required to reject an approval")
	}
	a, err := r.opts.Store.DecideApproval(ctx, gtmgate.ApprovalDecision{
		ID: d.ApprovalID, Status: status, DecidedBy: d.DecidedBy, Reason: d.Reason, At: r.opts.Now(),
	})
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no approval %q", d.ApprovalID)
	case errors.Is(err, gtmgate.ErrConflict):
		state := "unknown"
		if a != nil {
			state = a.Status
		}
		return a, &gtmgate.Error{Code: gtmgate.EConflict, Message: "approval " + d.ApprovalID + " is " + state + ", not pending", Detail: a}
	case err != nil:
		return nil, err
	}
	if !d.Approve {
		return a, nil
	}
	// The store let exactly one decision through; only that one executes.
	out, callErr := r.Call(ctx, &Request{
		Principal: &gtmgate.Principal{TenantID: a.TenantID, KeyID: "approval:" + d.DecidedBy, Kind: "approval"},
		TenantID:  a.TenantID, Tool: a.Tool, Input: a.Input, Source: a.Source, RequestID: d.RequestID, approved: true,
	})
	final, body := gtmgate.ApprovalExecuted, any(out)
	if callErr != nil {
		e := gtmgate.AsError(callErr)
		final, body = gtmgate.ApprovalFailed, map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}}
	}
	result, _ := json.Marshal(body)
	if err := r.opts.Store.FinishApproval(ctx, a.ID, final, result); err != nil {
		return nil, err
	}
	a.Status, a.Result = final, result
	return a, nil
}
