package console

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// acmeTenant is a tenant as GET /admin/tenants/{id} returns it: two Google
// Ads accounts (one through a manager), a toolset and an approval route the
// form does not show.
const acmeTenant = `{"id": "acme", "name": "Acme", "status": "active", "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
 "providers": {"google_ads": {"accounts": [{"id": "111", "label": "Main", "login_customer_id": "999"}, {"id": "222", "label": "Brand"}], "default": "111"}},
 "approval_policy": {"categories": ["ads_mutate"], "actions": [], "destructive": true,
   "routes": [{"id": "ads", "match": {"categories": ["ads_mutate"]}, "webhook": {"url": "https://hooks.example/ads"}}]},
 "toolsets": {"ro": {"allow": ["crm_*"], "read_only": true}}}`

var known = []string{"google_ads", "hubspot"}

// shown is the form as the page shows acmeTenant, as a browser sends it.
func shown(t *testing.T) url.Values {
	t.Helper()
	var tenant obj
	if err := json.Unmarshal([]byte(acmeTenant), &tenant); err != nil {
		t.Fatal(err)
	}
	f := newConfigForm(tenant, known)
	v := url.Values{"name": {f.Name}, "status": {f.Status}, "actions": {f.Actions}}
	for _, c := range f.Categories {
		if c.Checked {
			v.Add("categories", c.Name)
		}
	}
	if f.Destructive {
		v.Set("destructive", "1")
	}
	for _, p := range f.Providers {
		v.Set(p.InputID()[4:]+".key", p.Key)
		v.Set(p.InputID()[4:]+".default", "0")
		for _, a := range p.Accounts {
			v.Set(a.Name("id"), a.ID)
			v.Set(a.Name("label"), a.Label)
			v.Set(a.Name("person"), a.Person)
			v.Set(a.Name("orig"), a.Orig)
		}
	}
	return v
}

func TestConfigBody(t *testing.T) {
	var base obj
	json.Unmarshal([]byte(acmeTenant), &base)
	keep := func(body obj) obj { // what the form must not touch
		return obj{"toolsets": body["toolsets"], "routes": body["approval_policy"].(obj)["routes"]}
	}
	for _, tc := range []struct {
		name     string
		edit     func(v url.Values)
		path     string // a JSON path of the body, read with dig
		want     any
		problems int
	}{
		{name: "unchanged", edit: func(url.Values) {}, path: "providers.google_ads",
			want: obj{"accounts": []any{obj{"id": "111", "label": "Main", "login_customer_id": "999"}, obj{"id": "222", "label": "Brand"}}, "default": "111"}},
		{name: "an account added in the blank row, made the default", edit: func(v url.Values) {
			v.Set("p0.a2.id", "333")
			v.Set("p0.a2.label", "New")
			v.Set("p0.default", "2")
		}, path: "providers.google_ads.default", want: "333"},
		{name: "the default changed", edit: func(v url.Values) { v.Set("p0.default", "1") }, path: "providers.google_ads.default", want: "222"},
		{name: "an account removed keeps the other's manager id", edit: func(v url.Values) { v.Set("p0.a1.remove", "1") },
			path: "providers.google_ads.accounts", want: []any{obj{"id": "111", "label": "Main", "login_customer_id": "999"}}},
		{name: "the default removed: the first left is the default", edit: func(v url.Values) { v.Set("p0.a0.remove", "1") },
			path: "providers.google_ads", want: obj{"accounts": []any{obj{"id": "222", "label": "Brand"}}, "default": "222"}},
		{name: "an account's person", edit: func(v url.Values) { v.Set("p0.a1.person", "p_ab") },
			path: "providers.google_ads.accounts", want: []any{obj{"id": "111", "label": "Main", "login_customer_id": "999"}, obj{"id": "222", "label": "Brand", "person": "p_ab"}}},
		{name: "a provider added", edit: func(v url.Values) {
			v.Set("p1.key", "hubspot")
			v.Set("p1.a0.id", "portal-1")
			v.Set("p1.a0.label", "")
			v.Set("p1.a0.person", "")
		}, path: "providers.hubspot", want: obj{"accounts": []any{obj{"id": "portal-1", "label": ""}}, "default": "portal-1"}},
		{name: "categories and actions held", edit: func(v url.Values) {
			v["categories"] = []string{"ads_mutate", "email_send"}
			v.Set("actions", "calendar_events.delete\n\n crm_contacts.delete ")
			v.Set("two_approvers", "1")
		}, path: "approval_policy", want: obj{"categories": []any{"ads_mutate", "email_send"}, "actions": []any{"calendar_events.delete", "crm_contacts.delete"},
			"destructive": true, "two_approvers_for_destructive": true, "no_self_approval": false,
			"routes": []any{obj{"id": "ads", "match": obj{"categories": []any{"ads_mutate"}}, "webhook": obj{"url": "https://hooks.example/ads"}}}}},
		{name: "models one per line", edit: func(v url.Values) { v.Set("models", "gpt-4o\nclaude-sonnet\n") },
			path: "allowed_models", want: []any{"gpt-4o", "claude-sonnet"}},
		{name: "rate limits and limits", edit: func(v url.Values) {
			v.Set("tenant_rps", "2.5")
			v.Set("token_burst", "4")
			v.Set("schedules", "10")
		}, path: "rate_limits", want: obj{"tenant": obj{"requests_per_second": 2.5}, "per_token": obj{"burst": float64(4)}}},
		{name: "a number that does not parse", edit: func(v url.Values) { v.Set("runs_queued", "ten") }, path: "name", want: "Acme", problems: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := shown(t)
			tc.edit(v)
			f := parseConfigForm(v, known)
			body, _ := configBody(base, f)
			// Through JSON, as the admin API reads it.
			b, _ := json.Marshal(body)
			var got obj
			json.Unmarshal(b, &got)
			if diff := cmp.Diff(keep(base), keep(got)); diff != "" {
				t.Errorf("toolsets or routes changed (-was +now):\n%s", diff)
			}
			if _, ok := got["id"]; ok {
				t.Error("the body carries the tenant's id")
			}
			if diff := cmp.Diff(tc.want, dig(got, tc.path)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.path, diff)
			}
			if len(f.Problems) != tc.problems {
				t.Errorf("problems %v, want %d", f.Problems, tc.problems)
			}
		})
	}
}

// TestConfigBodyPaths: the API's field paths name the inputs they are about,
// counted over the rows kept (a removed row shifts the next).
func TestConfigBodyPaths(t *testing.T) {
	var base obj
	json.Unmarshal([]byte(acmeTenant), &base)
	v := shown(t)
	v.Set("p0.a0.remove", "1")
	v.Set("p0.a2.id", "222")
	_, paths := configBody(base, parseConfigForm(v, known))
	for path, want := range map[string]string{
		"providers.google_ads.accounts[0].id": "cfg-p0-a1-id",
		"providers.google_ads.accounts[1].id": "cfg-p0-a2-id",
		"providers.google_ads.default":        "cfg-p0",
		"approval_policy.categories":          "cfg-categories",
		"limits.runs_queued":                  "cfg-runs-queued",
	} {
		if paths[path] != want {
			t.Errorf("%s names %q, want %q", path, paths[path], want)
		}
	}
}

// TestConfigBodyDefaultPolicy: a tenant without a policy of its own keeps
// none when the form's default is saved unchanged, and gets one otherwise.
func TestConfigBodyDefaultPolicy(t *testing.T) {
	base := obj{"id": "t", "name": "T", "status": "active", "providers": obj{}}
	f := newConfigForm(base, known)
	body, _ := configBody(base, f)
	if _, ok := body["approval_policy"]; ok {
		t.Errorf("unchanged default policy written: %v", body["approval_policy"])
	}
	f.NoSelfApproval = true
	if body, _ = configBody(base, f); body["approval_policy"] == nil {
		t.Error("a changed policy was not written")
	}
}

func TestBillingBody(t *testing.T) {
	base := obj{"tenant_id": "acme", "plan": "pro", "currency": "EUR", "limit": "soft", "billing_day": float64(1), "timezone": "UTC",
		"tool_call_price": obj{"default": 0.01}, "chat_token_price": obj{"default": obj{"input": 0.1, "output": 0.2}}}
	for _, tc := range []struct {
		name     string
		form     url.Values
		path     string
		want     any
		problems int
	}{
		{name: "prices by category, blanks left out", form: url.Values{"plan": {"pro"}, "currency": {"USD"}, "call_default": {"0.02"}, "cat.ads_mutate": {"0.5"}, "cat.crm_read": {""}},
			path: "tool_call_price", want: obj{"default": 0.02, "by_category": obj{"ads_mutate": 0.5}}},
		{name: "models by row, the blank row dropped", form: url.Values{"currency": {"EUR"}, "m0.model": {"gpt-4o"}, "m0.input": {"0.005"}, "m0.output": {"0.015"},
			"m1.model": {""}, "m1.input": {""}, "m1.output": {""}},
			path: "chat_token_price.by_model", want: obj{"gpt-4o": obj{"input": 0.005, "output": 0.015}}},
		{name: "a price without its model", form: url.Values{"m0.model": {""}, "m0.input": {"1"}, "m0.output": {""}}, path: "currency", want: "", problems: 1},
		{name: "a model twice", form: url.Values{"m0.model": {"a"}, "m0.input": {"1"}, "m0.output": {""}, "m1.model": {"a"}, "m1.input": {"2"}, "m1.output": {""}},
			path: "chat_token_price.by_model", want: obj{"a": obj{"input": float64(1), "output": float64(0)}}, problems: 1},
		{name: "quotas and the period", form: url.Values{"included_calls": {"1000"}, "billing_day": {"15"}, "timezone": {"Europe/Berlin"}, "limit": {"hard"}},
			path: "billing_day", want: float64(15)},
		{name: "a free category kept", form: url.Values{"cat.crm_read": {"0"}}, path: "tool_call_price.by_category", want: obj{"crm_read": float64(0)}},
		{name: "the tenant's production flag passed on", form: url.Values{}, path: "production", want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := parseBillingForm(tc.form)
			body, _ := billingBody(base, f, true)
			b, _ := json.Marshal(body)
			var got obj
			json.Unmarshal(b, &got)
			if _, ok := got["tenant_id"]; ok {
				t.Error("the body carries the tenant's id")
			}
			if diff := cmp.Diff(tc.want, dig(got, tc.path)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.path, diff)
			}
			if len(f.Problems) != tc.problems {
				t.Errorf("problems %v, want %d", f.Problems, tc.problems)
			}
		})
	}
}

// dig reads a dotted path of a decoded JSON object.
func dig(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		m, _ := v.(obj)
		v = m[k]
	}
	return v
}

// TestBillingFormRoundTrip: a plan shown in the form and sent back
// unchanged is the same plan, a free category included.
func TestBillingFormRoundTrip(t *testing.T) {
	const planJSON = `{"tenant_id": "acme", "plan": "pro", "currency": "EUR", "limit": "hard", "billing_day": 15, "timezone": "Europe/Berlin",
	 "included_calls": 1000, "included_tokens": 50000, "monthly_budget": 250.5, "production": false, "updated_at": "2026-01-01T00:00:00Z",
	 "tool_call_price": {"default": 0.01, "by_category": {"crm_read": 0, "ads_mutate": 0.5}},
	 "chat_token_price": {"default": {"input": 0.1, "output": 0.2}, "by_model": {"gpt-4o": {"input": 0.005, "output": 0.015}}}}`
	var plan obj
	json.Unmarshal([]byte(planJSON), &plan)
	f := newBillingForm(plan)
	v := url.Values{"exists": {"1"}, "plan": {f.Plan}, "currency": {f.Currency}, "limit": {f.Limit}, "billing_day": {f.BillingDay},
		"timezone": {f.Timezone}, "included_calls": {f.IncludedCalls}, "included_tokens": {f.IncludedTokens}, "monthly_budget": {f.MonthlyBudget},
		"call_default": {f.CallDefault}, "token_input": {f.TokenInput}, "token_output": {f.TokenOutput}}
	for _, c := range f.ByCategory {
		v.Set("cat."+c.Name, c.Price)
	}
	for _, m := range f.ByModel {
		v.Set(m.Name("model"), m.Model)
		v.Set(m.Name("input"), m.Input)
		v.Set(m.Name("output"), m.Output)
	}
	body, _ := billingBody(plan, parseBillingForm(v), false)
	b, _ := json.Marshal(body)
	var got obj
	json.Unmarshal(b, &got)
	delete(plan, "tenant_id")
	delete(plan, "updated_at")
	if diff := cmp.Diff(plan, got); diff != "" {
		t.Errorf("the plan sent back unchanged differs (-shown +sent):\n%s", diff)
	}
}
