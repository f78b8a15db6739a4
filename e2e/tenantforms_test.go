package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestTenantFormsInBrowser: an operator configures a tenant and its billing
// plan through the tenant page's forms in Chromium, desktop and phone,
// JavaScript on and off: a provider and accounts added, the default and an
// approval category chosen, a duplicate account id and a bad currency
// refused beside their fields, fixed and saved (tenantforms-browser.mjs).
// GTMGATE_SCREENSHOTS=DIR keeps PNGs.
func TestTenantFormsInBrowser(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	p := start(t, t.TempDir())
	var tenants []string
	for i := range 4 {
		id := fmt.Sprintf("forms-%d", i)
		call(t, p, "PUT", "/admin/tenants/"+id, "", map[string]any{"name": "Forms " + id, "status": "active"}, nil)
		tenants = append(tenants, id)
	}
	var got struct {
		Checks   int
		Failures []string
	}
	runNodeScript(t, p, "tenantforms-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
		"TENANTS="+strings.Join(tenants, ","), "CHROMIUM="+chromium, "SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
	if got.Checks < 100 {
		t.Errorf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
}
