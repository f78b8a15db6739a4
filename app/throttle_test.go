package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestCredentialGuessingThrottled: wrong admin keys and wrong bearer tokens
// from one client address end in 429 with Retry-After, while a correct
// credential from another address keeps working. The test's requests come
// through a trusted "proxy" (loopback) that names the client.
func TestCredentialGuessingThrottled(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, func(c *config.Config) { c.TrustedProxies = []string{"127.0.0.1", "::1"} })
	const attacker, user = "203.0.113.9", "198.51.100.1"
	for _, tc := range []struct {
		name  string
		wrong func() *apptest.Response
		right func() *apptest.Response
	}{
		{"admin key",
			func() *apptest.Response {
				return env.Do("GET", env.GatewayURL+"/admin/tenants", nil, "X-Admin-Key", "wrong-key", "X-Forwarded-For", attacker)
			},
			func() *apptest.Response {
				return env.Do("GET", env.GatewayURL+"/admin/tenants", nil, "X-Admin-Key", apptest.AdminKey, "X-Forwarded-For", user)
			}},
		{"bearer token",
			func() *apptest.Response {
				return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool":"crm_contacts","input":{"action":"list","rationale":"r"}}`,
					"Authorization", "Bearer wrong-token-0123456789", "X-Forwarded-For", attacker)
			},
			func() *apptest.Response {
				return env.Do("POST", env.GatewayURL+"/api/v1/demo/crm", `{"tool":"crm_contacts","input":{"action":"list","rationale":"r"}}`,
					"Authorization", "Bearer "+env.DemoToken, "X-Forwarded-For", user)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var last *apptest.Response
			unauthorized := 0
			for range 30 {
				last = tc.wrong()
				if last.Status == 401 {
					unauthorized++
				}
			}
			if unauthorized == 0 || unauthorized >= 30 {
				t.Fatalf("%d of 30 wrong attempts got 401; want some, then 429", unauthorized)
			}
			if last.Status != 429 || last.ErrorCode(t) != "RATE_LIMITED" || last.Header.Get("Retry-After") == "" {
				t.Fatalf("after 30 wrong attempts: %d %s (Retry-After %q)", last.Status, last.Body, last.Header.Get("Retry-After"))
			}
			if r := tc.right(); r.Status != 200 {
				t.Fatalf("correct credential from another address: %d %s", r.Status, r.Body)
			}
		})
	}
	m := env.Do("GET", env.GatewayURL+"/metrics", nil)
	for _, want := range []string{`gtmgate_auth_throttled_total{guard="admin"}`, `gtmgate_auth_throttled_total{guard="bearer"}`, `gtmgate_auth_failures_total{guard="admin"}`} {
		if !strings.Contains(string(m.Body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
