package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestMCPTypeScriptSDK connects the official MCP TypeScript SDK client to the
// real binary's /mcp with the demo tenant's token.
func TestMCPTypeScriptSDK(t *testing.T) {
	node := nodetools.Node(t)
	dir := nodetools.Dir(t)
	p := start(t, t.TempDir())
	cmd := exec.Command(node, filepath.Join(dir, "mcp-client.mjs"))
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GTMGATE_MCP_URL="+p.gateway+"/mcp", "GTMGATE_TOKEN="+p.demoToken)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp-client.mjs: %v\n%s\n%s", err, out, p.stderr.String())
	}
	var got struct {
		Server struct{ Name string }
		Tools  []struct {
			Name      string
			ReadOnly  *bool
			HasSchema bool
		}
		OK, Invalid, UnknownAccount struct {
			IsError bool
			Body    map[string]any
		}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	if got.Server.Name != "gtmgate" || len(got.Tools) < 10 {
		t.Fatalf("server %q with %d tools", got.Server.Name, len(got.Tools))
	}
	for _, tool := range got.Tools {
		if !tool.HasSchema || tool.ReadOnly == nil {
			t.Errorf("tool %s lacks a schema or annotations", tool.Name)
		}
	}
	if got.OK.IsError || got.OK.Body["ok"] != true {
		t.Fatalf("tools/call failed: %v", got.OK.Body)
	}
	code := func(b map[string]any) any { e, _ := b["error"].(map[string]any); return e["code"] }
	if !got.Invalid.IsError || code(got.Invalid.Body) != "VALIDATION_ERROR" {
		t.Fatalf("missing rationale: %v", got.Invalid.Body)
	}
	if !got.UnknownAccount.IsError || code(got.UnknownAccount.Body) != "VALIDATION_ERROR" {
		t.Fatalf("unknown account: %v", got.UnknownAccount.Body)
	}
}
