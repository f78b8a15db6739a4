package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestScheduleValidation: every bad schedule is a VALIDATION_ERROR naming
// its field, through the real admin handler.
func TestScheduleValidation(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	call := map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "rationale": "weekly pipeline"}}
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	for _, tc := range []struct {
		name, job string
		body      map[string]any
		want      string
	}{
		{"bad job id", "bad id!", map[string]any{"tenant_id": "demo", "cron": "@daily", "call": call}, "job_id"},
		{"no tenant", "j1", map[string]any{"cron": "@daily", "call": call}, "tenant_id is required"},
		{"unknown tenant", "j1", map[string]any{"tenant_id": "nobody", "cron": "@daily", "call": call}, "tenant_id: no tenant"},
		{"bad cron", "j1", map[string]any{"tenant_id": "demo", "cron": "0 25 * * *", "call": call}, "cron:"},
		{"unknown time zone", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "timezone": "Europe/Atlantis", "call": call}, "timezone:"},
		{"neither target", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily"}, "exactly one of agent"},
		{"both targets", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "call": call, "agent": map[string]any{"task": "x"}}, "exactly one of agent"},
		{"unknown tool", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "call": map[string]any{"tool": "crm_nope", "input": map[string]any{}}}, "call.tool: no tool named"},
		{"bad tool input", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "call": map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list"}}}, "call.input:"},
		{"agent tool unknown", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "agent": map[string]any{"task": "x", "tools": []string{"nope"}}}, "agent.tools: no tool named"},
		{"agent without task", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "agent": map[string]any{"task": " "}}, "agent.task is required"},
		{"ended", "j1", map[string]any{"tenant_id": "demo", "cron": "@daily", "call": call, "ends_at": past}, "ends_at"},
	} {
		r := env.Admin("PUT", "/admin/agent-schedules/"+strings.ReplaceAll(tc.job, " ", "%20"), tc.body)
		if r.Status != 400 || r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), tc.want) {
			t.Errorf("%s: %d %s, want VALIDATION_ERROR naming %q", tc.name, r.Status, r.Body, tc.want)
		}
	}
}

// TestSchedulesRunCronAndTool: PUT is idempotent, run-cron runs every
// schedule with the expression and records the run, and the
// agent_schedules tool sees its own tenant's schedules only.
func TestSchedulesRunCronAndTool(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	body := map[string]any{"tenant_id": "demo", "cron": "15  7 * * 1-5", "timezone": "Europe/Berlin", "description": "weekday pipeline",
		"call": map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "list", "limit": 5, "rationale": "weekday pipeline"}}}
	r := env.Admin("PUT", "/admin/agent-schedules/pipeline", body)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	created := r.JSON(t)
	if created["cron"] != "15 7 * * 1-5" || created["next_run_at"] == nil {
		t.Errorf("created = %v", created)
	}
	if r := env.Admin("PUT", "/admin/agent-schedules/pipeline", body); r.Status != 200 {
		t.Errorf("replace: %d %s", r.Status, r.Body)
	}

	if r := env.Admin("POST", "/admin/run-cron", map[string]any{"cron": "not cron"}); r.ErrorCode(t) != "VALIDATION_ERROR" {
		t.Errorf("invalid run-cron: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/run-cron", map[string]any{"cron": "0 9 * * *"}); r.Status != 404 || !strings.Contains(string(r.Body), "0 9 * * *") {
		t.Errorf("unmatched run-cron: %d %s", r.Status, r.Body)
	}
	r = env.Admin("POST", "/admin/run-cron", map[string]any{"cron": "15 7 * * 1-5"})
	if r.Status != 200 {
		t.Fatalf("run-cron: %d %s", r.Status, r.Body)
	}
	ran := r.JSON(t)["ran"].([]any)
	if len(ran) != 1 || ran[0].(map[string]any)["job_id"] != "pipeline" {
		t.Fatalf("ran = %v", ran)
	}
	run := waitRun(t, env, ran[0].(map[string]any)["run_id"].(string), "succeeded")
	if run["trigger"] != "manual" || run["steps"].([]any)[0].(map[string]any)["status"] != "ok" {
		t.Errorf("run = %v", run)
	}
	entries := env.Admin("GET", "/admin/audit?parent="+run["request_id"].(string), nil).JSON(t)["entries"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["source"] != "cron" || entries[0].(map[string]any)["action"] != "crm_deals.list" {
		t.Errorf("scheduled call's audit = %v", entries)
	}
	// One job run now by its id, outside its cron.
	if r := env.Admin("POST", "/admin/agent-schedules/nope/run", nil); r.Status != 404 {
		t.Errorf("run an unknown job: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/agent-schedules/demo-weekly-ad-review/run", nil); r.Status != 200 || r.JSON(t)["status"] != "skipped" {
		t.Errorf("run a disabled job: %d %s", r.Status, r.Body)
	}
	r = env.Admin("POST", "/admin/agent-schedules/pipeline/run", nil)
	if r.Status != 200 || r.JSON(t)["job_id"] != "pipeline" {
		t.Fatalf("run now: %d %s", r.Status, r.Body)
	}
	if now := waitRun(t, env, r.JSON(t)["run_id"].(string), "succeeded"); now["trigger"] != "manual" || now["run_id"] == run["run_id"] {
		t.Errorf("run now = %v", now)
	}
	list := env.Admin("GET", "/admin/agent-schedules?tenant=demo", nil).JSON(t)["schedules"].([]any)
	var found map[string]any
	for _, s := range list {
		if s.(map[string]any)["job_id"] == "pipeline" {
			found = s.(map[string]any)
		}
	}
	if found == nil || len(found["last_runs"].([]any)) != 2 {
		t.Errorf("schedules = %v", list)
	}

	// The tenant's agent manages its own schedules; another tenant's are not found.
	up := env.Tool(env.DemoToken, "demo", "agents", "agent_schedules", map[string]any{"action": "upsert", "job_id": "weekly-deals",
		"cron": "0 8 * * MON", "timezone": "Europe/Berlin", "rationale": "weekly review",
		"agent": map[string]any{"task": "Summarise the open deals in our pipeline.", "tools": []string{"crm_deals"}}})
	if up.Status != 200 || up.JSON(t)["result"].(map[string]any)["created"] != true {
		t.Fatalf("upsert: %d %s", up.Status, up.Body)
	}
	other := env.NewTenant("other-sched", nil)
	if r := env.Tool(other, "other-sched", "agents", "agent_schedules", map[string]any{"action": "get", "job_id": "weekly-deals", "rationale": "peek"}); r.ErrorCode(t) != "NOT_FOUND" {
		t.Errorf("other tenant get: %d %s", r.Status, r.Body)
	}
	// Job ids are each tenant's own: another tenant's upsert of the same
	// name creates its own schedule, learns nothing of demo's, and leaves it be.
	if r := env.Tool(other, "other-sched", "agents", "agent_schedules", map[string]any{"action": "upsert", "job_id": "weekly-deals",
		"cron": "@daily", "rationale": "its own", "call": map[string]any{"tool": "web_search", "input": map[string]any{"query": "x", "rationale": "x"}}}); r.Status != 200 ||
		r.JSON(t)["result"].(map[string]any)["created"] != true {
		t.Errorf("other tenant upsert of a name demo uses: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(env.DemoToken, "demo", "agents", "agent_schedules", map[string]any{"action": "get", "job_id": "weekly-deals", "rationale": "mine"}); r.Status != 200 ||
		r.JSON(t)["result"].(map[string]any)["agent"] == nil {
		t.Errorf("demo's weekly-deals after the other tenant's upsert: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/agent-schedules/weekly-deals", nil); r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), "?tenant=") {
		t.Errorf("admin get of a name two tenants use, without a tenant: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/agent-schedules/weekly-deals?tenant=other-sched", nil); r.Status != 200 || r.JSON(t)["call"] == nil {
		t.Errorf("admin get of other-sched's weekly-deals: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("DELETE", "/admin/agent-schedules/weekly-deals?tenant=other-sched", nil); r.Status != 200 {
		t.Errorf("admin delete of other-sched's weekly-deals: %d %s", r.Status, r.Body)
	}
	// delete is destructive: the default policy holds it for approval.
	if r := env.Tool(env.DemoToken, "demo", "agents", "agent_schedules", map[string]any{"action": "delete", "job_id": "weekly-deals", "rationale": "done"}); r.ErrorCode(t) != "APPROVAL_REQUIRED" {
		t.Errorf("tool delete: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("DELETE", "/admin/agent-schedules/pipeline", nil); r.Status != 200 {
		t.Errorf("delete: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("DELETE", "/admin/agent-schedules/pipeline", nil); r.Status != 404 {
		t.Errorf("second delete: %d %s", r.Status, r.Body)
	}
}

// TestDailyBrief: trigger writes a brief (the demo's sandbox model writes
// it), GET serves it as JSON or markdown, ?date selects and validates.
func TestDailyBrief(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	if r := env.Admin("GET", "/admin/daily-brief", nil); r.Status != 404 {
		t.Errorf("before any brief: %d %s", r.Status, r.Body)
	}
	env.Tool(env.DemoToken, "demo", "crm", "crm_deals", map[string]any{"action": "list", "rationale": "for the brief"})
	r := env.Admin("POST", "/admin/daily-brief/trigger", nil)
	if r.Status != 201 {
		t.Fatalf("trigger: %d %s", r.Status, r.Body)
	}
	b := r.JSON(t)
	figures := b["figures"].(map[string]any)
	if b["written_by"] != "sandbox-chat" || figures["calls"].(float64) < 1 || !strings.Contains(b["markdown"].(string), "Daily brief") {
		t.Errorf("brief = %v", b)
	}
	md := env.Do("GET", env.GatewayURL+"/admin/daily-brief", nil, "x-admin-key", apptest.AdminKey, "Accept", "text/markdown")
	if md.Status != 200 || !strings.HasPrefix(md.Header.Get("Content-Type"), "text/markdown") || string(md.Body) != b["markdown"] {
		t.Errorf("markdown: %d %s %q", md.Status, md.Header.Get("Content-Type"), md.Body)
	}
	if r := env.Admin("GET", "/admin/daily-brief?date="+b["date"].(string), nil); r.Status != 200 {
		t.Errorf("by date: %d", r.Status)
	}
	if r := env.Admin("GET", "/admin/daily-brief?date=yesterday", nil); r.ErrorCode(t) != "VALIDATION_ERROR" {
		t.Errorf("bad date: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/daily-brief?date=1999-01-01", nil); r.Status != 404 {
		t.Errorf("missing date: %d %s", r.Status, r.Body)
	}
}
