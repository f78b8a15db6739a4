package admin_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin/admintest"
)

// TestUsageAndErrorsOfOneAgent: ?key= narrows the usage summary to one
// agent's calls, counted from its raw events and priced as its share of the
// tenant's bill, and the error ledger to its failures.
func TestUsageAndErrorsOfOneAgent(t *testing.T) {
	t.Parallel()
	e := startToolsets(t)
	ctx := t.Context()
	at := time.Now().UTC().Add(-time.Minute)
	ev := func(key, tool, action string, ok bool, tokens int64) gtmgate.UsageEvent {
		return gtmgate.UsageEvent{Time: at, TenantID: "acme", Key: key, Source: gtmgate.SourceMCP, Tool: tool, Action: action, OK: ok,
			DurationMS: 5, UpstreamMS: 4, PromptTokens: tokens}
	}
	if err := e.store.WriteCalls(ctx, nil, []gtmgate.UsageEvent{
		ev("tok_1", "crm_deals", "list", true, 0),
		ev("tok_1", "crm_deals", "list", false, 0),
		ev("tok_1", gtmgate.ChatUsageTool, "gpt-4o", true, 120),
		ev("tok_2", "crm_deals", "list", true, 0),
		ev("", "crm_notes", "list", true, 0),
	}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []*gtmgate.LedgerEntry{
		{ID: "led_1", Kind: gtmgate.LedgerFailure, Time: at, TenantID: "acme", Key: "tok_1", Source: gtmgate.SourceMCP, Tool: "crm_deals",
			Action: "list", ErrorCode: gtmgate.EUpstream, Message: "hubspot said no", RequestID: "req-1"},
		{ID: "led_2", Kind: gtmgate.LedgerFailure, Time: at, TenantID: "acme", Key: "tok_2", Source: gtmgate.SourceREST, Tool: "crm_deals",
			Action: "list", ErrorCode: gtmgate.EUpstream, Message: "hubspot said no", RequestID: "req-2"},
	} {
		if err := e.store.AddLedgerEntry(ctx, l); err != nil {
			t.Fatal(err)
		}
	}

	if a := e.do("PUT", "/admin/billing/acme", `{"currency": "EUR", "tool_call_price": {"default": 0.5}}`); a.Status >= 300 {
		t.Fatalf("billing plan: %d %s", a.Status, a.Body)
	}
	whole := e.do("GET", "/admin/usage/acme", "").Object(t)
	if calls := whole["totals"].(map[string]any)["calls"]; calls != 5.0 || whole["billing"] == nil || whole["key"] != nil {
		t.Fatalf("the tenant's usage: %v calls, billing %v, key %v; want 5 calls with billing and no key", calls, whole["billing"], whole["key"])
	}
	one := e.do("GET", "/admin/usage/acme?key=tok_1", "")
	if one.Status != 200 {
		t.Fatalf("one agent's usage: %d %s", one.Status, one.Body)
	}
	o := one.Object(t)
	totals := o["totals"].(map[string]any)
	if o["key"] != "tok_1" || totals["calls"] != 3.0 || totals["errors"] != 1.0 {
		t.Errorf("tok_1's usage: key %v, totals %v; want 3 calls, 1 error", o["key"], totals)
	}
	// Its share of the bill, at the tenant's prices, without the tenant's quotas.
	share, _ := o["billing"].(map[string]any)
	tenantBill := whole["billing"].(map[string]any)["totals"].(map[string]any)
	if share == nil || share["quotas"] != nil || share["currency"] != "EUR" {
		t.Fatalf("tok_1's billing: %v, want its share in EUR without quotas", o["billing"])
	}
	if st := share["totals"].(map[string]any); st["cost"].(float64) <= 0 || st["cost"].(float64) >= tenantBill["cost"].(float64) {
		t.Errorf("tok_1's cost %v, the tenant's %v: want a part of it", st["cost"], tenantBill["cost"])
	}
	if chat := o["chat_by_model"].([]any); len(chat) != 1 || chat[0].(map[string]any)["prompt_tokens"] != 120.0 {
		t.Errorf("tok_1's chat usage: %v, want 120 prompt tokens of gpt-4o", chat)
	}
	if tools := o["by_tool"].([]any); len(tools) != 2 || tools[1].(map[string]any)["tool"] != "crm_deals" || tools[1].(map[string]any)["calls"] != 2.0 {
		t.Errorf("tok_1's usage by tool: %v, want chat 1 and crm_deals 2", tools)
	}
	if none := e.do("GET", "/admin/usage/acme?key=tok_nobody", "").Object(t); none["totals"].(map[string]any)["calls"] != 0.0 {
		t.Errorf("an agent without calls: %v", none["totals"])
	}

	req, _ := http.NewRequest("GET", e.url+"/admin/usage/acme?key=tok_1", nil)
	req.Header.Set("X-Admin-Key", admintest.Key)
	req.Header.Set("Accept", "text/csv")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("the CSV export of one agent: %d, want 400: the export is the tenant's billing", resp.StatusCode)
	}

	errs := e.do("GET", "/admin/errors?tenant=acme&key=tok_1", "")
	entries, _ := errs.Object(t)["entries"].([]any)
	if errs.Status != 200 || len(entries) != 1 || entries[0].(map[string]any)["id"] != "led_1" || !strings.Contains(errs.Body, `"key":"tok_1"`) {
		t.Errorf("tok_1's failures: %d %s, want led_1 with its key", errs.Status, errs.Body)
	}
	if all := e.do("GET", "/admin/errors?tenant=acme", "").Object(t)["entries"].([]any); len(all) != 2 {
		t.Errorf("the tenant's failures: %d, want 2", len(all))
	}
}
