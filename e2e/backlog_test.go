package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/quality"
)

// slowJudges is a model gateway whose judges take judgeDelay per answer
// (then grade through judgeGateway) and whose agent model answers at once.
func slowJudges(t *testing.T, judgeDelay time.Duration) *httptest.Server {
	g := newJudgeGateway(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var peek struct {
			Model string `json:"model"`
		}
		body := new(json.RawMessage)
		json.NewDecoder(r.Body).Decode(body)
		json.Unmarshal(*body, &peek)
		if peek.Model == "agent-model" {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": "c", "object": "chat.completion", "model": "agent-model",
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "Done."}, "finish_reason": "stop"}},
				"usage":   map[string]any{"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}})
			return
		}
		select {
		case <-time.After(judgeDelay):
		case <-r.Context().Done():
			return
		}
		r2 := r.Clone(r.Context())
		r2.Body = io.NopCloser(bytes.NewReader(*body))
		g.serve(w, r2)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// backlogJobs is the grading backlog queued before the binary starts
// (GTMGATE_E2E_BACKLOG overrides it; bench/backlog.sh runs 0 and 50,000).
func backlogJobs(t *testing.T) int {
	n := 50_000
	if v := os.Getenv("GTMGATE_E2E_BACKLOG"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("GTMGATE_E2E_BACKLOG: %v", err)
		}
	}
	return n
}

// queueBacklog inserts n grading jobs into the data dir's database, as a
// burst of sampled calls would have left them.
func queueBacklog(t *testing.T, dir string, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	// The kind must be known to insert it; this engine never starts, so
	// the binary works the jobs.
	workers := river.NewWorkers()
	river.AddWorker(workers, river.WorkFunc(func(context.Context, *river.Job[quality.GradeArgs]) error { return nil }))
	e, err := jobs.Open(t.Context(), jobs.Options{SQLitePath: filepath.Join(dir, "gtmgate.db"), Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	started := time.Now()
	const batch = 1000
	for i := 0; i < n; i += batch {
		params := make([]river.InsertManyParams, 0, batch)
		for j := i; j < min(i+batch, n); j++ {
			id := fmt.Sprintf("backlog%07d", j)
			params = append(params, river.InsertManyParams{Args: quality.GradeArgs{VerdictID: "vrd_" + id, Trace: gtmgate.Trace{
				ID: "trc_" + id, TenantID: "demo", Tool: "crm_deals", Action: "list", Expected: "crm_read", Time: started,
				Input: json.RawMessage(`{"action":"list"}`), InputShape: "crm_deals.list{action:string}"}},
				InsertOpts: &river.InsertOpts{Priority: jobs.PriorityThird}})
		}
		if err := e.InsertMany(t.Context(), params); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("backlog: %d grading jobs queued in %s", n, time.Since(started).Round(time.Millisecond))
}

// TestGradingBacklogStarvesNothing (issue 31): with 50,000 grading jobs
// waiting and judges that take 2 s an answer, a per-minute schedule's tick
// runs within 15 s of its time and an agent run starts within 2 s of its
// request, because grading, schedules and agent runs are separate queues.
// The figures are logged (bench/backlog.sh collects them).
func TestGradingBacklogStarvesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("queues 50,000 jobs and waits for a schedule tick (about 2 minutes)")
	}
	n := backlogJobs(t)
	model := slowJudges(t, 2*time.Second)
	dir := t.TempDir()
	queueBacklog(t, dir, n)
	p := start(t, dir, "MODEL_GATEWAY_URL="+model.URL+"/v1", "JUDGE_ALPHA_MODEL=judge-a", "JUDGE_BETA_MODEL=judge-b",
		"JUDGE_GAMMA_MODEL=judge-c", "GRADER_SAMPLE_RATE=1", "AGENT_MODEL=agent-model", "JUDGE_TIMEOUT=30s")
	defer p.stop(t)

	body := map[string]any{"tenant_id": "demo", "cron": "* * * * *", "call": map[string]any{"tool": "crm_pipelines",
		"input": map[string]any{"action": "list", "rationale": "every minute, under a grading backlog"}}}
	if st := call(t, p, "PUT", "/admin/agent-schedules/under-backlog", "", body, nil); st != 201 {
		t.Fatalf("put schedule: %d", st)
	}

	// An agent run started by a caller, timed from its creation to its start.
	type timedRun struct {
		RunID         string     `json:"run_id"`
		Status        string     `json:"status"`
		Reason        string     `json:"reason"`
		CreatedAt     time.Time  `json:"created_at"`
		StartedAt     *time.Time `json:"started_at"`
		ScheduledFor  *time.Time `json:"scheduled_for"`
		LateBySeconds float64    `json:"late_by_seconds"`
	}
	var started struct {
		Result timedRun `json:"result"`
	}
	if st := call(t, p, "POST", "/api/v1/demo/agents", p.demoToken, map[string]any{"tool": "run_agent", "input": map[string]any{
		"action": "start", "task": "Say done", "rationale": "run start latency under a grading backlog"}}, &started); st != 200 {
		t.Fatalf("start run: %d %+v", st, started)
	}
	var run timedRun
	eventually(t, "the agent run to start", 30*time.Second, func() bool {
		call(t, p, "GET", "/admin/agent-runs/"+started.Result.RunID, "", nil, &run)
		return run.StartedAt != nil
	})
	runStart := run.StartedAt.Sub(run.CreatedAt)

	var runs struct {
		Runs []timedRun `json:"runs"`
	}
	var tick timedRun
	eventually(t, "the schedule's first tick to start its run", 100*time.Second, func() bool {
		call(t, p, "GET", "/admin/agent-runs?job_id=under-backlog", "", nil, &runs)
		for _, r := range runs.Runs {
			if r.StartedAt != nil || r.Status == gtmgate.RunSkipped {
				tick = r
				return true
			}
		}
		return false
	})
	if tick.StartedAt == nil {
		t.Fatalf("the tick's run did not start: %+v", tick)
	}
	tickStart := tick.StartedAt.Sub(*tick.ScheduledFor)

	var sys struct {
		Queues []jobs.QueueWait `json:"queues"`
	}
	adminGet(t, p, "/admin/system-health?fresh=1", &sys)
	waiting := int64(-1)
	for _, q := range sys.Queues {
		if q.Queue == jobs.QueueGrading {
			waiting = q.Available
		}
	}
	t.Logf("figure backlog=%d grading_waiting_after=%d tick_late_by_s=%.2f tick_run_start_s=%.2f agent_run_start_s=%.3f",
		n, waiting, tick.LateBySeconds, tickStart.Seconds(), runStart.Seconds())
	if tick.Status == gtmgate.RunSkipped {
		t.Errorf("the tick was skipped: %s", tick.Reason)
	}
	if tickStart > 15*time.Second {
		t.Errorf("the tick's run started %s after its time, want within 15 s", tickStart)
	}
	if runStart > 2*time.Second {
		t.Errorf("the agent run started %s after its request, want within 2 s", runStart)
	}
	if n >= 50_000 && waiting < int64(n)*9/10 {
		t.Errorf("only %d grading jobs still waiting: the backlog did not hold during the measurement", waiting)
	}
}
