package console_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/audit"
	"github.com/gtmgate/gtmgate/console"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

type noTokens struct{}

func (noTokens) TokenSource(context.Context, string, string, string) (gtmgate.TokenSource, error) {
	return nil, nil
}

// startPlayground is the console over the real admin API with a Runner of
// one CRM tool, whose list answers the limit it was given; tenant acme
// holds crm_write for approval and has a read-only toolset "reader".
func startPlayground(t *testing.T) *overviewEnv {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rec, err := audit.NewWriter(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	run := func(_ context.Context, c *gtmgate.Call) (any, error) {
		return map[string]any{"deals": []string{"Big deal"}, "limit": c.Limit, "account": c.Account.ID}, nil
	}
	reg, err := registry.New(gtmgate.Tool{Name: "crm_deals", Domain: "crm", Provider: "hubspot", Title: "HubSpot deals",
		Description: "Find and update deals.", Run: run,
		Properties: map[string]*jsonschema.Schema{"id": {Type: "string", Description: "The deal's id."}},
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true},
			{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true, Required: []string{"id"}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(adminKey))
	keyHash := hex.EncodeToString(sum[:])
	runner := toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: rec, Tokens: noTokens{}})
	api := admin.New(admin.Options{Store: st, Recorder: rec, Runner: runner, KeyHash: keyHash})
	c, err := console.New(console.Options{Admin: api, Sessions: st, Recorder: rec, KeyHash: keyHash, CSRFKey: []byte("playground-test-csrf-key")})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/admin/", api)
	mux.Handle("/console/", c)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	e := &overviewEnv{t: t, url: srv.URL, recorder: rec, browser: &http.Client{Jar: jar}}
	if status, body := e.admin("PUT", "/admin/tenants/acme", `{"name": "Acme", "status": "active",
		"providers": {"hubspot": {"accounts": [{"id": "portal-1"}], "default": "portal-1"}},
		"approval_policy": {"categories": ["crm_write"], "actions": [], "destructive": false},
		"toolsets": {"reader": {"allow": ["crm_*"], "read_only": true}}}`); status >= 300 {
		t.Fatalf("put tenant: %d %s", status, body)
	}
	e.signIn()
	return e
}

// post sends a console form from path's page, with its CSRF token.
func (e *overviewEnv) post(page, path string, form url.Values) (int, string) {
	e.t.Helper()
	_, body := e.page(page)
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		e.t.Fatalf("%s has no CSRF token", page)
	}
	form.Set("csrf", m[1])
	req, _ := http.NewRequest("POST", e.url+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", e.url)
	return e.send(e.browser, req)
}

// TestConsoleToolsPage: the tools page lists what the tenant's agents get
// by domain, marks the actions its policy holds, links each tool to its
// playground, and cuts the list to a toolset chosen.
func TestConsoleToolsPage(t *testing.T) {
	e := startPlayground(t)
	status, page := e.page("/console/tenants/acme/tools")
	if status != 200 || !strings.Contains(page, `<h2>crm</h2>`) || !strings.Contains(page, `href="/console/tenants/acme/tools/crm_deals"`) ||
		!strings.Contains(page, "<code>update</code> <span class=\"muted\">crm_write</span> · changes data · <strong>held for approval</strong>") {
		t.Fatalf("tools page: %d %s", status, page)
	}
	if !strings.Contains(page, `<option value="toolset:reader">toolset reader</option>`) {
		t.Errorf("no toolset to choose: %s", page)
	}
	_, page = e.page("/console/tenants/acme/tools?as=toolset:reader")
	if strings.Contains(page, "<code>update</code>") || !strings.Contains(page, `href="/console/tenants/acme/tools/crm_deals?toolset=reader"`) {
		t.Errorf("the read-only toolset's list: %s", page)
	}
	// An agent's page links to what it gets: its token's toolset.
	status, answer := e.admin("POST", "/admin/auth", `{"tenant_id": "acme", "token": "reader-token-0f3a9c1e7b5d2846", "toolset": "reader", "label": "reader"}`)
	tok := regexp.MustCompile(`"id":"(tok_[0-9a-f]+)"`).FindStringSubmatch(answer)
	if status != 201 || tok == nil {
		t.Fatalf("register a token: %d %s", status, answer)
	}
	_, page = e.page("/console/tenants/acme/agents/" + tok[1])
	link := `href="/console/tenants/acme/tools?token=` + tok[1] + `"`
	if !strings.Contains(page, link) {
		t.Errorf("the agent page does not link to its tools (%s): %s", link, page)
	}
	_, page = e.page("/console/tenants/acme/tools?token=" + tok[1])
	if strings.Contains(page, "<code>update</code>") || !strings.Contains(page, `<option value="token:`+tok[1]+`" selected>agent reader (`+tok[1]+`)</option>`) {
		t.Errorf("the agent's tools: %s", page)
	}
	if status, _ := e.page("/console/tenants/nope/tools"); status != 404 {
		t.Errorf("an unknown tenant's tools: %d, want 404", status)
	}
}

var resultBlock = regexp.MustCompile(`(?s)<pre class="result" tabindex="0">(.*?)</pre>`)

// TestConsolePlayground: the playground's form comes from the schema; a run
// shows the result and is audited as the console's call by the signed-in
// actor; a mutating action is held, with a link to its gate; a value that
// cannot be read is shown next to its field, kept, and nothing runs; the
// raw JSON form runs too; an unknown tool is not found.
func TestConsolePlayground(t *testing.T) {
	e := startPlayground(t)
	const page = "/console/tenants/acme/tools/crm_deals"
	status, body := e.page(page)
	if status != 200 || !strings.Contains(body, `<option value="update">update (held for approval, changes data)</option>`) ||
		!strings.Contains(body, `<textarea id="in-rationale" name="in.rationale" rows="3" required>`) ||
		!strings.Contains(body, `<input type="number" id="in-limit" name="in.limit" value="" step="1">`) ||
		!strings.Contains(body, "The deal&#39;s id.") || !strings.Contains(body, "<summary>Raw JSON input</summary>") {
		t.Fatalf("playground: %d %s", status, body)
	}

	status, body = e.post(page, page, url.Values{"in.action": {"list"}, "in.rationale": {"try it"}, "in.limit": {"7"}, "in.id": {""}})
	m := resultBlock.FindStringSubmatch(body)
	if status != 200 || m == nil || !strings.Contains(m[1], `&#34;limit&#34;: 7`) || !strings.Contains(m[1], "portal-1") {
		t.Fatalf("a run: %d %s", status, body)
	}
	if !strings.Contains(body, `value="7"`) {
		t.Errorf("the form does not keep what was typed")
	}
	_, audited := e.admin("GET", "/admin/audit?tenant=acme&action=crm_deals.list", "")
	if !strings.Contains(audited, `"source":"console"`) || !strings.Contains(audited, `"key":"admin-key"`) {
		t.Errorf("the run's audit entry: %s", audited)
	}

	status, body = e.post(page, page, url.Values{"in.action": {"update"}, "in.rationale": {"try it"}, "in.id": {"42"}})
	gate := regexp.MustCompile(`href="/console/approvals/(apr_[^"]+)"`).FindStringSubmatch(body)
	if status != 200 || gate == nil || !strings.Contains(body, "Held for approval") || !strings.Contains(body, "It holds <code>crm_deals</code> <code>update</code>") {
		t.Fatalf("a held run: %d %s", status, body)
	}
	if status, _ := e.page("/console/approvals/" + gate[1]); status != 200 {
		t.Errorf("the gate's page: %d", status)
	}

	status, body = e.post(page, page, url.Values{"in.action": {"list"}, "in.rationale": {"try it"}, "in.limit": {"seven"}})
	if status != 422 || !strings.Contains(body, `&#34;seven&#34; is not a whole number`) || !strings.Contains(body, `value="seven"`) || resultBlock.MatchString(body) {
		t.Errorf("an unreadable value: %d %s", status, body)
	}

	status, body = e.post(page, page, url.Values{"raw": {`{"rationale": "raw", "action": "list", "limit": 3}`}})
	if m := resultBlock.FindStringSubmatch(body); status != 200 || m == nil || !strings.Contains(m[1], `&#34;limit&#34;: 3`) {
		t.Errorf("a raw run: %d %s", status, body)
	}

	status, body = e.post(page, page, url.Values{"in.action": {"update"}, "in.rationale": {"try it"}, "in.id": {"42"}, "toolset": {"reader"}})
	if status != 200 || !strings.Contains(body, "<strong>FORBIDDEN</strong>") || !strings.Contains(body, "read-only") {
		t.Errorf("a refused run: %d %s", status, body)
	}

	if status, _ := e.page("/console/tenants/acme/tools/crm_nope"); status != 404 {
		t.Errorf("an unknown tool's playground: %d, want 404", status)
	}
}
