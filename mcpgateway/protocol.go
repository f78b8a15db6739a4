package mcpgateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// serverMethods are the methods the SDK's server answers (its receiving
// method table). They only tell an unknown method (-32601) from a known one
// the transport refused for its form (-32600); the SDK alone decides what
// it accepts.
var serverMethods = map[string]bool{
	"initialize": true, "ping": true, "tools/list": true, "tools/call": true,
	"prompts/list": true, "prompts/get": true, "resources/list": true, "resources/templates/list": true,
	"resources/read": true, "resources/subscribe": true, "resources/unsubscribe": true,
	"completion/complete": true, "logging/setLevel": true, "server/discover": true, "subscriptions/listen": true,
	"notifications/initialized": true, "notifications/cancelled": true, "notifications/progress": true,
	"notifications/roots/list_changed": true,
}

// maxRefusalText bounds how much of the SDK's plain-text refusal is kept.
const maxRefusalText = 512

// protocolErrors makes every POST the SDK's transport refuses before
// dispatch (malformed JSON, a message that is not JSON-RPC, an unknown
// method, a wrong header) answer with a JSON-RPC error body, where the SDK
// writes plain text. Responses the SDK writes as JSON (results, JSON-RPC
// errors of its own) pass unchanged.
//
// A tools/call whose client asked for progress goes to streaming, the
// rest to next: a JSON response has nowhere to put progress notifications.
func protocolErrors(maxBody int64, next, streaming http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		// Keep a copy of the body to classify a refusal; the SDK reads the
		// same bytes, and the rest of an oversized body, under its own limit.
		if maxBody <= 0 {
			maxBody = jsonapi.DefaultMaxBody
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		rw := &refusalWriter{ResponseWriter: w}
		serve := next
		if wantsProgress(body) {
			serve = streaming
		}
		serve.ServeHTTP(rw, r)
		if !rw.refused {
			return
		}
		status, resp := protocolError(body, rw.status, strings.TrimSpace(rw.text.String()))
		data, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			http.Error(w, rw.text.String(), rw.status)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(status)
		w.Write(data)
	})
}

// protocolError is the answer to a body the transport refused with status
// and text (the SDK's): a JSON-RPC error response and its HTTP status.
//
// Input that is not a JSON-RPC request cannot be answered as one (the
// 2025-11-25 streamable HTTP transport): it keeps an error status and its
// error carries no id; parse error -32700, invalid request -32600, or method
// not found -32601 for a notification. A request naming a method the server
// does not have is answered as any request is, 200 with a JSON-RPC error
// response (-32601) carrying its id, which clients hand to the caller as
// that request's error.
func protocolError(body []byte, status int, text string) (int, *jsonrpc.Response) {
	refuse := func(code int64, msg string) (int, *jsonrpc.Response) {
		return status, &jsonrpc.Response{Error: &jsonrpc.Error{Code: code, Message: msg}}
	}
	if len(text) > maxRefusalText {
		text = text[:maxRefusalText]
	}
	if status == http.StatusRequestEntityTooLarge {
		return refuse(jsonrpc.CodeInvalidRequest, "invalid request: "+text)
	}
	// The first JSON value, as the SDK reads it (it ignores what follows).
	var first json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&first); err != nil {
		return refuse(jsonrpc.CodeParseError, "parse error: the body is not JSON")
	}
	if bytes.HasPrefix(bytes.TrimSpace(first), []byte("[")) {
		return refuse(jsonrpc.CodeInvalidRequest, "invalid request: send one JSON-RPC message per POST, not a batch")
	}
	msg, err := jsonrpc.DecodeMessage(first)
	if err != nil {
		return refuse(jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message: "+err.Error())
	}
	req, ok := msg.(*jsonrpc.Request)
	switch {
	case !ok:
		return refuse(jsonrpc.CodeInvalidRequest, "invalid request: "+text)
	case !serverMethods[req.Method] && req.IsCall():
		return http.StatusOK, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
			Message: fmt.Sprintf("method not found: %q", req.Method)}}
	case !serverMethods[req.Method]:
		return refuse(jsonrpc.CodeMethodNotFound, fmt.Sprintf("method not found: %q", req.Method))
	}
	return status, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + text}}
}

// refusalWriter holds back a plain-text 4xx the SDK writes, for
// protocolErrors to answer in its place; anything else goes straight
// through.
type refusalWriter struct {
	http.ResponseWriter
	wrote   bool
	refused bool
	status  int
	text    bytes.Buffer
}

func (w *refusalWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
	if status >= 400 && status < 500 && mt == "text/plain" {
		w.refused, w.status = true, status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *refusalWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.refused {
		if room := maxRefusalText - w.text.Len(); room > 0 {
			w.text.Write(b[:min(len(b), room)])
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *refusalWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.refused {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *refusalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// wantsProgress reports whether body is one tools/call request carrying a
// progress token.
func wantsProgress(body []byte) bool {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Meta struct {
				ProgressToken any `json:"progressToken"`
			} `json:"_meta"`
		} `json:"params"`
	}
	// Most calls carry no token: spare them a decode of the whole body
	// (the SDK decodes it anyway). A key spelled with escapes is decoded.
	if !bytes.Contains(body, []byte("progressToken")) && !bytes.Contains(body, []byte(`\u`)) {
		return false
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' || json.Unmarshal(body, &m) != nil {
		return false
	}
	return m.Method == "tools/call" && m.Params.Meta.ProgressToken != nil
}
