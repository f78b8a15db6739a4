package modelgw

import (
	"context"
	"encoding/json"
	"fmt"
)

// CallTool gets structured output through tool use: it forces the model to
// call toolName (which must be one of req.Tools) and decodes the call's
// arguments into T. req is not modified. The response is returned whenever
// the gateway answered, also with ErrNoToolCall or ErrToolArguments, so the
// caller can log what the model said.
func CallTool[T any](ctx context.Context, c *Client, req *ChatRequest, toolName string) (T, *ChatResponse, error) {
	var zero T
	if !hasTool(req.Tools, toolName) {
		return zero, nil, fmt.Errorf("modelgw: call tool %s: not among the request's tools", toolName)
	}
	forced := *req
	forced.ToolChoice = ForceTool(toolName)
	resp, err := c.Chat(ctx, &forced)
	if err != nil {
		return zero, nil, err
	}
	call, ok := resp.ToolCall(toolName)
	if !ok {
		return zero, resp, fmt.Errorf("modelgw: call tool %s with %s: %w (finish_reason %q, content %q)",
			toolName, req.Model, ErrNoToolCall, finishReason(resp), excerpt([]byte(firstContent(resp))))
	}
	var out T
	if err := json.Unmarshal([]byte(call.Function.Arguments), &out); err != nil {
		return zero, resp, fmt.Errorf("modelgw: call tool %s with %s: %w: %w (arguments %q)",
			toolName, req.Model, ErrToolArguments, err, excerpt([]byte(call.Function.Arguments)))
	}
	return out, resp, nil
}

func hasTool(tools []Tool, name string) bool {
	for _, t := range tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}

func finishReason(r *ChatResponse) string {
	if len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].FinishReason
}

func firstContent(r *ChatResponse) string {
	if len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].Message.Content
}
