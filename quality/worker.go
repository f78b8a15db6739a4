package quality

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/webhook"
)

// GradeArgs is one trace to grade, as a durable job. VerdictID is chosen
// when the job is inserted, so a retried or rescued job records its verdict
// once.
type GradeArgs struct {
	VerdictID string        `json:"verdict_id" river:"unique"`
	Trace     gtmgate.Trace `json:"trace"`
}

// Kind implements river.JobArgs.
func (GradeArgs) Kind() string { return "grade_trace" }

// GradeAttempts is how many times a grading job runs before it is discarded
// (with a failed verdict kept).
const GradeAttempts = 5

// InsertOpts implements river.JobArgsWithInsertOpts: the grading queue, at
// the last priority unless the sample says otherwise (gradePriority).
func (GradeArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: jobs.QueueGrading, Priority: jobs.PriorityThird, MaxAttempts: GradeAttempts,
		UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Inserter enqueues jobs (jobs.Engine).
type Inserter interface {
	InsertMany(ctx context.Context, params []river.InsertManyParams) error
}

// gradeWorker works grading jobs.
type gradeWorker struct {
	river.WorkerDefaults[GradeArgs]
	h *Harness
}

// Timeout implements river.Worker: the jury's time plus recording.
func (w *gradeWorker) Timeout(*river.Job[GradeArgs]) time.Duration {
	return w.h.jury.timeout + 30*time.Second
}

// Work grades the trace (unless its verdict is already stored, from an
// attempt that stopped after recording it), records the verdict, and
// announces alerts and incidents.
func (w *gradeWorker) Work(ctx context.Context, job *river.Job[GradeArgs]) error {
	h := w.h
	v, err := h.store.GetVerdict(ctx, job.Args.VerdictID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		v, err = h.grade(ctx, job)
	}
	if err != nil {
		return err
	}
	return h.announce(ctx, v)
}

// grade asks the jury and records its verdict. Fewer than two valid
// verdicts fail the attempt (River retries with backoff) until the last
// attempt, which records the grading as failed.
func (h *Harness) grade(ctx context.Context, job *river.Job[GradeArgs]) (*gtmgate.GraderVerdict, error) {
	tr := job.Args.Trace
	if tr.Kind != "" {
		// A tool change has no earlier result to regress from.
	} else if kg, err := h.store.KnownGood(ctx, tr.TenantID, tr.InputShape); err == nil && kg.TraceID != tr.ID {
		tr.KnownGood = kg
	} else if err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
		return nil, err
	}
	results := h.jury.Grade(ctx, &tr)
	var valid []*gtmgate.Verdict
	var failures []string
	for _, r := range results {
		if r.Verdict != nil {
			valid = append(valid, r.Verdict)
		} else {
			h.metrics.judgeFailures.WithLabelValues(r.Judge).Inc()
			failures = append(failures, r.Judge+": "+r.Error)
		}
	}
	v := &gtmgate.GraderVerdict{ID: job.Args.VerdictID, TraceID: tr.ID, Time: h.now(), TenantID: tr.TenantID, Tool: tr.Tool,
		Action: tr.Action, Expected: tr.Expected, Status: gtmgate.VerdictGraded, RubricVersion: RubricVersion, Judges: results, Trace: &tr}
	if len(valid) < 2 {
		cause := fmt.Sprintf("%d of %d judges gave a valid verdict: %s", len(valid), len(results), strings.Join(failures, "; "))
		if job.Attempt < job.MaxAttempts {
			return nil, errors.New(cause)
		}
		v.Status, v.Error = gtmgate.VerdictFailed, cause
	} else {
		v.Panel = Combine(valid, tr.Expected)
	}
	stored, err := h.store.RecordVerdict(ctx, v, h.rules)
	if err != nil {
		return nil, err
	}
	h.metrics.verdicts.WithLabelValues(verdictLabel(stored)).Inc()
	if stored.Panel != nil {
		bad := stored.Panel.Quality <= h.rules.BadQuality
		if bad {
			h.sampler.markDegraded(stored.TenantID, stored.Tool, stored.Action, true)
		} else if stored.IncidentEvent == "closed" {
			h.sampler.markDegraded(stored.TenantID, stored.Tool, stored.Action, false)
		}
	}
	return stored, nil
}

func verdictLabel(v *gtmgate.GraderVerdict) string {
	if v.Panel == nil {
		return "failed"
	}
	return fmt.Sprint(v.Panel.Quality)
}

// Alert is the data of a quality.alert message.
type Alert struct {
	TenantID  string                `json:"tenant_id"`
	ToolPath  string                `json:"tool_path"`
	TraceID   string                `json:"trace_id"`
	VerdictID string                `json:"verdict_id"`
	RequestID string                `json:"request_id"`
	Panel     *gtmgate.Panel        `json:"panel"`
	Verdicts  []gtmgate.JudgeResult `json:"verdicts"`
	// IncidentID is set when this verdict opened an incident.
	IncidentID string `json:"incident_id,omitempty"`
}

// IncidentEvent is the data of incident.opened and incident.closed messages.
type IncidentEvent struct {
	IncidentID string `json:"incident_id"`
	TenantID   string `json:"tenant_id"`
	ToolPath   string `json:"tool_path"`
	// VerdictID is the verdict that opened or closed it.
	VerdictID string `json:"verdict_id,omitempty"`
	TraceID   string `json:"trace_id,omitempty"`
	// ResolvedBy names the operator who resolved it (incident.resolved).
	ResolvedBy string `json:"resolved_by,omitempty"`
}

// Event types of quality messages.
const (
	EventAlert          = "quality.alert"
	EventIncidentOpened = "incident.opened"
	EventIncidentClosed = "incident.closed"
	// EventIncidentResolved: an operator resolved the incident.
	EventIncidentResolved = "incident.resolved"
)

// announce enqueues the webhook messages a verdict calls for. Message ids
// derive from the verdict and incident, so announcing again (a retried
// job) inserts nothing new.
func (h *Harness) announce(ctx context.Context, v *gtmgate.GraderVerdict) error {
	if !h.alerting || v.Panel == nil {
		return nil
	}
	var msgs []river.InsertManyParams
	path := v.Tool + "." + v.Action
	if Alerting(v, h.rules.BadQuality) {
		msgs = append(msgs, message("msg_"+v.ID, EventAlert, v.TenantID, v.Time, Alert{
			TenantID: v.TenantID, ToolPath: path, TraceID: v.TraceID, VerdictID: v.ID, RequestID: requestID(v),
			Panel: v.Panel, Verdicts: v.Judges, IncidentID: openedIncident(v)}))
	}
	if v.IncidentEvent != "" {
		event := EventIncidentOpened
		if v.IncidentEvent == "closed" {
			event = EventIncidentClosed
		}
		msgs = append(msgs, message("msg_"+v.IncidentID+"_"+v.IncidentEvent, event, v.TenantID, v.Time, IncidentEvent{
			IncidentID: v.IncidentID, TenantID: v.TenantID, ToolPath: path, VerdictID: v.ID, TraceID: v.TraceID}))
	}
	if len(msgs) == 0 {
		return nil
	}
	return h.jobs.InsertMany(ctx, msgs)
}

func openedIncident(v *gtmgate.GraderVerdict) string {
	if v.IncidentEvent == "opened" {
		return v.IncidentID
	}
	return ""
}

func requestID(v *gtmgate.GraderVerdict) string {
	if v.Trace != nil {
		return v.Trace.RequestID
	}
	return ""
}

func message(id, event, tenant string, at time.Time, data any) river.InsertManyParams {
	body, _ := json.Marshal(webhook.Envelope{Type: event, Timestamp: at, Data: data})
	return river.InsertManyParams{Args: webhook.Args{WebhookID: id, Event: event, TenantID: tenant, Body: body}}
}

// AnnounceResolved enqueues incident.resolved for an incident an operator
// resolved (no-op without an alert webhook).
func (h *Harness) AnnounceResolved(ctx context.Context, e *gtmgate.LedgerEntry) error {
	if !h.alerting {
		return nil
	}
	at := time.Now()
	if e.ResolvedAt != nil {
		at = *e.ResolvedAt
	}
	return h.jobs.InsertMany(ctx, []river.InsertManyParams{message("msg_"+e.ID+"_resolved", EventIncidentResolved, e.TenantID, at,
		IncidentEvent{IncidentID: e.ID, TenantID: e.TenantID, ToolPath: e.Tool + "." + e.Action, ResolvedBy: e.ResolvedBy})})
}
