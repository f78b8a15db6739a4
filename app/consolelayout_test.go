package app_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestConsoleTablesScroll: on every console page, each table sits in a
// .scroll wrapper, so at phone width it scrolls sideways instead of
// squeezing its cells (the browser check in e2e measures them).
func TestConsoleTablesScroll(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	for _, p := range []string{"/console/", "/console/tenants", "/console/tenants/demo", "/console/oauth-apps", "/console/approvals",
		"/console/audit", "/console/errors", "/console/incidents", "/console/quality", "/console/feedback", "/console/schedules",
		"/console/people", "/console/health"} {
		code, body := o.get(p)
		if code != 200 {
			t.Fatalf("%s: %d", p, code)
		}
		doc := parseHTML(t, body)
		for n := range doc.Descendants() {
			if n.Type == html.ElementNode && n.Data == "table" && !hasClass(n.Parent, "scroll") {
				t.Errorf("%s: a table outside a .scroll wrapper (in <%s class=%q>)", p, n.Parent.Data, attr(n.Parent, "class"))
			}
		}
	}
}

// TestConsoleTenantPageNav: the tenant page opens with a local nav whose
// every link reaches one of its sections, and no id is used twice.
func TestConsoleTenantPageNav(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	_, body := o.get("/console/tenants/demo")
	doc := parseHTML(t, body)
	ids := map[string]int{}
	var links []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if id := attr(n, "id"); id != "" {
			ids[id]++
		}
		if n.Data == "nav" && hasClass(n, "local") {
			for a := range n.Descendants() {
				if a.Type == html.ElementNode && a.Data == "a" {
					links = append(links, attr(a, "href"))
				}
			}
		}
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q used %d times", id, n)
		}
	}
	for _, want := range []string{"#tokens", "#provider-tokens", "#connect", "#mcp-servers", "#oauth-clients", "#toolsets", "#usage", "#configuration", "#billing"} {
		if !slices.Contains(links, want) {
			t.Errorf("the local nav lacks %s: %v", want, links)
		}
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "#") || ids[l[1:]] != 1 {
			t.Errorf("local nav link %q reaches no section", l)
		}
	}
}

// TestConsoleHealthPageWithoutTheRawReport: the health page shows the
// report's status, store, queues and providers once; what it does not lay
// out (disk, process, replicas…) is one click away as JSON, without the
// fields already shown.
func TestConsoleHealthPageWithoutTheRawReport(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	_, page := o.get("/console/health?fresh=1")
	for _, want := range []string{"Job queues", "Provider API versions", "<details><summary>", "&#34;free_bytes&#34;", "&#34;replicas&#34;"} {
		if !strings.Contains(page, want) {
			t.Errorf("health page lacks %s", want)
		}
	}
	for _, dup := range []string{"&#34;migration_version&#34;", "&#34;jobs&#34;", "&#34;api_versions&#34;", "&#34;status&#34;"} {
		if strings.Contains(page, dup) {
			t.Errorf("health page repeats %s as JSON", dup)
		}
	}
}

// TestConsoleTenantPageAuditsNoErrorForAMissingPlan: the demo tenant has
// no billing plan; its console page asks for one and learns there is none,
// which the audit records as an answer (404, ok), not an error. The same
// read through the admin API is still a 404 error entry.
func TestConsoleTenantPageAuditsNoErrorForAMissingPlan(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	if code, page := o.get("/console/tenants/demo"); code != 200 || strings.Contains(withoutDemoNotConnected(page), `class="error"`) {
		t.Fatalf("tenant page: %d %s", code, page)
	}
	if r := env.Admin("GET", "/admin/billing/demo", nil); r.Status != 404 {
		t.Fatalf("the demo tenant has a billing plan: %d %s", r.Status, r.Body)
	}
	var got struct {
		Entries []struct {
			Source, Outcome, Action string
			Status                  int
		}
	}
	if err := json.Unmarshal(env.Admin("GET", "/admin/audit?tenant=demo&action=admin.billing.get", nil).Body, &got); err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]string{}
	for _, e := range got.Entries {
		outcomes[e.Source] = fmt.Sprintf("%d %s", e.Status, e.Outcome)
	}
	if outcomes["console"] != "404 ok" || outcomes["admin"] != "404 error" {
		t.Errorf("audited reads of a missing plan: %v; want console 404 ok, admin 404 error", outcomes)
	}
	// A page for a tenant that does not exist is still an error.
	o.get("/console/tenants/nobody")
	if err := json.Unmarshal(env.Admin("GET", "/admin/audit?tenant=nobody&source=console", nil).Body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) == 0 || got.Entries[0].Outcome != "error" {
		t.Errorf("the page of a tenant that does not exist: %+v, want an error entry", got.Entries)
	}
}

func parseHTML(t *testing.T, body string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return n != nil && slices.Contains(strings.Fields(attr(n, "class")), class)
}
