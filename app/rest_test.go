package app_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

func listInput() map[string]any {
	return map[string]any{"action": "list", "limit": 2, "rationale": "test"}
}

func TestRESTErrorCodes(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	other := env.NewTenant("acme", nil)
	big := `{"tool":"crm_contacts","input":{"rationale":"` + strings.Repeat("x", 2<<20) + `"}}`
	tests := []struct {
		name    string
		do      func() *apptest.Response
		status  int
		code    string
		message string
	}{
		{"ok", func() *apptest.Response { return env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput()) }, 200, "", ""},
		{"missing rationale", func() *apptest.Response {
			return env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "list"})
		}, 400, "VALIDATION_ERROR", "rationale"},
		{"bad field type", func() *apptest.Response {
			return env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "list", "rationale": "r", "limit": "ten"})
		}, 400, "VALIDATION_ERROR", "limit"},
		{"unknown account", func() *apptest.Response {
			return env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "list", "rationale": "r", "account_id": "nope"})
		}, 400, "VALIDATION_ERROR", "account_id"},
		{"malformed body", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool": "crm_contacts", "input": {`, "Authorization", "Bearer "+env.DemoToken)
		}, 400, "VALIDATION_ERROR", "line 1"},
		{"unknown body field", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool":"crm_contacts","input":{},"extra":1}`, "Authorization", "Bearer "+env.DemoToken)
		}, 400, "VALIDATION_ERROR", "extra"},
		{"case-variant tool key", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool":"crm_contacts","TOOL":"crm_companies","input":{"action":"list","rationale":"r"}}`, "Authorization", "Bearer "+env.DemoToken)
		}, 400, "VALIDATION_ERROR", "differ only in case"},
		{"duplicate tool key", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool":"crm_contacts","tool":"crm_companies","input":{"action":"list","rationale":"r"}}`, "Authorization", "Bearer "+env.DemoToken)
		}, 400, "VALIDATION_ERROR", "duplicate field tool"},
		{"duplicate action in input", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool":"crm_contacts","input":{"action":"list","action":"create","rationale":"r"}}`, "Authorization", "Bearer "+env.DemoToken)
		}, 400, "VALIDATION_ERROR", "duplicate field input.action"},
		{"too large", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", big, "Authorization", "Bearer "+env.DemoToken)
		}, 413, "PAYLOAD_TOO_LARGE", ""},
		{"no credential", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{}`)
		}, 401, "UNAUTHORIZED", ""},
		{"x-api-key refused", func() *apptest.Response {
			return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{}`, "X-Api-Key", env.DemoToken)
		}, 401, "UNAUTHORIZED", "x-api-key"},
		{"wrong token", func() *apptest.Response {
			return env.Tool("not-a-real-token-at-all", "demo", "crm", "crm_contacts", listInput())
		}, 401, "UNAUTHORIZED", ""},
		// Another tenant's id and a missing tenant answer alike (404
		// TENANT_NOT_FOUND, as the gateway spec names it): the credential is
		// checked first, so a caller cannot probe which tenants exist.
		{"other tenant's token", func() *apptest.Response { return env.Tool(other, "demo", "crm", "crm_contacts", listInput()) }, 404, "TENANT_NOT_FOUND", `tenant \"demo\" not found`},
		{"unknown tenant", func() *apptest.Response { return env.Tool(env.DemoToken, "nobody", "crm", "crm_contacts", listInput()) }, 404, "TENANT_NOT_FOUND", `tenant \"nobody\" not found`},
		{"tool not in domain", func() *apptest.Response {
			return env.Tool(env.DemoToken, "demo", "search", "crm_contacts", listInput())
		}, 404, "TOOL_NOT_FOUND", ""},
		{"unknown tool names domain tools", func() *apptest.Response { return env.Tool(env.DemoToken, "demo", "crm", "crm_nope", listInput()) }, 404, "TOOL_NOT_FOUND", "crm_contacts"},
		{"upstream rejects", func() *apptest.Response {
			return env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "get", "id": "999999999", "rationale": "r"})
		}, 502, "UPSTREAM_ERROR", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.do()
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tt.status, r.Body)
			}
			m := r.JSON(t)
			if m["request_id"] == nil || m["request_id"] == "" {
				t.Fatalf("no request_id: %s", r.Body)
			}
			if tt.code == "" {
				if m["ok"] != true {
					t.Fatalf("not ok: %s", r.Body)
				}
				return
			}
			if got := r.ErrorCode(t); got != tt.code {
				t.Fatalf("code %q, want %q: %s", got, tt.code, r.Body)
			}
			if tt.message != "" && !strings.Contains(string(r.Body), tt.message) {
				t.Fatalf("body does not mention %q: %s", tt.message, r.Body)
			}
			if tt.status == 401 && r.Header.Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
		})
	}
}

// TestForeignTenantRecordedUnderCredential: a call naming another (or a
// made-up) tenant is audited and ledgered under the caller's own tenant, with
// the requested id as a detail, so no token can write another tenant's records.
func TestForeignTenantRecordedUnderCredential(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	env.NewTenant("acme", nil)
	for _, target := range []string{"acme", "made-up"} {
		if r := env.Tool(env.DemoToken, target, "crm", "crm_contacts", listInput()); r.Status != 404 {
			t.Fatalf("%s: status %d: %s", target, r.Status, r.Body)
		}
	}
	for _, target := range []string{"acme", "made-up"} {
		r := env.Admin("GET", "/admin/audit?source=rest&tenant="+target, nil)
		if entries, _ := r.JSON(t)["entries"].([]any); len(entries) != 0 {
			t.Fatalf("audit under %s holds the demo token's calls: %s", target, r.Body)
		}
		r = env.Admin("GET", "/admin/errors?tenant="+target, nil)
		if strings.Contains(string(r.Body), `"led_`) {
			t.Fatalf("ledger under %s holds the demo token's calls: %s", target, r.Body)
		}
	}
	r := env.Admin("GET", "/admin/audit?tenant=demo&limit=5", nil)
	if !strings.Contains(string(r.Body), `requested tenant \"made-up\"`) || !strings.Contains(string(r.Body), `requested tenant \"acme\"`) {
		t.Fatalf("demo's audit does not name the requested tenants: %s", r.Body)
	}
}

func TestUpstreamErrorDetailHasNoSecret(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", map[string]any{"action": "get", "id": "999999999", "rationale": "r"})
	m := r.JSON(t)
	detail, _ := m["error_detail"].(map[string]any)
	if detail["provider"] != "hubspot" || detail["status"] != float64(404) {
		t.Fatalf("error_detail = %v", detail)
	}
	if strings.Contains(string(r.Body), "sandbox-hubspot-token") || strings.Contains(string(r.Body), env.DemoToken) {
		t.Fatalf("a secret leaked into the error: %s", r.Body)
	}
}

func TestUpstreamTimeoutAndRateLimit(t *testing.T) {
	t.Parallel()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/companies") {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"status":"error","message":"You have reached your secondly limit.","category":"RATE_LIMITS"}`))
			return
		}
		<-r.Context().Done()
	}))
	defer hang.Close()
	env := apptest.Start(t, func(c *config.Config) {
		c.Upstreams["hubspot"] = hang.URL
		c.UpstreamTimeout = 50 * time.Millisecond
	})
	r := env.Tool(env.DemoToken, "demo", "crm", "crm_contacts", listInput())
	if r.Status != 504 || r.ErrorCode(t) != "UPSTREAM_TIMEOUT" {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
	r = env.Tool(env.DemoToken, "demo", "crm", "crm_companies", listInput())
	if r.Status != 429 || r.ErrorCode(t) != "RATE_LIMITED" || r.Header.Get("Retry-After") != "120" {
		t.Fatalf("got %d %v %s", r.Status, r.Header, r.Body)
	}
}
