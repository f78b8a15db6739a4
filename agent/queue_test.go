package agent

import (
	"context"
	"database/sql"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
)

// TestRunQueue: runs a schedule started go on the schedules queue behind
// its tick; any other run on the agents queue.
func TestRunQueue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		run      gtmgate.AgentRun
		queue    string
		priority int
	}{
		{"run_agent", gtmgate.AgentRun{Trigger: gtmgate.TriggerCall}, jobs.QueueAgents, jobs.PriorityFirst},
		{"a schedule's tick", gtmgate.AgentRun{Trigger: gtmgate.TriggerSchedule, ScheduleID: "daily"}, jobs.QueueSchedules, jobs.PrioritySecond},
		{"a schedule run now", gtmgate.AgentRun{Trigger: gtmgate.TriggerManual, ScheduleID: "daily"}, jobs.QueueSchedules, jobs.PrioritySecond},
	} {
		if q, p := RunQueue(&tc.run); q != tc.queue || p != tc.priority {
			t.Errorf("%s: queue %s priority %d, want %s %d", tc.name, q, p, tc.queue, tc.priority)
		}
	}
}

// placedJobs records the jobs inserted and the options of their inserts.
type placedJobs struct{ pins []jobstest.Pin }

func (p *placedJobs) Insert(_ context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	p.pins = append(p.pins, jobstest.Pin{Args: args, Opts: opts})
	return &rivertype.JobInsertResult{}, nil
}

func (p *placedJobs) InsertTx(ctx context.Context, _ *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return p.Insert(ctx, args, opts)
}

// TestJobQueues pins the queue and priority of each job kind of agents,
// as its inserts place it: a run started by a call on the agents queue, a
// schedule's runs on the schedules queue behind its tick, whether admitted
// (at the tenant's fair priority) or queued again; the periodic sweep and
// rescue on the maintenance queue.
func TestJobQueues(t *testing.T) {
	t.Parallel()
	f := &placedJobs{}
	a := New(Options{})
	a.Attach(f)
	call := &gtmgate.AgentRun{ID: "run_call", TenantID: "acme", Trigger: gtmgate.TriggerCall}
	scheduled := &gtmgate.AgentRun{ID: "run_tick", TenantID: "acme", Trigger: gtmgate.TriggerSchedule, ScheduleID: "daily"}
	for _, r := range []*gtmgate.AgentRun{call, scheduled} {
		if err := a.admission(r, DefaultTenantLimits)(t.Context(), nil, gtmgate.TenantRuns{}); err != nil {
			t.Fatal(err)
		}
		if err := a.enqueue(t.Context(), runArgs{RunID: r.ID}, r); err != nil {
			t.Fatal(err)
		}
	}
	placed := []jobstest.Pin{
		{Name: "a run a call started, admitted", Queue: jobs.QueueAgents, Priority: jobs.PriorityFirst},
		{Name: "a run a call started, queued again", Queue: jobs.QueueAgents, Priority: jobs.PriorityFirst},
		{Name: "a schedule's run, admitted", Queue: jobs.QueueSchedules, Priority: jobs.PrioritySecond},
		{Name: "a schedule's run, queued again", Queue: jobs.QueueSchedules, Priority: jobs.PrioritySecond},
	}
	if len(f.pins) != len(placed) {
		t.Fatalf("%d jobs inserted, want %d", len(f.pins), len(placed))
	}
	pins := make([]jobstest.Pin, len(placed))
	for i, p := range placed {
		p.Args, p.Opts, p.Kind = f.pins[i].Args, f.pins[i].Opts, "agent_run"
		pins[i] = p
	}
	pins = append(pins,
		jobstest.Pin{Name: "a run job inserted with no options", Args: runArgs{RunID: "run_x"}, Kind: "agent_run",
			Queue: jobs.QueueAgents, Priority: jobs.PriorityFirst},
		jobstest.Pin{Name: "the sweep", Args: sweepArgs{}, Kind: "agent_sweep", Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst},
		jobstest.Pin{Name: "the rescue", Args: rescueArgs{}, Kind: "agent_rescue", Queue: jobs.QueueMaintenance, Priority: jobs.PriorityFirst})
	jobstest.Check(t, pins)
}
