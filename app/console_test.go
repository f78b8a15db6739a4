package app_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// operator is a browser-like client of the console: a cookie jar, no
// redirects followed, and the CSRF token of the last page read.
type operator struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf string
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func newOperator(t *testing.T, env *apptest.Env) *operator {
	jar, _ := cookiejar.New(nil)
	return &operator{t: t, base: env.GatewayURL, c: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (o *operator) do(method, path string, form url.Values, headers ...string) (*http.Response, string) {
	o.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, o.base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := o.c.Do(req)
	if err != nil {
		o.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if m := csrfField.FindSubmatch(b); m != nil {
		o.csrf = string(m[1])
	}
	return resp, string(b)
}

func (o *operator) get(path string) (int, string) {
	o.t.Helper()
	resp, body := o.do("GET", path, nil)
	return resp.StatusCode, body
}

// post sends a form with the CSRF token of the last page read.
func (o *operator) post(path string, form url.Values) *http.Response {
	o.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf", o.csrf)
	resp, _ := o.do("POST", path, form)
	return resp
}

func (o *operator) signIn(key string) *http.Response {
	o.t.Helper()
	o.get("/console/signin")
	return o.post("/console/signin", url.Values{"admin_key": {key}, "next": {"/console/tenants"}})
}

// TestConsoleSignIn: pages need a session; the sign-in form needs its CSRF
// token and the admin key; a session cookie is HttpOnly and SameSite=Strict;
// sign-out ends the session on the server; every console response forbids
// framing and inline script.
func TestConsoleSignIn(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	if resp, _ := o.do("GET", "/console/approvals", nil); resp.StatusCode != 303 || resp.Header.Get("Location") != "/console/signin?next=%2Fconsole%2Fapprovals" {
		t.Fatalf("signed out: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, page := o.do("GET", "/console/signin", nil)
	for k, want := range map[string]string{"X-Frame-Options": "DENY", "Cache-Control": "no-store"} {
		if resp.Header.Get(k) != want {
			t.Errorf("%s = %q", k, resp.Header.Get(k))
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP = %q", csp)
	}
	if !strings.Contains(page, `type="password"`) {
		t.Fatalf("sign-in page: %s", page)
	}
	// Without the form's token the sign-in is refused, even with the key.
	if resp, _ := o.do("POST", "/console/signin", url.Values{"admin_key": {apptest.AdminKey}}); resp.StatusCode != 403 {
		t.Fatalf("sign-in without CSRF: %d", resp.StatusCode)
	}
	if resp := o.post("/console/signin", url.Values{"admin_key": {"wrong"}}); resp.StatusCode != 401 {
		t.Fatalf("wrong key: %d", resp.StatusCode)
	}
	resp = o.signIn(apptest.AdminKey)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/console/tenants" {
		t.Fatalf("sign in: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "gtmgate_console_session" {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.MaxAge != 8*3600 {
		t.Fatalf("session cookie: %+v", session)
	}
	if code, _ := o.get("/console/tenants"); code != 200 {
		t.Fatalf("tenants after sign-in: %d", code)
	}
	// A form from another site is refused even with the right token.
	o.get("/console/tenants")
	form := url.Values{"csrf": {o.csrf}, "id": {"evil"}}
	if resp, _ := o.do("POST", "/console/tenants", form, "Origin", "https://evil.example"); resp.StatusCode != 403 {
		t.Errorf("cross-origin form: %d", resp.StatusCode)
	}
	if resp, _ := o.do("POST", "/console/tenants", form, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != 403 {
		t.Errorf("cross-site form: %d", resp.StatusCode)
	}
	if r := env.Admin("GET", "/admin/tenants/evil", nil); r.Status != 404 {
		t.Errorf("a refused form created a tenant: %d", r.Status)
	}

	if resp := o.post("/console/signout", nil); resp.StatusCode != 303 {
		t.Fatalf("sign out: %d", resp.StatusCode)
	}
	// The old cookie no longer opens a session, even when replayed.
	replay := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", env.GatewayURL+"/console/tenants", nil)
	req.AddCookie(session)
	if r, err := replay.Do(req); err != nil || r.StatusCode != 303 {
		t.Fatalf("replayed session after sign-out: %v %v", r, err)
	}
	audit := env.Admin("GET", "/admin/audit?source=console", nil)
	for _, want := range []string{`"action":"console.signin","source":"console"`, `"outcome":"denied"`, `"action":"console.signout"`, `"action":"admin.tenants.get"`} {
		if !strings.Contains(string(audit.Body), want) {
			t.Errorf("console audit lacks %s: %s", want, audit.Body)
		}
	}
}

// demoNotConnected is the tenant page's error line of the demo's OAuth
// MCP server, seeded not connected on purpose (it tells how to connect it).
var demoNotConnected = regexp.MustCompile(`<p class="error">upstream MCP server &#34;crm-notes&#34; is not connected[^<]*</p>`)

// withoutDemoNotConnected drops that line, so that a check for error
// lines finds only real errors.
func withoutDemoNotConnected(page string) string { return demoNotConnected.ReplaceAllString(page, "") }

// TestConsolePages: every page renders for a signed-in operator, and every
// action goes through the admin API (its validation and audit) and back.
func TestConsolePages(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	for _, p := range []string{"/console/", "/console/?range=24h", "/console/?range=30d", "/console/tenants", "/console/tenants/demo",
		"/console/oauth-apps", "/console/approvals", "/console/audit", "/console/audit?source=rest&tenant=demo", "/console/errors", "/console/incidents",
		"/console/quality", "/console/feedback", "/console/schedules", "/console/brief", "/console/health", "/console/health?fresh=1"} {
		code, body := o.get(p)
		if code != 200 || !strings.Contains(body, "<h1>") || strings.Contains(withoutDemoNotConnected(body), `class="error"`) {
			t.Errorf("%s: %d %s", p, code, body)
		}
	}
	for _, p := range []string{"/console/tenants/nobody", "/console/calls/nope", "/console/nothing"} {
		if code, _ := o.get(p); code != 404 {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
	if code, _ := o.get("/console/static/console.css"); code != 200 {
		t.Errorf("stylesheet: %d", code)
	}

	// Create a tenant, issue a token (shown once), use it, revoke it.
	o.get("/console/tenants")
	if resp := o.post("/console/tenants", url.Values{"id": {"globex"}, "name": {"Globex"}}); resp.StatusCode != 303 || resp.Header.Get("Location") != "/console/tenants/globex" {
		t.Fatalf("create: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, page := o.get("/console/tenants/globex")
	if !strings.Contains(page, "Tenant globex saved.") {
		t.Errorf("no flash after create")
	}
	// A token for someone who never signed in is refused with the reason.
	o.do("POST", "/console/tenants/globex/tokens", url.Values{"label": {"rep"}, "person": {"rep@globex.example"}, "csrf": {o.csrf}})
	if _, page := o.get("/console/tenants/globex"); !strings.Contains(page, "nobody who has signed in") {
		t.Errorf("a token for someone who never signed in: no refusal shown")
	}
	form := url.Values{"label": {"laptop"}, "csrf": {o.csrf}}
	resp, page := o.do("POST", "/console/tenants/globex/tokens", form)
	token := regexp.MustCompile(`id="new-token" class="secret">(gtm_[A-Za-z0-9_-]+)<`).FindStringSubmatch(page)
	if resp.StatusCode != 201 || token == nil {
		t.Fatalf("issue: %d %s", resp.StatusCode, page)
	}
	if r := env.Do("GET", env.GatewayURL+"/api/v1/globex/approvals/x", nil, "Authorization", "Bearer "+token[1]); r.Status != 404 {
		t.Fatalf("the issued token does not work: %d", r.Status)
	}
	if _, again := o.get("/console/tenants/globex"); strings.Contains(again, token[1]) {
		t.Fatal("the token is shown twice")
	}
	tokID := regexp.MustCompile(`/console/tenants/globex/tokens/(tok_[a-z0-9]+)/revoke`).FindStringSubmatch(page)
	if resp := o.post("/console/tenants/globex/tokens/"+tokID[1]+"/revoke", nil); resp.StatusCode != 303 {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if r := env.Do("GET", env.GatewayURL+"/api/v1/globex/approvals/x", nil, "Authorization", "Bearer "+token[1]); r.Status != 401 {
		t.Fatalf("revoked token still works: %d", r.Status)
	}

	// Edit the configuration: the admin API's validation answers, and what
	// was typed stays in the form.
	o.get("/console/tenants/globex")
	resp, page = o.do("POST", "/console/tenants/globex", url.Values{"csrf": {o.csrf}, "config": {`{"name": "Globex", "status": "paused?"}`}})
	if resp.StatusCode != 422 || !strings.Contains(page, "Not saved:") || !strings.Contains(page, "paused?") {
		t.Errorf("invalid configuration: %d %s", resp.StatusCode, page)
	}
	resp, _ = o.do("POST", "/console/tenants/globex", url.Values{"csrf": {o.csrf}, "config": {`{"name": "Globex Corp", "approval_policy": {"categories": ["crm_write"]}}`}})
	if resp.StatusCode != 303 {
		t.Errorf("save configuration: %d", resp.StatusCode)
	}
	if got := env.Admin("GET", "/admin/tenants/globex", nil); !strings.Contains(string(got.Body), `"name":"Globex Corp"`) || !strings.Contains(string(got.Body), "crm_write") {
		t.Errorf("saved tenant: %s", got.Body)
	}
	o.get("/console/tenants/globex")
	if resp := o.post("/console/tenants/globex/billing", url.Values{"billing": {`{"currency": "EUR", "limit": "hard", "included_calls": 1000}`}}); resp.StatusCode != 303 {
		t.Errorf("billing: %d", resp.StatusCode)
	}
	if got := env.Admin("GET", "/admin/billing/globex", nil); got.Status != 200 {
		t.Errorf("billing plan: %d %s", got.Status, got.Body)
	}

	// A gated call approved in the console runs.
	demo := env.Admin("GET", "/admin/tenants/demo", nil).JSON(t)["tenant"].(map[string]any)
	env.Admin("PUT", "/admin/tenants/demo", map[string]any{"name": demo["name"], "status": "active", "providers": demo["providers"],
		"approval_policy": map[string]any{"categories": []string{"crm_write"}}})
	gated := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "create", "rationale": "add a lead",
		"properties": map[string]any{"email": "console@example.com", "firstname": "Console"}})
	id, _ := gated.JSON(t)["approval_id"].(string)
	if id == "" {
		t.Fatalf("gated call: %d %s", gated.Status, gated.Body)
	}
	_, page = o.get("/console/approvals")
	if !strings.Contains(page, id) || !strings.Contains(page, "console@example.com") {
		t.Fatalf("approvals page lacks the held call and its input: %s", page)
	}
	if resp := o.post("/console/approvals/"+id+"/reject", nil); resp.StatusCode != 303 {
		t.Errorf("reject without a reason: %d", resp.StatusCode)
	}
	if _, page := o.get("/console/approvals"); !strings.Contains(page, "say why") {
		t.Errorf("reject without a reason was not refused")
	}
	if resp := o.post("/console/approvals/"+id+"/approve", url.Values{"reason": {"fine"}}); resp.StatusCode != 303 {
		t.Fatalf("approve: %d", resp.StatusCode)
	}
	status := env.Do("GET", env.GatewayURL+"/api/v1/demo/approvals/"+id, nil, "Authorization", "Bearer "+env.DemoToken).JSON(t)
	if status["status"] != "executed" {
		t.Errorf("after approval in the console: %v", status)
	}
	if got := env.Admin("GET", "/admin/approvals/"+id, nil); !strings.Contains(string(got.Body), `"decided_by":"admin key"`) {
		t.Errorf("the decision does not name who signed in to the console (the break-glass key): %s", got.Body)
	}

	// A failed call is replayed from the errors page; the call page links it.
	env.Tool(env.DemoToken, "demo", "crm", "crm_deals", map[string]any{"action": "get", "id": "999999", "rationale": "missing deal"})
	led := env.Admin("GET", "/admin/errors?tenant=demo", nil).JSON(t)["entries"].([]any)[0].(map[string]any)
	_, page = o.get("/console/errors")
	if !strings.Contains(page, led["id"].(string)) {
		t.Fatalf("errors page lacks %s", led["id"])
	}
	if resp := o.post("/console/errors/"+led["id"].(string)+"/replay", nil); resp.StatusCode != 303 {
		t.Fatalf("replay: %d", resp.StatusCode)
	}
	if _, page := o.get("/console/errors"); !strings.Contains(page, "Replayed "+led["id"].(string)+": the call failed again: UPSTREAM_ERROR: hubspot rejected") {
		t.Errorf("no replay outcome with the error shown")
	}
	if code, page := o.get("/console/calls/" + led["request_id"].(string)); code != 200 || !strings.Contains(page, led["id"].(string)) {
		t.Errorf("call detail: %d", code)
	}

	// Schedules run now; the brief is generated.
	o.get("/console/schedules")
	if resp := o.post("/console/schedules/demo-weekly-ad-review/run", nil); resp.StatusCode != 303 {
		t.Errorf("run now: %d", resp.StatusCode)
	}
	if _, page := o.get("/console/schedules"); !strings.Contains(page, "the schedule is disabled") {
		t.Errorf("run now of a disabled job: no reason shown")
	}
	if resp := o.post("/console/brief", nil); resp.StatusCode != 303 {
		t.Errorf("brief: %d", resp.StatusCode)
	}
	// The brief is rendered as HTML, not shown as markdown source.
	if _, page := o.get("/console/brief"); !strings.Contains(page, "Generated") || !strings.Contains(page, `<div class="brief"><h1 id=`) ||
		strings.Contains(page, `<pre class="brief">`) {
		t.Errorf("brief page after generating: %s", page)
	}
	audit := env.Admin("GET", "/admin/audit?source=console&action=admin.approvals.approve.post", nil)
	if !strings.Contains(string(audit.Body), id) {
		t.Errorf("the approval is not audited with source console: %s", audit.Body)
	}
}

// TestConsoleAgentPage: a tenant token's calls through the gateway carry
// its id into the audit log, the usage events and the error ledger, so the
// admin API's key filters and the console's agent page show that agent's
// activity alone.
func TestConsoleAgentPage(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	const otherToken = "ads-agent-token-5f1c9e27b04d83a6"
	reg := env.Admin("POST", "/admin/auth", map[string]any{"tenant_id": "demo", "token": otherToken, "label": "ads-agent"})
	if reg.Status != 201 {
		t.Fatalf("register a second token: %d %s", reg.Status, reg.Body)
	}
	otherID := reg.JSON(t)["id"].(string)
	env.Tool(env.DemoToken, "demo", "crm", "crm_deals", map[string]any{"action": "list", "rationale": "pipeline review"})
	env.Tool(env.DemoToken, "demo", "crm", "crm_deals", map[string]any{"action": "get", "id": "999999", "rationale": "missing deal"})
	env.Tool(otherToken, "demo", "crm", "crm_deals", map[string]any{"action": "get", "id": "888888", "rationale": "another missing deal"})

	demoID := ""
	for _, tok := range env.Admin("GET", "/admin/auth/demo", nil).JSON(t)["tokens"].([]any) {
		if m := tok.(map[string]any); m["id"] != otherID && m["revoked_at"] == nil {
			demoID = m["id"].(string)
		}
	}
	usage := env.Admin("GET", "/admin/usage/demo?key="+demoID, nil).JSON(t)
	if totals := usage["totals"].(map[string]any); totals["calls"] != 2.0 || totals["errors"] != 1.0 || usage["billing"].(map[string]any)["quotas"] != nil {
		t.Errorf("usage of %s: %v, billing %v; want 2 calls, 1 error and its share of the bill without quotas", demoID, totals, usage["billing"])
	}
	failures := env.Admin("GET", "/admin/errors?tenant=demo&key="+demoID, nil).JSON(t)["entries"].([]any)
	if len(failures) != 1 || failures[0].(map[string]any)["key"] != demoID || failures[0].(map[string]any)["input"].(map[string]any)["id"] != "999999" {
		t.Fatalf("failures of %s: %v, want the get of 999999", demoID, failures)
	}

	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	code, page := o.get("/console/tenants/demo/agents/" + demoID)
	if code != 200 || strings.Contains(page, `class="error"`) {
		t.Fatalf("agent page: %d %s", code, page)
	}
	for _, want := range []string{"<strong>2</strong> metered calls, 1 errors", "crm_deals.list", "crm_deals.get", failures[0].(map[string]any)["id"].(string)} {
		if !strings.Contains(page, want) {
			t.Errorf("agent page lacks %q", want)
		}
	}
	if strings.Contains(page, "888888") {
		t.Errorf("agent page shows the other agent's failure")
	}
}

// TestConsoleAPIVersions: the health page lists every provider's version and
// setting; the overview warns of one past its sunset (202410 stays past it
// whatever the day), and of none when all are current.
func TestConsoleAPIVersions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		version string
		warned  bool
	}{{"current defaults", "", false}, {"a version past its sunset", "202410", true}} {
		t.Run(tc.name, func(t *testing.T) {
			env := apptest.Start(t, func(c *config.Config) {
				if tc.version != "" {
					c.APIVersions["linkedin_ads"] = tc.version
				}
			})
			o := newOperator(t, env)
			o.signIn(apptest.AdminKey)
			_, health := o.get("/console/health?fresh=1")
			for _, want := range []string{"Provider API versions", "GTMGATE_GOOGLE_ADS_API_VERSION", "GTMGATE_LINKEDIN_ADS_API_VERSION"} {
				if !strings.Contains(health, want) {
					t.Errorf("health page lacks %q", want)
				}
			}
			_, overview := o.get("/console/")
			if got := strings.Contains(overview, "LinkedIn Marketing API version 202410 was sunset on 2025-10-15"); got != tc.warned {
				t.Errorf("overview warns: %v, want %v", got, tc.warned)
			}
		})
	}
}

// TestConsoleFeedbackShowsWhatTheAgentSaid: an agent's feedback appears on
// the console with every field it sent (the page once read fields feedback
// does not have and showed empty cards).
func TestConsoleFeedbackShowsWhatTheAgentSaid(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	fb := map[string]any{"rationale": "blocked", "attempted_action": "list the open deals", "expected_outcome": "the deals in stage one",
		"actual_outcome": "an empty list", "tool_called": "crm_deals", "error_seen": "no error at all", "severity": "high"}
	if r := env.Tool(env.DemoToken, "demo", "agents", "submit_feedback", fb); r.Status != 200 {
		t.Fatalf("feedback: %d %s", r.Status, r.Body)
	}
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	code, page := o.get("/console/feedback")
	if code != 200 {
		t.Fatalf("feedback page: %d", code)
	}
	for _, want := range []string{"list the open deals", "the deals in stage one", "an empty list", "<code>crm_deals</code>", "no error at all", "high"} {
		if !strings.Contains(page, want) {
			t.Errorf("the feedback page lacks %q", want)
		}
	}
}

// TestConsoleConnectAccount: the tenant page's Connect account button
// creates a connect link and shows its URL once, with Copy and Open; the
// link is then listed by id and status, its URL no longer shown, and the
// URL works (its page names the tenant).
func TestConsoleConnectAccount(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	if code, page := o.get("/console/tenants/demo"); code != 200 || !strings.Contains(page, "Connect account") {
		t.Fatalf("tenant page: %d", code)
	}
	resp, page := o.do("POST", "/console/tenants/demo/connect-links", url.Values{"provider": {"hubspot"}, "csrf": {o.csrf}})
	link := regexp.MustCompile(`id="new-link" class="secret">(http[^<]+/connect/[A-Za-z0-9_-]+)<`).FindStringSubmatch(page)
	if resp.StatusCode != 201 || link == nil || !strings.Contains(page, `rel="noopener noreferrer">Open</a>`) {
		t.Fatalf("connect link: %d %s", resp.StatusCode, page)
	}
	_, again := o.get("/console/tenants/demo")
	if strings.Contains(again, link[1]) || !regexp.MustCompile(`<code>cl_[A-Za-z0-9_-]+</code></td><td>hubspot</td><td><span class="muted">the tenant</span></td><td>created</td>`).MatchString(again) {
		t.Fatalf("after: the URL is shown again, or the link is not listed:\n%s", again)
	}
	secretPath := link[1][strings.Index(link[1], "/connect/"):]
	if r := env.Do("GET", env.GatewayURL+secretPath, nil); r.Status != 200 || !strings.Contains(string(r.Body), "demo") {
		t.Fatalf("the link's page: %d %s", r.Status, r.Body)
	}
	// A provider without an app is refused with the admin API's reason.
	resp, _ = o.do("POST", "/console/tenants/demo/connect-links", url.Values{"provider": {"nosuch"}, "csrf": {o.csrf}})
	if resp.StatusCode != 303 {
		t.Fatalf("bad provider: %d", resp.StatusCode)
	}
	if _, page := o.get("/console/tenants/demo"); !strings.Contains(page, "No connect link:") {
		t.Fatalf("no refusal shown")
	}
}

// TestConsoleOAuthApps: the OAuth apps page lists the demo's gateway-wide
// apps and the redirect URI to paste; a tenant's app is registered,
// replaced without its secret (kept) and deleted through the console, and
// the secret appears in no page; a refusal shows the admin API's reason.
func TestConsoleOAuthApps(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	redirect := env.Admin("GET", "/admin/oauth-apps", nil).JSON(t)["redirect_uri"].(string)
	code, page := o.get("/console/oauth-apps")
	if code != 200 || !strings.Contains(page, `id="redirect-uri" class="secret">`+redirect+"<") || !strings.Contains(page, `data-copy="redirect-uri"`) ||
		!strings.Contains(page, `href="/console/oauth-apps" aria-current="page">OAuth apps</a>`) {
		t.Fatalf("page: %d %s", code, page)
	}
	for _, p := range []string{"google", "hubspot", "meta", "linkedin"} {
		if !strings.Contains(page, "<tr><td>"+p+"</td><td>gateway-wide</td>") {
			t.Errorf("the demo's gateway-wide %s app is not listed", p)
		}
	}
	pages := []string{page}

	const secretValue = "s3cret-never-shown"
	resp, page := o.do("POST", "/console/oauth-apps", url.Values{"csrf": {o.csrf}, "provider": {"hubspot"}, "tenant": {"demo"},
		"client_id": {"white-label-id"}, "client_secret": {secretValue}, "extra_scopes": {"crm.lists.read, oauth"}})
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/console/oauth-apps" || strings.Contains(resp.Header.Get("Location"), secretValue) {
		t.Fatalf("register: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), page)
	}
	for _, c := range resp.Cookies() {
		if strings.Contains(c.Value, secretValue) {
			t.Fatalf("the secret is in cookie %s", c.Name)
		}
	}
	app := env.Admin("GET", "/admin/tenants/demo/oauth-apps/hubspot", nil).JSON(t)["oauth_app"].(map[string]any)
	if app["client_id"] != "white-label-id" || app["has_client_secret"] != true || joinAny(app["extra_scopes"]) != "crm.lists.read oauth" {
		t.Fatalf("registered app: %v", app)
	}
	_, page = o.get("/console/oauth-apps")
	if !strings.Contains(page, "Tenant demo&#39;s hubspot app registered.") || !strings.Contains(page, `<a href="/console/tenants/demo">demo</a>`) ||
		!strings.Contains(page, "<code>white-label-id</code>") {
		t.Fatalf("after register: %s", page)
	}
	pages = append(pages, page)
	_, page = o.get("/console/oauth-apps?provider=hubspot&tenant=demo")
	if !strings.Contains(page, `value="white-label-id"`) || !strings.Contains(page, "empty keeps the stored secret") {
		t.Errorf("Replace does not fill the form: %s", page)
	}
	pages = append(pages, page)

	// Replace without a secret: the stored one is kept.
	if resp := o.post("/console/oauth-apps", url.Values{"provider": {"hubspot"}, "tenant": {"demo"}, "client_id": {"white-label-2"}}); resp.StatusCode != 303 {
		t.Fatalf("replace: %d", resp.StatusCode)
	}
	app = env.Admin("GET", "/admin/tenants/demo/oauth-apps/hubspot", nil).JSON(t)["oauth_app"].(map[string]any)
	if app["client_id"] != "white-label-2" || app["has_client_secret"] != true {
		t.Fatalf("replaced app: %v", app)
	}
	_, page = o.get("/console/oauth-apps")
	if !strings.Contains(page, "Tenant demo&#39;s hubspot app replaced, its secret kept.") {
		t.Errorf("after replace: %s", page)
	}
	pages = append(pages, page)

	// A bad provider is refused with the API's reason; what was typed stays,
	// the secret does not.
	resp, page = o.do("POST", "/console/oauth-apps", url.Values{"csrf": {o.csrf}, "provider": {"nosuch"}, "client_id": {"typed-id"}, "client_secret": {secretValue}})
	if resp.StatusCode != 422 || !strings.Contains(page, "Not saved: provider &#34;nosuch&#34; has no connect flow") || !strings.Contains(page, `value="typed-id"`) {
		t.Fatalf("bad provider: %d %s", resp.StatusCode, page)
	}
	pages = append(pages, page)
	// A new app without a secret is refused too.
	resp, page = o.do("POST", "/console/oauth-apps", url.Values{"csrf": {o.csrf}, "provider": {"meta"}, "tenant": {"demo"}, "client_id": {"x"}})
	if resp.StatusCode != 422 || !strings.Contains(page, "client_secret is required") {
		t.Errorf("new app without a secret: %d %s", resp.StatusCode, page)
	}

	// Delete it: the tenant falls back to the gateway-wide app.
	if resp := o.post("/console/oauth-apps/hubspot/delete", url.Values{"tenant": {"demo"}}); resp.StatusCode != 303 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if got := env.Admin("GET", "/admin/tenants/demo/oauth-apps/hubspot", nil); got.Status != 404 {
		t.Fatalf("after delete: %d %s", got.Status, got.Body)
	}
	_, page = o.get("/console/oauth-apps")
	if !strings.Contains(page, "Tenant demo&#39;s hubspot app deleted.") || strings.Contains(page, "white-label-2") ||
		!strings.Contains(page, "<tr><td>hubspot</td><td>gateway-wide</td>") {
		t.Errorf("after delete: %s", page)
	}
	for _, p := range append(pages, page) {
		if strings.Contains(p, secretValue) {
			t.Fatalf("the client secret is in a page: %s", p)
		}
	}
	if audit := env.Admin("GET", "/admin/audit?source=console&limit=200", nil); strings.Contains(string(audit.Body), secretValue) {
		t.Errorf("the client secret is in the audit")
	}
}

func joinAny(v any) string {
	var parts []string
	for _, x := range v.([]any) {
		parts = append(parts, x.(string))
	}
	return strings.Join(parts, " ")
}

// TestConsoleToolsets: an operator creates a toolset on the tenant page (an
// unknown tool is refused with the API's reason), issues a token limited to
// it, cannot delete it while the token uses it, and deletes it once the
// token is revoked.
func TestConsoleToolsets(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	o.get("/console/tenants/demo")
	o.do("POST", "/console/tenants/demo/toolsets", url.Values{"csrf": {o.csrf}, "name": {"prep"}, "toolset": {`{"allow": ["crm_dealz"]}`}})
	if _, page := o.get("/console/tenants/demo"); !strings.Contains(page, "Toolset prep not saved:") || !strings.Contains(page, "unknown tool") {
		t.Fatalf("an unknown tool: no refusal shown")
	}
	o.do("POST", "/console/tenants/demo/toolsets", url.Values{"csrf": {o.csrf}, "name": {"prep"}, "toolset": {`{"allow": ["crm_*"], "read_only": true}`}})
	_, page := o.get("/console/tenants/demo")
	if !strings.Contains(page, "Toolset prep saved.") || !strings.Contains(page, `<option value="prep">prep</option>`) {
		t.Fatalf("the toolset was not saved, or is not offered for tokens:\n%s", page)
	}
	resp, page := o.do("POST", "/console/tenants/demo/tokens", url.Values{"csrf": {o.csrf}, "label": {"prep"}, "toolset": {"prep"}})
	token := regexp.MustCompile(`id="new-token" class="secret">(gtm_[A-Za-z0-9_-]+)<`).FindStringSubmatch(page)
	if resp.StatusCode != 201 || token == nil {
		t.Fatalf("issue with a toolset: %d", resp.StatusCode)
	}
	if r := env.Tool(token[1], "demo", "email", "email_threads", map[string]any{"action": "list", "rationale": "console toolset"}); r.Status != 403 {
		t.Errorf("a call outside the toolset: %d %s", r.Status, r.Body)
	}
	o.do("POST", "/console/tenants/demo/toolsets/prep/delete", url.Values{"csrf": {o.csrf}})
	if _, page := o.get("/console/tenants/demo"); !strings.Contains(page, "Refused: toolset prep is used by tokens tok_") {
		t.Fatalf("deleting a used toolset: no refusal shown:\n%s", regexp.MustCompile(`(?s)<main.{0,900}`).FindString(page))
	}
	tokID := regexp.MustCompile(`/console/tenants/demo/tokens/(tok_[a-z0-9]+)/revoke`).FindAllStringSubmatch(page, -1)
	for _, m := range tokID {
		o.post("/console/tenants/demo/tokens/"+m[1]+"/revoke", nil)
	}
	o.do("POST", "/console/tenants/demo/toolsets/prep/delete", url.Values{"csrf": {o.csrf}})
	if _, page := o.get("/console/tenants/demo"); !strings.Contains(page, "Toolset prep deleted.") {
		t.Fatalf("deleting an unused toolset: not done:\n%s", regexp.MustCompile(`(?s)<main.{0,400}`).FindString(page))
	}
}
