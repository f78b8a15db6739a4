package admin

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Audit listing limits.
const (
	defaultAuditLimit = 100
	maxAuditLimit     = 1000
)

// queryAudit serves GET /admin/audit?tenant&action&source&key&actor&parent&request_id&correlation_id&since&limit&cursor.
// correlation_id needs tenant: it is the client's id, not the server's.
// actor ("person:<id>", "admin-key") selects what one actor did; it is the
// entries' key, so key and actor cannot both be given.
func (h *Handler) queryAudit(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("key") != "" && q.Get("actor") != "" {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "key and actor cannot be combined: an admin entry's key is its actor"))
		return
	}
	f := gtmgate.AuditFilter{TenantID: q.Get("tenant"), Action: q.Get("action"), Source: q.Get("source"), Key: cmp.Or(q.Get("key"), q.Get("actor")),
		Parent: q.Get("parent"), RequestID: q.Get("request_id"), CorrelationID: q.Get("correlation_id")}
	if err := f.Validate(); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	var err error
	if f.Since, err = jsonapi.QuerySince(q.Get("since")); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if f.Limit, err = jsonapi.QueryLimit(q.Get("limit"), defaultAuditLimit, maxAuditLimit); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if q.Has("after") {
		if q.Get("cursor") != "" {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "cursor and after cannot be combined: cursor pages back from the newest, after follows forward"))
			return
		}
		h.followAudit(w, r, f, q.Get("after"))
		return
	}
	if c := q.Get("cursor"); c != "" {
		if f.Before, err = strconv.ParseInt(c, 10, 64); err != nil || f.Before <= 0 {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "cursor %q is not a cursor from a previous page", c))
			return
		}
	}
	h.flushRecorder(r)
	entries, next, err := h.opts.Store.QueryAudit(r.Context(), f)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if entries == nil {
		entries = []gtmgate.AuditEntry{}
	}
	body := map[string]any{"entries": entries, "count": len(entries)}
	if next > 0 {
		body["next_cursor"] = strconv.FormatInt(next, 10)
	}
	jsonapi.Write(w, http.StatusOK, body)
}

// followAudit serves GET /admin/audit?after=<cursor>: entries oldest first
// in commit order after the cursor ("" = from the first, or from since),
// and next_cursor to continue with, present even when nothing is new.
func (h *Handler) followAudit(w http.ResponseWriter, r *http.Request, f gtmgate.AuditFilter, after string) {
	h.flushRecorder(r)
	entries, next, err := h.opts.Store.FollowAudit(r.Context(), f, after)
	if errors.Is(err, gtmgate.ErrInvalidCursor) {
		err = gtmgate.Errorf(gtmgate.EValidation, "after %q is not a next_cursor from a previous follow", after)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"entries": entries, "count": len(entries), "next_cursor": next})
}

func (h *Handler) auditStats(w http.ResponseWriter, r *http.Request) {
	h.flushRecorder(r)
	s, err := h.opts.Store.AuditStats(r.Context(), h.opts.Now().UTC())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, s)
}

// flushWait bounds how long a read of the audit log or usage waits for
// recorded calls to reach the store.
const flushWait = 5 * time.Second

// flushRecorder lets a read see every call acknowledged before it: calls are
// acknowledged once journaled and reach the store moments later. When the
// store is behind (an outage), the read goes ahead with what is there.
func (h *Handler) flushRecorder(r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), flushWait)
	defer cancel()
	if err := h.opts.Recorder.Flush(ctx); err != nil {
		jsonapi.LoggerFrom(r.Context()).Warn("reading the audit store while recorded calls are still on their way", "err", err)
	}
}
