package schedule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/agent"
	"github.com/gtmgate/gtmgate/jobs"
)

// Store is what schedules need of the store.
type Store interface {
	gtmgate.AgentStore
	gtmgate.TenantStore
	gtmgate.CredentialStore
}

// Options configures a Scheduler. Store and Agents are required.
type Options struct {
	Store  Store
	Agents *agent.Agents
	// CatchUp is the oldest a missed tick may be and still run (default
	// 1h); older ones are recorded as skipped.
	CatchUp time.Duration
	// RunningSince returns when the longest-running live replica started,
	// from the replicas' heartbeats: a tick due after it was late because
	// the tick job was delayed, one before it was missed while no replica
	// was running. Nil, or an error: this process's start.
	RunningSince func(ctx context.Context) (time.Time, error)
	// Registerer receives the tick lateness metric (nil: not registered).
	Registerer prometheus.Registerer
	Now        func() time.Time
	Logger     *slog.Logger
	// MaxBodyBytes bounds admin request bodies.
	MaxBodyBytes int64
}

// Scheduler validates, stores and fires schedules.
type Scheduler struct {
	opts    Options
	started time.Time
	late    *lateness
}

// New returns a Scheduler.
func New(opts Options) *Scheduler {
	if opts.CatchUp <= 0 {
		opts.CatchUp = time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Scheduler{opts: opts, started: opts.Now(), late: newLateness(opts.Registerer)}
}

// Input is a schedule as the admin API and the agent_schedules tool take it.
type Input struct {
	TenantID    string                `json:"tenant_id,omitempty"`
	Cron        string                `json:"cron"`
	Timezone    string                `json:"timezone,omitempty"`
	Agent       *gtmgate.AgentTask    `json:"agent,omitempty"`
	Call        *gtmgate.ToolCallSpec `json:"call,omitempty"`
	Enabled     *bool                 `json:"enabled,omitempty"`
	EndsAt      *time.Time            `json:"ends_at,omitempty"`
	Description string                `json:"description,omitempty"`
}

var jobIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Validate checks a schedule for a tenant and returns it with its next run.
// Errors are VALIDATION_ERRORs naming the field.
func (s *Scheduler) Validate(ctx context.Context, jobID string, in Input) (*gtmgate.Schedule, error) {
	if !jobIDPattern.MatchString(jobID) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "job_id %q must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit", jobID)
	}
	if in.TenantID == "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "tenant_id is required")
	}
	if _, err := s.opts.Store.GetTenant(ctx, in.TenantID); errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "tenant_id: no tenant %q", in.TenantID)
	} else if err != nil {
		return nil, err
	}
	expr, err := Parse(in.Cron, in.Timezone)
	if err != nil {
		return nil, err
	}
	if len(in.Description) > 500 {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "description is longer than 500 characters")
	}
	sc := &gtmgate.Schedule{JobID: jobID, TenantID: in.TenantID, Cron: Normalize(in.Cron), Timezone: in.Timezone, Enabled: true,
		EndsAt: in.EndsAt, Description: in.Description}
	if sc.Timezone == "" {
		sc.Timezone = "UTC"
	}
	if in.Enabled != nil {
		sc.Enabled = *in.Enabled
	}
	switch {
	case (in.Agent == nil) == (in.Call == nil):
		return nil, gtmgate.Errorf(gtmgate.EValidation, "give exactly one of agent (a run_agent task) and call (one tool call with its input)")
	case in.Agent != nil:
		if _, err := s.opts.Agents.Prepare(ctx, in.TenantID, *in.Agent); err != nil {
			return nil, prefixed("agent.", err)
		}
		sc.Agent = in.Agent
	default:
		if err := s.checkCall(ctx, in.TenantID, in.Call); err != nil {
			return nil, err
		}
		sc.Call = in.Call
	}
	now := s.opts.Now()
	if sc.EndsAt != nil && !sc.EndsAt.After(now) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "ends_at %s is in the past", sc.EndsAt.Format(time.RFC3339))
	}
	sc.NextRunAt = s.next(expr, sc, now)
	return sc, nil
}

// checkCall validates a fixed call's tool and input.
func (s *Scheduler) checkCall(ctx context.Context, tenantID string, c *gtmgate.ToolCallSpec) error {
	e, ok := s.opts.Agents.TenantTool(ctx, tenantID, c.Tool)
	switch {
	case c.Tool == "":
		return gtmgate.Errorf(gtmgate.EValidation, "call.tool is required")
	case !ok:
		return gtmgate.Errorf(gtmgate.EValidation, "call.tool: no tool named %q", c.Tool)
	case slices.Contains([]string{"run_agent", "agent_schedules"}, c.Tool):
		return gtmgate.Errorf(gtmgate.EValidation, "call.tool: %s cannot be scheduled as a call; give agent for an agent task", c.Tool)
	}
	if len(c.Input) == 0 {
		c.Input = json.RawMessage(`{}`)
	}
	if _, _, err := e.Validate(c.Input); err != nil {
		return prefixed("call.input: ", err)
	}
	return nil
}

// prefixed puts the field path in front of a validation error's message.
func prefixed(field string, err error) error {
	e := *gtmgate.AsError(err)
	if e.Code == gtmgate.EValidation || e.Code == gtmgate.EUnavailable {
		e.Message = field + e.Message
	}
	return &e
}

// next is a schedule's next tick after t, or nil when disabled or ended.
func (s *Scheduler) next(expr *Expression, sc *gtmgate.Schedule, t time.Time) *time.Time {
	if !sc.Enabled {
		return nil
	}
	n := expr.Next(t)
	if n.IsZero() || (sc.EndsAt != nil && n.After(*sc.EndsAt)) {
		return nil
	}
	return &n
}

// Creator is who puts a schedule: its runs act for Credential, with no
// more than Scopes (nil: every right of the tenant).
type Creator struct {
	// By is recorded as the schedule's updated_by.
	By         string
	Credential gtmgate.Credential
	Scopes     []string
}

// AdminCreator is an operator with the admin key.
func AdminCreator(by string) Creator {
	return Creator{By: by, Credential: gtmgate.Credential{Kind: gtmgate.CredentialAdmin}}
}

// Put validates and stores a schedule, bound to its creator's credential:
// putting a schedule again (re-enabling one a revocation disabled, too)
// binds it to the credential that puts it.
func (s *Scheduler) Put(ctx context.Context, jobID string, in Input, c Creator) (*gtmgate.Schedule, bool, error) {
	sc, err := s.Validate(ctx, jobID, in)
	if err != nil {
		return nil, false, err
	}
	if err := s.withinLimit(ctx, sc); err != nil {
		return nil, false, err
	}
	sc.UpdatedBy, sc.CreatedBy = c.By, &c.Credential
	if c.Scopes != nil {
		sc.Scopes = append([]string{}, c.Scopes...)
	}
	created, err := s.opts.Store.PutSchedule(ctx, sc)
	return sc, created, err
}

// TickArgs is the periodic job that fires due schedules.
type TickArgs struct{}

// Kind implements river.JobArgs.
func (TickArgs) Kind() string { return "schedule_tick" }

// InsertOpts implements river.JobArgsWithInsertOpts: one tick job at a
// time, first on the schedules queue (ahead of the runs ticks start).
func (TickArgs) InsertOpts() river.InsertOpts {
	o := jobs.OneAtATime(jobs.QueueSchedules, TickEvery)
	o.Priority = jobs.PriorityFirst
	return o
}

// TickEvery is how often due schedules are looked for: a tick starts at
// most this late.
const TickEvery = 10 * time.Second

// PeriodicJob returns the tick job, enqueued by the leader only.
func PeriodicJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(TickEvery),
		func() (river.JobArgs, *river.InsertOpts) { return TickArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})
}

type tickWorker struct {
	river.WorkerDefaults[TickArgs]
	s *Scheduler
}

// AddWorkers registers the tick worker.
func (s *Scheduler) AddWorkers(w *river.Workers) { river.AddWorker(w, &tickWorker{s: s}) }

func (w *tickWorker) Work(ctx context.Context, _ *river.Job[TickArgs]) error {
	return w.s.Tick(ctx)
}

// Tick fires every schedule due now. For each, the due ticks at most
// CatchUp old run when the tick job was merely late (the newest
// MaxLateRuns of them), or the latest one alone after a time with no
// replica running (planTicks); the others are recorded as skipped with
// what happened, and the schedule moves to its next tick. Each run records
// how late it started (late_by_seconds). Running Tick twice, or on two
// replicas, creates each tick's run once.
func (s *Scheduler) Tick(ctx context.Context) error {
	now := s.opts.Now()
	due, err := s.opts.Store.ListSchedules(ctx, gtmgate.ScheduleFilter{DueBy: now})
	if err != nil {
		return fmt.Errorf("list due schedules: %w", err)
	}
	if len(due) == 0 {
		return nil
	}
	since := s.runningSince(ctx)
	var errs []error
	for _, sc := range due {
		if err := s.fire(ctx, sc, now, since); err != nil {
			errs = append(errs, fmt.Errorf("schedule %s/%s: %w", sc.TenantID, sc.JobID, err))
		}
	}
	return errors.Join(errs...)
}

// runningSince is when the longest-running live replica started, or this
// process's start when that cannot be told.
func (s *Scheduler) runningSince(ctx context.Context) time.Time {
	if s.opts.RunningSince == nil {
		return s.started
	}
	t, err := s.opts.RunningSince(ctx)
	if err != nil || t.IsZero() {
		if err != nil {
			s.opts.Logger.Warn("reading replica heartbeats; missed ticks are judged from this process's start", "err", err)
		}
		return s.started
	}
	if s.started.Before(t) {
		return s.started
	}
	return t
}

func (s *Scheduler) fire(ctx context.Context, sc *gtmgate.Schedule, now, runningSince time.Time) error {
	if reason, err := s.standing(ctx, sc, now); err != nil || reason != "" {
		return err // disabled: no tick runs for a revoked credential
	}
	from := *sc.NextRunAt
	expr, err := Parse(sc.Cron, sc.Timezone)
	if err != nil {
		return err
	}
	plan := planTicks(expr, from, now, sc.EndsAt, s.opts.CatchUp, runningSince)
	for _, sk := range plan.skipped {
		if err := s.record(ctx, sc, sk.first, gtmgate.RunSkipped, sk.reason); err != nil {
			return err
		}
	}
	for _, tick := range plan.run {
		if _, err := s.start(ctx, sc, tick, gtmgate.TriggerSchedule); err != nil {
			return err
		}
	}
	err = s.opts.Store.AdvanceSchedule(ctx, sc.TenantID, sc.JobID, from, s.next(expr, sc, now))
	if errors.Is(err, gtmgate.ErrConflict) {
		return nil // moved meanwhile (replaced, or fired by another ticker)
	}
	return err
}

// runID is the id of a schedule tick's run: the same on every replica, and
// different for two tenants' jobs of one name.
func runID(tenantID, jobID string, tick time.Time) string {
	h := sha256.Sum256([]byte(tenantID + "|" + jobID + "|" + tick.UTC().Format(time.RFC3339Nano)))
	return "run_" + hex.EncodeToString(h[:12])
}

// newRun is the run of a schedule's target.
func (s *Scheduler) newRun(ctx context.Context, sc *gtmgate.Schedule, tick time.Time, trigger string) (*gtmgate.AgentRun, error) {
	r := &gtmgate.AgentRun{TenantID: sc.TenantID, MaxSteps: 1}
	if sc.Agent != nil {
		prepared, err := s.opts.Agents.Prepare(ctx, sc.TenantID, *sc.Agent)
		if err != nil {
			// The tenant or the gateway changed since the schedule was
			// stored: the run is recorded failed with the reason.
			r.Task, r.Status, r.Reason = sc.Agent.Task, gtmgate.RunFailed, "the schedule's task no longer validates: "+gtmgate.AsError(err).Message
		} else {
			r = prepared
		}
	} else {
		r.Call = sc.Call
	}
	r.ScheduleID, r.ScheduledFor, r.Trigger = sc.JobID, &tick, trigger
	if trigger == gtmgate.TriggerSchedule {
		r.LateBySeconds = max(0, s.opts.Now().Sub(tick).Round(time.Millisecond).Seconds())
	}
	// The run carries the schedule's rights: its creator's credential and
	// scopes, never more.
	r.Credential = sc.CreatedBy
	if sc.Scopes != nil {
		r.Scopes = append([]string{}, sc.Scopes...)
	}
	r.Rationale = "scheduled job " + sc.JobID + " (" + sc.Cron + " " + sc.Timezone + ")"
	if trigger == gtmgate.TriggerSchedule {
		r.ID = runID(sc.TenantID, sc.JobID, tick)
	} else {
		r.ID = gtmgate.NewID("run_")
	}
	r.RequestID = "req_" + r.ID
	return r, nil
}

// start creates and enqueues a tick's run; a run of that tick that exists
// already is enqueued again (idempotent) and returned.
func (s *Scheduler) start(ctx context.Context, sc *gtmgate.Schedule, tick time.Time, trigger string) (*gtmgate.AgentRun, error) {
	r, err := s.newRun(ctx, sc, tick, trigger)
	if err != nil {
		return nil, err
	}
	if r.Status == gtmgate.RunFailed {
		now := s.opts.Now()
		r.FinishedAt = &now
		if err := s.opts.Store.CreateAgentRun(ctx, r); err != nil && !errors.Is(err, gtmgate.ErrConflict) {
			return nil, err
		}
		return r, nil
	}
	err = s.opts.Agents.Create(ctx, r)
	if gtmgate.ErrorCode(err) == gtmgate.ERateLimited && trigger == gtmgate.TriggerSchedule {
		// Past the tenant's runs_queued limit: the tick is recorded as
		// skipped with the reason, not retried at every tick.
		r.Status, r.Reason = gtmgate.RunSkipped, "not started: "+gtmgate.AsError(err).Message
		return r, s.record(ctx, sc, tick, r.Status, r.Reason)
	}
	if err == nil && trigger == gtmgate.TriggerSchedule {
		s.late.observe(Lateness{TenantID: sc.TenantID, JobID: sc.JobID, Tick: tick, LateBySeconds: r.LateBySeconds})
	}
	if errors.Is(err, gtmgate.ErrConflict) {
		existing, gerr := s.opts.Store.GetAgentRun(ctx, r.ID)
		if gerr != nil {
			return nil, gerr
		}
		if !gtmgate.RunFinished(existing.Status) {
			return existing, s.opts.Agents.Enqueue(ctx, existing)
		}
		return existing, nil
	}
	return r, err
}

// record stores a tick that did not run.
func (s *Scheduler) record(ctx context.Context, sc *gtmgate.Schedule, tick time.Time, status, reason string) error {
	now := s.opts.Now()
	r := &gtmgate.AgentRun{ID: runID(sc.TenantID, sc.JobID, tick), TenantID: sc.TenantID, Status: status, Reason: reason, Trigger: gtmgate.TriggerSchedule,
		ScheduleID: sc.JobID, ScheduledFor: &tick, CreatedAt: now, FinishedAt: &now, Steps: []gtmgate.RunStep{},
		LateBySeconds: max(0, now.Sub(tick).Round(time.Millisecond).Seconds())}
	if sc.Agent != nil {
		r.Task = sc.Agent.Task
	} else {
		r.Call = sc.Call
	}
	if err := s.opts.Store.CreateAgentRun(ctx, r); err != nil && !errors.Is(err, gtmgate.ErrConflict) {
		return err
	}
	s.opts.Logger.Warn("schedule tick skipped", "job_id", sc.JobID, "tick", tick, "reason", reason)
	return nil
}

// Ran is one schedule POST /admin/run-cron started.
type Ran struct {
	JobID    string `json:"job_id"`
	TenantID string `json:"tenant_id"`
	RunID    string `json:"run_id,omitempty"`
	Status   string `json:"status"`
	Reason   string `json:"reason,omitempty"`
}

// RunCron runs now every schedule whose expression equals expr. An invalid
// expression is a VALIDATION_ERROR; one no schedule has is NOT_FOUND.
func (s *Scheduler) RunCron(ctx context.Context, expr string) ([]Ran, error) {
	if _, err := Parse(expr, ""); err != nil {
		return nil, err
	}
	expr = Normalize(expr)
	matched, err := s.opts.Store.ListSchedules(ctx, gtmgate.ScheduleFilter{Cron: expr})
	if err != nil {
		return nil, err
	}
	if len(matched) == 0 {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no schedule has the cron expression %q", expr).
			WithHint("GET /admin/agent-schedules lists the schedules and their expressions")
	}
	out := make([]Ran, 0, len(matched))
	for _, sc := range matched {
		ran, err := s.runManual(ctx, sc)
		if err != nil {
			return out, err
		}
		out = append(out, ran)
	}
	return out, nil
}

// RunNow runs a tenant's schedule now, as RunCron does; an unknown job is
// NOT_FOUND. Without a tenant the job id must name one tenant's schedule.
func (s *Scheduler) RunNow(ctx context.Context, tenantID, jobID string) (Ran, error) {
	sc, err := s.get(ctx, tenantID, jobID)
	if err != nil {
		return Ran{}, err
	}
	return s.runManual(ctx, sc)
}

// runManual starts a manual run of sc; a disabled schedule is skipped.
func (s *Scheduler) runManual(ctx context.Context, sc *gtmgate.Schedule) (Ran, error) {
	if !sc.Enabled {
		reason := "the schedule is disabled"
		if sc.DisabledReason != "" {
			reason += ": " + sc.DisabledReason
		}
		return Ran{JobID: sc.JobID, TenantID: sc.TenantID, Status: gtmgate.RunSkipped, Reason: reason}, nil
	}
	if reason, err := s.standing(ctx, sc, s.opts.Now()); err != nil {
		return Ran{}, err
	} else if reason != "" {
		return Ran{JobID: sc.JobID, TenantID: sc.TenantID, Status: gtmgate.RunSkipped, Reason: "the schedule is disabled: " + reason}, nil
	}
	r, err := s.start(ctx, sc, s.opts.Now(), gtmgate.TriggerManual)
	if err != nil {
		return Ran{}, fmt.Errorf("run schedule %s: %w", sc.JobID, err)
	}
	return Ran{JobID: sc.JobID, TenantID: sc.TenantID, RunID: r.ID, Status: r.Status, Reason: r.Reason}, nil
}
