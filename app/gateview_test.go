package app_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestConsoleGateReadable: the console shows a held call in its domain's
// terms above its input as JSON, on the approvals list and the gate's own
// page: a budget change as old → new in the account's currency (the
// current budget read from the provider when the call was held), an email as
// From (the account's label), To, Subject and its body as text, never as
// markup; a deletion as what it deletes.
func TestConsoleGateReadable(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	budget := holdBudgetChange(t, env, env.DemoToken, "demo")
	held := env.Tool(env.DemoToken, "demo", "email", "email_send", map[string]any{"action": "send",
		"to": []string{"bo@example.com"}, "cc": []string{"ops@demo.example"}, "subject": "Launch week",
		"text": "Hi Bo,\n<script>alert(1)</script>\nAda", "rationale": "follow-up"})
	email, _ := held.JSON(t)["approval_id"].(string)
	if held.Status != 202 || email == "" {
		t.Fatalf("email not held: %d %s", held.Status, held.Body)
	}
	if g := env.Admin("GET", "/admin/approvals/"+budget, nil).JSON(t); g["category"] != "ads_mutate" || g["destructive"] != nil ||
		g["account_label"] != "Northwind Analytics (US, USD)" {
		t.Errorf("admin view of the budget change: category %v, destructive %v, account_label %v", g["category"], g["destructive"], g["account_label"])
	} else if before, _ := g["before"].(map[string]any); before["daily_budget"] != 120.0 || before["currency"] != "USD" || g["before_error"] != nil {
		t.Errorf("admin view of the budget change: before %v, before_error %v; want the campaign's 120 USD", g["before"], g["before_error"])
	}

	events := env.Tool(env.DemoToken, "demo", "calendar", "calendar_events", map[string]any{"action": "list", "limit": 1, "rationale": "find a meeting"})
	ids := eventIDs.FindStringSubmatch(string(events.Body))
	if ids == nil {
		t.Fatalf("demo calendar events: %d %s", events.Status, events.Body)
	}
	deletion := holdEventDeletion(t, env, ids[1])
	if g := env.Admin("GET", "/admin/approvals/"+deletion, nil).JSON(t); g["destructive"] != true {
		t.Errorf("admin view of the event's deletion: destructive %v", g["destructive"])
	}

	budgetShown := []string{`data-kind="budget"`, "Change a campaign&#39;s daily budget", "<dt>Campaign</dt><dd>21000100002</dd>",
		"<dt>Account</dt><dd>Northwind Analytics (US, USD), account 1234567890</dd>",
		"<dt>Daily budget</dt><dd>120.00 → 150.00 USD</dd>",
		"<dt>Agent&#39;s rationale</dt><dd>launch week</dd>", "<summary>Input as JSON</summary>"}
	emailShown := []string{`data-kind="email"`, "<dt>From</dt><dd>alex@ledgerly.example, account me</dd>", "<dt>To</dt><dd>bo@example.com</dd>", "<dt>Cc</dt><dd>ops@demo.example</dd>",
		"<dt>Subject</dt><dd>Launch week</dd>", "<dt>Agent&#39;s rationale</dt><dd>follow-up</dd>",
		"<pre class=\"body\">Hi Bo,\n&lt;script&gt;alert(1)&lt;/script&gt;\nAda</pre>", "<summary>Input as JSON</summary>"}

	o := newOperator(t, env)
	if resp := o.signIn(apptest.AdminKey); resp.StatusCode != 303 {
		t.Fatalf("sign in: %d", resp.StatusCode)
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/console/approvals", append(slices.Clone(budgetShown), emailShown...)},
		{gtmgate.ApprovalPagePath(budget), budgetShown},
		{gtmgate.ApprovalPagePath(email), emailShown},
		{gtmgate.ApprovalPagePath(deletion), []string{`data-kind="deletion"`, "Delete an event", "<dt>Event</dt><dd>" + ids[1] + "</dd>",
			"<dt>Account</dt><dd>alex@ledgerly.example, account primary</dd>"}},
	} {
		code, page := o.get(tc.path)
		if code != 200 {
			t.Fatalf("%s: %d", tc.path, code)
		}
		for _, want := range tc.want {
			if !strings.Contains(page, want) {
				t.Errorf("%s: no %q", tc.path, want)
			}
		}
		if strings.Contains(page, "<script>alert(1)") {
			t.Errorf("%s: the email body is markup", tc.path)
		}
	}
}
