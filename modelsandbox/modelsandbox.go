// Package modelsandbox is the demo's model gateway: an in-process,
// OpenAI-compatible server (POST /v1/chat/completions, streamed or not, and
// GET /v1/models) whose answers follow fixed rules instead of a model. It
// stands in for MODEL_GATEWAY_URL under --demo, so the chat pass-through and
// the quality harness's three judges work with no model account. It is
// labelled as a sandbox in every answer.
package modelsandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Models the sandbox serves.
const (
	ChatModel  = "sandbox-chat"
	JudgeAlpha = "sandbox-judge-alpha"
	JudgeBeta  = "sandbox-judge-beta"
	JudgeGamma = "sandbox-judge-gamma"
)

// owners pretend the judges come from three providers, as real judges must.
var owners = map[string]string{ChatModel: "gtmgate-sandbox", JudgeAlpha: "sandbox-provider-a", JudgeBeta: "sandbox-provider-b", JudgeGamma: "sandbox-provider-c"}

// maxBody bounds a request body.
const maxBody = 4 << 20

// Handler returns the sandbox's HTTP handler.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", completions)
	mux.HandleFunc("GET /v1/models", models)
	return mux
}

// request is the part of a chat completion request the sandbox reads.
type request struct {
	Model      string          `json:"model"`
	Messages   []message       `json:"messages"`
	Tools      []tool          `json:"tools"`
	ToolChoice json.RawMessage `json:"tool_choice"`
	Stream     bool            `json:"stream"`
	Options    *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text returns a message's content whether it is a string or content parts.
func (m message) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(m.Content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

type tool struct {
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

func models(w http.ResponseWriter, _ *http.Request) {
	var data []map[string]any
	for _, m := range []string{ChatModel, JudgeAlpha, JudgeBeta, JudgeGamma} {
		data = append(data, map[string]any{"id": m, "object": "model", "created": 1767225600, "owned_by": owners[m]})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func completions(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		apiError(w, http.StatusRequestEntityTooLarge, "request body too large")
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		apiError(w, http.StatusBadRequest, "request body is not a chat completion request: "+err.Error())
		return
	}
	if _, ok := owners[req.Model]; !ok {
		apiError(w, http.StatusNotFound, fmt.Sprintf("the sandbox has no model %q; it serves %s, %s, %s and %s",
			req.Model, ChatModel, JudgeAlpha, JudgeBeta, JudgeGamma))
		return
	}
	if len(req.Messages) == 0 {
		apiError(w, http.StatusBadRequest, "messages must not be empty")
		return
	}
	if forced := forcedTool(req.ToolChoice); forced == verdictTool {
		args, err := judge(req.Model, lastUser(req.Messages))
		if err != nil {
			apiError(w, http.StatusBadRequest, err.Error())
			return
		}
		writeToolCall(w, req, forced, args)
		return
	}
	answer := "[gtmgate sandbox model] " + reply(lastUser(req.Messages))
	if len(req.Tools) > 0 && forcedTool(req.ToolChoice) == "" {
		call, text, ok := agentTurn(req)
		if ok && call != nil {
			args, _ := json.Marshal(call.args)
			writeToolCall(w, req, call.tool, string(args))
			return
		}
		if ok {
			answer = "[gtmgate sandbox model] " + text
		}
	} else if md, ok := briefAnswer(req.Messages); ok {
		answer = md
	}
	if req.Stream {
		stream(w, req, answer)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": completionID(), "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": answer}}},
		"usage": usage(req, answer),
	})
}

// reply is the chat model's fixed-rule answer: it says what it is and
// echoes the start of the question.
func reply(question string) string {
	q := strings.Join(strings.Fields(question), " ")
	if len([]rune(q)) > 120 {
		q = string([]rune(q)[:120]) + "…"
	}
	if q == "" {
		return "This is the sandbox model of gtmgate's demo: it answers by fixed rules, without a real model."
	}
	return fmt.Sprintf("This is the sandbox model of gtmgate's demo; it answers by fixed rules, without a real model. You asked: “%s”", q)
}

func lastUser(ms []message) string {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == "user" {
			return ms[i].text()
		}
	}
	return ""
}

func forcedTool(raw json.RawMessage) string {
	var c struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &c) != nil {
		return ""
	}
	return c.Function.Name
}

func usage(req request, answer string) map[string]int {
	in := 0
	for _, m := range req.Messages {
		in += len(strings.Fields(m.text()))
	}
	out := len(strings.Fields(answer))
	return map[string]int{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}
}

func writeToolCall(w http.ResponseWriter, req request, name, args string) {
	writeJSON(w, http.StatusOK, map[string]any{
		"id": completionID(), "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{
			"role": "assistant", "content": nil,
			"tool_calls": []any{map[string]any{"id": "call_" + completionID()[9:], "type": "function",
				"function": map[string]any{"name": name, "arguments": args}}}}}},
		"usage": usage(req, args),
	})
}

// stream sends answer as server-sent chunks, word by word, then the usage
// chunk when asked for, then [DONE].
func stream(w http.ResponseWriter, req request, answer string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	id, created := completionID(), time.Now().Unix()
	flusher, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	words := strings.SplitAfter(answer, " ")
	for _, word := range words {
		send(chunk(map[string]any{"content": word}, nil))
	}
	send(chunk(map[string]any{}, "stop"))
	if req.Options != nil && req.Options.IncludeUsage {
		send(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{}, "usage": usage(req, answer)})
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

func completionID() string {
	return fmt.Sprintf("chatcmpl-sandbox%x", time.Now().UnixNano())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}
