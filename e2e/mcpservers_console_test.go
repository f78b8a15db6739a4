package e2e

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/internal/nodetools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPServersConsoleInBrowser: a person adds an upstream MCP server (the
// go-sdk upstream, its own process, bearer-protected) to the demo tenant
// in the real binary's console, in Chromium at a desktop and a phone
// width, with JavaScript on and off: tests the connection (the tools are
// listed, nothing saved, the secret never written back), hides one tool,
// marks one destructive and saves; edits it keeping the stored secret; a
// refusal shows beside the form. The gateway then serves exactly what was
// chosen: the hidden tool is not in MCP tools/list, the override holds.
// GTMGATE_SCREENSHOTS=DIR keeps PNGs.
func TestMCPServersConsoleInBrowser(t *testing.T) {
	nodetools.Dir(t)
	chromium := nodetools.Chromium(t)
	const upToken = "mcp-console-upstream-token-0123456789"
	u := startUpstreamProcess(t, upToken)
	p := start(t, t.TempDir(), "GTMGATE_MCP_UPSTREAM_ALLOW=127.0.0.1/32")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gtmgate stderr:\n%s", p.stderr.String())
		}
	})

	var got struct {
		Checks   int
		Failures []string
		Servers  []string
	}
	runNodeScript(t, p, "mcpservers-browser.mjs", &got, "GTMGATE_GATEWAY_URL="+p.gateway, "GTMGATE_ADMIN_KEY="+adminKey,
		"UPSTREAM_URL="+u.url(), "UPSTREAM_TOKEN="+upToken, "CHROMIUM="+chromium, "SCREENSHOT_DIR="+os.Getenv("GTMGATE_SCREENSHOTS"))
	if got.Checks < 40 {
		t.Errorf("only %d checks ran", got.Checks)
	}
	for _, f := range got.Failures {
		t.Error(f)
	}
	if len(got.Servers) != 4 {
		t.Fatalf("the script saved servers %v, want 4", got.Servers)
	}

	// What the admin API stored for each: wait hidden, create_note destructive.
	for _, name := range got.Servers {
		var found struct {
			Server struct {
				Tools     []string `json:"tools"`
				Overrides map[string]struct {
					Destructive *bool `json:"destructive"`
				} `json:"overrides"`
				Auth struct {
					Kind      string `json:"kind"`
					SecretSet bool   `json:"secret_set"`
				} `json:"auth"`
				ServedTools []struct {
					Upstream    string `json:"upstream"`
					Served      bool   `json:"served"`
					Destructive bool   `json:"destructive"`
				} `json:"served_tools"`
			}
		}
		call(t, p, "GET", "/admin/tenants/demo/mcp-servers/"+name, "", nil, &found)
		s := found.Server
		if slices.Contains(s.Tools, "wait") || !slices.Contains(s.Tools, "lookup") || s.Auth.Kind != "bearer" || !s.Auth.SecretSet ||
			s.Overrides["create_note"].Destructive == nil || !*s.Overrides["create_note"].Destructive {
			t.Errorf("%s as stored: %+v", name, s)
		}
		for _, tool := range s.ServedTools {
			if tool.Served == (tool.Upstream == "wait") || tool.Upstream == "create_note" && !tool.Destructive {
				t.Errorf("%s: tool %+v", name, tool)
			}
		}
	}

	// What the demo tenant's agents get over MCP.
	cs, err := connectMCP(t, p.gateway+"/mcp", p.demoToken, nil)
	if err != nil {
		t.Fatalf("connect to gtmgate's /mcp: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		tools[tool.Name] = tool
	}
	for _, name := range got.Servers {
		if _, ok := tools[name+"__wait"]; ok {
			t.Errorf("%s__wait is served, though hidden in the console", name)
		}
		if _, ok := tools[name+"__lookup"]; !ok {
			t.Errorf("%s__lookup is not served", name)
		}
		create := tools[name+"__create_note"]
		if create == nil || create.Annotations == nil || create.Annotations.DestructiveHint == nil || !*create.Annotations.DestructiveHint {
			t.Errorf("%s__create_note is not marked destructive: %+v", name, create)
		}
	}
}
