package agent

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
)

// fakeJobs lists running jobs and records what is inserted and cancelled.
type fakeJobs struct {
	running   []jobs.RunningJob
	inserted  []runArgs
	cancelled []int64
}

func (f *fakeJobs) Insert(_ context.Context, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	f.inserted = append(f.inserted, args.(runArgs))
	return &rivertype.JobInsertResult{}, nil
}

func (f *fakeJobs) InsertTx(context.Context, *sql.Tx, river.JobArgs, *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return &rivertype.JobInsertResult{}, nil
}

func (f *fakeJobs) RunningJobs(context.Context, string, int) ([]jobs.RunningJob, error) {
	return f.running, nil
}

func (f *fakeJobs) CancelJob(_ context.Context, id int64) error {
	f.cancelled = append(f.cancelled, id)
	return nil
}

// TestRescueDead: only run jobs of processes the store knows and that
// have stopped beating are handed on; live, unknown and already cancelled
// ones are left, and a finished run's dead job is only cancelled.
func TestRescueDead(t *testing.T) {
	s := openStore(t)
	ctx := t.Context()
	for id, status := range map[string]string{"run_live": gtmgate.RunRunning, "run_dead": gtmgate.RunRunning, "run_unknown": gtmgate.RunRunning,
		"run_cancelled": gtmgate.RunRunning, "run_done": gtmgate.RunSucceeded} {
		if err := s.CreateAgentRun(ctx, &gtmgate.AgentRun{ID: id, TenantID: "acme", Status: status}); err != nil {
			t.Fatal(err)
		}
	}
	job := func(id int64, run, by string, cancelled bool) jobs.RunningJob {
		args, _ := json.Marshal(runArgs{RunID: run})
		return jobs.RunningJob{ID: id, Args: args, WorkedBy: by, Cancelled: cancelled}
	}
	f := &fakeJobs{running: []jobs.RunningJob{job(1, "run_live", "replica-a", false), job(2, "run_dead", "replica-b", false),
		job(3, "run_unknown", "river-random", false), job(4, "run_cancelled", "replica-b", true), job(5, "run_done", "replica-b", false)}}
	a := New(Options{Store: s, LiveWorkers: func(context.Context) (map[string]bool, error) {
		return map[string]bool{"replica-a": true, "replica-b": false}, nil
	}})
	a.Attach(f)
	if err := a.RescueDead(ctx); err != nil {
		t.Fatal(err)
	}
	if want := []runArgs{{RunID: "run_dead", Rescue: 2}}; !slices.Equal(f.inserted, want) {
		t.Errorf("new jobs %+v, want %+v", f.inserted, want)
	}
	if want := []int64{2, 5}; !slices.Equal(f.cancelled, want) {
		t.Errorf("cancelled jobs %v, want %v", f.cancelled, want)
	}
}
