package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/modelsandbox"
)

// waitFor polls check until it reports true, failing after a generous
// deadline: grading is asynchronous by design.
func waitFor(t *testing.T, what string, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDemoGradingAlertsIncidentAndQualityGate follows the demo's quality
// harness end to end: three tool calls the sandbox judges grade badly give
// three verdicts, signed alerts to the sandbox receiver, one incident, and a
// quality gate that holds the tool's next mutation until an operator
// resolves the incident.
func TestDemoGradingAlertsIncidentAndQualityGate(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, func(c *config.Config) { c.GraderSampleRate = 1 })
	if h := env.Do("GET", env.GatewayURL+"/health", nil).JSON(t); h["grading"].(map[string]any)["enabled"] != true {
		t.Fatalf("health: %v", h["grading"])
	}
	task := func(rationale string) *apptest.Response {
		return env.Tool(env.DemoToken, "demo", "crm", "crm_tasks", map[string]any{"action": "create", "rationale": rationale, "subject": "Call Devon"})
	}
	for i := range 3 {
		if r := task(fmt.Sprintf("follow up %d %s", i, modelsandbox.MarkBad)); r.Status != 200 {
			t.Fatalf("call %d: %d %s", i, r.Status, r.Body)
		}
	}
	var verdicts []any
	waitFor(t, "three verdicts", func() bool {
		verdicts = env.Do("GET", env.GatewayURL+"/admin/grader/verdicts?tool=crm_tasks", nil, "Authorization", "Bearer "+apptest.AdminKey).
			JSON(t)["verdicts"].([]any)
		return len(verdicts) == 3
	})
	// Each verdict names the agent whose call it graded, and reads by it.
	var demoKey string
	for _, v := range verdicts {
		key, _ := v.(map[string]any)["trace"].(map[string]any)["key"].(string)
		if !strings.HasPrefix(key, "tok_") || (demoKey != "" && key != demoKey) {
			t.Fatalf("verdict of the demo token's call names agent %q", key)
		}
		demoKey = key
	}
	for key, want := range map[string]int{demoKey: 3, "tok_someoneelse": 0} {
		got := env.Admin("GET", "/admin/grader/verdicts?tool=crm_tasks&key="+key, nil).JSON(t)["verdicts"].([]any)
		if len(got) != want {
			t.Errorf("verdicts of agent %s: %d, want %d", key, len(got), want)
		}
	}
	for _, v := range verdicts {
		panel := v.(map[string]any)["panel"].(map[string]any)
		if panel["quality"].(float64) != 2 || len(v.(map[string]any)["judges"].([]any)) != 3 {
			t.Fatalf("verdict: %v", v)
		}
	}
	var incidents []any
	waitFor(t, "an open incident", func() bool {
		incidents = env.Admin("GET", "/admin/incidents?status=open", nil).JSON(t)["incidents"].([]any)
		return len(incidents) == 1
	})
	inc := incidents[0].(map[string]any)
	if inc["tool"] != "crm_tasks" || inc["action"] != "create" || inc["tenant_id"] != "demo" {
		t.Fatalf("incident: %v", inc)
	}
	// Three alerts and the incident's announcement reach the receiver, which
	// accepts them only with a valid signature.
	waitFor(t, "four delivered messages", func() bool {
		ds := env.Admin("GET", "/admin/grader/deliveries", nil).JSON(t)["deliveries"].([]any)
		ok := 0
		for _, d := range ds {
			if d.(map[string]any)["ok"] == true {
				ok++
			}
		}
		return ok == 4
	})
	// The tool's next mutation is held as a quality gate; a read is not.
	r := task("one more follow-up")
	if r.Status != 202 || r.ErrorCode(t) != "APPROVAL_REQUIRED" || !strings.Contains(string(r.Body), inc["id"].(string)) {
		t.Fatalf("mutation during an incident: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(env.DemoToken, "demo", "crm", "crm_tasks", map[string]any{"action": "list", "rationale": "open tasks"}); r.Status != 200 {
		t.Fatalf("read during an incident: %d %s", r.Status, r.Body)
	}
	gates := env.Admin("GET", "/admin/approvals?gate=quality", nil).JSON(t)["approvals"].([]any)
	if len(gates) != 1 || gates[0].(map[string]any)["incident_id"] != inc["id"] {
		t.Fatalf("quality gates: %v", gates)
	}
	if r := env.Admin("POST", "/admin/incidents/"+inc["id"].(string)+"/resolve", nil); r.Status != 200 {
		t.Fatalf("resolve: %d %s", r.Status, r.Body)
	}
	if r := task("after the incident"); r.Status != 200 {
		t.Fatalf("mutation after resolving: %d %s", r.Status, r.Body)
	}
	waitFor(t, "the resolution announced", func() bool {
		ds := env.Admin("GET", "/admin/grader/deliveries?event=incident.resolved", nil).JSON(t)["deliveries"].([]any)
		return len(ds) == 1 && ds[0].(map[string]any)["ok"] == true
	})
	// Operators see the grading jobs and can label and regrade. River marks
	// a job completed after its work returns, in batches, so the verdicts
	// can be in before their jobs' completion is.
	waitFor(t, "three completed grading jobs", func() bool {
		jobs := env.Admin("GET", "/admin/jobs?kind=grade_trace&state=completed", nil).JSON(t)["jobs"].([]any)
		return len(jobs) >= 3
	})
	v := verdicts[0].(map[string]any)
	if r := env.Admin("POST", "/admin/grader/verdicts/"+v["id"].(string)+"/label", map[string]any{"correct": false}); r.Status != 400 {
		t.Fatalf("label wrong without quality: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/grader/verdicts/"+v["id"].(string)+"/label", map[string]any{"correct": true}); r.Status != 200 {
		t.Fatalf("label: %d %s", r.Status, r.Body)
	}
	agreement := env.Admin("GET", "/admin/grader/agreement", nil).JSON(t)["agreement"].(map[string]any)
	if agreement["judges"].(map[string]any)["alpha"].(map[string]any)["accuracy"] != 1.0 {
		t.Fatalf("agreement: %v", agreement)
	}
	rg := env.Admin("POST", "/admin/grader/traces/"+v["trace_id"].(string)+"/regrade", nil)
	if rg.Status != 202 {
		t.Fatalf("regrade: %d %s", rg.Status, rg.Body)
	}
	newID := rg.JSON(t)["verdict_id"].(string)
	waitFor(t, "the regrade's verdict", func() bool { return env.Admin("GET", "/admin/grader/verdicts/"+newID, nil).Status == 200 })
}

func TestGradingOffWithoutModelGateway(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, func(c *config.Config) { c.ModelGatewayURL = "http://127.0.0.1:9/v1" })
	g := env.Do("GET", env.GatewayURL+"/health", nil).JSON(t)["grading"].(map[string]any)
	if g["enabled"] != false || !strings.Contains(g["reason"].(string), "JUDGE_ALPHA_MODEL") {
		t.Fatalf("grading: %v", g)
	}
	if r := env.Admin("POST", "/admin/grader/traces/trc_x/regrade", nil); r.Status != 503 {
		t.Fatalf("regrade with grading off: %d %s", r.Status, r.Body)
	}
}

// TestApprovalNotices: on the demo without its approval route, a held
// budget change is announced on the alert webhook as approval.requested
// and its approval as approval.decided, each signed (the sandbox receiver
// refuses any other) and delivered once.
func TestApprovalNotices(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	demo := demoTenant(t, env)
	delete(demo, "approval_policy") // the default policy, which has no routes
	if r := env.Admin("PUT", "/admin/tenants/demo", demo); r.Status != 200 {
		t.Fatalf("demo without routes: %d %s", r.Status, r.Body)
	}
	id := holdBudgetChange(t, env, env.DemoToken, "demo")
	delivered := func(event string) func() bool {
		return func() bool {
			n := 0
			for _, d := range env.Admin("GET", "/admin/grader/deliveries", nil).JSON(t)["deliveries"].([]any) {
				if m := d.(map[string]any); m["event"] == event && m["webhook_id"] == event+"_"+id && m["ok"] == true && m["endpoint"] == nil {
					n++
				}
			}
			return n == 1
		}
	}
	waitFor(t, "approval.requested delivered", delivered(gtmgate.EventApprovalRequested))
	if r := env.Admin("POST", "/admin/approvals/"+id+"/approve", map[string]any{"reason": "ok"}); r.Status != 200 {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	waitFor(t, "approval.decided delivered", delivered(gtmgate.EventApprovalDecided))
}

// TestApprovalExpiryNotice: a gate nobody decided in time is announced as
// approval.expired when the approval sweep stores it expired.
func TestApprovalExpiryNotice(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, func(c *config.Config) { c.ApprovalTTL = time.Nanosecond }) // every gate is past its deadline at once
	id := holdBudgetChange(t, env, env.DemoToken, "demo")
	// The sweep ran at start; run it again now that the gate is due.
	var sweep string
	waitFor(t, "the start's approval sweep", func() bool {
		for _, j := range env.Admin("GET", "/admin/jobs?kind=approval_sweep", nil).JSON(t)["jobs"].([]any) {
			if m := j.(map[string]any); m["state"] == "completed" {
				sweep = fmt.Sprint(int64(m["id"].(float64)))
				return true
			}
		}
		return false
	})
	if r := env.Admin("POST", "/admin/jobs/"+sweep+"/retry", nil); r.Status != 200 {
		t.Fatalf("run the sweep again: %d %s", r.Status, r.Body)
	}
	waitFor(t, "approval.expired delivered", func() bool {
		for _, d := range env.Admin("GET", "/admin/grader/deliveries", nil).JSON(t)["deliveries"].([]any) {
			if m := d.(map[string]any); m["webhook_id"] == gtmgate.EventApprovalExpired+"_"+id && m["ok"] == true {
				return true
			}
		}
		return false
	})
	if a := env.Admin("GET", "/admin/approvals/"+id, nil).JSON(t); a["status"] != gtmgate.ApprovalExpired {
		t.Errorf("gate %s, want expired", a["status"])
	}
}
