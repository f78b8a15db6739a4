package quality

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
)

// insertedJobs records what the harness inserts.
type insertedJobs struct{ params []river.InsertManyParams }

func (f *insertedJobs) InsertMany(_ context.Context, p []river.InsertManyParams) error {
	f.params = append(f.params, p...)
	return nil
}

// TestJobQueues: grading jobs land on the grading queue, ordered within it
// (degraded paths first, then mutating categories and production tenants,
// then the rest; a regrade second), however they are queued; alerts on the
// webhooks queue.
func TestJobQueues(t *testing.T) {
	h := New(Options{})
	f := &insertedJobs{}
	h.Attach(f)
	sampled := func(reasons ...string) river.InsertManyParams {
		return h.job(&gtmgate.FinishedCall{Time: time.Now(), TenantID: "acme", Tool: "crm_contacts",
			Action: gtmgate.Action{Name: "list"}, Sample: gtmgate.Sample{Rate: 1, Reasons: reasons}})
	}
	if _, err := h.Regrade(t.Context(), &gtmgate.Trace{ID: "trc_1", TenantID: "acme"}); err != nil {
		t.Fatal(err)
	}
	regrade := f.params[0]
	pin := func(name, kind string, p river.InsertManyParams, queue string, priority int) jobstest.Pin {
		return jobstest.Pin{Name: name, Args: p.Args, Opts: p.InsertOpts, Kind: kind, Queue: queue, Priority: priority}
	}
	jobstest.Check(t, []jobstest.Pin{
		pin("a degraded path's call", "grade_trace", sampled("degraded_path"), jobs.QueueGrading, jobs.PriorityFirst),
		pin("a mutating call", "grade_trace", sampled("mutating_category"), jobs.QueueGrading, jobs.PrioritySecond),
		pin("a production tenant's call", "grade_trace", sampled("production_tenant"), jobs.QueueGrading, jobs.PrioritySecond),
		pin("any other sampled call", "grade_trace", sampled("rate"), jobs.QueueGrading, jobs.PriorityThird),
		pin("a regrade", "grade_trace", regrade, jobs.QueueGrading, jobs.PrioritySecond),
		pin("a changed tool definition", "grade_trace", toolChangeJob(t, h, f), jobs.QueueGrading, jobs.PriorityFirst),
		pin("an alert", "webhook_delivery", message("msg_1", EventIncidentResolved, "acme", time.Now(), nil), jobs.QueueWebhooks, jobs.PriorityFirst),
	})
}

// toolChangeJob is the job ToolChanged queues.
func toolChangeJob(t *testing.T, h *Harness, f *insertedJobs) river.InsertManyParams {
	t.Helper()
	h.ToolChanged(t.Context(), ToolChange{TenantID: "acme", Server: "notes", Tool: "notes_search"})
	return f.params[len(f.params)-1]
}
