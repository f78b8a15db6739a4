package mcpupstream

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	gtmgate "github.com/gtmgate/gtmgate"
)

// TestToolsChangedThroughSubscriptionsListen: an upstream on the
// 2026-07-28 protocol that is stateless (it opens no standalone stream,
// so it never sends a notification unasked) still tells gtmgate its tools
// changed, over the subscriptions/listen stream the SDK's client opens
// when the server advertises tools.listChanged.
func TestToolsChangedThroughSubscriptionsListen(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "stateless", Version: "1"}, nil)
	addTool(srv, "echo", echo)
	var mu sync.Mutex
	var methods []string
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var msg struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(body, &msg)
			mu.Lock()
			methods = append(methods, msg.Method)
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	changed := make(chan string, 8)
	p := newPool(t, Options{ProtocolVersion: LatestProtocolVersion, OnToolsChanged: func(_, server string) { changed <- server }})
	s := &gtmgate.MCPServer{TenantID: "t1", Name: "crm", URL: ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
	if tools, err := p.ListTools(ctxTimeout(t), s); err != nil || len(tools) != 1 {
		t.Fatalf("ListTools = %d tools, %v; want 1", len(tools), err)
	}
	listening := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range methods {
			if m == "subscriptions/listen" {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(waitFor)
	for !listening() {
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("the client sent no subscriptions/listen; methods: %v", methods)
		}
		time.Sleep(10 * time.Millisecond)
	}
	addTool(srv, "added", echo)
	select {
	case server := <-changed:
		if server != "crm" {
			t.Errorf("OnToolsChanged(%q), want crm", server)
		}
	case <-time.After(waitFor):
		t.Fatal("OnToolsChanged was not called")
	}
	if tools, err := p.ListTools(ctxTimeout(t), s); err != nil || len(tools) != 2 {
		t.Fatalf("after the change: %d tools, %v; want 2", len(tools), err)
	}
}

// TestProposedProtocolVersion: the pool proposes 2025-11-25 unless told
// otherwise, the revision an operator names, or with LatestProtocolVersion
// the go-sdk's newest; the tool call after it carries what was agreed.
func TestProposedProtocolVersion(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "versions", Version: "1"}, nil)
	addTool(srv, "echo", echo)
	// Stateless: the go-sdk serves 2026-07-28 only so.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	tests := []struct{ option, want string }{
		{"", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{LatestProtocolVersion, mcp.SupportedProtocolVersions()[0]},
	}
	for _, tc := range tests {
		t.Run("option="+tc.option, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var called string
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost {
					body, _ := io.ReadAll(r.Body)
					r.Body = io.NopCloser(bytes.NewReader(body))
					if bytes.Contains(body, []byte(`"tools/call"`)) {
						mu.Lock()
						called = r.Header.Get("Mcp-Protocol-Version")
						mu.Unlock()
					}
				}
				h.ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			p := newPool(t, Options{ProtocolVersion: tc.option})
			s := &gtmgate.MCPServer{TenantID: "t1", Name: "crm", URL: ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
			if _, err := p.CallTool(ctxTimeout(t), s, "echo", json.RawMessage(`{}`), true, nil); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if called != tc.want {
				t.Errorf("tools/call sent Mcp-Protocol-Version %q, want %q", called, tc.want)
			}
		})
	}
}
