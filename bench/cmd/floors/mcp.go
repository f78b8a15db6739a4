package main

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoInput is the echo tool's input.
type echoInput struct {
	Text string `json:"text" jsonschema:"text to send back"`
}

// newMCPFloor is the MCP floor: the official Go SDK's server in stateless
// streamable HTTP mode with JSON responses, as the gateway's /mcp runs it,
// with one tool that does no work.
func newMCPFloor() http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-floor", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
