package admin

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// listFeedback serves GET /admin/feedback?tenant&severity&since&resolved&limit.
func (h *Handler) listFeedback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := gtmgate.FeedbackFilter{TenantID: q.Get("tenant"), Severity: q.Get("severity")}
	switch f.Severity {
	case "", gtmgate.SeverityLow, gtmgate.SeverityMed, gtmgate.SeverityHigh:
	default:
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "severity %q must be low, med or high", f.Severity))
		return
	}
	var err error
	if f.Since, err = jsonapi.QuerySince(q.Get("since")); err == nil {
		f.Limit, err = jsonapi.QueryLimit(q.Get("limit"), 100, 1000)
	}
	if v := q.Get("resolved"); err == nil && v != "" {
		var b bool
		if b, err = strconv.ParseBool(v); err != nil {
			err = gtmgate.Errorf(gtmgate.EValidation, "resolved %q must be true or false", v)
		}
		f.Resolved = &b
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	fs, err := h.opts.Store.ListFeedback(r.Context(), f)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if fs == nil {
		fs = []*gtmgate.Feedback{}
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"feedback": fs})
}

func (h *Handler) resolveFeedback(w http.ResponseWriter, r *http.Request) {
	var b struct {
		ResolvedBy string `json:"resolved_by"`
	}
	body, err := jsonapi.ReadBody(w, r, h.opts.MaxBodyBytes)
	if err == nil && len(body) > 0 {
		err = jsonapi.Unmarshal(body, &b)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if b.ResolvedBy == "" {
		b.ResolvedBy = "admin"
	}
	f, err := h.opts.Store.ResolveFeedback(r.Context(), r.PathValue("id"), b.ResolvedBy, h.opts.Now().UTC())
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no feedback %q", r.PathValue("id"))
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, f)
}
