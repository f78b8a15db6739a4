package modelgw

import (
	"encoding/json"
	"fmt"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ChatRequest is the body of POST /chat/completions. Zero fields are omitted,
// so the upstream applies its own defaults.
type ChatRequest struct {
	Model       string      `json:"model"`
	Messages    []Message   `json:"messages"`
	Tools       []Tool      `json:"tools,omitempty"`
	ToolChoice  *ToolChoice `json:"tool_choice,omitempty"`
	Temperature *float64    `json:"temperature,omitempty"`
	MaxTokens   int         `json:"max_tokens,omitempty"`
	// ResponseFormat is sent as is, for example {"type":"json_object"}.
	ResponseFormat json.RawMessage `json:"response_format,omitempty"`
	// User is an end-user id some gateways use for abuse tracking.
	User string `json:"user,omitempty"`
}

// Message is one chat message. An assistant message may carry ToolCalls; a
// tool message answers one of them through ToolCallID.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// MarshalJSON omits an empty content on assistant messages that call tools,
// which some providers reject as an empty text block.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	if m.Content == "" && len(m.ToolCalls) > 0 {
		return json.Marshal(struct {
			plain
			Content *string `json:"content"`
		}{plain: plain(m)})
	}
	return json.Marshal(plain(m))
}

// ToolCall is a function call requested by the model.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the called function; Arguments is a JSON document as text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is a function the model may call.
type Tool struct {
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function describes a callable function. Parameters is a JSON Schema object
// (a map, a json.RawMessage or a *jsonschema.Schema all marshal correctly).
type Function struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Parameters  any    `json:"parameters,omitempty"`
	Strict      *bool  `json:"strict,omitempty"`
}

// FunctionTool returns a tool of type "function".
func FunctionTool(name, description string, parameters any) Tool {
	return Tool{Type: "function", Function: Function{Name: name, Description: description, Parameters: parameters}}
}

// Tool choice modes.
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceNone     = "none"
	ToolChoiceRequired = "required"
)

// ToolChoice is either a mode ("auto", "none", "required") or, when Function is
// set, the forced call {"type":"function","function":{"name":Function}}.
type ToolChoice struct {
	Mode     string
	Function string
}

// ForceTool returns the tool choice that forces a call of the named function.
func ForceTool(name string) *ToolChoice { return &ToolChoice{Function: name} }

type forcedChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// MarshalJSON writes the mode string or the forced-function object.
func (tc ToolChoice) MarshalJSON() ([]byte, error) {
	if tc.Function == "" {
		if tc.Mode == "" {
			return nil, fmt.Errorf("modelgw: tool choice has neither mode nor function")
		}
		return json.Marshal(tc.Mode)
	}
	var f forcedChoice
	f.Type = "function"
	f.Function.Name = tc.Function
	return json.Marshal(f)
}

// UnmarshalJSON reads either form.
func (tc *ToolChoice) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*tc = ToolChoice{}
		return json.Unmarshal(b, &tc.Mode)
	}
	var f forcedChoice
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("modelgw: decode tool choice: %w", err)
	}
	*tc = ToolChoice{Function: f.Function.Name}
	return nil
}

// ChatResponse is the body of a chat completion.
type ChatResponse struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []Choice `json:"choices"`
	Usage   *Usage   `json:"usage,omitempty"`
}

// Choice is one generated answer.
type Choice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// Usage counts the tokens of one completion.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// ToolCall returns the first call of the named function in any choice.
func (r *ChatResponse) ToolCall(name string) (ToolCall, bool) {
	for _, ch := range r.Choices {
		for _, tc := range ch.Message.ToolCalls {
			if tc.Function.Name == name {
				return tc, true
			}
		}
	}
	return ToolCall{}, false
}
