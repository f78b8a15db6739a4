package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtmgate/gtmgate/provider/hubspot"
)

// echoInput is the echo tools' input.
type echoInput struct {
	Text string `json:"text" jsonschema:"text to send back"`
}

// echoOutput is echo_structured's structured result.
type echoOutput struct {
	Text string `json:"text" jsonschema:"the text sent"`
}

// newMCPFloor is the MCP floor: the official Go SDK's server in stateless
// streamable HTTP mode with JSON responses, as the gateway's /mcp runs it,
// with tools that do no work. echo is the MCP scenario's floor: no output
// schema, no annotations. echo_structured is the federated scenario's
// upstream and floor: the same echo, read-only, with an output schema (its
// result also carries structuredContent).
func newMCPFloor() http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-floor", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "echo_structured", Description: "Returns its text, also as structured content.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, echoOutput, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, echoOutput(in), nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// newMCPUpstreamFloor is the built-in MCP call's floor: the same bare go-sdk
// server (stateless, JSON responses) with one tool, crm_pipelines, that
// does what a built-in tool must and the echo does not: it GETs the HubSpot
// sandbox's deal pipelines, as gtmgate's crm_pipelines does, and returns the
// body as text. Run in a process of its own, like the bare proxies, it has
// gtmgate's shape: client, a separate process, the upstream's process.
func newMCPUpstreamFloor(hubspotURL string) http.Handler {
	client := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{Proxy: nil, MaxIdleConns: 512,
		MaxIdleConnsPerHost: 512, IdleConnTimeout: 90 * time.Second}}
	url := strings.TrimRight(hubspotURL, "/") + "/crm/v3/pipelines/deals"
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-floor-upstream", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "crm_pipelines", Description: "Lists the deal pipelines."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ map[string]any) (*mcp.CallToolResult, any, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return nil, nil, err
			}
			req.Header.Set("Authorization", "Bearer "+hubspot.SandboxToken)
			resp, err := client.Do(req)
			if err != nil {
				return nil, nil, err
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK {
				return nil, nil, fmt.Errorf("upstream: %d %v", resp.StatusCode, err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}, nil, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
