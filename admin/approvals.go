package admin

import (
	"errors"
	"net/http"

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
	as, err := h.opts.Store.ListApprovals(r.Context(), f)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if as == nil {
		as = []*gtmgate.Approval{}
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"approvals": as})
}

func (h *Handler) getApproval(w http.ResponseWriter, r *http.Request) {
	a, err := h.opts.Store.GetApproval(r.Context(), r.PathValue("approval_id"))
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no approval %q", r.PathValue("approval_id"))
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, a.AsOf(h.opts.Now()))
}

// DecisionBody is the optional body of an approve or reject.
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
	if b.DecidedBy == "" {
		b.DecidedBy = "admin"
	}
	id := r.PathValue("approval_id")
	a, err := h.opts.Runner.Decide(r.Context(), toolrun.Decision{ApprovalID: id, Approve: approve, DecidedBy: b.DecidedBy,
		Reason: b.Reason, RequestID: gtmgate.RequestIDFromContext(r.Context())})
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, a.Status+" "+id+" by "+b.DecidedBy)
	jsonapi.Write(w, http.StatusOK, a)
}
