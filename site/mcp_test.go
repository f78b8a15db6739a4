package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/internal/nodetools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPublicMCP(t *testing.T) {
	srv := httptest.NewServer(newHandler(t, ""))
	defer srv.Close()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/public-mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", tool.Name)
		}
	}
	if strings.Join(names, ",") != "get_page,list_pages,search" {
		t.Errorf("tools %v", names)
	}
	tests := []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"search", map[string]any{"query": "MQL"}, false, "/insights/why-we-dont-measure-mqls"},
		{"search", map[string]any{"query": "\"pipeline diagnostic\"", "section": "services"}, false, "/services"},
		{"search", map[string]any{"query": ""}, true, ""},
		{"search", map[string]any{"query": strings.Repeat("x", 300)}, true, ""},
		{"search", map[string]any{"query": "x", "extra": 1}, true, ""},
		{"get_page", map[string]any{"path": "/about"}, false, "# "},
		{"get_page", map[string]any{"path": testSiteURL + "/insights/why-we-dont-measure-mqls.md"}, false, "MQL"},
		{"get_page", map[string]any{"path": "/../etc/passwd"}, true, ""},
		{"get_page", map[string]any{}, true, ""},
		{"list_pages", map[string]any{"section": "insights"}, false, "the-30-day-install-playbook"},
	}
	for _, tc := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.tool, tc.args, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError != tc.isError || !strings.Contains(text, tc.want) {
			t.Errorf("%s %v: isError %v, text %.200q", tc.tool, tc.args, res.IsError, text)
		}
	}
	rl, err := cs.ListResources(ctx, nil)
	if err != nil || len(rl.Resources) < 17 {
		t.Fatalf("resources: %v, %d", err, len(rl.Resources))
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: testSiteURL + "/about.md"})
	if err != nil || rr.Contents[0].MIMEType != "text/markdown" || !strings.HasPrefix(rr.Contents[0].Text, "# ") {
		t.Fatalf("read resource: %v %+v", err, rr)
	}
}

func TestPublicMCPRejectsForeignOrigin(t *testing.T) {
	srv := httptest.NewServer(newHandler(t, ""))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	tests := []struct {
		name, host, origin string
		want               int
	}{
		{"foreign origin", "", "https://evil.example", http.StatusForbidden},
		{"rebinding host", "evil.example", "", http.StatusForbidden},
		{"same origin", "", srv.URL, http.StatusOK},
		{"no origin", "", "", http.StatusOK},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest("POST", srv.URL+"/public-mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
}

// TestConformance runs the official MCP conformance suite against /public-mcp.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: starts Node")
	}
	srv := httptest.NewServer(newHandler(t, ""))
	defer srv.Close()
	nodetools.Conformance(t, srv.URL+"/public-mcp",
		"server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection")
}
