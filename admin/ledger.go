package admin

import (
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// listLedger serves GET /admin/errors?tenant&kind&request_id&key&since&limit;
// key selects one agent's failures (its audit key).
func (h *Handler) listLedger(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := gtmgate.LedgerFilter{TenantID: q.Get("tenant"), Kind: q.Get("kind"), RequestID: q.Get("request_id"), Key: q.Get("key")}
	var err error
	if f.Since, err = jsonapi.QuerySince(q.Get("since")); err == nil {
		f.Limit, err = jsonapi.QueryLimit(q.Get("limit"), 100, 1000)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	h.flushRecorder(r) // failures reach the store with their audit records
	entries, err := h.opts.Store.ListLedger(r.Context(), f)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if entries == nil {
		entries = []*gtmgate.LedgerEntry{}
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"entries": entries})
}

func (h *Handler) getLedger(w http.ResponseWriter, r *http.Request) {
	h.flushRecorder(r)
	e, err := h.opts.Store.GetLedgerEntry(r.Context(), r.PathValue("id"))
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no error ledger entry %q", r.PathValue("id"))
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, e)
}

// ReplayBody is POST /admin/replay's body.
type ReplayBody struct {
	EntryID string `json:"entry_id"`
	Force   bool   `json:"force"`
}

// replay serves POST /admin/replay {entry_id, force}.
func (h *Handler) replay(w http.ResponseWriter, r *http.Request) {
	var b ReplayBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if b.EntryID == "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "entry_id is required"))
		return
	}
	h.flushRecorder(r)
	rid := gtmgate.RequestIDFromContext(r.Context())
	res, err := h.opts.Runner.Replay(r.Context(), b.EntryID, b.Force, "admin", rid)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	setAuditDetail(w, "replay of "+b.EntryID)
	body := map[string]any{"entry_id": res.EntryID, "request_id": res.RequestID, "ok": res.OK}
	if res.Outcome != nil {
		body["outcome"] = res.Outcome
	}
	if res.Error != nil {
		body["error"] = jsonapi.NewErrorBody(res.Error, rid).Error
	}
	jsonapi.Write(w, http.StatusOK, body)
}
