package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestOAuthApps: the admin API registers a provider's OAuth app, shows the
// redirect URI on the gateway's public URL, and never shows the secret.
func TestOAuthApps(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	redirect := env.Config.GatewayURL + "/connect/callback"
	// --demo registers each sandbox's app gateway-wide; start without them.
	for _, p := range []string{"google", "hubspot", "meta", "linkedin"} {
		if r := env.Admin("DELETE", "/admin/oauth-apps/"+p, nil); r.Status != 200 {
			t.Fatalf("delete the demo's %s app: %d %s", p, r.Status, r.Body)
		}
	}
	r := env.Admin("PUT", "/admin/oauth-apps/hubspot", map[string]any{"client_id": "hub-client", "client_secret": "hub-secret-value"})
	if r.Status != 201 || strings.Contains(string(r.Body), "hub-secret-value") || !strings.Contains(string(r.Body), `"redirect_uri":"`+redirect+`"`) {
		t.Fatalf("put: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("PUT", "/admin/tenants/demo/oauth-apps/hubspot", map[string]any{"client_id": "demo-client", "client_secret": "demo-secret-value"}); r.Status != 201 {
		t.Fatalf("put tenant app: %d %s", r.Status, r.Body)
	}
	list := env.Admin("GET", "/admin/oauth-apps", nil)
	if list.Status != 200 || strings.Contains(string(list.Body), "secret-value") || strings.Count(string(list.Body), `"has_client_secret":true`) != 2 {
		t.Fatalf("list: %d %s", list.Status, list.Body)
	}
	audit := env.Admin("GET", "/admin/audit?action=admin.tenants.oauth-apps.put", nil)
	if !strings.Contains(string(audit.Body), "hubspot app created, client id demo-client") || strings.Contains(string(audit.Body), "secret-value") {
		t.Errorf("audit: %s", audit.Body)
	}
	if r := env.Admin("DELETE", "/admin/oauth-apps/hubspot", nil); r.Status != 200 {
		t.Errorf("delete: %d %s", r.Status, r.Body)
	}
	if r := env.Admin("GET", "/admin/oauth-apps/pipedrive", nil); r.ErrorCode(t) != "VALIDATION_ERROR" {
		t.Errorf("unknown provider: %d %s", r.Status, r.Body)
	}
}
