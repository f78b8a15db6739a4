package quality

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Status is what GET /admin/grader reports of the harness.
type Status struct {
	Enabled bool `json:"enabled"`
	// Reason says why grading is off.
	Reason        string            `json:"reason,omitempty"`
	SampleRate    float64           `json:"sample_rate"`
	Factors       Factors           `json:"factors"`
	Judges        map[string]string `json:"judges,omitempty"`
	RubricVersion string            `json:"rubric_version"`
	Rules         gtmgate.PathRules `json:"rules"`
	// AlertWebhook is the host alerts go to ("" = alerts off).
	AlertWebhook string `json:"alert_webhook,omitempty"`
	// Backlog is the grading jobs waiting, their bound and the samples
	// not graded by reason (grading on only).
	Backlog *Backlog `json:"backlog,omitempty"`
}

// AdminOptions configures the quality admin routes. Store is required;
// Harness is nil when grading is off.
type AdminOptions struct {
	Store        gtmgate.Store
	Harness      *Harness
	Status       Status
	MaxBodyBytes int64
	Now          func() time.Time
}

// Admin serves the harness's admin routes.
type Admin struct{ opts AdminOptions }

// NewAdmin returns the admin routes.
func NewAdmin(opts AdminOptions) *Admin {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	return &Admin{opts: opts}
}

// Mount adds the routes to the admin API.
func (a *Admin) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/grader", a.status)
	mux.HandleFunc("GET /admin/grader/verdicts", a.listVerdicts)
	mux.HandleFunc("GET /admin/grader/verdicts/{id}", a.getVerdict)
	mux.HandleFunc("POST /admin/grader/verdicts/{id}/label", a.label)
	mux.HandleFunc("POST /admin/grader/traces/{id}/regrade", a.regrade)
	mux.HandleFunc("GET /admin/grader/agreement", a.agreement)
	mux.HandleFunc("GET /admin/grader/paths", a.paths)
	mux.HandleFunc("GET /admin/grader/deliveries", a.deliveries)
	mux.HandleFunc("GET /admin/incidents", a.incidents)
	mux.HandleFunc("POST /admin/incidents/{id}/resolve", a.resolve)
}

func (a *Admin) status(w http.ResponseWriter, r *http.Request) {
	s := a.opts.Status
	if a.opts.Harness != nil {
		b := a.opts.Harness.Backlog()
		s.Backlog = &b
	}
	jsonapi.Write(w, http.StatusOK, s)
}

// listVerdicts serves GET /admin/grader/verdicts?limit (default 50, max
// 500)&tenant&tool&key&max_quality&issue&routing_defect&labelled&since.
func (a *Admin) listVerdicts(w http.ResponseWriter, r *http.Request) {
	f, err := verdictFilter(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	vs, err := a.opts.Store.ListVerdicts(r.Context(), f)
	writeList(w, r, "verdicts", vs, err)
}

func verdictFilter(r *http.Request) (gtmgate.VerdictFilter, error) {
	q := r.URL.Query()
	f := gtmgate.VerdictFilter{TenantID: q.Get("tenant"), Tool: q.Get("tool"), Key: q.Get("key"), Issue: gtmgate.Issue(q.Get("issue"))}
	var err error
	if f.Limit, err = jsonapi.QueryLimit(q.Get("limit"), 50, 500); err != nil {
		return f, err
	}
	if f.Since, err = jsonapi.QuerySince(q.Get("since")); err != nil {
		return f, err
	}
	if v := q.Get("max_quality"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 4 {
			return f, gtmgate.Errorf(gtmgate.EValidation, "max_quality %q must be 1 to 4", v)
		}
		f.MaxQuality = n
	}
	if f.Issue != "" && !slices.Contains(gtmgate.Issues, f.Issue) {
		return f, gtmgate.Errorf(gtmgate.EValidation, "issue %q is not one of the nine issue values", f.Issue)
	}
	for name, dst := range map[string]**bool{"routing_defect": &f.RoutingDefect, "labelled": &f.Labelled} {
		if v := q.Get(name); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return f, gtmgate.Errorf(gtmgate.EValidation, "%s %q is not true or false", name, v)
			}
			*dst = &b
		}
	}
	return f, nil
}

func (a *Admin) getVerdict(w http.ResponseWriter, r *http.Request) {
	v, err := a.opts.Store.GetVerdict(r.Context(), r.PathValue("id"))
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no verdict %q", r.PathValue("id"))
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, v)
}

// LabelBody is POST /admin/grader/verdicts/{id}/label's body. A wrong
// verdict names the right quality (and, when the panel got it wrong, the
// right category).
type LabelBody struct {
	Correct  *bool            `json:"correct"`
	Quality  int              `json:"quality"`
	Category gtmgate.Category `json:"category"`
	Note     string           `json:"note"`
}

func (a *Admin) label(w http.ResponseWriter, r *http.Request) {
	var b LabelBody
	if err := jsonapi.Decode(w, r, a.opts.MaxBodyBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	var err error
	switch {
	case b.Correct == nil:
		err = gtmgate.Errorf(gtmgate.EValidation, "correct is required: true when the panel's verdict is right, false when it is wrong")
	case !*b.Correct && (b.Quality < 1 || b.Quality > 4):
		err = gtmgate.Errorf(gtmgate.EValidation, "quality (1 to 4) is required when correct is false: the quality the call deserved")
	case b.Category != "" && !slices.Contains(gtmgate.Categories, b.Category):
		err = gtmgate.Errorf(gtmgate.EValidation, "category %q is not one of the twelve categories", b.Category)
	case len(b.Note) > 2000:
		err = gtmgate.Errorf(gtmgate.EValidation, "note is longer than 2000 characters")
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	l := gtmgate.VerdictLabel{Correct: *b.Correct, Note: b.Note, By: "admin", At: a.opts.Now()}
	if !l.Correct {
		l.Quality, l.Category = b.Quality, b.Category
	}
	v, err := a.opts.Store.LabelVerdict(r.Context(), r.PathValue("id"), l)
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no verdict %q", r.PathValue("id"))
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, v)
}

// regrade serves POST /admin/grader/traces/{id}/regrade: the trace, as kept
// with its latest verdict, is graded again under a new verdict id.
func (a *Admin) regrade(w http.ResponseWriter, r *http.Request) {
	if a.opts.Harness == nil {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EUnavailable, "grading is off: %s", a.opts.Status.Reason))
		return
	}
	v, err := a.opts.Store.LatestVerdict(r.Context(), r.PathValue("id"))
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no graded trace %q (a trace is kept with its verdict once graded)", r.PathValue("id"))
	}
	if err == nil && v.Trace == nil {
		err = gtmgate.Errorf(gtmgate.EConflict, "verdict %s kept no trace to grade again", v.ID)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	id, err := a.opts.Harness.Regrade(r.Context(), v.Trace)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusAccepted, map[string]string{"trace_id": v.TraceID, "verdict_id": id, "status": "queued"})
}

// agreement serves GET /admin/grader/agreement?since&tenant (default: the
// last 30 days, at most 5000 verdicts).
func (a *Admin) agreement(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	since, err := jsonapi.QuerySince(q.Get("since"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if since.IsZero() {
		since = a.opts.Now().Add(-30 * 24 * time.Hour)
	}
	vs, err := a.opts.Store.ListVerdicts(r.Context(), gtmgate.VerdictFilter{TenantID: q.Get("tenant"), Since: since, Limit: 5000})
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"since": since, "agreement": Measure(vs)})
}

func (a *Admin) paths(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	degraded, _ := strconv.ParseBool(q.Get("degraded"))
	ps, err := a.opts.Store.ListPathStates(r.Context(), q.Get("tenant"), degraded)
	writeList(w, r, "paths", ps, err)
}

func (a *Admin) deliveries(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := gtmgate.DeliveryFilter{WebhookID: q.Get("webhook_id"), Event: q.Get("event")}
	var err error
	if f.Limit, f.Since, err = page(q); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	ds, err := a.opts.Store.ListDeliveries(r.Context(), f)
	writeList(w, r, "deliveries", ds, err)
}

// incidents serves GET /admin/incidents?tenant&status&since&limit.
func (a *Admin) incidents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := gtmgate.LedgerFilter{TenantID: q.Get("tenant"), Kind: gtmgate.LedgerIncident, Status: q.Get("status")}
	if f.Status != "" && f.Status != gtmgate.IncidentOpen && f.Status != gtmgate.IncidentResolved {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "status %q is not open or resolved", f.Status))
		return
	}
	var err error
	if f.Limit, f.Since, err = page(q); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	es, err := a.opts.Store.ListLedger(r.Context(), f)
	writeList(w, r, "incidents", es, err)
}

// resolve serves POST /admin/incidents/{id}/resolve: the operator closes an
// incident; its tool path's quality gate lifts and its bad streak restarts.
func (a *Admin) resolve(w http.ResponseWriter, r *http.Request) {
	e, err := a.opts.Store.ResolveIncident(r.Context(), r.PathValue("id"), "admin", a.opts.Now())
	switch {
	case errors.Is(err, gtmgate.ErrNotFound):
		err = gtmgate.Errorf(gtmgate.ENotFound, "no incident %q", r.PathValue("id"))
	case errors.Is(err, gtmgate.ErrConflict):
		err = gtmgate.Errorf(gtmgate.EConflict, "incident %q is not open", r.PathValue("id"))
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if a.opts.Harness != nil {
		if err := a.opts.Harness.AnnounceResolved(r.Context(), e); err != nil {
			// The incident is resolved; only its announcement failed.
			jsonapi.LoggerFrom(r.Context()).Warn("announcing a resolved incident", "incident", e.ID, "err", err)
		}
	}
	jsonapi.Write(w, http.StatusOK, e)
}

// page reads the limit (default 100, max 1000) and since of a list route.
func page(q url.Values) (int, time.Time, error) {
	n, err := jsonapi.QueryLimit(q.Get("limit"), 100, 1000)
	if err != nil {
		return 0, time.Time{}, err
	}
	since, err := jsonapi.QuerySince(q.Get("since"))
	return n, since, err
}

// writeList answers {key: items}, or the error that stopped the listing.
func writeList[T any](w http.ResponseWriter, r *http.Request, key string, items []T, err error) {
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{key: items})
}
