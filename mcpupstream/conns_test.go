package mcpupstream

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	gtmgate "github.com/gtmgate/gtmgate"
)

// Calls in flight at once each keep their connection for the next calls:
// with four idle connections per host, 16 callers dialled anew on a
// quarter of their calls (173 connections for 640). With no connection
// closed, a caller dials only when every connection is busy or being
// dialled, so about one per caller (17 here); the bound leaves room for
// dials that finish after their caller got another connection.
func TestConnectionsReusedAtAnyConcurrency(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-upstream", Version: "1"}, nil)
	addTool(srv, "echo", echo)
	ts := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	var dialled atomic.Int64
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialled.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	p := newPool(t, Options{})
	s := &gtmgate.MCPServer{TenantID: "t1", Name: "s", URL: ts.URL, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}}
	ctx := ctxTimeout(t)
	if _, err := p.CallTool(ctx, s, "echo", json.RawMessage(`{}`), true, nil); err != nil {
		t.Fatal(err)
	}
	const callers, calls = 16, 40
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range calls {
				if _, err := p.CallTool(ctx, s, "echo", json.RawMessage(`{}`), true, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	n, most := dialled.Load(), int64(4*callers)
	t.Logf("%d connections dialled for %d calls by %d callers", n, callers*calls, callers)
	if n > most {
		t.Errorf("%d connections dialled for %d calls by %d callers; want at most %d", n, callers*calls, callers, most)
	}
}
