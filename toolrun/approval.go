package toolrun

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/telemetry"
)

// policy is the tenant's approval policy: its own, else the default.
func policy(t *gtmgate.Tenant) gtmgate.ApprovalPolicy {
	if t.Approval != nil {
		return *t.Approval
	}
	return gtmgate.DefaultApprovalPolicy()
}

// gated reports whether the tenant's approval policy holds this action for a human.
func gated(t *gtmgate.Tenant, tool *gtmgate.Tool, a gtmgate.Action) bool {
	p := policy(t)
	return slices.Contains(p.Categories, string(a.Category)) ||
		slices.Contains(p.Actions, tool.Name+"."+a.Name) ||
		(p.Destructive && a.Destructive)
}

// qualityGate returns the open quality incident that holds this call: one on
// any action of the tool, when the action is mutating.
func (r *Runner) qualityGate(ctx context.Context, c *call) (*gtmgate.LedgerEntry, error) {
	if !c.action.Mutating {
		return nil, nil
	}
	inc, err := r.opts.Store.OpenIncident(ctx, c.tenant.ID, c.entry.Name)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, nil
	}
	return inc, err
}

// gate stores the validated call as a pending approval and answers
// APPROVAL_REQUIRED; inc is the incident behind a quality gate (nil for the
// tenant's approval policy).
func (r *Runner) gate(ctx context.Context, c *call, inc *gtmgate.LedgerEntry) error {
	now := r.opts.Now()
	a := &gtmgate.Approval{
		ID: gtmgate.NewID("apr_"), TenantID: c.tenant.ID, Status: gtmgate.ApprovalPending,
		Tool: c.entry.Name, Action: c.action.Name, Category: string(c.action.Category), AccountID: c.account.ID,
		Input: c.storedInput(), Source: c.req.Source, RequestID: c.req.RequestID,
		CreatedAt: now, ExpiresAt: now.Add(r.opts.ApprovalTTL), Gate: gtmgate.GatePolicy, ParentRequestID: c.req.ParentRequestID,
	}
	if p := c.req.Principal; p != nil {
		// An agent run's step: cancelling the run withdraws the gate.
		a.RunID = p.RunID
	}
	// Bound to the call: what exactly runs if it is approved, under which
	// policy, for whom.
	digest, err := gtmgate.CallDigest(r.opts.GateKey, a.TenantID, a.Tool, a.Action, a.AccountID, a.Input)
	if err != nil {
		return err
	}
	a.Digest, a.Agent, a.Person = digest, c.key(), c.req.Principal.Credential().Person
	a.TraceParent = telemetry.Carry(ctx)
	if policy(c.tenant).TwoApproversForDestructive && c.action.Destructive {
		a.ApprovalsRequired = 2
	}
	// What the call would change, so the approver reads old → new; a
	// failed read is noted on the gate and the call is held all the same.
	r.readBefore(ctx, c, a)
	why := ""
	if inc != nil {
		a.Gate, a.IncidentID = gtmgate.GateQuality, inc.ID
		why = " while quality incident " + inc.ID + " on " + inc.Tool + "." + inc.Action + " is open"
	} else {
		a.PolicyVersion = gtmgate.PolicyVersion(policy(c.tenant))
	}
	r.notify(ctx, gtmgate.EventApprovalRequested, a.ID)
	if err := r.opts.Store.CreateApproval(ctx, a); err != nil {
		return err
	}
	return &gtmgate.Error{
		Code:       gtmgate.EApprovalRequired,
		Message:    c.entry.Name + "." + c.action.Name + " needs a human's approval" + why + "; it has not been executed",
		Hint:       "check the outcome with the approval_status tool or GET /api/v1/" + c.tenant.ID + "/approvals/" + a.ID,
		ApprovalID: a.ID,
	}
}

// Decision is an operator's approve or reject of a gate.
type Decision struct {
	ApprovalID string
	Approve    bool
	DecidedBy  string
	// Decider is who the decision counts as, as the audit names actors
	// ("person:p_…", "api-key:ak_…", "admin-key"): a gate that requires two
	// approvals needs two deciders. "" counts as DecidedBy.
	Decider string
	// DeciderPerson is the deciding person's id ("p_…"), "" for a key:
	// under no_self_approval, the person a held call's agent acts for may
	// not approve it.
	DeciderPerson string
	Reason        string
	RequestID     string
}

// Decide approves (and then executes, exactly once) or rejects a pending gate.
// A gate that is not pending is a CONFLICT carrying its current state. An
// approval that is not the last a gate requires is recorded and returns the
// gate, still pending; a second one by the same decider is FORBIDDEN.
func (r *Runner) Decide(ctx context.Context, d Decision) (*gtmgate.Approval, error) {
	status := gtmgate.ApprovalRejected
	if d.Approve {
		status = gtmgate.ApprovalApproved
	} else if d.Reason == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "reason is required to reject an approval")
	}
	if d.Approve && d.DeciderPerson != "" {
		if err := r.selfApproval(ctx, d); err != nil {
			return nil, err
		}
	}
	// Queued before every approval, the first of two included: which
	// approval completes a gate is only known once the store has it, and a
	// notice whose gate is still pending waits for its decision.
	r.notify(ctx, gtmgate.EventApprovalDecided, d.ApprovalID)
	decider := cmp.Or(d.Decider, d.DecidedBy)
	a, err := r.opts.Store.DecideApproval(ctx, gtmgate.ApprovalDecision{
		ID: d.ApprovalID, Status: status, DecidedBy: d.DecidedBy, Decider: decider, Reason: d.Reason, At: r.opts.Now(),
	})
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no approval %q", d.ApprovalID)
	case errors.Is(err, gtmgate.ErrConflict) && a != nil && a.Status == gtmgate.ApprovalPending && a.ApprovedBy(decider):
		return a, &gtmgate.Error{Code: gtmgate.EForbidden, Detail: a,
			Message: fmt.Sprintf("approval %s needs %d approvals by different approvers, and you (%s) gave one already; it is still pending",
				a.ID, a.Required(), decider),
			Hint: "ask another approver of the tenant to approve it; rejecting it stays yours"}
	case errors.Is(err, gtmgate.ErrConflict) && a != nil && a.Status == gtmgate.ApprovalWithdrawn:
		return a, &gtmgate.Error{Code: gtmgate.EConflict, Detail: a,
			Message: "approval " + d.ApprovalID + " was withdrawn and cannot be decided: " + a.Reason,
			Hint:    "the agent run " + a.RunID + " that made this call was cancelled; nothing was executed"}
	case errors.Is(err, gtmgate.ErrConflict):
		state := "unknown"
		if a != nil {
			state = a.Status
		}
		return a, &gtmgate.Error{Code: gtmgate.EConflict, Message: "approval " + d.ApprovalID + " is " + state + ", not pending", Detail: a}
	case err != nil:
		return nil, err
	}
	if a.Status == gtmgate.ApprovalPending {
		// An approval recorded, not the last: nothing runs yet.
		return a, nil
	}
	if d.Approve {
		// The store let exactly one decision through; only that one executes. It
		// runs detached from the approver's request: an approver who hangs up
		// must not cancel a provider call already under way, nor leave the gate
		// without its outcome.
		ctx = context.WithoutCancel(ctx)
		if a, err = r.executeApproved(ctx, a, d.RequestID); err != nil {
			return nil, err
		}
	}
	if r.opts.Decided != nil {
		r.opts.Decided(ctx, a)
	}
	return a, nil
}

// notify queues the notice of a gate's event, when notices are on.
func (r *Runner) notify(ctx context.Context, event, approvalID string) {
	if r.opts.Notify == nil {
		return
	}
	if err := r.opts.Notify(ctx, event, approvalID); err != nil {
		r.opts.Logger.Warn("approval: queueing the notice", "event", event, "approval", approvalID, "err", err)
	}
}

// selfApproval refuses d when the tenant's policy forbids self-approval
// and the deciding person is the one the held call's agent acts for.
func (r *Runner) selfApproval(ctx context.Context, d Decision) error {
	a, err := r.opts.Store.GetApproval(ctx, d.ApprovalID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil // Decide answers NOT_FOUND
	} else if err != nil {
		return err
	}
	if a.Person == "" || a.Person != d.DeciderPerson {
		return nil
	}
	t, err := r.opts.Store.GetTenant(ctx, a.TenantID)
	if err != nil {
		return err
	}
	if !policy(t).NoSelfApproval {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EForbidden, "approval %s holds a call of your own agent (%s), and tenant %q's policy lets someone else approve it", a.ID, a.Agent, a.TenantID).
		WithHint("ask another approver of the tenant; rejecting it stays yours")
}

// boundCall checks a gate's stored call against the digest taken when it
// was held: "" when it matches (or the gate predates digests), else why
// it may not run.
func (r *Runner) boundCall(a *gtmgate.Approval) string {
	if a.Digest == "" {
		return ""
	}
	got, err := gtmgate.CallDigest(r.opts.GateKey, a.TenantID, a.Tool, a.Action, a.AccountID, a.Input)
	if err != nil || got != a.Digest {
		return "the stored call no longer matches the one that was held (digest " + a.Digest + "): nothing was executed"
	}
	return ""
}

// executeApproved runs an approved gate's call once and stores its outcome.
// The call's audit entry carries the key "approval:<id>", which is how a
// gate left approved by a stopped process is matched to what it did.
func (r *Runner) executeApproved(ctx context.Context, a *gtmgate.Approval, requestID string) (*gtmgate.Approval, error) {
	// The execution continues the held call's trace, linked to the
	// approver's request.
	ctx, span := telemetry.Resume(ctx, a.TraceParent, "approval.execute", a.ID)
	defer span.End()
	if why := r.boundCall(a); why != "" {
		r.opts.Logger.Error("approval: refused a gate whose stored call changed", "approval", a.ID, "tenant", a.TenantID)
		result, _ := json.Marshal(map[string]any{"error": map[string]string{"code": gtmgate.EConflict, "message": why}})
		fctx, cancel := context.WithTimeout(ctx, finishTimeout)
		defer cancel()
		if err := r.opts.Store.FinishApproval(fctx, a.ID, gtmgate.ApprovalFailed, result); err != nil {
			return nil, err
		}
		a.Status, a.Result = gtmgate.ApprovalFailed, result
		return a, nil
	}
	// Person: a per-person upstream MCP server is called with the grant of
	// the person the held call acted for (gtmgate.GrantPerson); it reaches
	// no account of theirs, as the credential stays the operator's.
	p := &gtmgate.Principal{TenantID: a.TenantID, KeyID: approvalKey(a.ID), Kind: "approval", Person: a.Person}
	// Tools that act for their caller (run_agent, agent_schedules) read it
	// from the context: here the operator who approved, not whoever's
	// request the approval arrived on.
	ctx = gtmgate.NewContextWithPrincipal(ctx, p)
	out, callErr := r.Call(ctx, &Request{
		Principal: p,
		TenantID:  a.TenantID, Tool: a.Tool, Input: a.Input, Source: a.Source, RequestID: requestID, approved: true,
		bound:           &binding{action: a.Action, account: a.AccountID, digest: a.Digest},
		ParentRequestID: a.ParentRequestID,
	})
	final, body := gtmgate.ApprovalExecuted, any(out)
	if callErr != nil {
		e := gtmgate.AsError(callErr)
		final, body = gtmgate.ApprovalFailed, map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}}
	}
	result, _ := json.Marshal(body)
	fctx, cancel := context.WithTimeout(ctx, finishTimeout)
	defer cancel()
	if err := r.opts.Store.FinishApproval(fctx, a.ID, final, result); err != nil {
		return nil, err
	}
	a.Status, a.Result = final, result
	return a, nil
}

func approvalKey(id string) string { return "approval:" + id }

// finishTimeout bounds storing an approval's outcome.
const finishTimeout = 10 * time.Second

// AuditReader is what resolving stuck approvals reads of the audit log.
type AuditReader interface {
	QueryAudit(ctx context.Context, f gtmgate.AuditFilter) ([]gtmgate.AuditEntry, int64, error)
}

// ResolveStuckApprovals finishes gates left "approved" (executing) longer
// than a call can take, which happens only when the process executing them
// stopped. A gate whose call reached the audit log gets that outcome; one
// without is failed with "outcome unknown — check the provider". None is
// run again. It returns how many it resolved.
func (r *Runner) ResolveStuckApprovals(ctx context.Context, audit AuditReader) (int, error) {
	stuck, err := r.opts.Store.ListApprovals(ctx, gtmgate.ApprovalFilter{Status: gtmgate.ApprovalApproved, Limit: 1000})
	if err != nil {
		return 0, fmt.Errorf("list approvals being executed: %w", err)
	}
	cutoff := r.opts.Now().Add(-(r.opts.CallTimeout + stuckMargin))
	n := 0
	for _, a := range stuck {
		if a.DecidedAt == nil || a.DecidedAt.After(cutoff) {
			continue
		}
		final, body := gtmgate.ApprovalFailed, any(map[string]any{"error": map[string]string{"code": "OUTCOME_UNKNOWN",
			"message": "outcome unknown — check the provider: the gateway stopped while executing this approved call"}})
		if audit != nil {
			if recorded, _, err := audit.QueryAudit(ctx, gtmgate.AuditFilter{TenantID: a.TenantID, Key: approvalKey(a.ID), Limit: 1}); err == nil && len(recorded) > 0 {
				e := recorded[0]
				if e.Outcome == gtmgate.OutcomeOK {
					final = gtmgate.ApprovalExecuted
					body = map[string]any{"note": "executed; the result was not kept because the gateway stopped before storing it — the audit log has the call",
						"request_id": e.RequestID}
				} else {
					body = map[string]any{"error": map[string]string{"code": e.ErrorCode, "message": "the call failed; the gateway stopped before storing its answer"}}
				}
			}
		}
		result, _ := json.Marshal(body)
		if err := r.opts.Store.FinishApproval(ctx, a.ID, final, result); err != nil {
			if errors.Is(err, gtmgate.ErrConflict) {
				continue // finished meanwhile by the process executing it
			}
			return n, fmt.Errorf("finish stuck approval %s: %w", a.ID, err)
		}
		r.opts.Logger.Warn("approval left executing by a stopped process resolved", "approval_id", a.ID, "status", final)
		n++
	}
	return n, nil
}

// stuckMargin is added to the call time-out before a gate counts as stuck.
const stuckMargin = 2 * time.Minute
