package e2e

import (
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
)

// TestMCPTypeScriptSDK connects the official MCP TypeScript SDK client to the
// real binary's /mcp with the demo tenant's token.
func TestMCPTypeScriptSDK(t *testing.T) {
	nodetools.Dir(t) // skip before starting the binary when the tools are missing
	p := start(t, t.TempDir())
	var got struct {
		Server struct{ Name string }
		Tools  []struct {
			Name      string
			ReadOnly  *bool
			HasSchema bool
		}
		ProtocolVersion             string
		OK, Invalid, UnknownAccount struct {
			IsError bool
			Body    map[string]any
		}
		Held struct {
			IsError    bool
			ResultType *string
			Body       map[string]any
		}
	}
	runNodeScript(t, p, "mcp-client.mjs", &got, "GTMGATE_MCP_URL="+p.gateway+"/mcp", "GTMGATE_TOKEN="+p.demoToken)
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
	// Held calls inside the protocol are for 2026-07-28 clients only.
	if got.ProtocolVersion != "2025-11-25" || !got.Held.IsError || got.Held.ResultType != nil ||
		code(got.Held.Body) != "APPROVAL_REQUIRED" || got.Held.Body["approval_id"] == nil {
		t.Fatalf("a held call at %s: %+v, want APPROVAL_REQUIRED with an approval_id", got.ProtocolVersion, got.Held)
	}
}
