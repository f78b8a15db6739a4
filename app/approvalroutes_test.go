package app_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/webhook"
)

// received is one message a test receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a webhook endpoint a test reads; it answers 500 to the
// first fail messages.
type receiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []received
	fail int
}

func newReceiver(t *testing.T, fail int) *receiver {
	t.Helper()
	r := &receiver{fail: fail}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.fail > 0 {
			r.fail--
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		r.got = append(r.got, received{req.Header.Clone(), body})
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// message returns the message of webhook-id id, once received.
func (r *receiver) message(id string) (received, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.got {
		if m.header.Get("webhook-id") == id {
			return m, true
		}
	}
	return received{}, false
}

// deliveries are the delivery attempts of webhook-id id.
func deliveries(t *testing.T, env *apptest.Env, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range env.Admin("GET", "/admin/grader/deliveries?webhook_id="+id, nil).JSON(t)["deliveries"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

// deliveredTo reports whether a message of webhook-id id reached endpoint
// ("" for the alert webhook).
func deliveredTo(t *testing.T, env *apptest.Env, id, endpoint string) bool {
	for _, d := range deliveries(t, env, id) {
		if d["ok"] == true && (d["endpoint"] == endpoint || endpoint == "" && d["endpoint"] == nil) {
			return true
		}
	}
	return false
}

// reminderJob is the id of gate's scheduled reminder notice.
func reminderJob(t *testing.T, env *apptest.Env, gate string) map[string]any {
	t.Helper()
	var job map[string]any
	waitFor(t, "the reminder of "+gate+" scheduled", func() bool {
		for _, j := range env.Admin("GET", "/admin/jobs?kind=approval_notice&limit=500", nil).JSON(t)["jobs"].([]any) {
			m := j.(map[string]any)
			if args := m["args"].(map[string]any); args["approval_id"] == gate && args["event"] == gtmgate.EventApprovalReminder {
				job = m
				return true
			}
		}
		return false
	})
	return job
}

// TestApprovalRouteNotices follows the demo tenant's approval route: a
// budget change is announced to the route's webhook (the sandbox
// receiver, which verifies its own secret's signature), not the alert
// webhook, naming Ada; webhooks an operator adds get a signing secret
// shown once, a Standard Webhooks message that verifies and a Slack
// message of text and blocks; a pending gate is reminded of, a decided one
// is not; and no answer, job, audit entry or log line shows a route URL or
// secret.
func TestApprovalRouteNotices(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var logs apptest.SyncBuffer
	env := apptest.StartLogged(t, func(c *config.Config) { c.GatewayAddr, c.GatewayURL = addr, "http://"+addr }, &logs)

	// The demo's route: ads_mutate, to the sandbox receiver, naming Ada.
	var adaID string
	for _, p := range env.Admin("GET", "/admin/people", nil).JSON(t)["people"].([]any) {
		if m := p.(map[string]any); m["email"] == "ada@demo.example" {
			adaID = m["id"].(string)
		}
	}
	demo := demoTenant(t, env)
	policy := demo["approval_policy"].(map[string]any)
	route := policy["routes"].([]any)[0].(map[string]any)
	hooks := route["webhooks"].([]any)
	if fmt.Sprint(route["categories"]) != "[ads_mutate]" || fmt.Sprint(route["approvers"]) != "["+adaID+"]" || adaID == "" || len(hooks) != 1 ||
		hooks[0].(map[string]any)["id"] != "whk_demo_receiver" || !strings.HasSuffix(hooks[0].(map[string]any)["url"].(string), "/…") {
		t.Fatalf("the demo's approval policy: %v (Ada is %q)", policy, adaID)
	}
	first := holdBudgetChange(t, env, env.DemoToken, "demo")
	waitFor(t, "approval.requested on the demo route's webhook", func() bool {
		return deliveredTo(t, env, gtmgate.EventApprovalRequested+"_"+first, "whk_demo_receiver")
	})
	for _, d := range deliveries(t, env, gtmgate.EventApprovalRequested+"_"+first) {
		if d["endpoint"] != "whk_demo_receiver" || !strings.HasPrefix(d["receiver"].(string), "http://127.0.0.1:") {
			t.Errorf("a delivery of the routed gate elsewhere than its route: %v", d)
		}
	}
	if !strings.Contains(logs.String(), "signed approval notice (the demo tenant's route) received") || !strings.Contains(logs.String(), `\"name\":\"Ada Approver\"`) {
		t.Errorf("the sandbox receiver did not log the notice naming Ada:\n%s", logs.String())
	}

	// The operator adds two webhooks to the route: a standard one and a
	// Slack one (answering 500 once), each given a secret shown once.
	std, slack := newReceiver(t, 0), newReceiver(t, 1)
	const stdPath, slackPath = "/hooks/STDSECRETPATH", "/services/T0/B0/SLACKSECRETPATH"
	route["webhooks"] = append(hooks, map[string]any{"url": std.srv.URL + stdPath}, map[string]any{"url": slack.srv.URL + slackPath, "format": "slack"})
	put := env.Admin("PUT", "/admin/tenants/demo", demo)
	if put.Status != 200 {
		t.Fatalf("add webhooks: %d %s", put.Status, put.Body)
	}
	var shown struct {
		Secrets []struct{ ID, URL, Secret string } `json:"webhook_secrets"`
	}
	json.Unmarshal(put.Body, &shown)
	if len(shown.Secrets) != 2 {
		t.Fatalf("secrets shown: %s", put.Body)
	}
	second := holdBudgetChange(t, env, env.DemoToken, "demo")
	requested := gtmgate.EventApprovalRequested + "_" + second
	var stdMsg, slackMsg received
	waitFor(t, "both receivers' messages", func() bool {
		var ok1, ok2 bool
		stdMsg, ok1 = std.message(requested)
		slackMsg, ok2 = slack.message(requested)
		return ok1 && ok2
	})
	for i, m := range []received{stdMsg, slackMsg} {
		secret, err := webhook.ParseSecret(shown.Secrets[i].Secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := webhook.Verify(secret, m.header, m.body, time.Now(), 5*time.Minute); err != nil {
			t.Errorf("message %d does not verify with its webhook's secret: %v", i, err)
		}
	}
	var env1 struct {
		Type string
		Data struct {
			ID        string
			Approvers []map[string]string
		}
	}
	if err := json.Unmarshal(stdMsg.body, &env1); err != nil || env1.Type != gtmgate.EventApprovalRequested || env1.Data.ID != second ||
		len(env1.Data.Approvers) != 1 || env1.Data.Approvers[0]["id"] != adaID || env1.Data.Approvers[0]["name"] != "Ada Approver" ||
		env1.Data.Approvers[0]["email"] != "ada@demo.example" {
		t.Errorf("standard message: %v %s", err, stdMsg.body)
	}
	var sl struct {
		Text   string
		Blocks []struct {
			Type      string
			Text      struct{ Type, Text string }
			Accessory struct {
				Type string
				URL  string
			}
		}
	}
	var top map[string]any
	json.Unmarshal(slackMsg.body, &top)
	if err := json.Unmarshal(slackMsg.body, &sl); err != nil || len(top) != 2 || sl.Text == "" || len(sl.Blocks) < 2 || sl.Blocks[0].Type != "section" ||
		sl.Blocks[0].Text.Type != "mrkdwn" || !strings.Contains(sl.Blocks[0].Text.Text, "*google_ads_campaigns.update_budget*") ||
		!strings.Contains(sl.Blocks[0].Text.Text, "Approvers: Ada Approver (ada@demo.example)") || sl.Blocks[0].Accessory.Type != "button" ||
		sl.Blocks[0].Accessory.URL != env.GatewayURL+gtmgate.ApprovalPagePath(second) {
		t.Errorf("Slack message: %v %s", err, slackMsg.body)
	}
	// Every webhook's attempts are listed with its id and its URL redacted.
	waitFor(t, "the deliveries listed", func() bool { return len(deliveries(t, env, requested)) == 4 })
	listed := map[string]int{}
	for _, d := range deliveries(t, env, requested) {
		listed[fmt.Sprint(d["endpoint"], " ", d["ok"])]++
		if r := d["receiver"].(string); !strings.HasPrefix(r, "http://127.0.0.1:") || !strings.HasSuffix(r, "/…") {
			t.Errorf("receiver %q", r)
		}
	}
	if want := map[string]int{"whk_demo_receiver true": 1, shown.Secrets[0].ID + " true": 1, shown.Secrets[1].ID + " false": 1,
		shown.Secrets[1].ID + " true": 1}; fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("deliveries %v, want %v", listed, want)
	}

	// Reminders: the pending gate's is sent when run; the rejected one's
	// is cancelled without a message.
	if r := env.Admin("POST", "/admin/approvals/"+first+"/reject", map[string]any{"reason": "not this week"}); r.Status != 200 {
		t.Fatalf("reject: %d %s", r.Status, r.Body)
	}
	for _, gate := range []string{second, first} {
		job := reminderJob(t, env, gate)
		at, _ := time.Parse(time.RFC3339Nano, job["scheduled_at"].(string))
		a := env.Admin("GET", "/admin/approvals/"+gate, nil).JSON(t)
		expires, _ := time.Parse(time.RFC3339Nano, a["expires_at"].(string))
		if job["state"] != "scheduled" || at.Sub(expires.Add(-24*time.Hour/5)).Abs() > time.Second {
			t.Errorf("reminder of %s: %v at %v, want scheduled when a fifth of its day remains (expires %v)", gate, job["state"], at, expires)
		}
		if r := env.Admin("POST", fmt.Sprintf("/admin/jobs/%d/retry", int64(job["id"].(float64))), nil); r.Status != 200 {
			t.Fatalf("run the reminder now: %d %s", r.Status, r.Body)
		}
	}
	reminded := gtmgate.EventApprovalReminder + "_" + second
	waitFor(t, "the reminder on every webhook of the route", func() bool {
		_, ok1 := std.message(reminded)
		_, ok2 := slack.message(reminded)
		return ok1 && ok2 && deliveredTo(t, env, reminded, "whk_demo_receiver")
	})
	waitFor(t, "the rejected gate's reminder cancelled", func() bool {
		return env.Admin("GET", fmt.Sprintf("/admin/jobs/%d", int64(reminderJob(t, env, first)["id"].(float64))), nil).JSON(t)["state"] == "cancelled"
	})
	if ds := deliveries(t, env, gtmgate.EventApprovalReminder+"_"+first); len(ds) != 0 {
		t.Errorf("a rejected gate was reminded of: %v", ds)
	}
	if _, ok := std.message(gtmgate.EventApprovalReminder + "_" + first); ok {
		t.Error("a rejected gate's reminder reached a receiver")
	}

	// No route URL or secret anywhere the operator or a log reader looks.
	var seen []string
	for _, path := range []string{"/admin/tenants/demo", "/admin/tenants", "/admin/grader/deliveries", "/admin/jobs?limit=500",
		"/admin/audit?tenant=demo", "/admin/audit", "/admin/errors"} {
		seen = append(seen, string(env.Admin("GET", path, nil).Body))
	}
	seen = append(seen, logs.String())
	for _, s := range seen {
		for _, clear := range []string{"STDSECRETPATH", "SLACKSECRETPATH", shown.Secrets[0].Secret, shown.Secrets[1].Secret} {
			if strings.Contains(s, clear) {
				t.Errorf("%q shown: %.2000s", clear, s)
			}
		}
	}
}

// TestConsoleWebhookSecretShownOnce: a route webhook added on the console's
// tenant page gets its signing secret shown in that answer only, and the
// page shows its URL redacted.
func TestConsoleWebhookSecretShownOnce(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	if resp := o.signIn(apptest.AdminKey); resp.StatusCode != 303 {
		t.Fatalf("sign in: %d", resp.StatusCode)
	}
	demo := demoTenant(t, env)
	policy := demo["approval_policy"].(map[string]any)
	policy["routes"] = append([]any{map[string]any{"categories": []string{"email_send"},
		"webhooks": []any{map[string]any{"url": "https://hooks.slack.com/services/T0/B0/CONSOLESECRETPATH", "format": "slack"}}}},
		policy["routes"].([]any)...)
	cfg, _ := json.Marshal(demo)
	o.get("/console/tenants/demo")
	resp, page := o.do("POST", "/console/tenants/demo", url.Values{"csrf": {o.csrf}, "config": {string(cfg)}})
	secret := regexp.MustCompile(`whsec_[A-Za-z0-9+/=]+`).FindString(page)
	if resp.StatusCode != 200 || !strings.Contains(page, "Signing secrets of the new approval webhooks") || secret == "" {
		t.Fatalf("save: %d %s", resp.StatusCode, page)
	}
	_, again := o.get("/console/tenants/demo")
	if strings.Contains(again, secret) || strings.Contains(again, "CONSOLESECRETPATH") || strings.Contains(page, "CONSOLESECRETPATH") ||
		!strings.Contains(again, "https://hooks.slack.com/…") {
		t.Errorf("the tenant page shows the secret again, or the URL unredacted:\n%s", again)
	}
}
