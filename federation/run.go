package federation

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxErrorText bounds how much of an upstream's error result goes into the
// error message (and so the audit detail and the error ledger).
const maxErrorText = 1000

// run returns the Run of one upstream tool of s: the validated input
// without the rationale goes upstream, the caller's progress requests and
// cancellation with it. An isError result stays a tool error, named
// UPSTREAM_ERROR with the server and its text; a success is the upstream's
// result as it gave it (content and structuredContent).
func (c *Catalog) run(s *gtmgate.MCPServer, tool string) func(ctx context.Context, call *gtmgate.Call) (any, error) {
	return func(ctx context.Context, call *gtmgate.Call) (any, error) {
		input := call.Args
		if input == nil {
			if err := json.Unmarshal(call.Input, &input); err != nil {
				return nil, gtmgate.Errorf(gtmgate.EValidation, "input must be a JSON object")
			}
		}
		args, err := registry.UpstreamArguments(input)
		if err != nil {
			return nil, fmt.Errorf("federation: encode arguments: %w", err)
		}
		var progress func(*mcp.ProgressNotificationParams)
		if f := gtmgate.ProgressFromContext(ctx); f != nil {
			progress = func(p *mcp.ProgressNotificationParams) { f(p.Progress, p.Total, p.Message) }
		}
		// A read is sent once more on a fresh session when its connection
		// broke before the answer, as provider reads are retried; a
		// mutation never is (it may have run).
		res, err := c.opts.Upstream.CallTool(ctx, s, tool, args, !call.Action.Mutating, progress)
		if err != nil {
			// The pool scrubs its own errors; this also catches the
			// encoded forms and the access token (see scrubberFor).
			return nil, scrubError(c.scrubberFor(s), err)
		}
		if res.IsError {
			// Scrubbed before it is bounded, so a cut never leaves half a
			// secret in the text.
			text := c.scrubberFor(s).Replace(resultText(res))
			return nil, &gtmgate.Error{Code: gtmgate.EUpstream,
				Message: fmt.Sprintf("upstream MCP server %q: tool %q returned an error: %s", s.Name, tool, bounded(text))}
		}
		return res, nil
	}
}

// resultText is the text content of a result.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	text := strings.Join(parts, " ")
	if text == "" {
		text = "(no text)"
	}
	return text
}

// bounded cuts text to maxErrorText runes.
func bounded(text string) string {
	if r := []rune(text); len(r) > maxErrorText {
		text = string(r[:maxErrorText]) + "…"
	}
	return text
}
