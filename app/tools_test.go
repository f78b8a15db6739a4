package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestToolsListAndReference checks that MCP tools/list serves every tool of
// the registry with an object schema requiring rationale, in 2020-12 by
// naming no "$schema" (MCP's default dialect since 2025-11-25), and that
// the docs host's generated tool reference names each of them.
func TestToolsListAndReference(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	r := env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"Authorization", "Bearer "+env.DemoToken, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
	var out struct {
		Result struct {
			Tools []struct {
				Name        string
				InputSchema struct {
					Schema   string `json:"$schema"`
					Type     string
					Required []string
				}
			}
		}
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("tools/list: %v %s", err, r.Body)
	}
	builtIn := 0
	for _, tool := range out.Result.Tools {
		if !strings.Contains(tool.Name, "__") {
			builtIn++
		}
	}
	if builtIn != 34 {
		t.Fatalf("tools/list has %d built-in tools, want the specification's 34", builtIn)
	}
	ref := env.Do("GET", env.DocsURL+"/llms-full.txt", nil)
	for _, tool := range out.Result.Tools {
		s := tool.InputSchema
		if s.Type != "object" || s.Schema != "" || len(s.Required) == 0 || s.Required[0] != "rationale" {
			t.Errorf("%s: schema %+v", tool.Name, s)
		}
		// The demo tenant's own upstream tools are not gtmgate's to document.
		if strings.Contains(tool.Name, "__") {
			continue
		}
		if !strings.Contains(string(ref.Body), tool.Name) {
			t.Errorf("docs tool reference does not list %s", tool.Name)
		}
	}
}

// TestMCPSessionRequestsAudited: initialize and tools/list are in the audit
// log with the caller's tenant and credential (and the client's name).
func TestMCPSessionRequestsAudited(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	headers := []string{"Authorization", "Bearer " + env.DemoToken, "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25"}
	env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
		"capabilities":{},"clientInfo":{"name":"audit-test","version":"1.2"}}}`, headers...)
	env.Do("POST", env.GatewayURL+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`, headers...)
	for action, detail := range map[string]string{"mcp.initialize": "audit-test 1.2", "mcp.tools_list": ""} {
		var out struct {
			Entries []struct {
				TenantID string `json:"tenant"`
				Key      string `json:"key"`
				Source   string
				Outcome  string
				Detail   string
			}
		}
		r := env.Admin("GET", "/admin/audit?action="+action, nil)
		if err := json.Unmarshal(r.Body, &out); err != nil || len(out.Entries) != 1 {
			t.Fatalf("audit of %s: %v %s", action, err, r.Body)
		}
		e := out.Entries[0]
		if e.TenantID != "demo" || e.Key == "" || e.Source != "mcp" || e.Outcome != "ok" || !strings.HasPrefix(e.Detail, detail) {
			t.Errorf("%s audited as %+v", action, e)
		}
	}
}
