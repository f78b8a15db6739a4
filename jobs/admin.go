package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Job is one job as the admin API shows it.
type Job struct {
	ID          int64           `json:"id"`
	Kind        string          `json:"kind"`
	State       string          `json:"state"`
	Queue       string          `json:"queue"`
	Attempt     int             `json:"attempt"`
	MaxAttempts int             `json:"max_attempts"`
	Args        json.RawMessage `json:"args"`
	CreatedAt   time.Time       `json:"created_at"`
	ScheduledAt time.Time       `json:"scheduled_at"`
	AttemptedAt *time.Time      `json:"attempted_at,omitempty"`
	FinalizedAt *time.Time      `json:"finalized_at,omitempty"`
	Errors      []JobError      `json:"errors,omitempty"`
}

// JobError is one failed attempt.
type JobError struct {
	At      time.Time `json:"at"`
	Attempt int       `json:"attempt"`
	Error   string    `json:"error"`
}

func jobOf(r *rivertype.JobRow) Job {
	j := Job{ID: r.ID, Kind: r.Kind, State: string(r.State), Queue: r.Queue, Attempt: r.Attempt, MaxAttempts: r.MaxAttempts,
		Args: r.EncodedArgs, CreatedAt: r.CreatedAt, ScheduledAt: r.ScheduledAt, AttemptedAt: r.AttemptedAt, FinalizedAt: r.FinalizedAt}
	if !json.Valid(j.Args) {
		j.Args = json.RawMessage("null")
	}
	for _, e := range r.Errors {
		j.Errors = append(j.Errors, JobError{At: e.At, Attempt: e.Attempt, Error: e.Error})
	}
	return j
}

// states are River's job states, accepted by ?state=.
var states = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStateCancelled, rivertype.JobStateCompleted, rivertype.JobStateDiscarded,
	rivertype.JobStatePending, rivertype.JobStateRetryable, rivertype.JobStateRunning, rivertype.JobStateScheduled,
}

// Mount adds the job routes to the admin API.
func (e *Engine) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/jobs", e.list)
	mux.HandleFunc("GET /admin/jobs/{id}", e.get)
	mux.HandleFunc("POST /admin/jobs/{id}/retry", e.retry)
	mux.HandleFunc("POST /admin/jobs/{id}/cancel", e.cancel)
}

// list serves GET /admin/jobs?state=&kind=&limit=&cursor=, newest first.
func (e *Engine) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, err := jsonapi.QueryLimit(q.Get("limit"), 50, 500)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	p := river.NewJobListParams().First(limit).OrderBy(river.JobListOrderByID, river.SortOrderDesc)
	if v := q.Get("state"); v != "" {
		var want []rivertype.JobState
		for s := range strings.SplitSeq(v, ",") {
			st := rivertype.JobState(strings.TrimSpace(s))
			if !slices.Contains(states, st) {
				jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "state %q is not one of %s", s, stateNames()))
				return
			}
			want = append(want, st)
		}
		p = p.States(want...)
	}
	if v := q.Get("kind"); v != "" {
		p = p.Kinds(strings.Split(v, ",")...)
	}
	if v := q.Get("cursor"); v != "" {
		var c river.JobListCursor
		if err := c.UnmarshalText([]byte(v)); err != nil {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "cursor %q is not a cursor this API returned", v))
			return
		}
		p = p.After(&c)
	}
	res, err := e.client.JobList(r.Context(), p)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := struct {
		Jobs       []Job  `json:"jobs"`
		NextCursor string `json:"next_cursor,omitempty"`
	}{Jobs: []Job{}}
	for _, j := range res.Jobs {
		out.Jobs = append(out.Jobs, jobOf(j))
	}
	if len(res.Jobs) == limit && res.LastCursor != nil {
		if b, err := res.LastCursor.MarshalText(); err == nil {
			out.NextCursor = string(b)
		}
	}
	jsonapi.Write(w, http.StatusOK, out)
}

func stateNames() string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

func (e *Engine) get(w http.ResponseWriter, r *http.Request) {
	e.act(w, r, e.client.JobGet)
}

// retry serves POST /admin/jobs/{id}/retry: the job becomes available now,
// whatever its state (a running job is left alone by River).
func (e *Engine) retry(w http.ResponseWriter, r *http.Request) {
	e.act(w, r, e.client.JobRetry)
}

// cancel serves POST /admin/jobs/{id}/cancel: a queued job is cancelled at
// once; a running one is asked to stop and is not retried.
func (e *Engine) cancel(w http.ResponseWriter, r *http.Request) {
	e.act(w, r, e.client.JobCancel)
}

func (e *Engine) act(w http.ResponseWriter, r *http.Request, op func(context.Context, int64) (*rivertype.JobRow, error)) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ENotFound, "no job %q", r.PathValue("id")))
		return
	}
	row, err := op(r.Context(), id)
	if errors.Is(err, rivertype.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "no job %d", id)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, jobOf(row))
}
