package federation_test

// The in-process hot path of a federated tool call, against a bare go-sdk
// echo server on loopback (stateless, JSON responses, as bench/cmd/floors
// serves it). Performance is measured here, never asserted:
//
//	go test ./federation -run '^$' -bench FederatedCall -benchtime 2s
//
// direct is a go-sdk client session calling the server (the floor: what
// any Go MCP client pays); pool is mcpupstream.Pool.CallTool (its session
// reused, the egress-checked transport, attempt tracking); entry is the
// catalogue's registry entry: the lookup, the input's validation and Run
// (the rationale dropped, the pool's call, the result passed through). The
// toolrun path around it (auth, approvals, quota, audit) is not here; the
// federated scenario of bench/run.sh measures the whole of it.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
	"github.com/gtmgate/gtmgate/federation"
	"github.com/gtmgate/gtmgate/mcpupstream"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type benchEcho struct {
	Text string `json:"text"`
}

// benchEchoServer is the floors' bare go-sdk MCP server: one echo tool.
func benchEchoServer(b *testing.B) string {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-floor", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns its text.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in benchEcho) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	b.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func BenchmarkFederatedCall(b *testing.B) {
	ctx := context.Background()
	url := benchEchoServer(b)

	b.Run("direct", func(b *testing.B) {
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"bench"}`)}
		b.ReportAllocs()
		for b.Loop() {
			if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})

	pool := mcpupstream.NewPool(mcpupstream.Options{Policy: egress.Policy{AllowLoopback: true}, Version: "bench"})
	b.Cleanup(func() { pool.Close() })
	st := storetest.TenantWithToken(b)
	srv := &gtmgate.MCPServer{TenantID: "acme", Name: "floor", URL: url, Auth: gtmgate.MCPServerAuth{Kind: gtmgate.MCPAuthNone}, AutoAcceptChanges: true}
	if _, err := st.PutMCPServer(ctx, srv); err != nil {
		b.Fatal(err)
	}
	catalog := federation.New(federation.Options{Store: st, Upstream: pool})
	if _, err := catalog.Refresh(ctx, "acme", "floor"); err != nil {
		b.Fatal(err)
	}
	srv, _ = st.GetMCPServer(ctx, "acme", "floor")

	b.Run("pool", func(b *testing.B) {
		args := json.RawMessage(`{"text":"bench"}`)
		b.ReportAllocs()
		for b.Loop() {
			if res, err := pool.CallTool(ctx, srv, "echo", args, true, nil); err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})

	input := json.RawMessage(`{"text":"bench","rationale":"bench"}`)
	entry := func() error {
		e, err := catalog.Tool(ctx, "acme", "floor__echo")
		if err != nil {
			return err
		}
		if _, _, err := e.Validate(input); err != nil {
			return err
		}
		_, err = e.Run(ctx, &gtmgate.Call{TenantID: "acme", Input: input})
		return err
	}
	b.Run("entry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := entry(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Eight callers sharing the one pooled session, as under load.
	b.Run("entry-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(4) // × GOMAXPROCS (2 here): 8 callers
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := entry(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
