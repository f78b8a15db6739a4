package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate/jobs"
)

const sweepEvery = 10 * time.Second

type sweepArgs struct{}

func (sweepArgs) Kind() string { return "test_sweep" }
func (sweepArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, sweepEvery)
}

type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
}

func (sweepWorker) Work(context.Context, *river.Job[sweepArgs]) error { return nil }

// TestOneAtATimeKeyedPerInterval: a periodic sweep is not enqueued twice for
// one interval, but a copy that never finished (here one still waiting,
// standing in for one left running by a killed process until River's
// rescuer ends it, minutes later) does not hold back the next interval's.
// This is what once kept the agent rescue from running for 5 minutes after
// a kill -9 landed during it.
func TestOneAtATimeKeyedPerInterval(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			workers := river.NewWorkers()
			river.AddWorker(workers, sweepWorker{})
			e := open(t, workers) // not started: the first copy is never worked
			t.Cleanup(func() { e.Close(context.Background()) })
			ctx := t.Context()
			at := time.Now().Add(time.Hour).Truncate(sweepEvery)
			insert := func(at time.Time) bool {
				t.Helper()
				res, err := e.Insert(ctx, sweepArgs{}, &river.InsertOpts{ScheduledAt: at})
				if err != nil {
					t.Fatal(err)
				}
				return !res.UniqueSkippedAsDuplicate
			}
			if !insert(at) {
				t.Fatal("the first sweep was not inserted")
			}
			if insert(at.Add(time.Second)) {
				t.Error("a second sweep was inserted in the same interval")
			}
			if !insert(at.Add(sweepEvery)) {
				t.Error("the next interval's sweep was held back by one that never finished")
			}
		})
	}
}
