package app_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

func TestAdminAuth(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for _, h := range [][]string{nil, {"X-Admin-Key", "wrong"}, {"Authorization", "Bearer " + apptest.AdminKey}} {
		r := env.Do("GET", env.GatewayURL+"/admin/tenants/demo", nil, h...)
		if r.Status != 401 || r.ErrorCode(t) != "UNAUTHORIZED" {
			t.Fatalf("headers %v: got %d %s", h, r.Status, r.Body)
		}
	}
	// The two routes whose spec examples send the admin key as a bearer token accept it.
	if r := env.Do("GET", env.GatewayURL+"/admin/feedback", nil, "Authorization", "Bearer "+apptest.AdminKey); r.Status != 200 {
		t.Fatalf("feedback with bearer admin key: %d %s", r.Status, r.Body)
	}
}

func TestAdminTenantValidation(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	tests := []struct {
		name, body, contains string
		status               int
	}{
		{"created", `{"name":"Acme","status":"active","providers":{"hubspot":{"accounts":[{"id":"p1","label":"Main"}],"default":"p1"}}}`, "", 201},
		{"unknown field", `{"name":"Acme","colour":"red"}`, "unknown field", 400},
		{"default not an account", `{"name":"Acme","providers":{"hubspot":{"accounts":[{"id":"p1","label":"Main"}],"default":"p2"}}}`, "default", 400},
		{"empty account id", `{"name":"Acme","providers":{"hubspot":{"accounts":[{"id":"","label":"Main"}],"default":""}}}`, "accounts[0].id", 400},
		{"unknown provider", `{"name":"Acme","providers":{"myspace":{"accounts":[],"default":""}}}`, "unknown provider", 400},
		{"bad status", `{"name":"Acme","status":"zombie"}`, "status", 400},
		{"no name", `{"status":"active"}`, "name is required", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := env.Admin("PUT", "/admin/tenants/acme-"+strings.ReplaceAll(tt.name, " ", "-"), tt.body)
			if r.Status != tt.status || !strings.Contains(string(r.Body), tt.contains) {
				t.Fatalf("got %d %s", r.Status, r.Body)
			}
			if tt.status == 400 && r.ErrorCode(t) != "VALIDATION_ERROR" {
				t.Fatalf("code %s", r.ErrorCode(t))
			}
		})
	}
	if r := env.Admin("GET", "/admin/tenants/nobody", nil); r.Status != 404 || r.ErrorCode(t) != "TENANT_NOT_FOUND" {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
}

func TestAdminTokens(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	env.NewTenant("acme", nil)
	if r := env.Admin("POST", "/admin/auth", map[string]any{"tenant_id": "acme", "token": "short"}); r.Status != 400 {
		t.Fatalf("short token: %d %s", r.Status, r.Body)
	}
	for _, weak := range []string{"aaaaaaaaaaaaaaaaaaaaaaaa", "0101010101010101010101", "password12345678"} {
		if r := env.Admin("POST", "/admin/auth", map[string]any{"tenant_id": "acme", "token": weak}); r.Status != 400 || !strings.Contains(string(r.Body), "too easy to guess") {
			t.Fatalf("weak token %q: %d %s", weak, r.Status, r.Body)
		}
	}
	if r := env.Admin("POST", "/admin/auth", map[string]any{"tenant_id": "nobody", "token": "0123456789abcdef0123"}); r.ErrorCode(t) != "TENANT_NOT_FOUND" {
		t.Fatalf("unknown tenant: %d %s", r.Status, r.Body)
	}
	second := "second-token-for-acme-0001"
	r := env.Admin("POST", "/admin/auth", map[string]any{"tenant_id": "acme", "token": second, "label": "ci"})
	if r.Status != 201 || strings.Contains(string(r.Body), second) {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	id := r.JSON(t)["id"].(string)
	list := env.Admin("GET", "/admin/auth/acme", nil)
	if strings.Contains(string(list.Body), second) || !strings.Contains(string(list.Body), `"prefix":"second"`) {
		t.Fatalf("list must show the prefix only: %s", list.Body)
	}
	if r := env.Do("GET", env.GatewayURL+"/api/v1/acme/approvals/x", nil, "Authorization", "Bearer "+second); r.Status != 404 {
		t.Fatalf("token should work before revocation: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("DELETE", "/admin/auth/demo/"+id, nil); r.Status != 404 {
		t.Fatalf("revoking through another tenant must fail: %d", r.Status)
	}
	if r := env.Admin("DELETE", "/admin/auth/acme/"+id, nil); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := env.Do("GET", env.GatewayURL+"/api/v1/acme/approvals/x", nil, "Authorization", "Bearer "+second); r.Status != 401 {
		t.Fatalf("revoked token still works: %d", r.Status)
	}
	// Provider tokens need an account from the tenant's configuration.
	if r := env.Admin("PUT", "/admin/tokens/acme/hubspot/p9", map[string]any{"access_token": "x", "expires_at": 0, "token_type": "Bearer"}); r.Status != 400 {
		t.Fatalf("unknown account: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("PUT", "/admin/tokens/demo/hubspot/portal-24681357", map[string]any{"access_token": "sandbox-hubspot-token", "expires_at": 4102444800, "token_type": "Bearer"}); r.Status != 200 || strings.Contains(string(r.Body), "sandbox-hubspot-token") {
		t.Fatalf("store token: %d %s", r.Status, r.Body)
	}
}

func TestAuditLogAndStats(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for range 3 {
		env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput())
	}
	env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "list"})
	r := env.Admin("GET", "/admin/audit?tenant=demo&source=rest&limit=2", nil)
	m := r.JSON(t)
	entries := m["entries"].([]any)
	if len(entries) != 2 || m["next_cursor"] == nil {
		t.Fatalf("page 1: %s", r.Body)
	}
	first := entries[0].(map[string]any)
	if first["action"] != "crm_contacts.list" || first["outcome"] != "error" || first["key"] == "" || first["request_id"] == "" {
		t.Fatalf("newest entry: %v", first)
	}
	if strings.Contains(string(r.Body), env.DemoToken) {
		t.Fatal("audit holds the token")
	}
	r2 := env.Admin("GET", "/admin/audit?tenant=demo&source=rest&limit=2&cursor="+m["next_cursor"].(string), nil)
	if n := len(r2.JSON(t)["entries"].([]any)); n != 2 {
		t.Fatalf("page 2 has %d entries: %s", n, r2.Body)
	}
	// Following forward: oldest first, two at a time, then nothing new with the same cursor.
	var followed []string
	cursor := ""
	for range 3 {
		f := env.Admin("GET", "/admin/audit?tenant=demo&source=rest&limit=2&after="+url.QueryEscape(cursor), nil).JSON(t)
		for _, e := range f["entries"].([]any) {
			followed = append(followed, e.(map[string]any)["request_id"].(string))
		}
		cursor = f["next_cursor"].(string)
	}
	if len(followed) != 4 || followed[3] != first["request_id"] {
		t.Fatalf("followed %v, want the 4 calls ending with the newest %v", followed, first["request_id"])
	}
	for q, want := range map[string]int{"after=bogus": 400, "after=1.2&cursor=3": 400} {
		if r := env.Admin("GET", "/admin/audit?"+q, nil); r.Status != want {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	since := url.QueryEscape("2000-01-01T00:00:00Z")
	if r := env.Admin("GET", "/admin/audit?since="+since+"&action=crm_contacts.list", nil); len(r.JSON(t)["entries"].([]any)) != 4 {
		t.Fatalf("action filter: %s", r.Body)
	}
	if r := env.Admin("GET", "/admin/audit?since=yesterday", nil); r.Status != 400 {
		t.Fatalf("bad since: %d", r.Status)
	}
	if r := env.Admin("GET", "/admin/audit?limit=5000", nil); r.Status != 400 {
		t.Fatalf("limit over max: %d", r.Status)
	}
	stats := env.Admin("GET", "/admin/audit/stats", nil).JSON(t)
	day := stats["windows"].(map[string]any)["24h"].(map[string]any)
	if day["total"].(float64) < 4 || day["errors"].(float64) < 1 {
		t.Fatalf("stats: %v", day)
	}
	// Admin calls are audited too.
	if r := env.Admin("GET", "/admin/audit?source=admin&limit=1000", nil); len(r.JSON(t)["entries"].([]any)) < 5 {
		t.Fatalf("admin calls not audited: %s", r.Body)
	}
	usage := env.Admin("GET", "/admin/usage/demo", nil).JSON(t)
	if usage["totals"].(map[string]any)["calls"].(float64) != 3 {
		t.Fatalf("usage: %v", usage["totals"])
	}
}

func TestApprovals(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	// Gate CRM writes for the demo tenant.
	tenant := env.Admin("GET", "/admin/tenants/demo", nil).JSON(t)["tenant"].(map[string]any)
	body := map[string]any{"name": tenant["name"], "status": "active", "providers": tenant["providers"],
		"approval_policy": map[string]any{"categories": []string{"crm_write"}}}
	if r := env.Admin("PUT", "/admin/tenants/demo", body); r.Status != 200 {
		t.Fatalf("policy: %d %s", r.Status, r.Body)
	}
	create := map[string]any{"action": "create", "rationale": "add a lead", "properties": map[string]any{"email": "gate@example.com", "firstname": "Gate"}}
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", create)
	if r.Status != 202 || r.ErrorCode(t) != "APPROVAL_REQUIRED" {
		t.Fatalf("gated call: %d %s", r.Status, r.Body)
	}
	id := r.JSON(t)["approval_id"].(string)
	status := env.Do("GET", env.GatewayURL+"/api/v1/demo/approvals/"+id, nil, "Authorization", "Bearer "+env.DemoToken).JSON(t)
	if status["status"] != "pending" {
		t.Fatalf("status: %v", status)
	}
	other := env.NewTenant("acme", nil)
	if r := env.Do("GET", env.GatewayURL+"/api/v1/demo/approvals/"+id, nil, "Authorization", "Bearer "+other); r.Status != 404 || r.ErrorCode(t) != "TENANT_NOT_FOUND" {
		t.Fatalf("other tenant sees the gate: %d %s", r.Status, r.Body)
	}
	if r := env.Tool(other, "acme", "agents", "approval_status", map[string]any{"approval_id": id, "rationale": "peek"}); r.ErrorCode(t) != "NOT_FOUND" {
		t.Fatalf("other tenant's approval_status: %s", r.Body)
	}
	list := env.Admin("GET", "/admin/approvals?tenant=demo", nil).JSON(t)["approvals"].([]any)
	if len(list) != 1 {
		t.Fatalf("pending list: %v", list)
	}
	if r := env.Admin("POST", "/admin/approvals/"+id+"/reject", map[string]any{}); r.Status != 400 {
		t.Fatalf("reject without reason: %d %s", r.Status, r.Body)
	}
	// Two approvals at once: exactly one executes.
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = env.Admin("POST", "/admin/approvals/"+id+"/approve", map[string]any{"decided_by": fmt.Sprint("op", i)}).Status
		}()
	}
	wg.Wait()
	if !(statuses[0] == 200 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 200) {
		t.Fatalf("concurrent approvals: %v", statuses)
	}
	done := env.Tool(env.DemoToken, "demo", "agents", "approval_status", map[string]any{"approval_id": id, "rationale": "check"}).JSON(t)
	result := done["result"].(map[string]any)
	if result["status"] != "executed" || !strings.Contains(fmt.Sprint(result["result"]), "gate@example.com") {
		t.Fatalf("after approval: %v", result)
	}
	search := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "search", "query": "gate@example.com", "rationale": "count"})
	if n := strings.Count(string(search.Body), `"email":"gate@example.com"`); n != 1 {
		t.Fatalf("contact created %d times: %s", n, search.Body)
	}
	if r := env.Admin("POST", "/admin/approvals/"+id+"/reject", map[string]any{"reason": "late"}); r.Status != 409 || !strings.Contains(string(r.Body), "executed") {
		t.Fatalf("reject after execution: %d %s", r.Status, r.Body)
	}
	audit := env.Admin("GET", "/admin/audit?source=admin&action=admin.approvals.approve.post", nil)
	if !strings.Contains(string(audit.Body), `by admin key (admin-key via x-admin-key)`) {
		t.Fatalf("decision not audited with who decided: %s", audit.Body)
	}
}

func TestReplayAndFeedback(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "get", "id": "999999999", "rationale": "r"})
	entries := env.Admin("GET", "/admin/errors?tenant=demo", nil).JSON(t)["entries"].([]any)
	if len(entries) != 1 {
		t.Fatalf("ledger: %v", entries)
	}
	e := entries[0].(map[string]any)
	if e["error_code"] != "UPSTREAM_ERROR" || e["tool"] != "crm_contacts" {
		t.Fatalf("entry: %v", e)
	}
	r := env.Admin("POST", "/admin/replay", map[string]any{"entry_id": e["id"]})
	if r.Status != 200 || r.JSON(t)["ok"] != false {
		t.Fatalf("replay: %d %s", r.Status, r.Body)
	}
	linked := env.Admin("GET", "/admin/errors/"+e["id"].(string), nil).JSON(t)
	if len(linked["replays"].([]any)) != 1 {
		t.Fatalf("replay not linked: %v", linked)
	}
	if r := env.Admin("POST", "/admin/replay", map[string]any{"entry_id": "led_nope"}); r.Status != 404 {
		t.Fatalf("unknown entry: %d", r.Status)
	}

	fb := map[string]any{"rationale": "blocked", "attempted_action": "list deals", "expected_outcome": "deals", "actual_outcome": "empty",
		"tool_called": "crm_deals", "error_seen": "none", "severity": "med"}
	if r := env.Tool(env.DemoToken, "demo", "agents", "submit_feedback", fb); r.Status != 200 {
		t.Fatalf("feedback: %d %s", r.Status, r.Body)
	}
	fb["severity"] = "urgent"
	if r := env.Tool(env.DemoToken, "demo", "agents", "submit_feedback", fb); r.Status != 400 {
		t.Fatalf("bad severity: %d", r.Status)
	}
	inbox := env.Admin("GET", "/admin/feedback?tenant=demo&severity=med", nil).JSON(t)["feedback"].([]any)
	if len(inbox) != 1 {
		t.Fatalf("inbox: %v", inbox)
	}
	id := inbox[0].(map[string]any)["id"].(string)
	if r := env.Admin("POST", "/admin/feedback/"+id+"/resolve", map[string]any{"resolved_by": "ops"}); r.Status != 200 {
		t.Fatalf("resolve: %d %s", r.Status, r.Body)
	}
	if open := env.Admin("GET", "/admin/feedback?resolved=false", nil).JSON(t)["feedback"].([]any); len(open) != 0 {
		t.Fatalf("still open: %v", open)
	}
}
