package app_test

import (
	"github.com/gtmgate/gtmgate"
	"html"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/oauth"
	"github.com/gtmgate/gtmgate/oauth/oauthtest"
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
	return o.signInVia(html.UnescapeString(link[1]), subject)
}

// signInVia follows a sign-in link (/console/sso/start?...) through the
// demo IdP as subject and returns the callback's status and page.
func (o *operator) signInVia(start, subject string) (int, string) {
	o.t.Helper()
	resp, _ := o.do("GET", start, nil)
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
		"/console/feedback", "/console/brief", "/console/health", "/console/calls/unknown", "/console/people"}
	tenantPages := []string{"/console/tenants", "/console/tenants/demo", "/console/approvals", "/console/audit", "/console/schedules",
		"/console/connect/demo/gmail", "/console/tenants/demo/tools", "/console/tenants/demo/tools/crm_contacts"}
	gate := gtmgate.ApprovalPagePath(holdBudgetChange(t, env, env.DemoToken, "demo"))
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
			// The gate's own page, where notices and held calls link.
			if code, page := o.get(gate); code != 200 || !strings.Contains(page, "google_ads_campaigns update_budget") ||
				!strings.Contains(page, `name="back" value="`+gate+`"`) {
				t.Errorf("%s: %d, want the held budget change with its decision forms", gate, code)
			}
			if code, _ := o.get("/console/approvals/apr_unknown"); code != 404 {
				t.Errorf("an unknown gate's page: %d, want 404", code)
			}
			_, tenantPage := o.get("/console/tenants/demo")
			if !strings.Contains(tenantPage, "Usage this period") ||
				strings.Contains(tenantPage, `action="/console/tenants/demo/billing"`) != tc.operator {
				t.Errorf("demo's page: usage shown, billing form only for operators (operator=%v)", tc.operator)
			}
			_, page := o.get("/console/tenants/acme")
			if refused := strings.Contains(page, "is not among them"); refused == tc.operator {
				t.Errorf("another tenant's page: refused=%v for operator=%v", refused, tc.operator)
			}
			if code, _ := o.get("/console/connect/acme/gmail"); (code == 200) != tc.operator {
				t.Errorf("another tenant's connect page: %d for operator=%v", code, tc.operator)
			}
			if _, page := o.get("/console/audit?tenant=acme"); tc.operator == strings.Contains(page, "is not among them") {
				t.Errorf("another tenant's audit: operator=%v", tc.operator)
			}
			// The toolset form is on the tenant page; the admin API decides
			// (owner access): an operator saves, an approver or viewer is refused.
			o.get("/console/tenants/demo")
			o.do("POST", "/console/tenants/demo/toolsets", url.Values{"csrf": {o.csrf}, "name": {"role-check"}, "toolset": {`{"allow": ["crm_*"]}`}})
			if _, page := o.get("/console/tenants/demo"); strings.Contains(page, "Toolset role-check saved.") != tc.operator ||
				!tc.operator && !strings.Contains(page, "Toolset role-check not saved:") {
				t.Errorf("saving a toolset: saved=%v for operator=%v", strings.Contains(page, "Toolset role-check saved."), tc.operator)
			}
			// The MCP server forms need write access, as the admin API's PUT:
			// shown to the operator only here (approver and viewer lack it),
			// and the API refuses the others' posts anyway.
			_, page = o.get("/console/tenants/demo")
			if strings.Contains(page, `id="mcp-add"`) != tc.operator {
				t.Errorf("the add-an-MCP-server form shown=%v for operator=%v", !tc.operator, tc.operator)
			}
			if code, _ := o.get("/console/tenants/demo/mcp-servers/none"); (code == 403) == tc.operator {
				t.Errorf("an MCP server's edit page: %d for operator=%v", code, tc.operator)
			}
			resp, page := o.do("POST", "/console/tenants/demo/mcp-servers/test", url.Values{"csrf": {o.csrf}, "name": {"role-check"},
				"url": {"https://127.0.0.1:1/mcp"}, "kind": {"none"}})
			if tested := resp.StatusCode == 200 && strings.Contains(page, "Not reachable:"); tested != tc.operator ||
				!tc.operator && (resp.StatusCode != 422 || !strings.Contains(page, "Not tested:")) {
				t.Errorf("testing an MCP server: %d for operator=%v", resp.StatusCode, tc.operator)
			}
			// Accepting a changed tool definition needs write access too: the
			// demo's notes server has none waiting, so the operator is told
			// "no change waiting"; the others are refused by the admin API.
			o.get("/console/tenants/demo")
			o.do("POST", "/console/tenants/demo/mcp-servers/notes/changes/accept", url.Values{"csrf": {o.csrf},
				"accept": {"notes_list"}, "hash.notes_list": {"sha256:none"}})
			if _, page = o.get("/console/tenants/demo"); strings.Contains(page, "has no change waiting") != tc.operator ||
				!tc.operator && !strings.Contains(page, "Refused:") {
				t.Errorf("accepting an MCP tool change for operator=%v: %.1500s", tc.operator, page)
			}
			// The playground runs with write access: an operator's run
			// answers, an approver's or viewer's shows the API's refusal.
			o.get("/console/tenants/demo/tools/crm_contacts")
			_, ran := o.do("POST", "/console/tenants/demo/tools/crm_contacts", url.Values{"csrf": {o.csrf},
				"in.action": {"search"}, "in.query": {"ada"}, "in.rationale": {"role check"}})
			if strings.Contains(ran, `<pre class="result"`) != tc.operator || strings.Contains(ran, "<strong>FORBIDDEN</strong>") == tc.operator {
				t.Errorf("a playground run for operator=%v: %.2000s", tc.operator, ran)
			}
		})
	}
}

// TestConsentWithSSO: the OAuth consent page signs the person in through
// the IdP (tenant tokens stay the fallback); the grant and its calls name
// the person who consented, and only someone allowed to change a tenant's
// working data may connect an application to it.
func TestConsentWithSSO(t *testing.T) {
	env := startWithDemoIdP(t)
	const redirect = "http://127.0.0.1:9/cb"
	reg, err := oauthex.RegisterClient(t.Context(), env.GatewayURL+"/oauth/register",
		&oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirect}, ClientName: "SSO Consent Test", TokenEndpointAuthMethod: "none"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conf := &oauth2.Config{ClientID: reg.ClientID, RedirectURL: redirect, Scopes: oauth.Scopes(),
		Endpoint: oauth2.Endpoint{AuthURL: env.GatewayURL + "/oauth/authorize", TokenURL: env.GatewayURL + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams}}
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", env.Config.GatewayURL+"/mcp"))

	// Nobody signed in: the page offers the IdP, coming back to itself.
	olivia := newOperator(t, env)
	_, page := olivia.doURL("GET", authURL, nil)
	link := regexp.MustCompile(`href="(/console/sso/start\?[^"]*)"`).FindStringSubmatch(page)
	if link == nil || !strings.Contains(page, "Or: a tenant token or connect code") {
		t.Fatalf("consent page without a sign-in link or the token fallback:\n%s", page)
	}
	status, signedIn := olivia.signInVia(html.UnescapeString(link[1]), "demo-operator")
	if status != 200 || !strings.Contains(html.UnescapeString(signedIn), "/oauth/authorize?") {
		t.Fatalf("sign-in from the consent page: %d, does not return to it:\n%s", status, signedIn)
	}
	resp, form := oauthtest.ConsentForm(t, olivia.c, authURL)
	if resp.StatusCode != 200 {
		t.Fatalf("consent page: %d", resp.StatusCode)
	}
	_, page = olivia.doURL("GET", authURL, nil)
	if !strings.Contains(page, "Signed in as <strong>olivia@agency.example</strong>") || !strings.Contains(page, `<option value="demo">`) {
		t.Fatalf("consent page of a signed-in operator:\n%s", page)
	}
	form.Set("tenant", "demo")
	form.Set("decision", "approve")
	post, err := olivia.c.PostForm(env.GatewayURL+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	loc, _ := post.Location()
	if loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("consent: %d, redirect %v", post.StatusCode, loc)
	}
	tok, err := conf.Exchange(t.Context(), loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	call := env.Do("POST", env.GatewayURL+"/mcp", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "crm_contacts", "arguments": map[string]any{"action": "list", "limit": 1, "rationale": "consent test"}}},
		"Authorization", "Bearer "+tok.AccessToken, "Accept", "application/json, text/event-stream")
	if call.Status != 200 {
		t.Fatalf("MCP call with the grant: %d %s", call.Status, call.Body)
	}
	grants := env.Admin("GET", "/admin/tenants/demo/oauth-grants", nil)
	person := regexp.MustCompile(`"consented_by":\["(person:p_[0-9a-f]+)"\]`).FindStringSubmatch(string(grants.Body))
	if person == nil {
		t.Fatalf("the grant does not name who consented: %s", grants.Body)
	}
	// A refreshed token is still the same person's grant.
	refreshed, err := conf.TokenSource(t.Context(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	env.Do("POST", env.GatewayURL+"/mcp", map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": "crm_contacts", "arguments": map[string]any{"action": "list", "limit": 1, "rationale": "after refresh"}}},
		"Authorization", "Bearer "+refreshed.AccessToken, "Accept", "application/json, text/event-stream")
	audit := env.Admin("GET", "/admin/audit?tenant=demo&action=crm_contacts.list&source=mcp", nil)
	if n := strings.Count(string(audit.Body), `"via":"consent:`+person[1]+`"`); n != 2 {
		t.Errorf("%d of the grant's two calls name the consenting person: %s", n, audit.Body)
	}
	// The grant is one agent through the refresh: both calls carry its key,
	// and the console's agent page of that key shows them, acting for the
	// person who consented.
	agent := regexp.MustCompile(`"agents":\[\{"key":"(oauth:[^"]+)","consented_by":"` + person[1] + `"`).FindStringSubmatch(string(grants.Body))
	if agent == nil {
		t.Fatalf("the grant lists no agent of %s: %s", person[1], grants.Body)
	}
	if n := strings.Count(string(audit.Body), `"key":"`+agent[1]+`"`); n != 2 {
		t.Errorf("%d of the grant's two calls carry its agent key %s: %s", n, agent[1], audit.Body)
	}
	op := newOperator(t, env)
	op.signIn(apptest.AdminKey)
	if code, page := op.get("/console/tenants/demo/agents/" + agent[1]); code != 200 || strings.Count(page, "crm_contacts.list") < 2 ||
		!strings.Contains(page, strings.TrimPrefix(person[1], "person:")) {
		t.Errorf("the grant's agent page: %d, want both calls and the consenting person", code)
	}

	// An approver may decide calls but not connect applications.
	ada := newOperator(t, env)
	ada.signInAs("demo-approver")
	resp, form = oauthtest.ConsentForm(t, ada.c, authURL)
	resp.Body.Close()
	if _, page := ada.doURL("GET", authURL, nil); !strings.Contains(page, "Your roles do not let you connect an application") {
		t.Errorf("an approver was offered tenants to connect:\n%s", page)
	}
	form.Set("tenant", "demo")
	form.Set("decision", "approve")
	post, err = ada.c.PostForm(env.GatewayURL+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != 401 {
		t.Errorf("an approver's consent for demo: %d, want 401", post.StatusCode)
	}
}

// TestPeoplePage: an operator gives a newcomer a role on the console's
// People page, the newcomer signs in, and revoking the grant there ends
// their session.
func TestPeoplePage(t *testing.T) {
	env := startWithDemoIdP(t)
	olivia := newOperator(t, env)
	olivia.signInAs("demo-operator")
	if code, page := olivia.get("/console/people"); code != 200 || !strings.Contains(page, "demo-marketing") || !strings.Contains(page, "olivia@agency.example") {
		t.Fatalf("people page: %d", code)
	}
	if resp := olivia.post("/console/people/grants", url.Values{"idp": {app.DemoIdP}, "kind": {"email"}, "match": {"nina@demo.example"},
		"role": {"member"}, "tenant": {"demo"}}); resp.StatusCode != 303 {
		t.Fatalf("grant: %d", resp.StatusCode)
	}
	if _, page := olivia.get("/console/people"); !strings.Contains(page, "Granted member of demo") {
		t.Errorf("no confirmation of the grant")
	}
	nina := newOperator(t, env)
	if status, _ := nina.signInAs("demo-newcomer"); status != 200 {
		t.Fatalf("Nina after her grant: %d", status)
	}
	grants := env.Admin("GET", "/admin/role-grants?idp="+app.DemoIdP, nil).JSON(t)["grants"].([]any)
	var id string
	for _, g := range grants {
		if g := g.(map[string]any); g["match"] == "nina@demo.example" {
			id = g["id"].(string)
		}
	}
	olivia.get("/console/people")
	if resp := olivia.post("/console/people/grants/"+id+"/revoke", nil); resp.StatusCode != 303 {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if code, _ := nina.get("/console/approvals"); code != 303 {
		t.Errorf("Nina's session outlived her grant: %d", code)
	}
	// A refused grant shows why and keeps what was typed.
	olivia.get("/console/people")
	resp, page := olivia.do("POST", "/console/people/grants", url.Values{"csrf": {olivia.csrf}, "idp": {app.DemoIdP}, "kind": {"email"},
		"match": {"x@demo.example"}, "role": {"owner"}})
	if resp.StatusCode != 422 || !strings.Contains(page, "tenant role") || !strings.Contains(page, "x@demo.example") {
		t.Errorf("refused grant: %d", resp.StatusCode)
	}
}
