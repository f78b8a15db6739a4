package jobs_test

import (
	"testing"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate/jobs"
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
