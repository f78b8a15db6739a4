package jobs_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// TestCountWaitingByQueue: jobs on one queue are counted there only.
func TestCountWaitingByQueue(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			workers := river.NewWorkers()
			river.AddWorker(workers, &echoWorker{done: make(chan string, 8)})
			e := open(t, workers) // not started: nothing is worked
			ctx := t.Context()
			var params []river.InsertManyParams
			for _, text := range []string{"a", "b", "c"} {
				params = append(params, river.InsertManyParams{Args: echoArgs{Text: text}, InsertOpts: &river.InsertOpts{Queue: jobs.QueueGrading}})
			}
			params = append(params, river.InsertManyParams{Args: echoArgs{Text: "d"}, InsertOpts: &river.InsertOpts{Queue: jobs.QueueAgents}})
			if err := e.InsertMany(ctx, params); err != nil {
				t.Fatal(err)
			}
			for queue, want := range map[string]int64{jobs.QueueGrading: 3, jobs.QueueAgents: 1, jobs.QueueSchedules: 0} {
				if n, err := e.CountWaiting(ctx, queue); err != nil || n != want {
					t.Errorf("CountWaiting(%s) = %d, %v; want %d", queue, n, err, want)
				}
			}
		})
	}
}

// TestQueueWaitMetric: a job worked is observed in the wait histogram
// under its queue and kind.
func TestQueueWaitMetric(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gtmgate.db")
	s, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	workers := river.NewWorkers()
	w := &echoWorker{done: make(chan string, 1)}
	river.AddWorker(workers, w)
	reg := prometheus.NewRegistry()
	e, err := jobs.Open(t.Context(), jobs.Options{SQLitePath: path, Workers: workers, PollInterval: 20 * time.Millisecond, Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	if _, err := e.Insert(t.Context(), echoArgs{Text: "x"}, &river.InsertOpts{Queue: jobs.QueueAgents}); err != nil {
		t.Fatal(err)
	}
	<-w.done
	n, err := testutil.GatherAndCount(reg, "gtmgate_job_queue_wait_seconds")
	if err != nil || n != 1 {
		t.Fatalf("wait series = %d, %v; want one (agents, test_echo)", n, err)
	}
	if got := testutil.CollectAndCount(reg, "gtmgate_job_queue_wait_seconds"); got != 1 {
		t.Errorf("collected %d series", got)
	}
}

func TestByQueue(t *testing.T) {
	got := jobs.ByQueue([]jobs.QueueStat{
		{Queue: jobs.QueueGrading, Kind: "grade_trace", Available: 50_000, Running: 4, OldestAvailableSeconds: 600},
		{Queue: jobs.QueueSchedules, Kind: "schedule_tick", Available: 1, OldestAvailableSeconds: 2},
		{Queue: jobs.QueueSchedules, Kind: "agent_run", Available: 3, OldestAvailableSeconds: 5},
	})
	byName := map[string]jobs.QueueWait{}
	for _, w := range got {
		byName[w.Queue] = w
	}
	if len(got) != len(jobs.Queues) || byName[jobs.QueueSchedules].Available != 4 || byName[jobs.QueueSchedules].OldestAvailableSeconds != 5 ||
		byName[jobs.QueueGrading].Available != 50_000 || byName[jobs.QueueAgents].Available != 0 || byName[jobs.QueueGrading].ThresholdSeconds != 1800 {
		t.Errorf("ByQueue = %+v", got)
	}
}
