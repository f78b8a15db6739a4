package app_test

import (
	"html"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// startWithDemoIdP starts the demo on a gateway port known before it
// listens, so the sandbox IdP has an issuer and the console a redirect URI.
func startWithDemoIdP(t *testing.T) *apptest.Env {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return apptest.Start(t, func(c *config.Config) {
		c.GatewayAddr, c.GatewayURL = addr, "http://"+addr
	})
}

var idpRequestID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// signInAs signs o in through the demo's sandbox IdP as the person with
// subject, like a browser: the console's button, the IdP's page, the
// callback. It returns the callback's status and page.
func (o *operator) signInAs(subject string) (int, string) {
	o.t.Helper()
	_, signin := o.get("/console/signin?next=/console/approvals")
	link := regexp.MustCompile(`href="(/console/sso/start\?idp=` + app.DemoIdP + `[^"]*)"`).FindStringSubmatch(signin)
	if link == nil {
		o.t.Fatalf("no sign-in button for the demo IdP: %s", signin)
	}
	resp, _ := o.do("GET", html.UnescapeString(link[1]), nil)
	if resp.StatusCode != http.StatusSeeOther {
		o.t.Fatalf("start: %d", resp.StatusCode)
	}
	loc := resp.Header.Get("Location")
	var page string
	for i := 0; i < 5 && loc != ""; i++ { // authorize → the IdP's sign-in page
		resp, page = o.doURL("GET", loc, nil)
		loc = resp.Header.Get("Location")
	}
	m := idpRequestID.FindStringSubmatch(page)
	if m == nil {
		o.t.Fatalf("no IdP sign-in page: %s", page)
	}
	resp, page = o.doURL("POST", o.base+app.DemoIdPPath+"/login", url.Values{"id": {m[1]}, "subject": {subject}})
	for i := 0; i < 6 && resp.Header.Get("Location") != ""; i++ {
		resp, page = o.doURL("GET", resp.Header.Get("Location"), nil)
	}
	return resp.StatusCode, page
}

// doURL is do for an absolute or gateway-relative URL.
func (o *operator) doURL(method, u string, form url.Values) (*http.Response, string) {
	o.t.Helper()
	return o.do(method, strings.TrimPrefix(u, o.base), form)
}

// TestSSOApproverDecides is the "done": an approver of tenant demo
// signs in through the sandbox IdP, sees only demo, approves a held budget
// change, and the audit names them as the decider.
func TestSSOApproverDecides(t *testing.T) {
	env := startWithDemoIdP(t)
	env.NewTenant("acme", nil)
	ada := newOperator(t, env)
	if status, page := ada.signInAs("demo-approver"); status != 200 || !strings.Contains(page, "Signed in as ada@demo.example") {
		t.Fatalf("sign-in: %d %s", status, page)
	}
	if _, page := ada.get("/console/tenants"); !strings.Contains(page, "/console/tenants/demo") || strings.Contains(page, "/console/tenants/acme") {
		t.Errorf("an approver of demo sees other tenants, or not demo:\n%s", page)
	}
	if _, page := ada.get("/console/approvals"); strings.Contains(page, `href="/console/health"`) || !strings.Contains(page, "ada@demo.example") {
		t.Errorf("the tenant person's navigation shows operator pages, or not who is signed in")
	}
	if code, _ := ada.get("/console/tenants/acme"); code == 200 {
		if _, page := ada.get("/console/tenants/acme"); !strings.Contains(page, "FORBIDDEN") && !strings.Contains(page, "is not among them") {
			t.Errorf("acme's page opened for demo's approver")
		}
	}

	held := env.Tool(env.DemoToken, "demo", "ads", "google_ads_campaigns", map[string]any{"action": "update_budget",
		"campaign_id": "21000100002", "amount": 150, "rationale": "launch week"})
	approvalID, _ := held.JSON(t)["approval_id"].(string)
	if held.Status != 202 || approvalID == "" {
		t.Fatalf("budget change not held: %d %s", held.Status, held.Body)
	}
	ada.get("/console/approvals")
	if resp := ada.post("/console/approvals/"+approvalID+"/approve", url.Values{"reason": {"launch week"}}); resp.StatusCode != 303 {
		t.Fatalf("approve: %d", resp.StatusCode)
	}
	got := env.Admin("GET", "/admin/approvals/"+approvalID, nil).JSON(t)
	if got["status"] != "executed" || got["decided_by"] != "ada@demo.example" {
		t.Errorf("approval after Ada's decision: status %v decided_by %v", got["status"], got["decided_by"])
	}
	audit := env.Admin("GET", "/admin/audit?tenant=demo&source=console&action=admin.approvals.approve.post", nil).JSON(t)
	entries, _ := audit["entries"].([]any)
	if len(entries) != 1 {
		t.Fatalf("audit of the decision: %v", audit)
	}
	e := entries[0].(map[string]any)
	key, _ := e["key"].(string)
	if !strings.HasPrefix(key, "person:p_") || e["via"] != "sso:demo-idp" || !strings.Contains(e["detail"].(string), "ada@demo.example") {
		t.Errorf("audit entry %v does not name Ada", e)
	}
	if byActor := env.Admin("GET", "/admin/audit?actor="+url.QueryEscape(key), nil).JSON(t); byActor["count"].(float64) < 1 {
		t.Errorf("audit by actor %s: %v", key, byActor)
	}
}

func TestSSORoles(t *testing.T) {
	env := startWithDemoIdP(t)

	// A viewer cannot decide; the call stays held.
	held := env.Tool(env.DemoToken, "demo", "ads", "google_ads_campaigns", map[string]any{"action": "update_budget",
		"campaign_id": "21000100002", "amount": 150, "rationale": "launch week"})
	approvalID, _ := held.JSON(t)["approval_id"].(string)
	victor := newOperator(t, env)
	if status, _ := victor.signInAs("demo-viewer"); status != 200 {
		t.Fatalf("viewer sign-in: %d", status)
	}
	victor.get("/console/approvals")
	victor.post("/console/approvals/"+approvalID+"/approve", url.Values{})
	if got := env.Admin("GET", "/admin/approvals/"+approvalID, nil).JSON(t); got["status"] != "pending" {
		t.Errorf("a viewer's approve moved the approval to %v", got["status"])
	}

	// Someone without a role is refused, and told what to ask for.
	nina := newOperator(t, env)
	if status, page := nina.signInAs("demo-newcomer"); status != 403 || !strings.Contains(page, "no role in gtmgate has been given to you") ||
		!strings.Contains(page, "--email nina@demo.example") {
		t.Errorf("no-role sign-in: %d %s", status, page)
	}
	if code, _ := nina.get("/console/approvals"); code != 303 {
		t.Errorf("a refused person reached the console: %d", code)
	}

	// The operator sees everything; the break-glass key still works.
	olivia := newOperator(t, env)
	olivia.signInAs("demo-operator")
	if code, page := olivia.get("/console/health"); code != 200 || !strings.Contains(page, "olivia@agency.example") {
		t.Errorf("operator's health page: %d", code)
	}
	if resp := env.Admin("POST", "/admin/approvals/"+approvalID+"/reject", map[string]any{"reason": "not now", "decided_by": "Someone Else"}); resp.Status != 200 {
		t.Fatalf("break-glass reject: %d %s", resp.Status, resp.Body)
	}
	got := env.Admin("GET", "/admin/approvals/"+approvalID, nil).JSON(t)
	if got["decided_by"] != "admin key" || !strings.Contains(got["reason"].(string), "typed decided_by, not verified: Someone Else") {
		t.Errorf("a typed decided_by was taken for the decider: %v / %v", got["decided_by"], got["reason"])
	}
}

// TestConsolePagesByRole opens every console page as each demo person: an
// operator opens them all, a tenant's people only their tenant's pages
// (and only their tenant), someone whose role was revoked none.
func TestConsolePagesByRole(t *testing.T) {
	env := startWithDemoIdP(t)
	env.NewTenant("acme", nil)
	operatorPages := []string{"/console/oauth-apps", "/console/errors", "/console/incidents", "/console/quality",
		"/console/feedback", "/console/schedules", "/console/brief", "/console/health", "/console/calls/unknown"}
	tenantPages := []string{"/console/tenants", "/console/tenants/demo", "/console/approvals", "/console/audit"}
	for _, tc := range []struct {
		subject  string
		operator bool
	}{
		{"demo-operator", true},
		{"demo-approver", false},
		{"demo-viewer", false},
	} {
		t.Run(tc.subject, func(t *testing.T) {
			o := newOperator(t, env)
			if status, _ := o.signInAs(tc.subject); status != 200 {
				t.Fatalf("sign-in: %d", status)
			}
			for _, p := range operatorPages {
				code, page := o.get(p)
				if tc.operator && code == 403 || !tc.operator && (code != 403 || !strings.Contains(page, "this page is the operator")) {
					t.Errorf("%s: %d", p, code)
				}
			}
			for _, p := range tenantPages {
				if code, page := o.get(p); code != 200 || strings.Contains(page, "is not among them") {
					t.Errorf("%s: %d", p, code)
				}
			}
			_, page := o.get("/console/tenants/acme")
			if refused := strings.Contains(page, "is not among them"); refused == tc.operator {
				t.Errorf("another tenant's page: refused=%v for operator=%v", refused, tc.operator)
			}
			if _, page := o.get("/console/audit?tenant=acme"); tc.operator == strings.Contains(page, "is not among them") {
				t.Errorf("another tenant's audit: operator=%v", tc.operator)
			}
		})
	}
}
