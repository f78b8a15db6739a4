package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// scriptedGateway is a model gateway whose answers follow a script: the
// n-th turn of a run (n = tool results so far) calls script[n], and past the
// script it answers "done". A task containing [big] reports 700 prompt
// tokens a turn.
type scriptedGateway struct {
	script []scriptedCall
	turns  atomic.Int64
}

type scriptedCall struct {
	tool string
	args map[string]any
}

func (g *scriptedGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	json.Unmarshal(body, &req)
	g.turns.Add(1)
	results, task := 0, ""
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results++
		}
		if m.Role == "user" && task == "" {
			task = m.Content
		}
	}
	prompt := 100
	if strings.Contains(task, "[big]") {
		prompt = 700
	}
	msg := map[string]any{"role": "assistant", "content": "done: campaigns reviewed, report read, email drafted"}
	finish := "stop"
	if results < len(g.script) {
		c := g.script[results]
		args, _ := json.Marshal(c.args)
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_" + c.tool, "type": "function",
			"function": map[string]any{"name": c.tool, "arguments": string(args)}}}}
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "model": "scripted",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": prompt, "completion_tokens": 10, "total_tokens": prompt + 10}})
}

// campaignsReportDraft is the multi-step run: list campaigns, run a
// report, draft an email.
var campaignsReportDraft = []scriptedCall{
	{"google_ads_campaigns", map[string]any{"action": "list", "rationale": "campaigns to review"}},
	{"google_ads_report", map[string]any{"query": "SELECT campaign.name, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_7_DAYS",
		"rationale": "last week's spend"}},
	{"email_send", map[string]any{"action": "draft", "to": []string{"ops@demo.example"}, "subject": "Ad spend", "text": "Three deviations",
		"rationale": "draft the summary for review"}},
}

func startScripted(t *testing.T, script []scriptedCall) (*apptest.Env, *scriptedGateway) {
	t.Helper()
	g := &scriptedGateway{script: script}
	fake := httptest.NewServer(g)
	t.Cleanup(fake.Close)
	env := apptest.Start(t, func(c *config.Config) {
		c.ModelGatewayURL, c.AgentModel = fake.URL+"/v1", "scripted-model"
	})
	// Drafts are held for approval on the demo tenant.
	tenant := demoTenant(t, env)
	tenant["approval_policy"] = map[string]any{"categories": []string{}, "actions": []string{"email_send.draft"}, "destructive": true}
	if r := env.Admin("PUT", "/admin/tenants/demo", tenant); r.Status >= 300 {
		t.Fatalf("put tenant: %d %s", r.Status, r.Body)
	}
	return env, g
}

// demoTenant is the demo tenant's configuration as PUT takes it.
func demoTenant(t *testing.T, env *apptest.Env) map[string]any {
	t.Helper()
	tenant := env.Admin("GET", "/admin/tenants/demo", nil).JSON(t)["tenant"].(map[string]any)
	for _, k := range []string{"id", "created_at", "updated_at"} {
		delete(tenant, k)
	}
	return tenant
}

func startRun(t *testing.T, env *apptest.Env, input map[string]any) map[string]any {
	t.Helper()
	input["action"], input["rationale"] = "start", "test run"
	r := env.Tool(env.DemoToken, "demo", "agents", "run_agent", input)
	if r.Status != 200 {
		t.Fatalf("run_agent start: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)["result"].(map[string]any)
}

func getRun(t *testing.T, env *apptest.Env, id string) map[string]any {
	t.Helper()
	r := env.Admin("GET", "/admin/agent-runs/"+id, nil)
	if r.Status != 200 {
		t.Fatalf("get run: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)
}

func waitRun(t *testing.T, env *apptest.Env, id string, status string) map[string]any {
	t.Helper()
	var run map[string]any
	waitFor(t, "run "+id+" "+status, func() bool {
		run = getRun(t, env, id)
		return run["status"] == status
	})
	return run
}

// TestAgentRunGoesThroughTheRunnerAndParksOnGates scripts list campaigns →
// report → draft email: each step is an audited call with the run's request
// as parent, the held draft parks the run, and approving it resumes the run
// to its answer.
func TestAgentRunGoesThroughTheRunnerAndParksOnGates(t *testing.T) {
	t.Parallel()
	env, _ := startScripted(t, campaignsReportDraft)
	run := startRun(t, env, map[string]any{"task": "Review ad spend and draft an email",
		"tools": []string{"google_ads_campaigns", "google_ads_report", "email_send"}, "wait": 20})
	if run["status"] != "waiting_approval" {
		t.Fatalf("run = %v", run)
	}
	id, parent, gate := run["run_id"].(string), run["request_id"].(string), run["waiting_for"].(string)
	steps := run["steps"].([]any)
	if len(steps) != 3 || steps[0].(map[string]any)["status"] != "ok" || steps[1].(map[string]any)["status"] != "ok" ||
		steps[2].(map[string]any)["status"] != "waiting_approval" || steps[2].(map[string]any)["approval_id"] != gate {
		t.Fatalf("steps = %v", steps)
	}

	entries := env.Admin("GET", "/admin/audit?parent="+parent, nil).JSON(t)["entries"].([]any)
	actions := map[string]string{}
	for _, e := range entries {
		e := e.(map[string]any)
		actions[e["action"].(string)] = e["outcome"].(string)
		if e["parent_request_id"] != parent || e["key"] != "agent:"+id || e["source"] != "agent" {
			t.Errorf("audit entry %v", e)
		}
	}
	for action, outcome := range map[string]string{"google_ads_campaigns.list": "ok", "google_ads_report.report": "ok",
		"email_send.draft": "pending_approval", "agent.model_turn": "ok"} {
		if actions[action] != outcome {
			t.Errorf("audit: %s = %q, want %q (all: %v)", action, actions[action], outcome, actions)
		}
	}

	if r := env.Admin("POST", "/admin/approvals/"+gate+"/approve", map[string]any{"decided_by": "ops"}); r.Status != 200 {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	run = waitRun(t, env, id, "succeeded")
	if !strings.HasPrefix(run["answer"].(string), "done") {
		t.Errorf("answer = %v", run["answer"])
	}
	if s := run["steps"].([]any)[2].(map[string]any); s["status"] != "ok" || s["action"] != "draft" {
		t.Errorf("approved step = %v", s)
	}
	cost := run["cost"].(map[string]any)
	if cost["model_turns"].(float64) != 4 || cost["tool_calls"].(float64) != 3 || cost["prompt_tokens"].(float64) != 400 {
		t.Errorf("cost = %v", cost)
	}
	got := env.Tool(env.DemoToken, "demo", "agents", "run_agent", map[string]any{"action": "get", "run_id": id, "rationale": "check"}).JSON(t)
	if got["result"].(map[string]any)["status"] != "succeeded" {
		t.Errorf("run_agent get: %v", got)
	}
	other := env.NewTenant("other-agent", nil)
	if r := env.Tool(other, "other-agent", "agents", "run_agent", map[string]any{"action": "get", "run_id": id, "rationale": "peek"}); r.ErrorCode(t) != "NOT_FOUND" {
		t.Errorf("another tenant's get: %d %s", r.Status, r.Body)
	}
}

// TestAgentRunRejectedGateAndLimits: a rejected step is reported to the
// model, which carries on; read-only runs cannot mutate; the step and token
// limits end runs with their reason.
func TestAgentRunRejectedGateAndLimits(t *testing.T) {
	t.Parallel()
	env, _ := startScripted(t, campaignsReportDraft)
	tools := []string{"google_ads_campaigns", "google_ads_report", "email_send"}

	run := startRun(t, env, map[string]any{"task": "Review and draft", "tools": tools, "wait": 20})
	if r := env.Admin("POST", "/admin/approvals/"+run["waiting_for"].(string)+"/reject", map[string]any{"decided_by": "ops", "reason": "not this week"}); r.Status != 200 {
		t.Fatalf("reject: %d %s", r.Status, r.Body)
	}
	run = waitRun(t, env, run["run_id"].(string), "succeeded")
	if s := run["steps"].([]any)[2].(map[string]any); s["status"] != "error" || s["error_code"] != "APPROVAL_REJECTED" || !strings.Contains(s["error"].(string), "not this week") {
		t.Errorf("rejected step = %v", s)
	}

	readOnly := startRun(t, env, map[string]any{"task": "Review and draft", "wait": 20})
	readOnly = waitRun(t, env, readOnly["run_id"].(string), "succeeded")
	// Without tools a run only reads: email_send, whose every action
	// mutates, is not among its tools.
	if s := readOnly["steps"].([]any)[2].(map[string]any); s["error_code"] != "TOOL_NOT_FOUND" {
		t.Errorf("read-only run's draft = %v", s)
	}

	steps := startRun(t, env, map[string]any{"task": "Review and draft", "tools": tools, "max_steps": 2, "wait": 20})
	steps = waitRun(t, env, steps["run_id"].(string), "failed")
	if !strings.Contains(steps["reason"].(string), "step limit") || len(steps["steps"].([]any)) != 2 {
		t.Errorf("step-limited run = %v", steps)
	}

	tokens := startRun(t, env, map[string]any{"task": "Review and draft [big]", "tools": tools, "max_tokens": 1000, "wait": 20})
	tokens = waitRun(t, env, tokens["run_id"].(string), "failed")
	if !strings.Contains(tokens["reason"].(string), "token budget") || len(tokens["steps"].([]any)) != 2 {
		t.Errorf("token-limited run = %v", tokens)
	}

	for _, tc := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{"task": "x", "tools": []string{"nope"}}, `no tool named`},
		{map[string]any{"task": "x", "tools": []string{"run_agent"}}, "cannot use run_agent"},
		{map[string]any{"task": "x", "max_steps": 33}, "max_steps"},
	} {
		tc.input["action"], tc.input["rationale"] = "start", "bad input"
		r := env.Tool(env.DemoToken, "demo", "agents", "run_agent", tc.input)
		if r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), tc.want) {
			t.Errorf("%v: %d %s", tc.input, r.Status, r.Body)
		}
	}
	tenant := demoTenant(t, env)
	tenant["allowed_models"] = []string{"other-model"}
	env.Admin("PUT", "/admin/tenants/demo", tenant)
	r := env.Tool(env.DemoToken, "demo", "agents", "run_agent", map[string]any{"action": "start", "task": "x", "model": "scripted-model", "rationale": "m"})
	if r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), "allowed models") {
		t.Errorf("model outside allowed_models: %d %s", r.Status, r.Body)
	}
}
