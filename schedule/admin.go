package schedule

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// RunSummary is one run as a schedule lists it.
type RunSummary struct {
	RunID        string     `json:"run_id"`
	Status       string     `json:"status"`
	Trigger      string     `json:"trigger"`
	Reason       string     `json:"reason,omitempty"`
	ScheduledFor *time.Time `json:"scheduled_for,omitempty"`
	// LateBySeconds is how late the tick's run was created after its time.
	LateBySeconds float64    `json:"late_by_seconds,omitempty"`
	CreatedAt     time.Time  `json:"created_at"`
	StartedAt     *time.Time `json:"started_at,omitempty"`
	FinishedAt    *time.Time `json:"finished_at,omitempty"`
}

// View is a schedule with its last runs.
type View struct {
	*gtmgate.Schedule
	LastRuns []RunSummary `json:"last_runs"`
}

// lastRuns is how many runs a schedule shows.
const lastRuns = 5

func (s *Scheduler) view(ctx context.Context, sc *gtmgate.Schedule, n int) (View, error) {
	runs, err := s.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{ScheduleID: sc.JobID, TenantID: sc.TenantID, Limit: n})
	if err != nil {
		return View{}, err
	}
	v := View{Schedule: sc, LastRuns: make([]RunSummary, len(runs))}
	for i, r := range runs {
		v.LastRuns[i] = RunSummary{RunID: r.ID, Status: r.Status, Trigger: r.Trigger, Reason: r.Reason, ScheduledFor: r.ScheduledFor,
			LateBySeconds: r.LateBySeconds, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt}
	}
	return v, nil
}

func (s *Scheduler) list(ctx context.Context, tenantID string) ([]View, error) {
	scs, err := s.opts.Store.ListSchedules(ctx, gtmgate.ScheduleFilter{TenantID: tenantID})
	if err != nil {
		return nil, err
	}
	out := make([]View, len(scs))
	for i, sc := range scs {
		if out[i], err = s.view(ctx, sc, lastRuns); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// get returns a tenant's schedule, NOT_FOUND when the tenant has none of
// that name (whether or not another tenant has). Without a tenant (the admin
// API without ?tenant=) the name must belong to one tenant only.
func (s *Scheduler) get(ctx context.Context, tenantID, jobID string) (*gtmgate.Schedule, error) {
	if tenantID != "" {
		sc, err := s.opts.Store.GetSchedule(ctx, tenantID, jobID)
		if errors.Is(err, gtmgate.ErrNotFound) {
			return nil, gtmgate.Errorf(gtmgate.ENotFound, "no schedule %q", jobID)
		}
		return sc, err
	}
	named, err := s.opts.Store.ListSchedules(ctx, gtmgate.ScheduleFilter{JobID: jobID})
	switch {
	case err != nil:
		return nil, err
	case len(named) == 0:
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no schedule %q", jobID)
	case len(named) > 1:
		tenants := make([]string, len(named))
		for i, sc := range named {
			tenants[i] = sc.TenantID
		}
		return nil, gtmgate.Errorf(gtmgate.EValidation, "tenant is required: tenants %s each have a schedule %q", strings.Join(tenants, ", "), jobID).
			WithHint("add ?tenant=<tenant_id> to name the tenant's schedule")
	}
	return named[0], nil
}

// Mount adds the schedule routes to the admin API.
func (s *Scheduler) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/agent-schedules", s.adminList)
	mux.HandleFunc("GET /admin/agent-schedules/{job_id}", s.adminGet)
	mux.HandleFunc("PUT /admin/agent-schedules/{job_id}", s.adminPut)
	mux.HandleFunc("DELETE /admin/agent-schedules/{job_id}", s.adminDelete)
	mux.HandleFunc("POST /admin/run-cron", s.adminRunCron)
	mux.HandleFunc("POST /admin/agent-schedules/{job_id}/run", s.adminRunNow)
}

// adminRunNow serves POST /admin/agent-schedules/{job_id}/run: one
// schedule's run now, outside its cron, as run-cron starts it.
func (s *Scheduler) adminRunNow(w http.ResponseWriter, r *http.Request) {
	ran, err := s.RunNow(r.Context(), r.URL.Query().Get("tenant"), r.PathValue("job_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, ran)
}

func (s *Scheduler) adminList(w http.ResponseWriter, r *http.Request) {
	views, err := s.list(r.Context(), r.URL.Query().Get("tenant"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"schedules": views})
}

func (s *Scheduler) adminGet(w http.ResponseWriter, r *http.Request) {
	sc, err := s.get(r.Context(), r.URL.Query().Get("tenant"), r.PathValue("job_id"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	v, err := s.view(r.Context(), sc, 50)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, v)
}

func (s *Scheduler) adminPut(w http.ResponseWriter, r *http.Request) {
	var in Input
	if err := jsonapi.Decode(w, r, s.opts.MaxBodyBytes, &in); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	sc, created, err := s.Put(r.Context(), r.PathValue("job_id"), in, AdminCreator("admin"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	v, err := s.view(r.Context(), sc, lastRuns)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	jsonapi.Write(w, status, v)
}

func (s *Scheduler) adminDelete(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("job_id")
	sc, err := s.get(r.Context(), r.URL.Query().Get("tenant"), id)
	if err == nil {
		err = s.delete(r.Context(), sc.TenantID, id)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]string{"deleted": id, "tenant_id": sc.TenantID})
}

// delete removes a tenant's schedule; NOT_FOUND when it has none of that name.
func (s *Scheduler) delete(ctx context.Context, tenantID, jobID string) error {
	err := s.opts.Store.DeleteSchedule(ctx, tenantID, jobID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return gtmgate.Errorf(gtmgate.ENotFound, "no schedule %q", jobID)
	}
	return err
}

// RunCronBody is the body of POST /admin/run-cron.
type RunCronBody struct {
	Cron string `json:"cron"`
}

func (s *Scheduler) adminRunCron(w http.ResponseWriter, r *http.Request) {
	var b RunCronBody
	if err := jsonapi.Decode(w, r, s.opts.MaxBodyBytes, &b); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	ran, err := s.RunCron(r.Context(), b.Cron)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"cron": Normalize(b.Cron), "ran": ran})
}
