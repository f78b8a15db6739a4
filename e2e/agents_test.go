package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// agentGateway is a fake model gateway that plans a fixed run: read the
// pipelines, create a task (a mutation), list deals, then answer. It can
// hold its answer at one turn, so a test can kill gtmgate mid-run.
type agentGateway struct {
	srv     *httptest.Server
	mu      sync.Mutex
	holdAt  int // tool results count at which to hold (-1: never)
	release chan struct{}
	turns   []int
}

var agentPlan = []map[string]any{
	{"tool": "crm_pipelines", "args": map[string]any{"action": "list", "rationale": "see the stages"}},
	{"tool": "crm_tasks", "args": map[string]any{"action": "create", "subject": "Review stalled deals", "rationale": "follow up"}},
	{"tool": "crm_deals", "args": map[string]any{"action": "list", "limit": 5, "rationale": "the deals to review"}},
}

func newAgentGateway(t *testing.T, holdAt int) *agentGateway {
	g := &agentGateway{holdAt: holdAt, release: make(chan struct{})}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(func() { g.unhold(); g.srv.Close() })
	return g
}

func (g *agentGateway) unhold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.holdAt >= 0 {
		g.holdAt = -1
		close(g.release)
	}
}

func (g *agentGateway) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	results := 0
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results++
		}
	}
	g.mu.Lock()
	g.turns = append(g.turns, results)
	held, release := g.holdAt == results, g.release
	g.mu.Unlock()
	if held {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
	}
	msg := map[string]any{"role": "assistant", "content": "Reviewed the pipeline and created a follow-up task."}
	if results < len(agentPlan) {
		args, _ := json.Marshal(agentPlan[results]["args"])
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": fmt.Sprintf("call_%d", results),
			"type": "function", "function": map[string]any{"name": agentPlan[results]["tool"], "arguments": string(args)}}}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "c", "object": "chat.completion", "model": "agent-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}})
}

// call makes a request to p's gateway (admin key when token is "") and decodes the answer.
func call(t *testing.T, p *process, method, path, token string, body, v any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.gateway+path, rd)
	if token == "" {
		req.Header.Set("X-Admin-Key", adminKey)
	} else {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		json.NewDecoder(resp.Body).Decode(v)
	}
	return resp.StatusCode
}

type runView struct {
	RunID     string `json:"run_id"`
	Status    string `json:"status"`
	Reason    string `json:"reason"`
	RequestID string `json:"request_id"`
	Answer    string `json:"answer"`
	Steps     []struct {
		Tool   string `json:"tool"`
		Status string `json:"status"`
	} `json:"steps"`
}

type auditPage struct {
	Entries []struct {
		Action    string `json:"action"`
		RequestID string `json:"request_id"`
		Outcome   string `json:"outcome"`
	} `json:"entries"`
}

// startReviewRun starts, on p, the run agentGateway plans.
func startReviewRun(t *testing.T, p *process) string {
	t.Helper()
	var started struct {
		Result runView `json:"result"`
	}
	st := call(t, p, "POST", "/api/v1/demo/agents", p.demoToken, map[string]any{"tool": "run_agent", "input": map[string]any{
		"action": "start", "task": "Review the pipeline and create a follow-up task", "rationale": "e2e",
		"tools": []string{"crm_pipelines", "crm_tasks", "crm_deals"}}}, &started)
	if st != 200 || started.Result.RunID == "" {
		t.Fatalf("start: %d %+v", st, started)
	}
	return started.Result.RunID
}

// TestAgentRunSurvivesSIGKILL: a run is killed while its model plans the
// third step, after two completed steps (one a mutation). After a restart
// the run continues from there: it finishes, and no completed step ran twice.
// It resumes within the documented bound (agents.md, "Rescue after a
// crash"): the dead process's heartbeat is stale after 15 s, the rescue
// looks every 10 s, plus a few seconds to fetch the new job; the killed
// process was River's leader, so up to 21 s pass before the restarted one
// leads and rescues. GTMGATE_JOB_RESCUE_AFTER is 5 minutes, so River's own
// rescuer plays no part.
func TestAgentRunSurvivesSIGKILL(t *testing.T) {
	g := newAgentGateway(t, 2)
	env := []string{"MODEL_GATEWAY_URL=" + g.srv.URL + "/v1", "AGENT_MODEL=agent-model", "AGENT_STEP_TIMEOUT=3s",
		"GTMGATE_UPSTREAM_TIMEOUT=1s", "GTMGATE_JOB_RESCUE_AFTER=5m"}
	dir := t.TempDir()
	p := start(t, dir, env...)
	id := startReviewRun(t, p)
	var run runView
	eventually(t, "two completed steps and the third turn under way", 30*time.Second, func() bool {
		call(t, p, "GET", "/admin/agent-runs/"+id, "", nil, &run)
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(run.Steps) == 2 && run.Steps[1].Status == "ok" && len(g.turns) == 3
	})
	p.cmd.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	p.cmd.Wait()

	g.unhold()
	killedLog := p.stderr.String()
	p = start(t, dir, env...)
	t.Cleanup(func() {
		if t.Failed() { // what the jobs and both processes said, to tell why
			var running, health any
			call(t, p, "GET", "/admin/jobs?state=running", "", nil, &running)
			call(t, p, "GET", "/admin/system-health", "", nil, &health)
			t.Logf("jobs running: %v\nsystem health: %v\nkilled process's log:\n%s", running, health, killedLog)
		}
	})
	eventually(t, "the run to resume (its third turn asked again)", 150*time.Second, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.turns) > 3
	})
	resumed := time.Since(killed)
	const bound = 21*time.Second + 10*time.Second + 5*time.Second
	t.Logf("rescue after kill -9: the run resumed %.1f s after the kill (documented bound %s)", resumed.Seconds(), bound)
	if resumed > bound {
		t.Errorf("the run resumed %s after the kill, past the documented bound %s", resumed.Round(time.Second), bound)
	}
	eventually(t, "the run to finish after the restart", 150*time.Second, func() bool {
		call(t, p, "GET", "/admin/agent-runs/"+id, "", nil, &run)
		return run.Status == "succeeded" || run.Status == "failed"
	})
	if run.Status != "succeeded" || len(run.Steps) != 3 || !strings.HasPrefix(run.Answer, "Reviewed") {
		t.Fatalf("run after restart: %+v", run)
	}
	var audit auditPage
	call(t, p, "GET", "/admin/audit?limit=200&parent="+run.RequestID, "", nil, &audit)
	calls := map[string]int{}
	for _, e := range audit.Entries {
		calls[e.Action]++
	}
	if calls["crm_pipelines.list"] != 1 || calls["crm_tasks.create"] != 1 || calls["crm_deals.list"] != 1 {
		t.Fatalf("calls made for the run: %v", calls)
	}
	g.mu.Lock()
	t.Logf("model turns seen (tool results at each): %v", g.turns)
	g.mu.Unlock()
	p.stop(t)
}

// TestTwoReplicasRunEachTickOnce runs two gtmgate processes on one
// PostgreSQL database with an every-minute schedule: each tick makes one
// run and one call, whichever replica fires it.
func TestTwoReplicasRunEachTickOnce(t *testing.T) {
	adminURL, name := testDatabase(t)
	env := []string{"DATABASE_URL=" + withDatabase(adminURL, hostOf(adminURL), name), "GTMGATE_ENCRYPTION_KEY=" + strings.Repeat("cd", 32)}
	a := start(t, t.TempDir(), env...)
	b := start(t, t.TempDir(), env...)
	body := map[string]any{"tenant_id": "demo", "cron": "* * * * *", "call": map[string]any{"tool": "crm_pipelines",
		"input": map[string]any{"action": "list", "rationale": "every minute"}}}
	if st := call(t, a, "PUT", "/admin/agent-schedules/every-minute", "", body, nil); st != 201 {
		t.Fatalf("put schedule: %d", st)
	}
	var runs struct {
		Runs []struct {
			runView
			ScheduledFor string `json:"scheduled_for"`
		} `json:"runs"`
	}
	eventually(t, "the first tick's run to finish", 90*time.Second, func() bool {
		call(t, b, "GET", "/admin/agent-runs?job_id=every-minute", "", nil, &runs)
		return len(runs.Runs) > 0 && runs.Runs[len(runs.Runs)-1].Status == "succeeded"
	})
	ticks := map[string]int{}
	for _, r := range runs.Runs {
		ticks[r.ScheduledFor]++
	}
	finished := 0
	for _, r := range runs.Runs {
		if r.Status == "succeeded" {
			finished++
		}
	}
	// The call is in the audit journal of whichever replica ran the tick:
	// each replica's audit read flushes its own journal first, so read
	// through both until the journals have reached the store.
	made := 0
	eventually(t, "the runs' calls in the audit log", 30*time.Second, func() bool {
		made = 0
		for _, p := range []*process{a, b} {
			var audit auditPage
			call(t, p, "GET", "/admin/audit?source=cron&action=crm_pipelines.list&limit=200", "", nil, &audit)
			made = max(made, len(audit.Entries))
		}
		return made >= finished
	})
	for tick, n := range ticks {
		if n != 1 {
			t.Errorf("tick %s has %d runs", tick, n)
		}
	}
	if made != finished {
		t.Fatalf("%d calls for %d finished runs (%d ticks)", made, finished, len(ticks))
	}
	t.Logf("%d tick(s), %d run(s), %d call(s)", len(ticks), len(runs.Runs), made)
	a.stop(t)
	b.stop(t)
}
