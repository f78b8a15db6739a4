package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestToolsListAndReference checks that MCP tools/list serves every tool of
// the registry with a 2020-12 object schema requiring rationale, and that
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
	if n := len(out.Result.Tools); n != 34 {
		t.Fatalf("tools/list has %d tools, want the specification's 34", n)
	}
	ref := env.Do("GET", env.DocsURL+"/llms-full.txt", nil)
	for _, tool := range out.Result.Tools {
		s := tool.InputSchema
		if s.Type != "object" || !strings.Contains(s.Schema, "2020-12") || len(s.Required) == 0 || s.Required[0] != "rationale" {
			t.Errorf("%s: schema %+v", tool.Name, s)
		}
		if !strings.Contains(string(ref.Body), tool.Name) {
			t.Errorf("docs tool reference does not list %s", tool.Name)
		}
	}
}
