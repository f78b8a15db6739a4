package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestCancelWithdrawsGates: cancelling a run parked on a gate withdraws the
// gate with the reason; approving it afterwards is a CONFLICT and runs
// nothing; the tenant sees the gate withdrawn; the console shows each gate's
// run and its state.
func TestCancelWithdrawsGates(t *testing.T) {
	t.Parallel()
	env, _ := startScripted(t, campaignsReportDraft)
	tools := []string{"google_ads_campaigns", "google_ads_report", "email_send"}
	cancelled := startRun(t, env, map[string]any{"task": "Review ad spend and draft an email", "tools": tools, "wait": 20})
	parked := startRun(t, env, map[string]any{"task": "Review ad spend and draft another email", "tools": tools, "wait": 20})
	if cancelled["status"] != "waiting_approval" || parked["status"] != "waiting_approval" {
		t.Fatalf("runs = %v, %v", cancelled["status"], parked["status"])
	}
	id, gate := cancelled["run_id"].(string), cancelled["waiting_for"].(string)

	if r := env.Admin("POST", "/admin/agent-runs/"+id+"/cancel", nil); r.Status != 200 || r.JSON(t)["status"] != "cancelled" {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	g := env.Admin("GET", "/admin/approvals/"+gate, nil).JSON(t)
	if g["status"] != "withdrawn" || g["run_id"] != id || !strings.Contains(g["reason"].(string), "cancelled") || g["decided_at"] == nil {
		t.Errorf("gate of the cancelled run = %v", g)
	}
	r := env.Admin("POST", "/admin/approvals/"+gate+"/approve", map[string]any{"decided_by": "ops"})
	if r.Status != 409 || r.ErrorCode(t) != "CONFLICT" || !strings.Contains(string(r.Body), "withdrawn") {
		t.Errorf("approving a withdrawn gate: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("POST", "/admin/approvals/"+gate+"/reject", map[string]any{"reason": "late"}); r.Status != 409 {
		t.Errorf("rejecting a withdrawn gate: %d %s", r.Status, r.Body)
	}
	for _, e := range env.Admin("GET", "/admin/audit?parent="+cancelled["request_id"].(string), nil).JSON(t)["entries"].([]any) {
		if e := e.(map[string]any); e["action"] == "email_send.draft" && e["outcome"] != "pending_approval" {
			t.Errorf("the cancelled run's draft ran: %v", e)
		}
	}
	st := env.Do("GET", env.GatewayURL+"/api/v1/demo/approvals/"+gate, nil, "Authorization", "Bearer "+env.DemoToken).JSON(t)
	if st["status"] != "withdrawn" || !strings.Contains(st["next"].(string), "cancelled") {
		t.Errorf("tenant's view of the gate = %v", st)
	}
	if got := getRun(t, env, id); got["status"] != "cancelled" {
		t.Errorf("run after the refused approval = %v", got["status"])
	}

	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	_, page := o.get("/console/approvals")
	for _, want := range []string{"run <code>" + parked["run_id"].(string) + "</code> waiting_approval",
		"run <code>" + id + "</code> cancelled", "withdrawn"} {
		if !strings.Contains(page, want) {
			t.Errorf("approvals page lacks %q", want)
		}
	}
}
