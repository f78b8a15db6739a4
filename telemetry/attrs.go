package telemetry

import "go.opentelemetry.io/otel/attribute"

// Attribute keys of the OpenTelemetry semantic conventions that the Go
// semconv package does not carry yet (GenAI and MCP, both in development
// status), and gtmgate's own. Values are never secrets or tool inputs.
const (
	// GenAIOperationName is "chat" for chat completions, "execute_tool" for a tool call.
	GenAIOperationName = attribute.Key("gen_ai.operation.name")
	GenAIRequestModel  = attribute.Key("gen_ai.request.model")
	GenAIResponseModel = attribute.Key("gen_ai.response.model")
	GenAIInputTokens   = attribute.Key("gen_ai.usage.input_tokens")
	GenAIOutputTokens  = attribute.Key("gen_ai.usage.output_tokens")
	GenAIToolName      = attribute.Key("gen_ai.tool.name")
	// MCPMethodName is the JSON-RPC method of an MCP request ("tools/call").
	MCPMethodName = attribute.Key("mcp.method.name")

	// TenantID is the tenant a call acts for.
	TenantID = attribute.Key("gtmgate.tenant.id")
	// ToolAction is the action of a tool call ("list", "create").
	ToolAction = attribute.Key("gtmgate.tool.action")
	// CallSource is the surface a call came through (rest, mcp, approval…).
	CallSource = attribute.Key("gtmgate.call.source")
	// Provider is the provider an upstream call went to ("hubspot").
	Provider = attribute.Key("gtmgate.provider")
)
