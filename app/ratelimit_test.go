package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestTenantRateLimit: past its burst a tenant's requests get RATE_LIMITED
// with Retry-After and the RateLimit headers, on REST, MCP and chat alike.
func TestTenantRateLimit(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	tenant := env.Admin("GET", "/admin/tenants/demo", nil).JSON(t)["tenant"].(map[string]any)
	for _, k := range []string{"id", "created_at", "updated_at"} {
		delete(tenant, k)
	}
	// One request per 100 s with a burst of 2: the test cannot outrun the refill.
	tenant["rate_limits"] = map[string]any{"tenant": map[string]any{"requests_per_second": 0.01, "burst": 2}}
	if r := env.Admin("PUT", "/admin/tenants/demo", tenant); r.Status != 200 {
		t.Fatalf("put tenant: %d %s", r.Status, r.Body)
	}
	for i := range 2 {
		r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput())
		if r.Status != 200 || !strings.HasPrefix(r.Header.Get("RateLimit-Policy"), `"tenant";q=2;w=`) {
			t.Fatalf("call %d: %d %q", i, r.Status, r.Header.Get("RateLimit-Policy"))
		}
	}
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput())
	if r.Status != 429 || r.ErrorCode(t) != "RATE_LIMITED" || r.Header.Get("Retry-After") == "" || !strings.HasPrefix(r.Header.Get("RateLimit"), `"tenant";r=0`) {
		t.Fatalf("past the burst: %d %s %v", r.Status, r.Body, r.Header)
	}
	mcp := env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"Authorization", "Bearer "+env.DemoToken, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
	chat := env.Do("POST", env.GatewayURL+"/v1/chat/completions", `{"model":"sandbox-chat","messages":[{"role":"user","content":"hi"}]}`,
		"Authorization", "Bearer "+env.DemoToken)
	for name, r := range map[string]*apptest.Response{"mcp": mcp, "chat": chat} {
		if r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Errorf("%s past the limit: %d %s", name, r.Status, r.Body)
		}
	}
	// Another tenant is not affected.
	other := env.NewTenant("other-rl", nil)
	if r := env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"Authorization", "Bearer "+other, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25"); r.Status != 200 {
		t.Errorf("another tenant: %d", r.Status)
	}
	bad := map[string]any{"name": "x", "rate_limits": map[string]any{"per_token": map[string]any{"requests_per_second": -1}}}
	if r := env.Admin("PUT", "/admin/tenants/rl-bad", bad); r.Status != 400 || !strings.Contains(string(r.Body), "rate_limits.per_token.requests_per_second") {
		t.Errorf("invalid limit: %d %s", r.Status, r.Body)
	}
}
