package mcpgateway

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolrun"
	"github.com/gtmgate/gtmgate/toolset"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Discovery mode (a toolset's discovery: true) lists an agent's pinned
// tools and two more, find_tools and call_tool, instead of every tool it
// may use: a large catalogue costs the agent a search, not its context.
// call_tool runs the found tool through the same handler as a direct
// call, so validation, the toolset, approvals and audit are the same.
const (
	findToolsName = "find_tools"
	callToolName  = "call_tool"
	// findLimit bounds find_tools' answer; each match carries its schema.
	findDefault, findMax = 5, 20
)

// discoveryServer serves the pinned ones of tools (and the gateway's own)
// plus find_tools over all of tools and call_tool.
func discoveryServer(opts Options, tools []*registry.Entry, ts *gtmgate.Toolset) *mcp.Server {
	var listed []*registry.Entry
	for _, e := range tools {
		if slices.Contains(ts.Pinned, e.Name) || slices.Contains(toolset.Always, e.Name) {
			listed = append(listed, e)
		}
	}
	server := newServer(opts, listed)
	server.AddTool(&mcp.Tool{
		Name:  findToolsName,
		Title: "Find tools",
		Description: "Search the tools you may use by what you want to do; returns the best matches with their actions and input schemas. " +
			"Then run one with call_tool.",
		InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"query": {Type: "string", MaxLength: jsonschema.Ptr(500), Description: "What you want to do, in a few words; empty lists every tool's name and title."},
			"limit": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(findMax))},
		}, AdditionalProperties: registry.Closed()},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: jsonschema.Ptr(false)},
	}, findTools(tools))
	server.AddTool(&mcp.Tool{
		Name:        callToolName,
		Title:       "Call a tool",
		Description: "Run a tool found with find_tools: name is the tool's name, arguments its input (rationale included).",
		InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"name":      {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(128)},
			"arguments": {Type: "object"},
		}, Required: []string{"name", "arguments"}, AdditionalProperties: registry.Closed()},
		Annotations: &mcp.ToolAnnotations{DestructiveHint: jsonschema.Ptr(true), OpenWorldHint: jsonschema.Ptr(true)},
	}, callTool(opts.Runner, newHeldCalls(opts)))
	return server
}

// foundTool is one find_tools match.
type foundTool struct {
	Name        string             `json:"name"`
	Title       string             `json:"title,omitempty"`
	Description string             `json:"description,omitempty"`
	Actions     []string           `json:"actions,omitempty"`
	InputSchema *jsonschema.Schema `json:"input_schema,omitempty"`
}

// findTools answers find_tools from tools, the agent's own view of them.
func findTools(tools []*registry.Entry) mcp.ToolHandler {
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Query string `json:"query"`
			Limit int    `json:"limit"`
		}
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return errorResult(gtmgate.Errorf(gtmgate.EValidation, "find_tools takes {query, limit}"), ""), nil
			}
		}
		var found []foundTool
		if strings.TrimSpace(in.Query) == "" {
			// Browsing: every tool by name and title only.
			for _, e := range tools {
				found = append(found, foundTool{Name: e.Name, Title: e.Title})
			}
		} else {
			limit := in.Limit
			if limit <= 0 {
				limit = findDefault
			}
			for _, e := range rank(tools, in.Query, min(limit, findMax)) {
				found = append(found, foundTool{Name: e.Name, Title: e.Title, Description: e.Description,
					Actions: actionNames(e), InputSchema: e.Schema})
			}
		}
		if found == nil {
			found = []foundTool{}
		}
		text, err := json.Marshal(map[string]any{"tools": found})
		if err != nil {
			return errorResult(err, ""), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
	}
}

// rank returns at most n of tools that match query, best first: a term in
// the name counts most, then in an action's name or description, then in
// the title or description.
func rank(tools []*registry.Entry, query string, n int) []*registry.Entry {
	terms := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	type scored struct {
		e     *registry.Entry
		score int
	}
	var hits []scored
	for _, e := range tools {
		name := strings.ToLower(strings.ReplaceAll(e.Name, "_", " "))
		text := strings.ToLower(e.Title + " " + e.Description)
		var actions strings.Builder
		for _, a := range e.Actions {
			actions.WriteString(strings.ToLower(a.Name + " " + a.Description + " "))
		}
		score := 0
		for _, t := range terms {
			switch {
			case strings.Contains(name, t):
				score += 3
			case strings.Contains(actions.String(), t):
				score += 2
			case strings.Contains(text, t):
				score++
			}
		}
		if score > 0 {
			hits = append(hits, scored{e, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]*registry.Entry, 0, min(n, len(hits)))
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, h.e)
	}
	return out
}

func actionNames(e *registry.Entry) []string {
	out := make([]string, len(e.Actions))
	for i, a := range e.Actions {
		out[i] = a.Name
	}
	return out
}

// callTool runs the named tool with the call's own credential, request id
// and progress token, exactly as a direct tools/call of it would.
func callTool(runner *toolrun.Runner, held *heldCalls) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || in.Name == "" {
			return errorResult(gtmgate.Errorf(gtmgate.EValidation, "call_tool takes {name, arguments}: the tool's name and its input"), ""), nil
		}
		if in.Name == callToolName || in.Name == findToolsName {
			return errorResult(gtmgate.Errorf(gtmgate.EValidation, "call_tool runs the tools find_tools finds, not itself"), ""), nil
		}
		inner := *req
		params := *req.Params
		params.Name, params.Arguments = in.Name, in.Arguments
		inner.Params = &params
		return handler(runner, held, in.Name)(ctx, &inner)
	}
}
