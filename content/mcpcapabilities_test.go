package content

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMCPUndeclaredCapabilities: the content servers declare tools,
// resources and logging; prompts/list and completion/complete are method
// not found under both protocol revisions (200 with -32601 under
// 2025-11-25, 404 under 2026-07-28), while tools/list and resources/list
// answer.
func TestMCPUndeclaredCapabilities(t *testing.T) {
	t.Parallel()
	src, err := NewSource(fstest.MapFS{"index.md": {Data: []byte("---\ntitle: Home\ndescription: d\n---\n\nHello.\n")}},
		Options{BaseURL: "https://example.test", NoSearch: true}, SourceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := NewMCPHandler(src, MCPOptions{Name: "t"})
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	tests := []struct {
		method, params string
		found          bool
	}{
		{method: "prompts/list"},
		{method: "prompts/get", params: `"name":"p"`},
		{method: "completion/complete", params: `"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}`},
		{method: "tools/list", found: true},
		{method: "resources/list", found: true},
	}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, tc := range tests {
			t.Run(tc.method+" "+version, func(t *testing.T) {
				params := tc.params
				if version == "2026-07-28" {
					params = strings.TrimPrefix(params+","+meta, ",")
				}
				req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"`+tc.method+`","params":{`+params+`}}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", version)
				req.Header.Set("Mcp-Method", tc.method)
				if tc.method == "prompts/get" {
					req.Header.Set("Mcp-Name", "p")
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				var reply struct {
					ID    int                 `json:"id"`
					Error *struct{ Code int } `json:"error"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil || reply.ID != 5 {
					t.Fatalf("%d %s", rec.Code, rec.Body)
				}
				wantStatus := http.StatusOK
				if !tc.found && version == "2026-07-28" {
					wantStatus = http.StatusNotFound
				}
				switch {
				case rec.Code != wantStatus:
					t.Errorf("status %d, want %d: %s", rec.Code, wantStatus, rec.Body)
				case tc.found && reply.Error != nil, !tc.found && (reply.Error == nil || reply.Error.Code != -32601):
					t.Errorf("found %v: %s", tc.found, rec.Body)
				}
			})
		}
	}
}
