package app_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// holdEventDeletion makes the demo's agent delete a calendar event, which
// the tenant's policy holds as destructive, and returns the approval's id.
func holdEventDeletion(t *testing.T, env *apptest.Env, eventID string) string {
	t.Helper()
	held := env.Tool(env.DemoToken, "demo", "calendar", "calendar_events", map[string]any{"action": "delete",
		"event_id": eventID, "rationale": "the meeting is cancelled"})
	id, _ := held.JSON(t)["approval_id"].(string)
	if held.Status != 202 || id == "" {
		t.Fatalf("deleting event %s not held: %d %s", eventID, held.Status, held.Body)
	}
	return id
}

var eventIDs = regexp.MustCompile(`"id":"(ldg[a-z0-9]+)"`)

// TestTwoApproversForDestructive: under the demo tenant's
// two_approvers_for_destructive a held event deletion runs only once two
// different deciders approved it: Ada in the console gives the first
// (recorded; the gate stays pending and her approve button goes), again
// she is refused, the admin key gives the second and the event is
// deleted. Each approval, and the refusal, is an audit entry. On another
// deletion the admin key's first approval is shown to Ada as "1 of two",
// her button as the second; the admin key cannot give the second itself,
// and Ada's reject ends it. A budget change (not destructive) needs one.
func TestTwoApproversForDestructive(t *testing.T) {
	env := startWithDemoIdP(t)
	demo := demoTenant(t, env)
	demo["approval_policy"] = map[string]any{"categories": []string{"ads_mutate", "email_send"}, "destructive": true,
		"two_approvers_for_destructive": "yes"}
	if r := env.Admin("PUT", "/admin/tenants/demo", demo); r.Status != 400 || !strings.Contains(string(r.Body), "two_approvers_for_destructive") {
		t.Fatalf("a policy with two_approvers_for_destructive not a boolean: %d %s", r.Status, r.Body)
	}
	demo["approval_policy"].(map[string]any)["two_approvers_for_destructive"] = true
	if r := env.Admin("PUT", "/admin/tenants/demo", demo); r.Status != 200 {
		t.Fatalf("demo with two approvers for destructive actions: %d %s", r.Status, r.Body)
	}
	events := env.Tool(env.DemoToken, "demo", "calendar", "calendar_events", map[string]any{"action": "list", "limit": 5, "rationale": "find a meeting"})
	ids := eventIDs.FindAllStringSubmatch(string(events.Body), -1)
	if len(ids) < 2 {
		t.Fatalf("demo calendar events: %d %s", events.Status, events.Body)
	}

	first := holdEventDeletion(t, env, ids[0][1])
	ada := newOperator(t, env)
	if status, _ := ada.signInAs("demo-approver"); status != 200 {
		t.Fatalf("Ada's sign-in: %d", status)
	}
	if _, page := ada.get("/console/approvals"); !strings.Contains(page, "Needs two approvals by different approvers: none yet") ||
		!strings.Contains(page, "Approve (first of two)") {
		t.Fatalf("the approvals page does not say the gate needs two approvals:\n%s", page)
	}
	ada.post("/console/approvals/"+first+"/approve", url.Values{"reason": {"Alex cancelled it"}})
	_, page := ada.get("/console/approvals")
	if !strings.Contains(page, "your approval is recorded (1 of two approvals: by ada@demo.example at ") ||
		!strings.Contains(page, "You gave one of its approvals; a different approver gives the next.") {
		t.Errorf("after Ada's first approval the page does not say it is recorded and awaits another approver:\n%s", page)
	}
	got := env.Admin("GET", "/admin/approvals/"+first, nil).JSON(t)
	given, _ := got["approvals"].([]any)
	if got["status"] != "pending" || got["approvals_required"] != 2.0 || len(given) != 1 ||
		given[0].(map[string]any)["by"] != "ada@demo.example" || !strings.HasPrefix(given[0].(map[string]any)["decider"].(string), "person:p_") {
		t.Fatalf("after the first approval: %v", got)
	}
	ada.post("/console/approvals/"+first+"/approve", url.Values{"reason": {"again"}})
	if _, page := ada.get("/console/approvals"); !strings.Contains(page, "Refused: approval "+first+" needs 2 approvals by different approvers") || !strings.Contains(page, "gave one already") {
		t.Errorf("Ada approving twice was not refused with a reason")
	}
	r := env.Admin("POST", "/admin/approvals/"+first+"/approve", map[string]any{"reason": "second pair of eyes"})
	got = r.JSON(t)
	given, _ = got["approvals"].([]any)
	if r.Status != 200 || got["status"] != "executed" || got["decided_by"] != "admin key" || len(given) != 2 ||
		given[1].(map[string]any)["decider"] != "admin-key" {
		t.Fatalf("the second approval, by the admin key: %d %s", r.Status, r.Body)
	}
	if !strings.Contains(string(r.Body), `"deleted":true`) {
		t.Errorf("the event was not deleted: %s", r.Body)
	}

	audit := env.Admin("GET", "/admin/audit?tenant=demo&action=admin.approvals.approve.post", nil).JSON(t)
	entries, _ := audit["entries"].([]any)
	var details []string
	for _, e := range entries {
		d, _ := e.(map[string]any)["detail"].(string)
		details = append(details, d)
	}
	want := []string{"approval 2 of 2, after ada@demo.example (person:p_", "refused approve of " + first + " by ada@demo.example",
		"approval 1 of 2: pending " + first + " by ada@demo.example"}
	if len(details) != len(want) {
		t.Fatalf("audit of the approvals: %q, want %d entries", details, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(details[i], w) {
			t.Errorf("audit entry %d: %q, want it to start %q", i, details[i], w)
		}
	}

	second := holdEventDeletion(t, env, ids[1][1])
	if r := env.Admin("POST", "/admin/approvals/"+second+"/approve", nil); r.Status != 200 || r.JSON(t)["status"] != "pending" {
		t.Fatalf("the admin key's first approval: %d %s", r.Status, r.Body)
	}
	if _, page := ada.get("/console/approvals"); !strings.Contains(page, "1 of two approvals: by admin key at ") || !strings.Contains(page, "Approve (second of two)") {
		t.Errorf("the page does not show the admin key's approval and Ada's as the second:\n%s", page)
	}
	if r := env.Admin("POST", "/admin/approvals/"+second+"/approve", nil); r.Status != 403 || r.ErrorCode(t) != "FORBIDDEN" {
		t.Errorf("the admin key approving twice: %d %s", r.Status, r.Body)
	}
	ada.get("/console/approvals")
	ada.post("/console/approvals/"+second+"/reject", url.Values{"reason": {"keep the meeting"}})
	if got := env.Admin("GET", "/admin/approvals/"+second, nil).JSON(t); got["status"] != "rejected" || got["decided_by"] != "ada@demo.example" {
		t.Errorf("Ada's reject after the admin key's approval: %v", got)
	}

	budget := holdBudgetChange(t, env, env.DemoToken, "demo")
	if r := env.Admin("POST", "/admin/approvals/"+budget+"/approve", nil); r.JSON(t)["status"] != "executed" {
		t.Errorf("a budget change under the rule: %d %s, want executed by one approval", r.Status, r.Body)
	}
}
