package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestConnectOwnAccount: the console's connect page, where a call refused
// for want of the person's own account sends them, shows a signed-in
// person of the tenant its button; the button creates a connect link for
// that person, whatever the form says, and sends the browser to it.
// Another tenant's person is refused, the admin key is told it is no
// person, and so is the admin API's self-service route.
func TestConnectOwnAccount(t *testing.T) {
	env := startWithDemoIdP(t)
	env.NewTenant("acme", nil)
	if r := env.Admin("POST", "/admin/role-grants", map[string]any{"idp": app.DemoIdP, "kind": "email", "match": "nina@demo.example",
		"role": "member", "tenant_id": "acme"}); r.Status != http.StatusCreated {
		t.Fatalf("grant Nina acme's member: %d %s", r.Status, r.Body)
	}
	const page = "/console/connect/demo/gmail"

	victor := newOperator(t, env)
	if status, _ := victor.signInAs("demo-viewer"); status != 200 {
		t.Fatalf("sign-in: %d", status)
	}
	code, body := victor.get(page)
	if code != 200 || !strings.Contains(body, "<h1>Connect your own gmail account</h1>") ||
		!strings.Contains(body, `<form method="post" action="/console/connect/demo/gmail">`) || !strings.Contains(body, "Connect my gmail account") {
		t.Fatalf("Victor's connect page: %d\n%s", code, body)
	}
	resp := victor.post(page, url.Values{"person": {"ada@demo.example"}})
	link := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(link, strings.TrimSuffix(env.Config.GatewayURL, "/")+"/connect/") {
		t.Fatalf("pressing Connect: %d %q, want a redirect to the connect link", resp.StatusCode, link)
	}
	people := map[string]string{}
	for _, p := range env.Admin("GET", "/admin/people", nil).JSON(t)["people"].([]any) {
		p := p.(map[string]any)
		people[p["email"].(string)], _ = p["id"].(string)
	}
	links := env.Admin("GET", "/admin/connect-links?tenant=demo&limit=1", nil).JSON(t)["connect_links"].([]any)
	newest, _ := links[0].(map[string]any)
	if vid := people["victor@demo.example"]; vid == "" || newest["person"] != vid || newest["created_by"] != "person:"+vid || newest["provider"] != "google" {
		t.Errorf("the link: %v, want Google's for Victor (%s), created by him", newest, vid)
	}
	if lp := env.Do("GET", env.GatewayURL+strings.TrimPrefix(link, strings.TrimSuffix(env.Config.GatewayURL, "/")), nil); lp.Status != 200 {
		t.Errorf("the link's page: %d", lp.Status)
	}

	nina := newOperator(t, env)
	if status, _ := nina.signInAs("demo-newcomer"); status != 200 {
		t.Fatalf("Nina's sign-in: %d", status)
	}
	if code, body := nina.get(page); code != http.StatusForbidden || strings.Contains(body, "Connect my gmail account") || !strings.Contains(body, "is not among them") {
		t.Errorf("another tenant's person on demo's page: %d\n%s", code, body)
	}
	if code, body := nina.get("/console/connect/acme/gmail"); code != 200 || !strings.Contains(body, "Connect my gmail account") {
		t.Errorf("Nina's own tenant's page: %d", code)
	}
	if resp := nina.post(page, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another tenant's person pressing demo's button: %d", resp.StatusCode)
	}

	key := newOperator(t, env)
	key.signIn(apptest.AdminKey)
	if code, body := key.get(page); code != http.StatusForbidden || !strings.Contains(body, "admin key, which is no person") || strings.Contains(body, "Connect my gmail account") {
		t.Errorf("the admin key's page: %d\n%s", code, body)
	}
	if resp := key.post(page, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("the admin key pressing the button: %d", resp.StatusCode)
	}
	if r := env.Admin("POST", "/admin/tenants/demo/connect-links/mine", map[string]any{"provider": "gmail"}); r.Status != http.StatusForbidden ||
		!strings.Contains(string(r.Body), "admin key is no person") {
		t.Errorf("the admin API's self-service route with the admin key: %d %s", r.Status, r.Body)
	}
	if again := env.Admin("GET", "/admin/connect-links?tenant=demo&limit=5", nil).JSON(t)["connect_links"].([]any); len(again) != 1 {
		t.Errorf("refused requests created links: %v", again)
	}
}
