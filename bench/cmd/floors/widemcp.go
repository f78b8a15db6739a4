package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wideTools is how many tools the wide MCP server lists: with the demo's
// 37 built-in tools, a tenant of 150, the catalogue #40's goal names.
const wideTools = 113

// wideObjects are the records the wide server's tools act on, so that
// their names and descriptions read like a real catalogue's (a CRM's,
// a ticketing tool's) for find_tools to search.
var wideObjects = []string{"account", "contact", "lead", "opportunity", "ticket", "invoice", "quote", "order",
	"campaign", "segment", "document", "meeting", "task", "note", "product", "subscription"}

var wideVerbs = []string{"list", "get", "create", "update", "archive", "search", "export", "merge"}

// newWideMCP is an upstream MCP server with wideTools tools, each with a
// one-sentence description and a small input schema, as a SaaS vendor's
// hosted MCP server lists them: what the toollist scenario adds to the demo
// tenant to measure a 150-tool catalogue.
func newWideMCP() http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-wide", Version: "1"}, nil)
	for i := range wideTools {
		object, verb := wideObjects[i%len(wideObjects)], wideVerbs[(i/len(wideObjects))%len(wideVerbs)]
		name := fmt.Sprintf("%s_%s_%d", verb, object, i)
		schema := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"id":     {Type: "string", Description: "The " + object + "'s id."},
			"query":  {Type: "string", Description: "Words to match in the " + object + "'s fields."},
			"limit":  {Type: "integer", Description: "At most this many results (1 to 100)."},
			"fields": {Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: "Fields to return; all when empty."},
		}}
		server.AddTool(&mcp.Tool{Name: name, InputSchema: schema,
			Description: fmt.Sprintf("%s %ss in the workspace: use it when the user asks to %s a %s by id, name or owner.", verb, object, verb, object),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: verb == "list" || verb == "get" || verb == "search" || verb == "export"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
