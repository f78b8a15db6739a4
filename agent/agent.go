// Package agent runs agent tasks: a tool-calling loop through the model
// gateway whose every tool call takes the runner's one execution path
// (tenant check, validation, approval gates, audit with the run's request as
// parent, usage, grading sample). A run is a durable River job: it survives
// a restart and continues from its last completed step, it parks on a gated
// step until the gate is decided, and it ends at its step, token and time
// limits with the reason.
package agent

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/modelgw"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolrun"
)

// Store is what runs need of the store.
type Store interface {
	gtmgate.AgentStore
	gtmgate.TenantStore
	gtmgate.ApprovalStore
	gtmgate.CredentialStore
	QueryAudit(ctx context.Context, f gtmgate.AuditFilter) ([]gtmgate.AuditEntry, int64, error)
}

// Inserter enqueues jobs (jobs.Engine): on their own, or inside a
// transaction of the store (a new run's).
type Inserter interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Limits are the defaults and ceilings of a run's limits.
type Limits struct {
	DefaultSteps, MaxSteps     int
	DefaultTokens, MaxTokens   int64
	DefaultSeconds, MaxSeconds int
}

// DefaultLimits: 8 steps (at most 32), 50,000 tokens (at most 2,000,000),
// 10 minutes of working time (at most an hour).
var DefaultLimits = Limits{DefaultSteps: 8, MaxSteps: 32, DefaultTokens: 50_000, MaxTokens: 2_000_000,
	DefaultSeconds: 600, MaxSeconds: 3600}

// Options configures Agents. Store and Recorder are required; Model is nil
// when no model gateway is configured (then only fixed tool-call runs work).
type Options struct {
	Store    Store
	Recorder gtmgate.Recorder
	Model    *modelgw.Client
	// DefaultModel is used when a run names none and the tenant allows any.
	DefaultModel string
	// StepTimeout bounds one step: a model turn or a tool call (default 2m).
	StepTimeout time.Duration
	Limits      Limits
	// TenantLimits are the gateway's tenant limits, for the fields a
	// tenant's own leave at zero (default DefaultTenantLimits).
	TenantLimits gtmgate.TenantLimits
	// Steps, when set, holds run steps over their tenant's rate limits.
	Steps StepLimiter
	// QueueWorkers is how many jobs of a queue this process works at once
	// (fair share leaves one of them to other tenants; default 4).
	QueueWorkers func(queue string) int
	// LiveWorkers, when set, maps the job client ids (replica ids) of the
	// processes the store knows to whether each is alive now: a run job
	// worked by a known process that is not is rescued within rescueEvery
	// (RescueDead). Jobs of clients it does not know (a version that did
	// not name its client) are left to River's rescuer.
	LiveWorkers func(ctx context.Context) (map[string]bool, error)
	Now         func() time.Time
	Logger      *slog.Logger
}

// Agents starts, runs and reports agent runs.
type Agents struct {
	opts   Options
	runner *toolrun.Runner
	jobs   Inserter
	share  share
}

// New returns Agents; UseRunner and Attach complete it before Start.
func New(opts Options) *Agents {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = 2 * time.Minute
	}
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits
	}
	opts.TenantLimits = opts.TenantLimits.Or(DefaultTenantLimits)
	return &Agents{opts: opts}
}

// UseRunner sets the runner the runs' calls go through (built after the
// registry that holds run_agent itself).
func (a *Agents) UseRunner(r *toolrun.Runner) { a.runner = r }

// Registry is the tool registry of the runner.
func (a *Agents) Registry() *registry.Registry { return a.runner.Registry() }

// TenantTool returns the named tool as tenantID sees it, its upstream MCP
// servers' tools included.
func (a *Agents) TenantTool(ctx context.Context, tenantID, name string) (*registry.Entry, bool) {
	return a.runner.Tool(ctx, tenantID, name)
}

// Attach sets the job engine runs are enqueued on.
func (a *Agents) Attach(jobs Inserter) { a.jobs = jobs }

// AddWorkers registers the run worker and the sweep.
func (a *Agents) AddWorkers(w *river.Workers) {
	river.AddWorker(w, &runWorker{a: a})
	river.AddWorker(w, &sweepWorker{a: a})
	river.AddWorker(w, &rescueWorker{a: a})
}

// SweepJob is the periodic job that wakes runs whose gate was decided or
// expired without the decision reaching them (a process stopped between).
func SweepJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(sweepEvery),
		func() (river.JobArgs, *river.InsertOpts) { return sweepArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})
}

const sweepEvery = time.Minute

// Create stores a new run and enqueues its job in the same transaction, so
// no run is left without a job (nor a job without its run). A start past
// the tenant's runs_queued limit is RATE_LIMITED (RunsQueuedLimit).
func (a *Agents) Create(ctx context.Context, r *gtmgate.AgentRun) error {
	if r.ID == "" {
		r.ID = gtmgate.NewID("run_")
	}
	if r.Status == "" {
		r.Status = gtmgate.RunQueued
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = a.opts.Now()
	}
	if r.Steps == nil {
		r.Steps = []gtmgate.RunStep{}
	}
	if a.jobs == nil {
		return errors.New("agent: no job engine attached")
	}
	lim, err := a.tenantLimits(ctx, r.TenantID)
	if err != nil {
		return err
	}
	return a.opts.Store.CreateAgentRunWith(ctx, r, a.admission(r, lim))
}

// Enqueue makes sure a run's job is queued (once: a job already waiting for
// the run is kept), on the run's queue (RunQueue).
func (a *Agents) Enqueue(ctx context.Context, r *gtmgate.AgentRun) error {
	return a.enqueue(ctx, runArgs{RunID: r.ID}, r)
}

// RunQueue is the queue a run's job goes on: a run a schedule started
// (its tick, or run now) on the schedules queue behind the tick, any other
// on the agents queue.
func RunQueue(r *gtmgate.AgentRun) (queue string, priority int) {
	if r.ScheduleID != "" {
		return jobs.QueueSchedules, jobs.PrioritySecond
	}
	return jobs.QueueAgents, jobs.PriorityFirst
}

func (a *Agents) enqueue(ctx context.Context, args runArgs, r *gtmgate.AgentRun) error {
	runID := args.RunID
	if a.jobs == nil {
		return errors.New("agent: no job engine attached")
	}
	queue, priority := RunQueue(r)
	if _, err := a.jobs.Insert(ctx, args, &river.InsertOpts{Queue: queue, Priority: priority}); err != nil {
		return fmt.Errorf("enqueue run %s: %w", runID, err)
	}
	return nil
}

// Get returns a tenant's run; another tenant's is NOT_FOUND like a missing one.
func (a *Agents) Get(ctx context.Context, tenantID, id string) (*gtmgate.AgentRun, error) {
	r, err := a.opts.Store.GetAgentRun(ctx, id)
	if errors.Is(err, gtmgate.ErrNotFound) || (err == nil && tenantID != "" && r.TenantID != tenantID) {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "no agent run %q for this tenant", id)
	}
	return r, err
}

// Cancel ends a run that has not finished; its current step (if any) still
// completes, nothing after it starts. Its pending gates are withdrawn
// first, so none can be approved once the run is cancelled.
func (a *Agents) Cancel(ctx context.Context, tenantID, id, by string) (*gtmgate.AgentRun, error) {
	return a.cancel(ctx, tenantID, id, by, "cancelled by "+by)
}

// cancel ends a run with reason.
func (a *Agents) cancel(ctx context.Context, tenantID, id, by, reason string) (*gtmgate.AgentRun, error) {
	for range 5 {
		r, err := a.Get(ctx, tenantID, id)
		if err != nil {
			return nil, err
		}
		if gtmgate.RunFinished(r.Status) {
			return r, &gtmgate.Error{Code: gtmgate.EConflict, Message: "agent run " + id + " is " + r.Status + ", not running", Detail: view(r)}
		}
		if err := a.withdraw(ctx, r, by, reason); err != nil {
			return nil, err
		}
		a.finish(r, gtmgate.RunCancelled, reason)
		if err := a.opts.Store.SaveAgentRun(ctx, r); errors.Is(err, gtmgate.ErrConflict) {
			continue // the worker saved a step meanwhile; cancel the newer state
		} else if err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, gtmgate.Errorf(gtmgate.EConflict, "agent run %s kept changing; try again", id)
}

// withdraw withdraws the pending gates of a run being cancelled.
func (a *Agents) withdraw(ctx context.Context, r *gtmgate.AgentRun, by, reason string) error {
	n, err := a.opts.Store.WithdrawApprovals(ctx, gtmgate.ApprovalWithdrawal{TenantID: r.TenantID, RunID: r.ID,
		Reason: "agent run " + r.ID + " was " + reason, By: by, At: a.opts.Now()})
	if err != nil {
		return fmt.Errorf("withdraw the gates of run %s: %w", r.ID, err)
	}
	if n > 0 {
		a.opts.Logger.Info("agent: gates of a cancelled run withdrawn", "run_id", r.ID, "gates", n)
	}
	return nil
}

// withdrawIfEnded withdraws the gates of a run found finished (cancelled)
// while a job was working on it: a step it was running may have been held
// after the cancel withdrew the run's gates.
func (a *Agents) withdrawIfEnded(ctx context.Context, id string) error {
	r, err := a.opts.Store.GetAgentRun(ctx, id)
	if err != nil || !gtmgate.RunFinished(r.Status) {
		return err
	}
	return a.withdraw(ctx, r, "gtmgate", r.Reason)
}

// Decided wakes the run parked on a decided gate (toolrun.Options.Decided).
func (a *Agents) Decided(ctx context.Context, ap *gtmgate.Approval) {
	if ap.Source != gtmgate.SourceAgent && ap.Source != gtmgate.SourceCron {
		return
	}
	runs, err := a.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: ap.TenantID, WaitingFor: ap.ID, Limit: 10})
	if err != nil {
		a.opts.Logger.Warn("agent: finding the run waiting for a decided gate; the sweep will wake it", "approval_id", ap.ID, "err", err)
		return
	}
	for _, r := range runs {
		// A wake names the gate: the job that parked the run may still be
		// marked running for a moment, and a plain enqueue would be
		// dropped as its duplicate, leaving the run to the sweep.
		if err := a.enqueue(ctx, runArgs{RunID: r.ID, Wake: ap.ID}, r); err != nil {
			a.opts.Logger.Warn("agent: waking a run; the sweep will retry", "run_id", r.ID, "err", err)
		}
	}
}

// finish ends a run.
func (a *Agents) finish(r *gtmgate.AgentRun, status, reason string) {
	now := a.opts.Now()
	r.Status, r.Reason, r.WaitingFor, r.FinishedAt = status, reason, "", &now
}

// runArgs is the job of one run. Unique by its arguments while queued or
// running: enqueuing a run twice queues it once, and one run is never
// worked by two jobs at once (River rescues a job only after its Timeout). A
// wake carries its gate's id, so it is not taken for the job that parked the
// run, which ends right after the parked state is saved.
type runArgs struct {
	RunID string `json:"run_id"`
	// Wake is the decided gate that woke a parked run.
	Wake string `json:"wake,omitempty"`
	// Rescue is the job, worked by a process that died, whose run this
	// job takes over (RescueDead).
	Rescue int64 `json:"rescue,omitempty"`
}

func (runArgs) Kind() string { return "agent_run" }

// InsertOpts implements river.JobArgsWithInsertOpts (enqueue sets the
// queue and priority from the run).
func (runArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: jobs.QueueAgents, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled,
		rivertype.JobStateRetryable}}}
}

type sweepArgs struct{}

func (sweepArgs) Kind() string { return "agent_sweep" }

// InsertOpts implements river.JobArgsWithInsertOpts: one sweep at a time.
func (sweepArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, sweepEvery)
}

type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
	a *Agents
}

// Work cancels unfinished runs whose credential was revoked (when the
// revocation's own notice was lost), then wakes waiting runs whose gate is
// no longer pending, and queued runs whose job was lost.
func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	a := w.a
	if err := a.CredentialsRevoked(ctx, ""); err != nil {
		a.opts.Logger.Warn("agent: cancelling runs of revoked credentials; the next sweep retries", "err", err)
	}
	waiting, err := a.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{Status: gtmgate.RunWaitingApproval, Limit: 1000})
	if err != nil {
		return fmt.Errorf("list waiting runs: %w", err)
	}
	now := a.opts.Now()
	for _, r := range waiting {
		ap, err := a.opts.Store.GetApproval(ctx, r.WaitingFor)
		if err == nil && ap.AsOf(now).Status == gtmgate.ApprovalPending {
			continue
		}
		if err := a.Enqueue(ctx, r); err != nil {
			return err
		}
	}
	stale, err := a.opts.Store.ListAgentRuns(ctx, gtmgate.AgentRunFilter{Status: gtmgate.RunQueued, CreatedBefore: now.Add(-sweepEvery), Limit: 1000})
	if err != nil {
		return fmt.Errorf("list queued runs: %w", err)
	}
	for _, r := range stale {
		if err := a.Enqueue(ctx, r); err != nil {
			return err
		}
	}
	return nil
}
