package app_test

import (
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestToolResultsMatchOutputSchemas calls a read action of every tool that
// has one over MCP against the demo sandboxes; apptest holds each
// structuredContent to the tool's published outputSchema.
func TestToolResultsMatchOutputSchemas(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	calls := map[string]map[string]any{
		"bigquery_schema":        {"action": "datasets"},
		"calendar_events":        {"action": "list"},
		"calendar_freebusy":      {"time_min": "2026-01-05T00:00:00Z", "time_max": "2026-01-06T00:00:00Z"},
		"crm_associations":       {"action": "list", "from_type": "contacts", "from_id": "1528", "to_type": "deals"},
		"crm_companies":          {"action": "list"},
		"crm_contacts":           {"action": "search", "query": "a"},
		"crm_deals":              {"action": "list", "filter": map[string]any{"property": "amount", "operator": "GT", "value": 1000}},
		"crm_notes":              {"action": "list"},
		"crm_pipelines":          {"action": "list"},
		"crm_properties":         {"action": "list", "object_type": "contacts"},
		"crm_tasks":              {"action": "list"},
		"email_messages":         {"action": "list"},
		"email_threads":          {"action": "list"},
		"ga4_metadata":           {},
		"ga4_realtime":           {},
		"ga4_report":             {"metrics": []string{"sessions"}, "dimensions": []string{"country"}},
		"google_ads_campaigns":   {"action": "list"},
		"google_ads_keywords":    {"action": "list"},
		"google_ads_report":      {"resource": "campaign", "metrics": []string{"clicks"}},
		"linkedin_ads_analytics": {},
		"linkedin_ads_campaigns": {"action": "list"},
		"meta_ads_campaigns":     {"action": "list"},
		"meta_ads_insights":      {},
		"news_search":            {"query": "pipeline"},
		"search_console_query":   {},
		"web_search":             {"query": "pipeline"},
		"bigquery_query":         {"action": "estimate", "query": "SELECT 1"},
		"submit_feedback": {"attempted_action": "check output schemas", "expected_outcome": "a result",
			"actual_outcome": "a result", "severity": "low"},
	}
	for name, args := range calls {
		args["rationale"] = "output schema test"
		call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
		r := env.Do("POST", env.GatewayURL+"/mcp", string(call),
			"Authorization", "Bearer "+env.DemoToken, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
		var out struct {
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.Body, &out); err != nil || r.Status != 200 || out.Result.IsError {
			t.Errorf("%s: %d %.400s", name, r.Status, r.Body)
		}
	}
}
