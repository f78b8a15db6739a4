package federation_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkUpstreamByProtocol is the upstream's side of one tools/call
// (the floors' go-sdk server, stateless, JSON responses), as loadgen's
// direct call sends it (2025-11-25, no _meta) and as a go-sdk client such
// as gtmgate's pool sends it (2026-07-28: _meta with the client's info,
// Mcp-Method and Mcp-Name headers, which the server checks against the
// body). See bench/sdk-decode-patch.md.
//
// stateful-2025 is the same call in a session opened once (initialize,
// notifications/initialized, then Mcp-Session-Id on every call), as
// docker/mcp-gateway serves its clients: the difference to loadgen-2025 is
// what the SDK's stateless transport costs per call (an ephemeral session,
// and the body decoded twice).
//
//	go test ./federation -run '^$' -bench UpstreamByProtocol -benchmem
func BenchmarkUpstreamByProtocol(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-floor", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns its text.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in benchEcho) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	stateless := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	stateful := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{JSONResponse: true})
	post := func(h http.Handler, version, body string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/mcp", bytes.NewReader([]byte(body)))
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Mcp-Protocol-Version", version)
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	init := post(stateful, "2025-11-25", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, nil)
	session := map[string]string{"Mcp-Session-Id": init.Header().Get("Mcp-Session-Id")}
	if init.Code != 200 || session["Mcp-Session-Id"] == "" {
		b.Fatal("initialize:", init.Code, init.Body.String())
	}
	if w := post(stateful, "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session); w.Code/100 != 2 {
		b.Fatal("initialized:", w.Code, w.Body.String())
	}
	cases := []struct {
		name, version, body string
		hdr                 map[string]string
		h                   http.Handler
	}{
		{"loadgen-2025", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, nil, stateless},
		{"stateful-2025", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, session, stateful},
		{"gosdk-2026", "2026-07-28", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"gtmgate","version":"bench"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"echo","arguments":{"text":"x"}}}`,
			map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "echo"}, stateless},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if w := post(c.h, c.version, c.body, c.hdr); w.Code != 200 {
					b.Fatal(w.Code, w.Body.String())
				}
			}
		})
	}
}
