package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// chatRequest is the part of an OpenAI chat completion request the fake
// upstream reads.
type chatRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
}

// newChatUpstream is a fake OpenAI-compatible model gateway under /v1: a
// fixed non-streaming answer, or chunks server-sent events followed by
// "data: [DONE]", and a one-model /v1/models.
func newChatUpstream(chunks int, delay time.Duration, key string) http.Handler {
	mux := http.NewServeMux()
	authorized := func(r *http.Request) bool {
		return key == "" || r.Header.Get("Authorization") == "Bearer "+key
	}
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		if !authorized(r) {
			http.Error(w, `{"error":{"message":"bad key","type":"invalid_request_error"}}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"bench-model","object":"model","created":1700000000,"owned_by":"bench"}]}`)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		if !authorized(r) {
			http.Error(w, `{"error":{"message":"bad key","type":"invalid_request_error"}}`, http.StatusUnauthorized)
			return
		}
		var req chatRequest
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		if req.Model == "" {
			req.Model = "bench-model"
		}
		if req.Stream {
			streamChat(w, req.Model, chunks, delay)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"chatcmpl-bench","object":"chat.completion","created":1700000000,"model":%q,`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":12,"completion_tokens":%d,"total_tokens":%d}}`,
			req.Model, strings.Repeat("word ", chunks), chunks, chunks+12)
	})
	return mux
}

// streamChat writes chunks chat.completion.chunk events, flushing each.
func streamChat(w http.ResponseWriter, model string, chunks int, delay time.Duration) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for i := range chunks {
		if delay > 0 {
			time.Sleep(delay)
		}
		role := ""
		if i == 0 {
			role = `"role":"assistant",`
		}
		fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"+
			"\"model\":%q,\"choices\":[{\"index\":0,\"delta\":{%s\"content\":\"word \"},\"finish_reason\":null}]}\n\n", model, role)
		if flusher != nil {
			flusher.Flush()
		}
	}
	fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"+
		"\"model\":%q,\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", model)
}
