package admin

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/toolrun"
)

// listApprovals serves GET /admin/approvals?tenant&status&gate&limit
// (pending by default; policy and quality gates alike unless gate is given).
func (h *Handler) listApprovals(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := gtmgate.ApprovalFilter{TenantID: q.Get("tenant"), Status: q.Get("status"), Gate: q.Get("gate")}
	if f.Gate != "" && f.Gate != gtmgate.GatePolicy && f.Gate != gtmgate.GateQuality {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "gate %q is not policy or quality", f.Gate))
		return
	}
	if f.Status == "" {
		f.Status = gtmgate.ApprovalPending
	} else if f.Status == "all" {
		f.Status = ""
	}
	var err error
	if f.Limit, err = jsonapi.QueryLimit(q.Get("limit"), 100, 1000); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	f.AsOf = h.opts.Now()
	as, err := h.approvalsSeen(r, f)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"approvals": h.approvalViews(r.Context(), as)})
}

// approvalsSeen lists the approvals f selects that the actor sees: every
// tenant's for an operator, else those of the actor's tenants it may read
// (f.TenantID must be one of them), newest first. A named key with approve
// alone decides approvals it is given the ids of, and lists none.
func (h *Handler) approvalsSeen(r *http.Request, f gtmgate.ApprovalFilter) ([]*gtmgate.Approval, error) {
	a := gtmgate.ActorFromContext(r.Context())
	if a.Operator() != "" {
		return h.opts.Store.ListApprovals(r.Context(), f)
	}
	tenants := slices.DeleteFunc(a.TenantIDs(), func(t string) bool { return !a.SeesTenant(t) })
	if f.TenantID != "" {
		if !a.SeesTenant(f.TenantID) {
			return nil, refused(a, gtmgate.AccessRead, f.TenantID)
		}
		tenants = []string{f.TenantID}
	}
	var all []*gtmgate.Approval
	for _, t := range tenants {
		f.TenantID = t
		as, err := h.opts.Store.ListApprovals(r.Context(), f)
		if err != nil {
			return nil, err
		}
		all = append(all, as...)
	}
	slices.SortStableFunc(all, func(x, y *gtmgate.Approval) int { return y.CreatedAt.Compare(x.CreatedAt) })
	if len(all) > f.Limit {
		all = all[:f.Limit]
	}
	return all, nil
}

func (h *Handler) getApproval(w http.ResponseWriter, r *http.Request) {
	a, err := h.approval(r, gtmgate.AccessRead)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, h.approvalViews(r.Context(), []*gtmgate.Approval{a.AsOf(h.opts.Now())})[0])
}

// approval reads the route's approval and checks that the actor may see
// it (need read) or decide it (need approve).
func (h *Handler) approval(r *http.Request, need gtmgate.Access) (*gtmgate.Approval, error) {
	id := r.PathValue("approval_id")
	a, err := h.opts.Store.GetApproval(r.Context(), id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no approval %q", id)
	}
	if err != nil {
		return nil, err
	}
	if err := decideAllowed(gtmgate.ActorFromContext(r.Context()), need, a); err != nil {
		return nil, err
	}
	return a, nil
}

// DecisionBody is the optional body of an approve or reject. DecidedBy is
// not who decided: that is the signed-in actor. A value that names someone
// else is kept only as a note in the reason.
type DecisionBody struct {
	Reason    string `json:"reason"`
	DecidedBy string `json:"decided_by"`
}

func (h *Handler) approve(w http.ResponseWriter, r *http.Request) { h.decide(w, r, true) }
func (h *Handler) reject(w http.ResponseWriter, r *http.Request)  { h.decide(w, r, false) }

// decide approves (executing the stored call once) or rejects a gate. An
// empty body is allowed for approve; reject needs a reason.
func (h *Handler) decide(w http.ResponseWriter, r *http.Request, approve bool) {
	var b DecisionBody
	body, err := jsonapi.ReadBody(w, r, h.opts.MaxBodyBytes)
	if err == nil && len(body) > 0 {
		err = jsonapi.Unmarshal(body, &b)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	held, err := h.approval(r, gtmgate.AccessApprove)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	actor := gtmgate.ActorFromContext(r.Context())
	reason := b.Reason
	if typed := strings.TrimSpace(b.DecidedBy); typed != "" && typed != actor.Name {
		reason = strings.TrimSpace(reason + " (typed decided_by, not verified: " + typed + ")")
	}
	// A decider is a person when one is signed in, else the key: the
	// break-glass key is one decider however many people hold it.
	d := toolrun.Decision{ApprovalID: held.ID, Approve: approve, DecidedBy: actor.Name, Decider: actor.AuditKey(),
		Reason: reason, RequestID: gtmgate.RequestIDFromContext(r.Context())}
	if actor.Kind == gtmgate.ActorPerson {
		d.DeciderPerson = actor.ID
	}
	setAuditTenant(w, held.TenantID)
	a, err := h.opts.Runner.Decide(r.Context(), d)
	if err != nil {
		// A refused decision is audited under the gate's tenant too, saying
		// whose and why (the same approver twice, their own agent's call…).
		verb := "reject"
		if approve {
			verb = "approve"
		}
		setAuditDetail(w, "refused "+verb+" of "+held.ID+" by "+actor.Name+" ("+actor.AuditKey()+" via "+actor.Via+"): "+
			gtmgate.AsError(err).Message)
		jsonapi.WriteError(w, r, err)
		return
	}
	detail := a.Status + " " + held.ID + " by " + actor.Name + " (" + actor.AuditKey() + " via " + actor.Via + ")"
	if approve && a.Required() > 1 {
		detail = approvalsDetail(a, actor) + ": " + detail
	}
	if a.Digest != "" {
		detail += "; call " + a.Digest + " of agent " + a.Agent
		if a.PolicyVersion != "" {
			detail += " held by policy " + a.PolicyVersion
		}
	}
	setAuditDetail(w, detail)
	jsonapi.Write(w, http.StatusOK, a)
}

// approvalsDetail says which of a gate's approvals an approve gave, for
// its audit entry: "approval 1 of 2", or "approval 2 of 2, after <by>
// (<decider>) at <time>".
func approvalsDetail(a *gtmgate.Approval, actor *gtmgate.Actor) string {
	n := len(a.Approvals)
	for i, g := range a.Approvals {
		if g.Decider == actor.AuditKey() {
			n = i + 1
		}
	}
	detail := fmt.Sprintf("approval %d of %d", n, a.Required())
	var earlier []string
	for _, g := range a.Approvals[:max(n-1, 0)] {
		earlier = append(earlier, g.By+" ("+g.Decider+") at "+g.At.UTC().Format(time.RFC3339))
	}
	if len(earlier) > 0 {
		detail += ", after " + strings.Join(earlier, ", ")
	}
	return detail
}
