package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestConsoleInBrowser: an operator uses the real binary's console in
// Chromium, with JavaScript on and off, desktop and phone, light and dark:
// sign in, create a tenant and issue a token, approve a held call (the
// approval_status tool then reports it executed), replay a failed call,
// filter the audit log, sign out; a CSRF-less form is refused and the
// console does not render in a frame. GTMGATE_SCREENSHOTS=DIR keeps PNGs.
func TestConsoleInBrowser(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	p := start(t, t.TempDir())
	var tenant struct{ Tenant map[string]any }
	call(t, p, "GET", "/admin/tenants/demo", "", nil, &tenant)
	call(t, p, "PUT", "/admin/tenants/demo", "", map[string]any{"name": tenant.Tenant["name"], "status": "active",
		"providers": tenant.Tenant["providers"], "approval_policy": map[string]any{"categories": []string{"crm_write"}}}, nil)
	var ids []string
	for i := range 4 {
		var held struct {
			ApprovalID string `json:"approval_id"`
		}
		call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, map[string]any{"tool": "crm_contacts", "input": map[string]any{"action": "create",
			"rationale": "a lead from the browser test", "properties": map[string]any{"email": "browser" + string(rune('a'+i)) + "@example.com"}}}, &held)
		if held.ApprovalID == "" {
			t.Fatal("the call was not held")
		}
		ids = append(ids, held.ApprovalID)
	}
	call(t, p, "POST", "/api/v1/demo/crm", p.demoToken, map[string]any{"tool": "crm_deals", "input": map[string]any{"action": "get",
		"id": "999999", "rationale": "a deal that does not exist"}}, nil)
	var ledger struct{ Entries []map[string]any }
	call(t, p, "GET", "/admin/errors?tenant=demo", "", nil, &ledger)
	if len(ledger.Entries) == 0 {
		t.Fatal("no failed call in the ledger")
	}

	var got struct {
		Checks   int
		Failures []string
	}
	runNodeScript(t, p, "console-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
		"GTMGATE_APPROVAL_IDS="+strings.Join(ids, ","), "GTMGATE_LEDGER_ID="+ledger.Entries[0]["id"].(string),
		"CHROMIUM="+chromium, "SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
	if got.Checks < 60 {
		t.Errorf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
	// The agent's view: each call approved in the console ran.
	for _, id := range ids {
		var st struct{ Result map[string]any }
		call(t, p, "POST", "/api/v1/demo/agents", p.demoToken, map[string]any{"tool": "approval_status",
			"input": map[string]any{"approval_id": id, "rationale": "did it run"}}, &st)
		if st.Result["status"] != "executed" {
			t.Errorf("approval_status of %s: %v", id, st.Result)
		}
	}
}
