package modelgw

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type verdict struct {
	Quality  int    `json:"quality"`
	Category string `json:"category"`
}

func verdictRequest() *ChatRequest {
	schema := json.RawMessage(`{"type":"object","properties":{"quality":{"type":"integer"},"category":{"type":"string"}},"required":["quality","category"]}`)
	return &ChatRequest{
		Model:    "judge-alpha",
		Messages: []Message{{Role: RoleSystem, Content: "grade"}, {Role: RoleUser, Content: "trace"}},
		Tools:    []Tool{FunctionTool("other", "", nil), FunctionTool("record_verdict", "Record the verdict", schema)},
	}
}

func toolCallBody(name, args string) string {
	b, _ := json.Marshal(ChatResponse{ID: "c", Choices: []Choice{{Message: Message{Role: RoleAssistant,
		ToolCalls: []ToolCall{{ID: "call_1", Type: "function", Function: FunctionCall{Name: name, Arguments: args}}}},
		FinishReason: "tool_calls"}}})
	return string(b)
}

func TestCallToolForcesTheTool(t *testing.T) {
	t.Parallel()
	fake := &fakeGateway{replies: []reply{{status: 200, body: toolCallBody("record_verdict", `{"quality":4,"category":"crm_read"}`)}}}
	c, _ := newTestClient(t, fake, nil)
	req := verdictRequest()
	got, resp, err := CallTool[verdict](context.Background(), c, req, "record_verdict")
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got != (verdict{Quality: 4, Category: "crm_read"}) || resp == nil {
		t.Errorf("verdict = %+v, resp = %v", got, resp)
	}
	if req.ToolChoice != nil {
		t.Errorf("CallTool modified the caller's request")
	}
	var sent struct {
		ToolChoice json.RawMessage `json:"tool_choice"`
		Tools      []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(fake.bodies[0], &sent); err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"function","function":{"name":"record_verdict"}}`; string(sent.ToolChoice) != want {
		t.Errorf("tool_choice = %s, want %s", sent.ToolChoice, want)
	}
	if len(sent.Tools) != 2 || sent.Tools[1].Type != "function" || !strings.Contains(string(sent.Tools[1].Function.Parameters), `"required":["quality","category"]`) {
		t.Errorf("tools sent = %+v", sent.Tools)
	}
}

func TestCallToolErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		body     string
		tool     string
		want     error
		wantResp bool
	}{
		{name: "no tool call", body: okBody, tool: "record_verdict", want: ErrNoToolCall, wantResp: true},
		{name: "other tool called", body: toolCallBody("other", `{}`), tool: "record_verdict", want: ErrNoToolCall, wantResp: true},
		{name: "arguments not JSON", body: toolCallBody("record_verdict", `{"quality":`), tool: "record_verdict", want: ErrToolArguments, wantResp: true},
		{name: "arguments of wrong type", body: toolCallBody("record_verdict", `{"quality":"high"}`), tool: "record_verdict", want: ErrToolArguments, wantResp: true},
		{name: "tool not in request", body: okBody, tool: "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := newTestClient(t, &fakeGateway{replies: []reply{{status: 200, body: tt.body}}}, nil)
			_, resp, err := CallTool[verdict](context.Background(), c, verdictRequest(), tt.tool)
			if err == nil {
				t.Fatal("CallTool succeeded, want an error")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if (resp != nil) != tt.wantResp {
				t.Errorf("resp returned = %v, want %v", resp != nil, tt.wantResp)
			}
		})
	}
}
