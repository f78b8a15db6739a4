package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

func TestBillingPlanValidation(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for _, tc := range []struct {
		name  string
		body  string
		field string
	}{
		{"no currency", `{}`, "currency"},
		{"bad currency", `{"currency":"euro"}`, "currency"},
		{"limit", `{"currency":"EUR","limit":"strict"}`, "limit"},
		{"billing day", `{"currency":"EUR","billing_day":31}`, "billing_day"},
		{"time zone", `{"currency":"EUR","timezone":"Berlin"}`, "timezone"},
		{"included calls", `{"currency":"EUR","included_calls":-1}`, "included_calls"},
		{"budget", `{"currency":"EUR","monthly_budget":-5}`, "monthly_budget"},
		{"category", `{"currency":"EUR","tool_call_price":{"by_category":{"nope":1}}}`, "tool_call_price.by_category"},
		{"token price", `{"currency":"EUR","chat_token_price":{"default":{"input":-1}}}`, "chat_token_price.default.input"},
		{"unknown field", `{"currency":"EUR","budget":5}`, "budget"},
		{"wrong type", `{"currency":"EUR","included_calls":"many"}`, "included_calls"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do("PUT", env.GatewayURL+"/admin/billing/demo", tc.body, "X-Admin-Key", apptest.AdminKey)
			if r.Status != 400 || r.ErrorCode(t) != "VALIDATION_ERROR" || !strings.Contains(string(r.Body), tc.field) {
				t.Errorf("%d %s, want a VALIDATION_ERROR naming %s", r.Status, r.Body, tc.field)
			}
		})
	}
	if r := env.Admin("PUT", "/admin/billing/nobody", map[string]any{"currency": "EUR"}); r.Status != 404 {
		t.Errorf("unknown tenant: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/billing/demo", nil); r.Status != 404 {
		t.Errorf("no plan yet: %d %s", r.Status, r.Body)
	}
	plan := map[string]any{"plan": "growth", "currency": "EUR", "production": true, "billing_day": 1,
		"tool_call_price": map[string]any{"default": 0.01}}
	if r := env.Admin("PUT", "/admin/billing/demo", plan); r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("PUT", "/admin/billing/demo", plan); r.Status != 200 {
		t.Fatalf("replace: %d %s", r.Status, r.Body)
	}
	got := env.Admin("GET", "/admin/billing/demo", nil).JSON(t)
	if got["plan"] != "growth" || got["limit"] != "soft" || got["timezone"] != "UTC" || got["production"] != true {
		t.Errorf("stored plan: %v", got)
	}
	tenant := env.Admin("GET", "/admin/tenants/demo", nil).JSON(t)["tenant"].(map[string]any)
	if tenant["production"] != true {
		t.Errorf("the production flag did not reach the tenant: %v", tenant)
	}
}

// TestHardQuotaOnRESTMCPAndChat: a hard quota refuses tool calls over REST
// and MCP, and chat past its token quota, with QUOTA_EXCEEDED naming it;
// usage shows the cost.
func TestHardQuotaOnRESTMCPAndChat(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	if r := env.Admin("PUT", "/admin/billing/demo", map[string]any{"currency": "EUR", "limit": "hard", "included_calls": 2,
		"included_tokens": 1, "tool_call_price": map[string]any{"default": 0.25}}); r.Status != 201 {
		t.Fatalf("plan: %d %s", r.Status, r.Body)
	}
	for i := range 2 {
		if r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput()); r.Status != 200 {
			t.Fatalf("call %d within the quota: %d %s", i, r.Status, r.Body)
		}
	}
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput())
	if r.Status != 429 || r.ErrorCode(t) != "QUOTA_EXCEEDED" || !strings.Contains(string(r.Body), "included_calls") || r.Header.Get("Retry-After") == "" {
		t.Fatalf("REST past the quota: %d %s (Retry-After %q)", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	mcp := env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_contacts",
		"arguments":{"action":"list","rationale":"quota test"}}}`,
		"Authorization", "Bearer "+env.DemoToken, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
	if !strings.Contains(string(mcp.Body), `"isError":true`) || !strings.Contains(string(mcp.Body), "QUOTA_EXCEEDED") {
		t.Fatalf("MCP past the quota: %s", mcp.Body)
	}
	chat := func() *apptest.Response {
		return env.Do("POST", env.GatewayURL+"/v1/chat/completions", `{"model":"sandbox-chat","messages":[{"role":"user","content":"hi"}]}`,
			"Authorization", "Bearer "+env.DemoToken)
	}
	if r := chat(); r.Status != 200 {
		t.Fatalf("first chat (no tokens used yet): %d %s", r.Status, r.Body)
	}
	if r := chat(); r.Status != 429 || r.ErrorCode(t) != "QUOTA_EXCEEDED" || !strings.Contains(string(r.Body), "included_tokens") {
		t.Fatalf("chat past the token quota: %d %s", r.Status, r.Body)
	}
	var usage struct {
		Billing struct {
			Currency string
			Totals   struct {
				Calls int64
				Cost  float64
			}
			Quotas []struct {
				Name    string
				Reached bool
			}
		}
	}
	if err := json.Unmarshal(env.Admin("GET", "/admin/usage/demo", nil).Body, &usage); err != nil {
		t.Fatal(err)
	}
	if b := usage.Billing; b.Currency != "EUR" || b.Totals.Calls != 2 || b.Totals.Cost != 0.5 || len(b.Quotas) != 2 || !b.Quotas[0].Reached {
		t.Errorf("usage billing: %+v", b)
	}
	csv := env.Do("GET", env.GatewayURL+"/admin/usage/demo", nil, "X-Admin-Key", apptest.AdminKey, "Accept", "text/csv")
	if lines := strings.Split(strings.TrimSpace(string(csv.Body)), "\n"); csv.Status != 200 || len(lines) < 3 ||
		!strings.HasPrefix(lines[0], "tenant_id,period,day,tool") || !strings.Contains(string(csv.Body), "crm_contacts,list,crm_read,2,0,0,0,0.500000,EUR") {
		t.Errorf("CSV export: %d %s", csv.Status, csv.Body)
	}
	// Raising the quota lets calls through at once.
	if r := env.Admin("PUT", "/admin/billing/demo", map[string]any{"currency": "EUR", "limit": "hard", "included_calls": 10}); r.Status != 200 {
		t.Fatalf("raise: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput()); r.Status != 200 {
		t.Errorf("after raising the quota: %d %s", r.Status, r.Body)
	}
}

func TestSoftQuotaWarns(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	if r := env.Admin("PUT", "/admin/billing/demo", map[string]any{"currency": "USD", "included_calls": 1}); r.Status != 201 {
		t.Fatalf("plan: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput()); r.Status != 200 || r.Header.Get("Gtmgate-Quota-Warning") != "" {
		t.Fatalf("within the quota: %d %q", r.Status, r.Header.Get("Gtmgate-Quota-Warning"))
	}
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput())
	if w := r.Header.Get("Gtmgate-Quota-Warning"); r.Status != 200 || !strings.HasPrefix(w, "included_calls reached (1 of 1)") ||
		!strings.Contains(string(r.Body), `"quota_warning"`) {
		t.Fatalf("past a soft quota: %d %q %s", r.Status, w, r.Body)
	}
}
