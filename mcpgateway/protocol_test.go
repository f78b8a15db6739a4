package mcpgateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rpcReply is a JSON-RPC response as a client reads it; ID stays raw so a
// missing id can be told from a null one.
type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func postMCP(h http.Handler, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer x")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestProtocolErrors: what the transport refuses before dispatch is
// answered with a JSON-RPC error body, never plain text: input that is no
// request keeps an error status and an error without id; a request naming
// an unknown method is answered 200 with -32601 and its id.
func TestProtocolErrors(t *testing.T) {
	t.Parallel()
	h := newScopeEnv(t).handler
	tests := []struct {
		name     string
		body     string
		header   []string
		status   int
		code     int    // 0: a result, not an error
		id       string // "" for no id
		contains string
	}{
		{name: "truncated JSON", body: `{"jsonrpc":"2.0","id":1,`, status: 400, code: -32700, contains: "parse error"},
		{name: "not JSON", body: `hello`, status: 400, code: -32700},
		{name: "empty body", body: ``, status: 400, code: -32700},
		{name: "no jsonrpc member", body: `{"id":1,"method":"tools/list"}`, status: 400, code: -32600, contains: "invalid request"},
		{name: "a number", body: `5`, status: 400, code: -32600},
		{name: "an object id", body: `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, status: 400, code: -32600},
		{name: "a batch", body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, status: 400, code: -32600, contains: "batch"},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":7,"method":"nope/x"}`, status: 200, code: -32601, id: `7`, contains: `"nope/x"`},
		{name: "unknown method, string id", body: `{"jsonrpc":"2.0","id":"a-1","method":"tools/lists","params":{}}`, status: 200, code: -32601, id: `"a-1"`},
		{name: "unknown notification", body: `{"jsonrpc":"2.0","method":"notifications/whatever"}`, status: 400, code: -32601},
		{name: "call without params", body: `{"jsonrpc":"2.0","id":3,"method":"tools/call"}`, status: 400, code: -32600, id: `3`, contains: "params"},
		{name: "id on a notification", body: `{"jsonrpc":"2.0","id":4,"method":"notifications/initialized"}`, status: 400, code: -32600, id: `4`},
		{name: "wrong Accept header", body: `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, header: []string{"Accept", "application/json"},
			status: 400, code: -32600, id: `5`, contains: "Accept"},
		{name: "unknown tool stays the SDK's", body: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
			status: 200, code: -32602, id: `6`},
		{name: "a 2026-07-28 client keeps the SDK's 404", body: `{"jsonrpc":"2.0","id":8,"method":"nope/x"}`,
			header: []string{"MCP-Protocol-Version", "2026-07-28"}, status: 404, code: -32601, id: `8`},
		{name: "tools/list answers", body: `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`, status: 200, id: `9`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := postMCP(h, tc.body, tc.header...)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Fatalf("Content-Type %q, want application/json: %s", ct, rec.Body)
			}
			var reply rpcReply
			if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil || reply.JSONRPC != "2.0" {
				t.Fatalf("body is not a JSON-RPC response (%v): %s", err, rec.Body)
			}
			if string(reply.ID) != tc.id {
				t.Errorf("id %s, want %q (empty: none): %s", reply.ID, tc.id, rec.Body)
			}
			switch {
			case tc.code == 0 && (reply.Error != nil || reply.Result == nil):
				t.Errorf("want a result: %s", rec.Body)
			case tc.code != 0 && (reply.Error == nil || reply.Error.Code != tc.code):
				t.Errorf("want error %d: %s", tc.code, rec.Body)
			case tc.code != 0 && !strings.Contains(reply.Error.Message, tc.contains):
				t.Errorf("message %q lacks %q", reply.Error.Message, tc.contains)
			}
		})
	}
}

// FuzzProtocolErrors: whatever the body, /mcp answers JSON: a JSON-RPC
// error body on every 4xx, and 200 only with a JSON-RPC response (or the
// step-up 403 of the scope test's mutation).
func FuzzProtocolErrors(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,`, `{"jsonrpc":"2.0","id":1,"method":"nope"}`, `[]`, `[1]`, `null`, `{}`,
		`{"jsonrpc":"2.0","method":"x"}`, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, listCall, "\xff"} {
		f.Add(s)
	}
	h := newScopeEnv(f).handler
	f.Fuzz(func(t *testing.T, body string) {
		rec := postMCP(h, body)
		if rec.Code == http.StatusForbidden || rec.Code == http.StatusAccepted {
			return // the step-up challenge; an accepted notification or response
		}
		var reply rpcReply
		if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil || reply.JSONRPC != "2.0" || rec.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("body %q: status %d, %q, not a JSON-RPC response: %s", body, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		if rec.Code >= 400 && reply.Error == nil {
			t.Fatalf("body %q: status %d without a JSON-RPC error: %s", body, rec.Code, rec.Body)
		}
	})
}

// FuzzProtocolError: the classification never panics, uses only the
// JSON-RPC codes, and answers 200 only with an id.
func FuzzProtocolError(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`), 400, "JSON RPC not handled")
	f.Add([]byte(`[`), 400, "malformed payload")
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`), 413, "too large")
	f.Fuzz(func(t *testing.T, body []byte, status int, text string) {
		if status < 400 || status > 499 {
			return
		}
		got, resp := protocolError(body, status, text)
		if resp == nil || resp.Error == nil {
			t.Fatalf("no error for %q", body)
		}
		we, ok := resp.Error.(*jsonrpc.Error)
		if !ok {
			t.Fatalf("error %T for %q", resp.Error, body)
		}
		code := we.Code
		switch code {
		case -32700, -32600, -32601:
		default:
			t.Fatalf("code %d for %q", code, body)
		}
		if got == http.StatusOK && (!resp.ID.IsValid() || code != -32601) {
			t.Fatalf("200 for %q without an id or not method-not-found: %+v", body, resp)
		}
		if got != http.StatusOK && got != status {
			t.Fatalf("status %d for %q, want the refusal's %d or 200", got, body, status)
		}
	})
}

// TestServerMethodsKnownToSDK keeps serverMethods true to the SDK: every
// method listed must be one the SDK's transport dispatches, or a refusal of
// it would be misreported as method not found's opposite. (The SDK's
// refusal text is matched here only to detect drift after an upgrade.)
func TestServerMethodsKnownToSDK(t *testing.T) {
	t.Parallel()
	server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	for method := range serverMethods {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{}}`
			if strings.HasPrefix(method, "notifications/") {
				body = `{"jsonrpc":"2.0","method":"` + method + `","params":{}}`
			}
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
			defer cancel()
			req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if strings.Contains(rec.Body.String(), "not handled") {
				t.Fatalf("the SDK does not handle %s (%d %s): drop it from serverMethods", method, rec.Code, rec.Body)
			}
		})
	}
	if serverMethods["nope/x"] {
		t.Fatal("an unknown method is listed")
	}
}

// Only a tools/call that asks for progress is answered by the streaming
// handler; the choice is per request, never carried to the next one.
func TestProgressRequestsStream(t *testing.T) {
	answer := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(name)) })
	}
	h := protocolErrors(1<<20, answer("json"), answer("stream"))
	tests := []struct{ name, body, want string }{
		{"list", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "json"},
		{"call with a progress token", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":7}}}`, "stream"},
		{"the next call without one", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}`, "json"},
		{"list with a token", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"progressToken":"a"}}}`, "json"},
		{"a batch", `[{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":{"progressToken":1}}}]`, "json"},
		{"a token whose key is escaped", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"x","_meta":{"progress\u0054oken":7}}}`, "stream"},
	}
	for _, tc := range tests {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body)))
		if got := w.Body.String(); got != tc.want {
			t.Errorf("%s: answered by %s, want %s", tc.name, got, tc.want)
		}
	}
}
