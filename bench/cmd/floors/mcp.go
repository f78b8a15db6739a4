package main

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
