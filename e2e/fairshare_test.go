package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowModel answers every turn with a final answer after delay: a run is
// one model turn of about delay.
func slowModel(t *testing.T, delay time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "c", "object": "chat.completion", "model": "agent-model",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "done"}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOneTenantsBacklogDoesNotSlowAnother: with one tenant queueing 400
// runs at once, another tenant's run latency stays within twice its
// unloaded figure (issue 31). Many of the 400 are refused by the default
// runs_queued limit (100): each refusal must be 429 RATE_LIMITED.
func TestOneTenantsBacklogDoesNotSlowAnother(t *testing.T) {
	adminURL, name := testDatabase(t)
	model := slowModel(t, 300*time.Millisecond)
	p := start(t, t.TempDir(), "DATABASE_URL="+withDatabase(adminURL, hostOf(adminURL), name), "GTMGATE_ENCRYPTION_KEY="+strings.Repeat("cd", 32),
		"MODEL_GATEWAY_URL="+model.URL+"/v1", "AGENT_MODEL=agent-model")
	defer p.stop(t)
	if code := call(t, p, "PUT", "/admin/tenants/quiet", "", map[string]any{"name": "Quiet", "status": "active", "providers": map[string]any{}}, nil); code != 201 {
		t.Fatalf("put tenant quiet: %d", code)
	}
	quietToken := "tok-quiet-0123456789abcdef"
	if code := call(t, p, "POST", "/admin/auth", "", map[string]any{"tenant_id": "quiet", "token": quietToken}, nil); code != 201 {
		t.Fatalf("register quiet's token: %d", code)
	}

	type started struct {
		Result runView `json:"result"`
		Error  struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	startRun := func(tenant, token string) (int, started) {
		var s started
		code := call(t, p, "POST", "/api/v1/"+tenant+"/agents", token, map[string]any{"tool": "run_agent", "input": map[string]any{
			"action": "start", "task": "Say done", "rationale": "fair share e2e"}}, &s)
		return code, s
	}
	// latency is a run's time from creation to its end, as the server recorded it.
	latency := func(tenant, token string) time.Duration {
		t.Helper()
		code, s := startRun(tenant, token)
		if code != 200 {
			t.Fatalf("%s's run start: %d %+v", tenant, code, s)
		}
		var run struct {
			Status     string    `json:"status"`
			CreatedAt  time.Time `json:"created_at"`
			FinishedAt time.Time `json:"finished_at"`
		}
		eventually(t, tenant+"'s run to finish", 60*time.Second, func() bool {
			call(t, p, "GET", "/admin/agent-runs/"+s.Result.RunID, "", nil, &run)
			return run.Status == "succeeded" || run.Status == "failed"
		})
		if run.Status != "succeeded" {
			t.Fatalf("%s's run: %+v", tenant, run)
		}
		return run.FinishedAt.Sub(run.CreatedAt)
	}
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	quietRuns := func(n int) []time.Duration {
		var out []time.Duration
		for range n {
			out = append(out, latency("quiet", quietToken))
		}
		return out
	}

	quietRuns(2) // warm up
	unloaded := quietRuns(7)

	// The busy tenant starts 400 runs from 20 clients at once.
	var mu sync.Mutex
	codes := map[string]int{}
	var wg sync.WaitGroup
	begin := time.Now()
	for range 20 {
		wg.Go(func() {
			for range 20 {
				code, s := startRun("demo", p.demoToken)
				key := "200"
				if code != 200 {
					key = http.StatusText(code) + " " + s.Error.Code
				}
				mu.Lock()
				codes[key]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	queuedIn := time.Since(begin)
	var backlog struct {
		Runs []any `json:"runs"`
	}
	call(t, p, "GET", "/admin/agent-runs?tenant=demo&status=queued&limit=500", "", nil, &backlog)
	loaded := quietRuns(7)
	var after struct {
		Runs []any `json:"runs"`
	}
	call(t, p, "GET", "/admin/agent-runs?tenant=demo&status=queued&limit=500", "", nil, &after)

	t.Logf("busy tenant: 400 starts in %.1f s: %v; %d of its runs queued when the quiet tenant started, %d after",
		queuedIn.Seconds(), codes, len(backlog.Runs), len(after.Runs))
	t.Logf("quiet tenant's run latency: unloaded median %.3f s %v; with the backlog median %.3f s %v",
		median(unloaded).Seconds(), unloaded, median(loaded).Seconds(), loaded)
	for k, n := range codes {
		if k != "200" && k != "Too Many Requests RATE_LIMITED" && k != "Too Many Requests QUOTA_EXCEEDED" {
			t.Errorf("%d starts answered %s, want 200 or 429 RATE_LIMITED/QUOTA_EXCEEDED", n, k)
		}
	}
	if codes["200"] == 400 {
		t.Errorf("all 400 starts were admitted: runs_queued (default 100) refused none")
	}
	if len(after.Runs) == 0 {
		t.Errorf("the busy tenant's backlog drained before the quiet tenant's runs ended: the test measured no contention")
	}
	if median(loaded) > 2*median(unloaded) {
		t.Errorf("the quiet tenant's median run latency went from %s to %s with the other tenant's backlog, more than twice", median(unloaded), median(loaded))
	}
}
