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
//	go test ./federation -run '^$' -bench UpstreamByProtocol -benchmem
func BenchmarkUpstreamByProtocol(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-floor", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns its text.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in benchEcho) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	cases := []struct {
		name, version, body string
		hdr                 map[string]string
	}{
		{"loadgen-2025", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, nil},
		{"gosdk-2026", "2026-07-28", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"gtmgate","version":"bench"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"echo","arguments":{"text":"x"}}}`,
			map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "echo"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest("POST", "/mcp", bytes.NewReader([]byte(c.body)))
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Mcp-Protocol-Version", c.version)
				for k, v := range c.hdr {
					r.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatal(w.Code, w.Body.String())
				}
			}
		})
	}
}
