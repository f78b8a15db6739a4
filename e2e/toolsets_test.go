package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestAgentsWithToolsets gives two agents of the demo tenant different
// toolsets through the admin API and drives each with the official MCP
// TypeScript SDK client: each sees and can call exactly its tools, a
// read-only agent cannot write, and an agent limited to one calendar
// cannot reach the other.
func TestAgentsWithToolsets(t *testing.T) {
	nodetools.Dir(t)
	p := start(t, t.TempDir())
	for name, ts := range map[string]any{
		"meeting-prep": map[string]any{"description": "read-only CRM and the sales team's calendar", "allow": []string{"crm_*", "calendar_*"},
			"read_only": true, "accounts": map[string][]string{"google_calendar": {"sales-team@ledgerly.example"}}},
		"ads-ops":    map[string]any{"allow": []string{"category:ads_read", "category:ads_mutate"}, "deny": []string{"linkedin_*"}},
		"researcher": map[string]any{"allow": []string{"*"}, "read_only": true, "discovery": true, "pinned": []string{"crm_deals"}},
	} {
		if code := call(t, p, "PUT", "/admin/tenants/demo/toolsets/"+name, "", ts, nil); code != http.StatusCreated {
			t.Fatalf("PUT toolset %s: %d", name, code)
		}
	}
	tokens := map[string]string{"meeting-prep": "gtm_meetingprep_" + strings.Repeat("7q", 16), "ads-ops": "gtm_adsops_" + strings.Repeat("k3", 16),
		"researcher": "gtm_researcher_" + strings.Repeat("w9", 16)}
	for ts, tok := range tokens {
		var created map[string]any
		if code := call(t, p, "POST", "/admin/auth", "", map[string]any{"tenant_id": "demo", "token": tok, "label": ts + " agent", "toolset": ts}, &created); code != http.StatusCreated || created["toolset"] != ts {
			t.Fatalf("token for %s: %d %v", ts, code, created)
		}
	}

	agents := []map[string]any{
		{"token": tokens["meeting-prep"], "calls": []map[string]any{
			{"name": "calendar_events", "arguments": map[string]any{"action": "list", "limit": 2, "rationale": "prep: the team's next meetings"}},
			{"name": "calendar_events", "arguments": map[string]any{"action": "list", "limit": 2, "account_id": "primary", "rationale": "someone else's calendar"}},
			{"name": "crm_deals", "arguments": map[string]any{"action": "update", "id": "7201", "properties": map[string]any{"amount": "1"}, "rationale": "a write it may not make"}},
			{"name": "google_ads_campaigns", "arguments": map[string]any{"action": "list", "rationale": "a tool it does not have"}},
		}},
		{"token": tokens["ads-ops"], "calls": []map[string]any{
			{"name": "crm_deals", "arguments": map[string]any{"action": "list", "rationale": "a tool it does not have"}},
		}},
		{"token": p.demoToken},
		{"token": tokens["researcher"], "calls": []map[string]any{
			{"name": "find_tools", "arguments": map[string]any{"query": "search notes"}},
			{"name": "call_tool", "arguments": map[string]any{"name": "notes__search_notes",
				"arguments": map[string]any{"query": "pipeline", "rationale": "e2e: a federated tool found by search"}}},
			{"name": "call_tool", "arguments": map[string]any{"name": "notes__delete_note",
				"arguments": map[string]any{"id": "n1", "rationale": "e2e: a write a read-only agent may not make"}}},
		}},
	}
	got := runAgents(t, p, agents)
	names := func(i int) []string {
		var out []string
		for _, tool := range got.Agents[i].Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	prep, ads, all := names(0), names(1), names(2)
	t.Logf("meeting-prep sees %d tools, ads-ops %d, the unlimited demo token %d", len(prep), len(ads), len(all))

	for _, tool := range got.Agents[0].Tools {
		gateway := tool.Name == "approval_status" || tool.Name == "submit_feedback"
		if !gateway && !strings.HasPrefix(tool.Name, "crm_") && !strings.HasPrefix(tool.Name, "calendar_") {
			t.Errorf("meeting-prep lists %s", tool.Name)
		}
		if !gateway && (tool.ReadOnly == nil || !*tool.ReadOnly) {
			t.Errorf("meeting-prep's %s is not announced read-only (actions %v)", tool.Name, tool.Actions)
		}
	}
	if !slices.Contains(prep, "crm_deals") || !slices.Contains(prep, "calendar_events") || slices.Contains(prep, "google_ads_campaigns") {
		t.Errorf("meeting-prep's tools: %v", prep)
	}
	for _, name := range ads {
		if strings.HasPrefix(name, "crm_") || strings.HasPrefix(name, "linkedin_") {
			t.Errorf("ads-ops lists %s", name)
		}
	}
	if !slices.Contains(ads, "google_ads_campaigns") || len(all) <= len(prep) || len(all) <= len(ads) {
		t.Errorf("ads-ops %v, all %d", ads, len(all))
	}

	code := agentCall.code
	calls := got.Agents[0].Calls
	if calls[0].IsError {
		t.Errorf("meeting-prep's calendar read failed: %v", calls[0].Body)
	}
	if c := code(calls[1]); c != "FORBIDDEN" {
		t.Errorf("meeting-prep reading another calendar: %s %v", c, calls[1].Body)
	}
	if c := code(calls[2]); c != "FORBIDDEN" {
		t.Errorf("meeting-prep's deal update: %s %v", c, calls[2].Body)
	}
	if c := code(calls[3]); !strings.Contains(c, "unknown tool") {
		t.Errorf("meeting-prep calling a tool it does not have: %s", c)
	}
	if c := code(got.Agents[1].Calls[0]); !strings.Contains(c, "unknown tool") {
		t.Errorf("ads-ops calling crm_deals: %s", c)
	}

	// Discovery mode: a short list, a search that finds an upstream MCP
	// server's tool, and a call of it through call_tool.
	research := got.Agents[3]
	if rn := slices.Sorted(slices.Values(names(3))); !slices.Equal(rn, []string{"approval_status", "call_tool", "crm_deals", "find_tools", "submit_feedback"}) {
		t.Errorf("researcher lists %v, want its pinned crm_deals, the gateway's own tools, find_tools and call_tool", rn)
	}
	if found, _ := json.Marshal(research.Calls[0].Body); !strings.Contains(string(found), "notes__search_notes") {
		t.Errorf("find_tools %q found %s", "search notes", found)
	}
	if c := research.Calls[1]; c.IsError || !strings.Contains(fmt.Sprint(c.Body), "Q3 pipeline") {
		t.Errorf("call_tool notes__search_notes: %v %s", c.Body, c.ProtocolError)
	}
	if c := code(research.Calls[2]); c != "FORBIDDEN" {
		t.Errorf("call_tool of a read-only agent's delete: %s", c)
	}
	t.Logf("researcher (discovery) sees %d tools", len(names(3)))

	// The agents' calls are audited under their own tokens.
	var audit auditPage
	call(t, p, "GET", "/admin/audit?tenant=demo&action=calendar_events.list", "", nil, &audit)
	if len(audit.Entries) == 0 {
		t.Errorf("no audit entry of meeting-prep's calendar read")
	}
}

// agentsSummary is what mcp-agents.mjs prints: for each agent, the tools
// it lists and the outcome of each of its calls.
type agentsSummary struct {
	Agents []struct {
		Tools []struct {
			Name     string
			Actions  []string
			ReadOnly *bool
		}
		Calls []agentCall
	}
}

// agentCall is the outcome of one tools/call of mcp-agents.mjs.
type agentCall struct {
	IsError       bool
	ProtocolError string
	Body          map[string]any
}

// code is the call's error code, "" when it succeeded, or its protocol error.
func (c agentCall) code() string {
	if c.ProtocolError != "" {
		return "protocol: " + c.ProtocolError
	}
	e, _ := c.Body["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

// runAgents drives agents (each {token, calls}) with the official MCP
// TypeScript SDK client through mcp-agents.mjs.
func runAgents(t *testing.T, p *process, agents []map[string]any) agentsSummary {
	t.Helper()
	b, _ := json.Marshal(agents)
	var got agentsSummary
	runNodeScript(t, p, "mcp-agents.mjs", &got, "GTMGATE_MCP_URL="+p.gateway+"/mcp", "GTMGATE_AGENTS="+string(b))
	if len(got.Agents) != len(agents) {
		t.Fatalf("summary of %d agents, want %d", len(got.Agents), len(agents))
	}
	return got
}
