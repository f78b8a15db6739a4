package app_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// hints are the four MCP tool annotations (2025-11-25 ToolAnnotations).
type hints struct {
	ReadOnly    bool `json:"readOnlyHint"`
	Destructive bool `json:"destructiveHint"`
	Idempotent  bool `json:"idempotentHint"`
	OpenWorld   bool `json:"openWorldHint"`
}

// TestToolAnnotations checks every tool's annotations as tools/list serves
// them against what each tool does, in the specification's meaning: read-only
// only when nothing changes (run_agent and agent_schedules make other tools'
// calls); destructive when an action may change or remove existing data, not
// only add (CRM updates, ad status and budget changes); idempotent only when
// read-only; open-world when the tool reaches outside the gateway (a
// provider, the public web, other tools).
func TestToolAnnotations(t *testing.T) {
	t.Parallel()
	var (
		read     = hints{ReadOnly: true, Idempotent: true, OpenWorld: true}
		additive = hints{OpenWorld: true}
		updates  = hints{Destructive: true, OpenWorld: true}
	)
	want := map[string]hints{
		"crm_contacts": updates, "crm_companies": updates, "crm_deals": updates, "crm_tasks": updates,
		"crm_notes": additive, "crm_associations": additive, "crm_pipelines": read, "crm_properties": read,
		"google_ads_campaigns": updates, "meta_ads_campaigns": updates, "linkedin_ads_campaigns": updates,
		"google_ads_keywords": additive, "google_ads_report": read, "meta_ads_insights": read, "linkedin_ads_analytics": read,
		"ga4_report": read, "ga4_realtime": read, "ga4_metadata": read, "search_console_query": read,
		"email_messages": read, "email_threads": read, "email_send": additive,
		"calendar_events": updates, "calendar_freebusy": read,
		"web_search": read, "news_search": read, "web_fetch": read,
		"bigquery_query": read, "bigquery_schema": read, "sheets_values": additive,
		"run_agent":       {Destructive: true, OpenWorld: true},
		"agent_schedules": {Destructive: true, OpenWorld: true},
		"approval_status": {ReadOnly: true, Idempotent: true},
		"submit_feedback": {},
		// The demo tenant's upstream MCP server (mcpsandbox): its own
		// annotations, served as the upstream gave them.
		"notes__search_notes": {ReadOnly: true, Idempotent: true},
		"notes__add_note":     {},
		"notes__delete_note":  {Destructive: true},
	}
	env := apptest.Start(t, nil)
	r := env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"Authorization", "Bearer "+env.DemoToken, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
	var out struct {
		Result struct {
			Tools []struct {
				Name        string
				Annotations *hints
			}
		}
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("tools/list: %v %s", err, r.Body)
	}
	var listed []string
	for _, tool := range out.Result.Tools {
		listed = append(listed, tool.Name)
		w, ok := want[tool.Name]
		switch {
		case !ok:
			t.Errorf("%s: no expected annotations; add it to this test", tool.Name)
		case tool.Annotations == nil:
			t.Errorf("%s: no annotations", tool.Name)
		case *tool.Annotations != w:
			t.Errorf("%s: annotations %+v, want %+v", tool.Name, *tool.Annotations, w)
		}
	}
	for name := range want {
		if !slices.Contains(listed, name) {
			t.Errorf("%s is expected but not listed", name)
		}
	}
}
