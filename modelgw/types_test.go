package modelgw

import (
	"encoding/json"
	"net/http"
	"testing"
)

func TestToolChoiceJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		choice ToolChoice
		want   string
	}{
		{name: "auto", choice: ToolChoice{Mode: ToolChoiceAuto}, want: `"auto"`},
		{name: "required", choice: ToolChoice{Mode: ToolChoiceRequired}, want: `"required"`},
		{name: "forced function", choice: *ForceTool("f"), want: `{"type":"function","function":{"name":"f"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.choice)
			if err != nil || string(b) != tt.want {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tt.want)
			}
			var back ToolChoice
			if err := json.Unmarshal(b, &back); err != nil || back != tt.choice {
				t.Errorf("round trip = %+v, %v; want %+v", back, err, tt.choice)
			}
		})
	}
}

func TestMessageJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{name: "user", msg: Message{Role: RoleUser, Content: "hi"}, want: `{"role":"user","content":"hi"}`},
		{name: "assistant tool call has null content",
			msg:  Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Type: "function", Function: FunctionCall{Name: "f", Arguments: "{}"}}}},
			want: `{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"}}],"content":null}`},
		{name: "tool result", msg: Message{Role: RoleTool, Content: `{"ok":true}`, ToolCallID: "1"},
			want: `{"role":"tool","content":"{\"ok\":true}","tool_call_id":"1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.msg)
			if err != nil || string(b) != tt.want {
				t.Errorf("Marshal = %s, %v; want %s", b, err, tt.want)
			}
		})
	}
}

func TestParseAPIError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want APIError
	}{
		{name: "openai shape", body: `{"error":{"message":"m","type":"t","param":"p","code":"c"}}`,
			want: APIError{Status: 400, Message: "m", Type: "t", Param: "p", Code: "c"}},
		{name: "null code", body: `{"error":{"message":"m","type":"t","param":null,"code":null}}`,
			want: APIError{Status: 400, Message: "m", Type: "t"}},
		{name: "numeric code", body: `{"error":{"message":"m","code":429}}`,
			want: APIError{Status: 400, Message: "m", Code: "429"}},
		{name: "not json", body: "upstream exploded", want: APIError{Status: 400, Message: "upstream exploded"}},
		{name: "empty", body: "", want: APIError{Status: 400, Message: "Bad Request"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := parseAPIError(400, http.Header{}, []byte(tt.body)); *got != tt.want {
				t.Errorf("parseAPIError = %+v, want %+v", *got, tt.want)
			}
		})
	}
}
