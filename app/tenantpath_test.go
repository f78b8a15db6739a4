package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestTenantInPathAnswersAlike: on every route with a tenant in its path
// that a tenant token reaches, another tenant's id and an id no tenant has
// answer the same 404 TENANT_NOT_FOUND, word for word, so a token cannot
// learn which tenants exist.
func TestTenantInPathAnswersAlike(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	env.NewTenant("acme", nil)
	routes := []struct {
		name string
		do   func(tenant string) *apptest.Response
	}{
		{"tool call", func(tenant string) *apptest.Response {
			return env.Tool(env.DemoToken, tenant, "crm", "crm_contacts", listInput())
		}},
		{"approval status", func(tenant string) *apptest.Response {
			return env.Do("GET", env.GatewayURL+"/api/v1/"+tenant+"/approvals/apr_0123456789abcdef0123", nil, "Authorization", "Bearer "+env.DemoToken)
		}},
	}
	for _, rt := range routes {
		t.Run(rt.name, func(t *testing.T) {
			var bodies []string
			for _, tenant := range []string{"acme", "nobody"} {
				r := rt.do(tenant)
				if r.Status != 404 || r.ErrorCode(t) != "TENANT_NOT_FOUND" {
					t.Fatalf("%s: %d %s, want 404 TENANT_NOT_FOUND", tenant, r.Status, r.Body)
				}
				m := r.JSON(t)
				delete(m, "request_id")
				raw, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				b := strings.ReplaceAll(string(raw), tenant, "ID")
				bodies = append(bodies, b)
			}
			if bodies[0] != bodies[1] {
				t.Fatalf("another tenant's id and a missing one answer differently:\n%s\n%s", bodies[0], bodies[1])
			}
		})
	}
}
