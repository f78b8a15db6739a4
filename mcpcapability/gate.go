// Package mcpcapability holds an MCP server to the capabilities it
// declares: a method of a capability it does not declare is not there.
package mcpcapability

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK dispatches every method of its table whatever the server
// declares: a server without prompts answers prompts/list with an empty
// list, resources/list likewise, and logging/setLevel with {}. MCP says a
// method gated behind a capability the server did not declare does not
// exist for the client (2025-11-25: only negotiated capabilities may be
// used; 2026-07-28: MethodNotFoundError covers "one gated behind a server
// capability the server did not advertise"), and the conformance suite
// holds a server that answers prompts/list to having prompts. So such a
// method answers -32601, as an unknown one does: HTTP 200 with the error
// under 2025-11-25, 404 under 2026-07-28 (the SDK's status for -32601).

// Methods maps each method gated behind a server capability to
// whether caps declares that capability. Methods of the core protocol
// (tools/*, ping, server/discover, subscriptions/listen, which acknowledges
// only what the server can notify) are not gated here.
var Methods = map[string]func(caps *mcp.ServerCapabilities) bool{
	"prompts/list":             hasPrompts,
	"prompts/get":              hasPrompts,
	"resources/list":           hasResources,
	"resources/templates/list": hasResources,
	"resources/read":           hasResources,
	"resources/subscribe":      canSubscribe,
	"resources/unsubscribe":    canSubscribe,
	"completion/complete":      func(c *mcp.ServerCapabilities) bool { return c.Completions != nil },
	"logging/setLevel":         func(c *mcp.ServerCapabilities) bool { return c.Logging != nil },
}

func hasPrompts(c *mcp.ServerCapabilities) bool   { return c.Prompts != nil }
func hasResources(c *mcp.ServerCapabilities) bool { return c.Resources != nil }
func canSubscribe(c *mcp.ServerCapabilities) bool { return c.Resources != nil && c.Resources.Subscribe }

// DeclaredOnly returns middleware answering -32601 to the methods of the
// capabilities caps does not declare. caps must be the server's
// ServerOptions.Capabilities, and the server must register nothing that
// makes the SDK infer more (prompts, resources, a completion handler).
// The SDK writes every -32601 with its own message, `method not found:
// "prompts/list"`, the one an unknown method gets.
func DeclaredOnly(caps *mcp.ServerCapabilities) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if declared, gated := Methods[method]; gated && !declared(caps) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
			}
			return next(ctx, method, req)
		}
	}
}
