package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/webhook"
)

// judgeGateway is a fake model gateway for the three judges: it grades
// crm_tasks calls whose rationale says "bad" with quality 1 and everything
// else with 4, counts the requests per trace, and can hold its answers.
type judgeGateway struct {
	srv     *httptest.Server
	mu      sync.Mutex
	perTr   map[string]int
	held    atomic.Bool
	release chan struct{}
}

func newJudgeGateway(t *testing.T) *judgeGateway {
	g := &judgeGateway{perTr: map[string]int{}, release: make(chan struct{})}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(func() { g.unhold(); g.srv.Close() })
	return g
}

func (g *judgeGateway) hold() { g.held.Store(true) }

func (g *judgeGateway) unhold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held.Swap(false) {
		close(g.release)
	}
}

func (g *judgeGateway) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	var tr struct {
		ID       string `json:"id"`
		Tool     string `json:"tool"`
		Expected string `json:"expected_category"`
		Input    struct {
			Rationale string `json:"rationale"`
		} `json:"input"`
	}
	for _, m := range req.Messages {
		// The trace is the JSON between the prompt's trace_data tags.
		if _, rest, ok := strings.Cut(m.Content, "<trace_data id=\""); ok && m.Role == "user" {
			_, rest, _ = strings.Cut(rest, "\">")
			block, _, _ := strings.Cut(rest, "</trace_data")
			json.Unmarshal([]byte(block), &tr)
		}
	}
	g.mu.Lock()
	g.perTr[tr.ID]++
	release := g.release
	g.mu.Unlock()
	if g.held.Load() {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
	}
	quality, issues := 4, "[]"
	if tr.Tool == "crm_tasks" && strings.Contains(tr.Input.Rationale, "bad") {
		quality, issues = 1, `["tool_misuse"]`
	}
	args := fmt.Sprintf(`{"reasoning":"scripted by the test","category":%q,"quality":%d,"issues":%s,"confidence":0.9}`, tr.Expected, quality, issues)
	body, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion", "model": req.Model, "choices": []any{map[string]any{
		"index": 0, "finish_reason": "tool_calls", "message": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "submit_verdict", "arguments": args}}}}}}})
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// tracesGradedMoreThanOnce returns trace ids that got more than one
// request per judge.
func (g *judgeGateway) tracesGradedMoreThanOnce() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for id, n := range g.perTr {
		if n > 3 {
			out = append(out, id)
		}
	}
	return out
}

// alertReceiver verifies each message's Standard Webhooks signature and
// keeps what it accepted, by webhook id.
type alertReceiver struct {
	srv     *httptest.Server
	secret  []byte
	failing atomic.Bool
	mu      sync.Mutex
	got     map[string]string // webhook id → event type
	bad     int
}

func newAlertReceiver(t *testing.T) *alertReceiver {
	a := &alertReceiver{secret: []byte("e2e-alert-secret-0123456789"), got: map[string]string{}}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := webhook.Verify(a.secret, r.Header, body, time.Now(), 5*time.Minute); err != nil {
			a.mu.Lock()
			a.bad++
			a.mu.Unlock()
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		if a.failing.Load() {
			http.Error(w, "receiver down", http.StatusServiceUnavailable)
			return
		}
		var env struct {
			Type string `json:"type"`
		}
		json.Unmarshal(body, &env)
		a.mu.Lock()
		a.got[r.Header.Get("webhook-id")] = env.Type
		a.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *alertReceiver) received() (map[string]string, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]string{}
	for k, v := range a.got {
		out[k] = v
	}
	return out, a.bad
}

func qualityEnv(g *judgeGateway, a *alertReceiver) []string {
	return []string{"MODEL_GATEWAY_URL=" + g.srv.URL + "/v1", "JUDGE_ALPHA_MODEL=judge-a", "JUDGE_BETA_MODEL=judge-b",
		"JUDGE_GAMMA_MODEL=judge-c", "GRADER_SAMPLE_RATE=1", "ALERT_WEBHOOK_URL=" + a.srv.URL + "/alerts",
		"ALERT_WEBHOOK_SECRET=whsec_" + base64.StdEncoding.EncodeToString(a.secret), "GTMGATE_JOB_RESCUE_AFTER=3s", "JUDGE_TIMEOUT=3s"}
}

// adminGet GETs an admin route of p and decodes the answer.
func adminGet(t *testing.T, p *process, path string, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", p.gateway+path, nil)
	req.Header.Set("X-Admin-Key", adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func eventually(t *testing.T, what string, within time.Duration, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func toolCall(t *testing.T, p *process, domain, tool string, input map[string]any) int {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"tool": tool, "input": input})
	req, _ := http.NewRequest("POST", p.gateway+"/api/v1/demo/"+domain, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+p.demoToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

type verdictList struct {
	Verdicts []struct {
		ID      string `json:"id"`
		TraceID string `json:"trace_id"`
		Tool    string `json:"tool"`
		Panel   *struct {
			Quality int `json:"quality"`
		} `json:"panel"`
	} `json:"verdicts"`
}

// TestQualityHarnessSurvivesSIGKILL: 100 tool calls graded at rate 1.0 by a
// fake model gateway whose judges grade one tool path badly three times. The
// process is killed with SIGKILL while grading jobs run, and again while the
// alert receiver is down; after restarts every trace has exactly one
// verdict, there is exactly one incident, every alert and the incident's
// announcement arrive signed (each at least once, under one webhook-id),
// and the quality gate holds that path's next mutation.
func TestQualityHarnessSurvivesSIGKILL(t *testing.T) {
	g, recv := newJudgeGateway(t), newAlertReceiver(t)
	env := qualityEnv(g, recv)
	dir := t.TempDir()
	g.hold()
	p := start(t, dir, env...)
	for i := range 100 {
		tool, domain, input := "crm_pipelines", "crm", map[string]any{"action": "list", "rationale": "good call"}
		if i%33 == 10 {
			tool, input = "crm_tasks", map[string]any{"action": "create", "rationale": fmt.Sprintf("bad call %d", i), "subject": "s"}
		}
		if st := toolCall(t, p, domain, tool, input); st != 200 {
			t.Fatalf("call %d: %d", i, st)
		}
	}
	var jobs struct {
		Jobs []struct {
			State string `json:"state"`
		} `json:"jobs"`
	}
	running := 0
	eventually(t, "100 grading jobs, some running", 30*time.Second, func() bool {
		adminGet(t, p, "/admin/jobs?kind=grade_trace&limit=500", &jobs)
		running = 0
		for _, j := range jobs.Jobs {
			if j.State == "running" {
				running++
			}
		}
		return len(jobs.Jobs) == 100 && running > 0
	})
	t.Logf("at the first SIGKILL: 100 grading jobs, %d running (their judges held)", running)
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	// Second life: the judges answer, the receiver is down.
	recv.failing.Store(true)
	g.unhold()
	p = start(t, dir, env...)
	var vs verdictList
	// Jobs left running by the killed process are rescued by the new leader
	// once their time-out has passed (River's rescuer runs every 30 s).
	eventually(t, "100 verdicts after the restart", 150*time.Second, func() bool {
		adminGet(t, p, "/admin/grader/verdicts?limit=500", &vs)
		return len(vs.Verdicts) == 100
	})
	var deliveries struct {
		Deliveries []struct {
			WebhookID string `json:"webhook_id"`
			OK        bool   `json:"ok"`
		} `json:"deliveries"`
	}
	eventually(t, "a failed attempt for each of the four messages", 30*time.Second, func() bool {
		adminGet(t, p, "/admin/grader/deliveries?limit=1000", &deliveries)
		ids := map[string]bool{}
		for _, d := range deliveries.Deliveries {
			ids[d.WebhookID] = true
		}
		return len(ids) == 4
	})
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	// Third life: the receiver is back.
	recv.failing.Store(false)
	p = start(t, dir, env...)
	eventually(t, "four signed messages received", 120*time.Second, func() bool {
		got, _ := recv.received()
		return len(got) == 4
	})
	got, bad := recv.received()
	events := map[string]int{}
	for _, e := range got {
		events[e]++
	}
	if events["quality.alert"] != 3 || events["incident.opened"] != 1 || bad != 0 {
		t.Fatalf("received %v (bad signatures: %d)", got, bad)
	}
	adminGet(t, p, "/admin/grader/verdicts?limit=500", &vs)
	traces, badPanels := map[string]int{}, 0
	for _, v := range vs.Verdicts {
		traces[v.TraceID]++
		if v.Panel != nil && v.Panel.Quality <= 2 {
			badPanels++
		}
	}
	if len(traces) != 100 || len(vs.Verdicts) != 100 || badPanels != 3 {
		t.Fatalf("%d verdicts for %d traces, %d bad", len(vs.Verdicts), len(traces), badPanels)
	}
	var incidents struct {
		Incidents []struct {
			Tool   string `json:"tool"`
			Status string `json:"status"`
		} `json:"incidents"`
	}
	adminGet(t, p, "/admin/incidents", &incidents)
	if len(incidents.Incidents) != 1 || incidents.Incidents[0].Tool != "crm_tasks" || incidents.Incidents[0].Status != "open" {
		t.Fatalf("incidents: %+v", incidents)
	}
	if st := toolCall(t, p, "crm", "crm_tasks", map[string]any{"action": "create", "rationale": "after", "subject": "s"}); st != 202 {
		t.Fatalf("mutation of the degraded path: %d, want 202 (quality gate)", st)
	}
	t.Logf("traces graded more than once (rescued after SIGKILL): %d", len(g.tracesGradedMoreThanOnce()))
	p.stop(t)
}

// TestTwoReplicasGradeEachTraceOnce runs two gtmgate processes on one
// PostgreSQL database: calls to both are graded, each trace by one replica.
func TestTwoReplicasGradeEachTraceOnce(t *testing.T) {
	adminURL, name := testDatabase(t)
	g, recv := newJudgeGateway(t), newAlertReceiver(t)
	env := append(qualityEnv(g, recv), "DATABASE_URL="+withDatabase(adminURL, hostOf(adminURL), name),
		"GTMGATE_ENCRYPTION_KEY="+strings.Repeat("ab", 32))
	a := start(t, t.TempDir(), env...)
	b := start(t, t.TempDir(), env...)
	for i := range 60 {
		p := a
		if i%2 == 1 {
			p = b
		}
		if st := toolCall(t, p, "crm", "crm_pipelines", map[string]any{"action": "list", "rationale": "replicas"}); st != 200 {
			t.Fatalf("call %d: %d", i, st)
		}
	}
	var vs verdictList
	eventually(t, "60 verdicts", 60*time.Second, func() bool {
		adminGet(t, a, "/admin/grader/verdicts?limit=500", &vs)
		return len(vs.Verdicts) == 60
	})
	if again := g.tracesGradedMoreThanOnce(); len(again) > 0 {
		t.Fatalf("traces graded by both replicas: %v", again)
	}
	g.mu.Lock()
	n := len(g.perTr)
	g.mu.Unlock()
	if n != 60 {
		t.Fatalf("the judges saw %d traces, want 60", n)
	}
	a.stop(t)
	b.stop(t)
}

func hostOf(raw string) string {
	u := strings.TrimPrefix(strings.TrimPrefix(raw, "postgres://"), "postgresql://")
	if at := strings.LastIndex(u, "@"); at >= 0 {
		u = u[at+1:]
	}
	host, _, _ := strings.Cut(u, "/")
	return host
}
