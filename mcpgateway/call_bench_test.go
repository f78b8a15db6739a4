package mcpgateway

// The in-process hot path of a built-in tool call through the real /mcp
// handler (protocol checks, the SDK's stateless server, toolrun with
// SQLite), as an agent sends it. Performance is measured, never asserted:
//
//	go test ./mcpgateway -run '^$' -bench BuiltinCall -benchmem

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func BenchmarkBuiltinCall(b *testing.B) {
	e := newToolsetEnv(b)
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crm_deals","arguments":{"action":"list","rationale":"bench"}}}`
	call := func() {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		req.Header.Set("Authorization", "Bearer none")
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"ok":true`) {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	call()
	b.ReportAllocs()
	for b.Loop() {
		call()
		e.ran = e.ran[:0]
	}
}
