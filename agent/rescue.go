package agent

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
)

// Rescue of runs whose process died. River makes a job left running
// available again only once it has run longer than its time-out (and
// GTMGATE_JOB_RESCUE_AFTER), looking every 30 s: minutes for a run. The
// replicas' heartbeats say sooner which process is gone: every rescueEvery
// the rescue looks at the run jobs being worked, and a job whose process
// has sent no heartbeat for liveFor is cancelled (River ends it) and its
// run handed to a new job, which settles the step that was under way from
// the audit log as after any stop.

// rescueEvery is how often run jobs of dead processes are looked for.
const rescueEvery = 10 * time.Second

// RunningJobs lists and cancels jobs being worked (jobs.Engine).
type RunningJobs interface {
	RunningJobs(ctx context.Context, kind string, limit int) ([]jobs.RunningJob, error)
	CancelJob(ctx context.Context, id int64) error
}

type rescueArgs struct{}

func (rescueArgs) Kind() string { return "agent_rescue" }

// InsertOpts implements river.JobArgsWithInsertOpts: one rescue at a time.
func (rescueArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, rescueEvery)
}

// RescueJob is the periodic job that hands the runs of dead processes to
// live ones.
func RescueJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(rescueEvery),
		func() (river.JobArgs, *river.InsertOpts) { return rescueArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})
}

type rescueWorker struct {
	river.WorkerDefaults[rescueArgs]
	a *Agents
}

func (w *rescueWorker) Work(ctx context.Context, _ *river.Job[rescueArgs]) error {
	return w.a.RescueDead(ctx)
}

// RescueDead hands every run whose job is worked by a process that is no
// longer alive (no heartbeat within Options.LiveWorkers' window) to a new
// job. It does nothing without LiveWorkers or an engine that lists jobs.
func (a *Agents) RescueDead(ctx context.Context) error {
	rj, ok := a.jobs.(RunningJobs)
	if !ok || a.opts.LiveWorkers == nil {
		return nil
	}
	live, err := a.opts.LiveWorkers(ctx)
	if err != nil {
		return err
	}
	running, err := rj.RunningJobs(ctx, runArgs{}.Kind(), 1000)
	if err != nil {
		return err
	}
	var errs []error
	for _, j := range running {
		if alive, known := live[j.WorkedBy]; j.Cancelled || !known || alive {
			continue
		}
		var args runArgs
		if err := json.Unmarshal(j.Args, &args); err != nil {
			continue
		}
		r, err := a.opts.Store.GetAgentRun(ctx, args.RunID)
		if errors.Is(err, gtmgate.ErrNotFound) {
			continue
		} else if err != nil {
			errs = append(errs, err)
			continue
		}
		// The new job first, so a failure leaves the dead one to retry.
		if !gtmgate.RunFinished(r.Status) {
			if err := a.enqueue(ctx, runArgs{RunID: r.ID, Rescue: j.ID}, r); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if err := rj.CancelJob(ctx, j.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		a.opts.Logger.Warn("agent: run of a process that stopped handed to a new job", "run_id", r.ID, "job_id", j.ID,
			"worked_by", j.WorkedBy, "since", j.Since)
	}
	return errors.Join(errs...)
}
