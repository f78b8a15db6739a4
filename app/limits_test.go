package app_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestTenantLimitsValidated: PUT /admin/tenants/{id} refuses limits out of
// range with an error naming the field.
func TestTenantLimitsValidated(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for _, tc := range []struct {
		name   string
		limits map[string]any
		want   string
	}{
		{"negative runs queued", map[string]any{"runs_queued": -1}, "limits.runs_queued"},
		{"too many in flight", map[string]any{"runs_in_flight": 10_001}, "limits.runs_in_flight"},
		{"negative schedules", map[string]any{"schedules": -5}, "limits.schedules"},
		{"too many steps", map[string]any{"steps_per_minute": 2_000_000}, "limits.steps_per_minute"},
	} {
		tenant := demoTenant(t, env)
		tenant["limits"] = tc.limits
		r := env.Admin("PUT", "/admin/tenants/demo", tenant)
		if r.Status != 400 || r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), tc.want) {
			t.Errorf("%s: %d %s, want VALIDATION_ERROR naming %s", tc.name, r.Status, r.Body, tc.want)
		}
	}
	tenant := demoTenant(t, env)
	tenant["limits"] = map[string]any{"runs_queued": 3, "schedules": 7}
	if r := env.Admin("PUT", "/admin/tenants/demo", tenant); r.Status != 200 {
		t.Fatalf("valid limits: %d %s", r.Status, r.Body)
	}
	got := env.Admin("GET", "/admin/tenants/demo", nil).JSON(t)["tenant"].(map[string]any)["limits"]
	if b, _ := json.Marshal(got); string(b) != `{"runs_queued":3,"schedules":7}` {
		t.Errorf("stored limits = %s", b)
	}
}

// blockingGateway is a model gateway whose every answer waits for release.
type blockingGateway struct {
	release chan struct{}
	once    sync.Once
}

func (g *blockingGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-g.release:
	case <-r.Context().Done():
		return
	}
	(&scriptedGateway{}).ServeHTTP(w, r)
}

func (g *blockingGateway) open() { g.once.Do(func() { close(g.release) }) }

// TestTenantLimitsRefuseAndHold drives the limits through the real
// handlers: with runs_in_flight 1 a second run stays queued and says why,
// a start past runs_queued is RATE_LIMITED (run_agent and run-now alike),
// and a schedule past the schedules limit is QUOTA_EXCEEDED.
func TestTenantLimitsRefuseAndHold(t *testing.T) {
	t.Parallel()
	g := &blockingGateway{release: make(chan struct{})}
	fake := httptest.NewServer(g)
	t.Cleanup(fake.Close)
	t.Cleanup(g.open)
	env := apptest.Start(t, func(c *config.Config) {
		c.ModelGatewayURL, c.AgentModel = fake.URL+"/v1", "scripted-model"
	})
	tenant := demoTenant(t, env)
	tenant["limits"] = map[string]any{"runs_in_flight": 1, "runs_queued": 2, "schedules": 2}
	if r := env.Admin("PUT", "/admin/tenants/demo", tenant); r.Status != 200 {
		t.Fatalf("put tenant: %d %s", r.Status, r.Body)
	}

	// Schedules: two enabled ones fit, a third is refused, a disabled one
	// and a replaced one are not counted.
	call := map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "rationale": "pipeline"}}
	put := func(job string, enabled bool) *apptest.Response {
		return env.Admin("PUT", "/admin/agent-schedules/"+job, map[string]any{"tenant_id": "demo", "cron": "@daily", "call": call, "enabled": enabled})
	}
	for _, job := range []string{"s1", "s2"} {
		if r := put(job, true); r.Status != 201 {
			t.Fatalf("schedule %s: %d %s", job, r.Status, r.Body)
		}
	}
	if r := put("s3", true); r.Status != 429 || r.ErrorCode(t) != "QUOTA_EXCEEDED" || !strings.Contains(string(r.Body), "limits.schedules") {
		t.Errorf("third enabled schedule: %d %s, want 429 QUOTA_EXCEEDED naming limits.schedules", r.Status, r.Body)
	}
	if r := put("s3", false); r.Status != 201 {
		t.Errorf("a disabled schedule past the limit: %d %s, want 201", r.Status, r.Body)
	}
	if r := put("s2", true); r.Status != 200 {
		t.Errorf("replacing an enabled schedule at the limit: %d %s, want 200", r.Status, r.Body)
	}

	// Runs: the first runs (held in its model turn), the next two wait
	// queued behind runs_in_flight, a fourth is refused.
	first := startRun(t, env, map[string]any{"task": "first"})
	waitRun(t, env, first["run_id"].(string), "running")
	second := startRun(t, env, map[string]any{"task": "second"})
	startRun(t, env, map[string]any{"task": "third"})
	r := env.Tool(env.DemoToken, "demo", "agents", "run_agent", map[string]any{"action": "start", "task": "fourth", "rationale": "test run"})
	if r.Status != 429 || r.ErrorCode(t) != "RATE_LIMITED" || !strings.Contains(string(r.Body), "runs_queued") {
		t.Errorf("a start past runs_queued: %d %s, want 429 RATE_LIMITED naming runs_queued", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/agent-schedules/s1/run?tenant=demo", nil); r.Status != 429 || r.ErrorCode(t) != "RATE_LIMITED" {
		t.Errorf("run now past runs_queued: %d %s, want 429 RATE_LIMITED", r.Status, r.Body)
	}
	waitFor(t, "the second run to say why it waits", func() bool {
		held, _ := getRun(t, env, second["run_id"].(string))["held"].(string)
		return strings.Contains(held, "runs_in_flight")
	})
	if got := getRun(t, env, second["run_id"].(string))["status"]; got != "queued" {
		t.Errorf("second run is %v while the first runs, want queued", got)
	}
	g.open()
	waitRun(t, env, second["run_id"].(string), "succeeded")
}

// TestRunStepsWaitForStepsPerMinute: scheduled calls are run steps of
// their tenant: past steps_per_minute the next one waits, running, and
// its run says which limit holds it.
func TestRunStepsWaitForStepsPerMinute(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	tenant := demoTenant(t, env)
	tenant["limits"] = map[string]any{"steps_per_minute": 1}
	if r := env.Admin("PUT", "/admin/tenants/demo", tenant); r.Status != 200 {
		t.Fatalf("put tenant: %d %s", r.Status, r.Body)
	}
	call := map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "rationale": "pipeline"}}
	if r := env.Admin("PUT", "/admin/agent-schedules/deals", map[string]any{"tenant_id": "demo", "cron": "@daily", "call": call}); r.Status != 201 {
		t.Fatalf("schedule: %d %s", r.Status, r.Body)
	}
	runNow := func() string {
		r := env.Admin("POST", "/admin/agent-schedules/deals/run?tenant=demo", nil)
		if r.Status != 200 {
			t.Fatalf("run now: %d %s", r.Status, r.Body)
		}
		return r.JSON(t)["run_id"].(string)
	}
	first := runNow()
	waitRun(t, env, first, "succeeded")
	second := runNow()
	var run map[string]any
	waitFor(t, "the second call to wait for steps_per_minute", func() bool {
		run = getRun(t, env, second)
		held, _ := run["held"].(string)
		return strings.Contains(held, "steps_per_minute (1)")
	})
	if run["status"] != "running" {
		t.Errorf("held run is %v, want running", run["status"])
	}
}
