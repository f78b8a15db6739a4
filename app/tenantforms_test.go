package app_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestValidationNamesTheField: each refusal of PUT /admin/tenants/{id} and
// PUT /admin/billing/{id} names the body's field at fault as "field".
func TestValidationNamesTheField(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	env.NewTenant("acme", nil)
	ads := func(accounts []any, def string) map[string]any {
		return map[string]any{"google_ads": map[string]any{"accounts": accounts, "default": def}}
	}
	acct := func(id string) map[string]any { return map[string]any{"id": id, "label": id} }
	for _, tc := range []struct {
		name, path string
		body       map[string]any
		field      string
	}{
		{"no name", "/admin/tenants/acme", map[string]any{"name": " "}, "name"},
		{"a bad status", "/admin/tenants/acme", map[string]any{"name": "A", "status": "paused"}, "status"},
		{"an unknown provider", "/admin/tenants/acme", map[string]any{"name": "A", "providers": map[string]any{"myspace": map[string]any{}}}, "providers.myspace"},
		{"an account id twice", "/admin/tenants/acme", map[string]any{"name": "A", "providers": ads([]any{acct("1"), acct("1")}, "1")}, "providers.google_ads.accounts[1].id"},
		{"an empty account id", "/admin/tenants/acme", map[string]any{"name": "A", "providers": ads([]any{acct("1"), acct("")}, "1")}, "providers.google_ads.accounts[1].id"},
		{"a person that is no person", "/admin/tenants/acme", map[string]any{"name": "A", "providers": ads([]any{map[string]any{"id": "1", "person": "ada"}}, "1")}, "providers.google_ads.accounts[0].person"},
		{"a default that is no account", "/admin/tenants/acme", map[string]any{"name": "A", "providers": ads([]any{acct("1")}, "2")}, "providers.google_ads.default"},
		{"an unknown category", "/admin/tenants/acme", map[string]any{"name": "A", "approval_policy": map[string]any{"categories": []any{"bribes"}}}, "approval_policy.categories"},
		{"a negative burst", "/admin/tenants/acme", map[string]any{"name": "A", "rate_limits": map[string]any{"per_token": map[string]any{"burst": -1}}}, "rate_limits.per_token.burst"},
		{"too many runs", "/admin/tenants/acme", map[string]any{"name": "A", "limits": map[string]any{"runs_queued": 2_000_000}}, "limits.runs_queued"},
		{"a bad currency", "/admin/billing/acme", map[string]any{"currency": "euro"}, "currency"},
		{"a bad billing day", "/admin/billing/acme", map[string]any{"currency": "EUR", "billing_day": 31}, "billing_day"},
		{"a negative category price", "/admin/billing/acme", map[string]any{"currency": "EUR", "tool_call_price": map[string]any{"by_category": map[string]any{"ads_mutate": -1}}}, "tool_call_price.by_category.ads_mutate"},
		{"an unknown price category", "/admin/billing/acme", map[string]any{"currency": "EUR", "tool_call_price": map[string]any{"by_category": map[string]any{"bribes": 1}}}, "tool_call_price.by_category.bribes"},
		{"a model's output price", "/admin/billing/acme", map[string]any{"currency": "EUR", "chat_token_price": map[string]any{"by_model": map[string]any{"m": map[string]any{"output": -2}}}}, "chat_token_price.by_model.m.output"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Admin("PUT", tc.path, tc.body)
			if resp.Status != 400 {
				t.Fatalf("status %d: %s", resp.Status, resp.Body)
			}
			e, _ := resp.JSON(t)["error"].(map[string]any)
			if e["code"] != "VALIDATION_ERROR" || e["field"] != tc.field {
				t.Errorf("error %v, want field %q", e, tc.field)
			}
		})
	}
}

// TestConsoleTenantForms: an operator saves the Configuration and Billing
// plan forms; a refusal shows the page again (422) with what was typed and
// the API's message beside the field it names; a tenant's person reads a
// summary and cannot post the forms.
func TestConsoleTenantForms(t *testing.T) {
	env := startWithDemoIdP(t)
	env.NewTenant("acme", nil)
	o := newOperator(t, env)
	o.signIn(apptest.AdminKey)
	if code, page := o.get("/console/tenants/acme"); code != 200 || !strings.Contains(page, `id="cfg-name"`) ||
		!strings.Contains(page, "No billing plan yet") || !strings.Contains(page, "<summary>Edit as JSON</summary>") {
		t.Fatalf("tenant page %d: no forms", code)
	}
	form := func(extra ...string) url.Values {
		v := url.Values{"name": {"Acme Ltd"}, "status": {"active"}, "categories": {"ads_mutate", "crm_write"}, "destructive": {"1"}}
		for i := 0; i+1 < len(extra); i += 2 {
			v.Add(extra[i], extra[i+1])
		}
		return v
	}
	// Add provider re-renders the form with a section to fill; no save.
	resp, page := o.do("POST", "/console/tenants/acme", withCSRF(o, form("action", "add-provider", "new_provider", "google_ads")))
	if resp.StatusCode != 200 || !strings.Contains(page, `name="p0.key" value="google_ads"`) || !strings.Contains(page, `id="cfg-p0-a0-id"`) {
		t.Fatalf("add provider: %d", resp.StatusCode)
	}
	// A duplicate account id: refused beside the second row's id, typed values kept.
	dup := form("p0.key", "google_ads", "p0.default", "1", "p0.a0.id", "111", "p0.a0.label", "Main", "p0.a1.id", "111", "p0.a1.label", "Brand")
	resp, page = o.do("POST", "/console/tenants/acme", withCSRF(o, dup))
	if resp.StatusCode != 422 {
		t.Fatalf("duplicate account: %d", resp.StatusCode)
	}
	for _, want := range []string{`id="cfg-p0-a1-id" name="p0.a1.id" value="111"`, `aria-invalid="true" aria-describedby="cfg-p0-a1-id-error"`,
		`id="cfg-p0-a1-id-error"`, `appears twice`, `href="#cfg-p0-a1-id"`, `value="Brand"`, `value="Acme Ltd"`} {
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("refused page lacks %s", want)
		}
	}
	// Fixed and saved.
	ok := form("p0.key", "google_ads", "p0.default", "1", "p0.a0.id", "111", "p0.a0.label", "Main", "p0.a1.id", "222", "p0.a1.label", "Brand")
	if resp, _ := o.do("POST", "/console/tenants/acme", withCSRF(o, ok)); resp.StatusCode != 303 {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	tenant := env.Admin("GET", "/admin/tenants/acme", nil).JSON(t)["tenant"].(map[string]any)
	if tenant["name"] != "Acme Ltd" || tenant["providers"].(map[string]any)["google_ads"].(map[string]any)["default"] != "222" {
		t.Errorf("saved tenant %v", tenant)
	}
	// The billing plan: a bad currency refused beside its input, then saved.
	plan := url.Values{"plan": {"pro"}, "currency": {"euro"}, "limit": {"hard"}, "included_calls": {"1000"}, "call_default": {"0.01"},
		"cat.ads_mutate": {"0.5"}, "m0.model": {"gpt-4o"}, "m0.input": {"0.005"}, "m0.output": {"0.015"}}
	resp, page = o.do("POST", "/console/tenants/acme/billing", withCSRF(o, plan))
	if resp.StatusCode != 422 || !strings.Contains(page, `aria-describedby="bill-currency-error"`) || !strings.Contains(page, `value="euro"`) ||
		!strings.Contains(page, `value="gpt-4o"`) {
		t.Fatalf("bad currency: %d", resp.StatusCode)
	}
	plan.Set("currency", "EUR")
	if resp, _ := o.do("POST", "/console/tenants/acme/billing", withCSRF(o, plan)); resp.StatusCode != 303 {
		t.Fatalf("save plan: %d", resp.StatusCode)
	}
	saved := env.Admin("GET", "/admin/billing/acme", nil).JSON(t)
	if saved["plan"] != "pro" || saved["limit"] != "hard" || saved["included_calls"] != float64(1000) {
		t.Errorf("saved plan %v", saved)
	}
	// The JSON editor still saves.
	if resp, _ := o.do("POST", "/console/tenants/acme", withCSRF(o, url.Values{"config": {`{"name": "Acme JSON"}`}})); resp.StatusCode != 303 {
		t.Errorf("JSON save: %d", resp.StatusCode)
	}

	// A tenant's person: the summary, no forms, and a post is refused.
	p := newOperator(t, env)
	if status, _ := p.signInAs("demo-approver"); status != 200 {
		t.Fatalf("sign-in: %d", status)
	}
	_, page = p.get("/console/tenants/demo")
	if strings.Contains(page, `id="cfg-name"`) || !strings.Contains(page, `<dl class="summary">`) || !strings.Contains(page, "<summary>Configuration as JSON</summary>") {
		t.Errorf("a tenant's person sees the forms or no summary")
	}
	if resp, _ := p.do("POST", "/console/tenants/demo", withCSRF(p, url.Values{"name": {"Mine"}})); resp.StatusCode != 403 {
		t.Errorf("a tenant's person posted the configuration: %d", resp.StatusCode)
	}
}

func withCSRF(o *operator, v url.Values) url.Values {
	v.Set("csrf", o.csrf)
	return v
}
