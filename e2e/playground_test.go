package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestPlaygroundInTheBrowser: on --demo, Olivia, the demo's operator, signs
// in through the demo IdP and tries demo's tools in Chromium, at 1280 and
// 390 px, with JavaScript on and off: the tools list, a CRM search run from
// its playground with its result; the audit names her and the console.
// Then, with crm_write held for approval, a contact's creation is held and
// the playground links to its gate's page.
func TestPlaygroundInTheBrowser(t *testing.T) {
	chromium := nodetools.Chromium(t)
	// A known address: the demo IdP needs the gateway URL before listening.
	p := startKnownGateway(t, t.TempDir())
	var got struct {
		Checks      int
		Failures    []string
		Screenshots []string
		Gates       []string
	}
	runNodeScript(t, p, "playground-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
		"WHO=Olivia", "CHROMIUM="+chromium, "SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
	for _, f := range got.Failures {
		t.Error(f)
	}
	if got.Checks < 30 {
		t.Errorf("only %d browser checks ran", got.Checks)
	}

	// The searches ran as Olivia from the console, through the one path.
	var audit struct {
		Entries []struct {
			Source, Key, Outcome string
		} `json:"entries"`
	}
	call(t, p, "GET", "/admin/audit?tenant=demo&action=crm_contacts.search", "", nil, &audit)
	if len(audit.Entries) != 2 {
		t.Fatalf("%d audited searches, want one per browser: %+v", len(audit.Entries), audit.Entries)
	}
	for _, e := range audit.Entries {
		if e.Source != "console" || !strings.HasPrefix(e.Key, "person:p_") || e.Outcome != "ok" {
			t.Errorf("a search audited as %+v, want source console, Olivia's person key, ok", e)
		}
	}
	// The held creations wait, each naming her as the agent.
	if len(got.Gates) != 2 {
		t.Fatalf("gates %v, want one per browser", got.Gates)
	}
	for _, id := range got.Gates {
		var gate struct {
			Status, Tool, Action, Agent, Source string
		}
		call(t, p, "GET", "/admin/approvals/"+id, "", nil, &gate)
		if gate.Status != "pending" || gate.Tool != "crm_contacts" || gate.Action != "create" || gate.Source != "console" ||
			!strings.HasPrefix(gate.Agent, "person:p_") {
			t.Errorf("gate %s: %+v", id, gate)
		}
	}
}
