package mcpgateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/telemetry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestTraceFromMeta: a tools/call whose params._meta carries a W3C
// traceparent (SEP-414) makes its span in that trace, under that parent,
// whether or not the HTTP request carried a trace of its own; a
// traceparent that does not parse leaves the headers' trace. When the
// HTTP server span is in another trace (the header's, or its own without
// one), it links to the _meta context.
func TestTraceFromMeta(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	telemetry.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	h := telemetry.ServerMiddleware("gateway")(newScopeEnv(t).handler)

	const (
		metaTrace, metaSpan     = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
		headerTrace, headerSpan = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	)
	tests := []struct {
		name              string
		meta              string // members of params._meta
		header            string // the request's traceparent header
		wantTrace, parent string // of the tools/call span
		wantState         string // its tracestate
		linked            bool   // the HTTP span links to the _meta context
	}{
		{name: "_meta only", meta: `"traceparent":"00-` + metaTrace + `-` + metaSpan + `-01","tracestate":"rojo=00f067aa0ba902b7"`,
			wantTrace: metaTrace, parent: metaSpan, wantState: "rojo=00f067aa0ba902b7", linked: true},
		{name: "_meta wins over the header", meta: `"traceparent":"00-` + metaTrace + `-` + metaSpan + `-01"`,
			header: "00-" + headerTrace + "-" + headerSpan + "-01", wantTrace: metaTrace, parent: metaSpan, linked: true},
		{name: "the header alone", header: "00-" + headerTrace + "-" + headerSpan + "-01", wantTrace: headerTrace},
		{name: "a bad _meta traceparent leaves the header's", meta: `"traceparent":"00-` + metaTrace + `-0000000000000000-01"`,
			header: "00-" + headerTrace + "-" + headerSpan + "-01", wantTrace: headerTrace},
		{name: "a traceparent that is not a string", meta: `"traceparent":7`,
			header: "00-" + headerTrace + "-" + headerSpan + "-01", wantTrace: headerTrace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec.Reset()
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contacts","arguments":{"action":"list","rationale":"r"}`
			if tc.meta != "" {
				body += `,"_meta":{` + tc.meta + `}`
			}
			body += `}}`
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			req.Header.Set("Authorization", "Bearer x")
			if tc.header != "" {
				req.Header.Set("traceparent", tc.header)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `\"ok\":true`) {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			var call, server sdktrace.ReadOnlySpan
			for _, s := range rec.Ended() {
				switch {
				case s.Name() == "tools/call contacts":
					call = s
				case s.SpanKind() == trace.SpanKindServer:
					server = s
				}
			}
			if call == nil || server == nil {
				t.Fatalf("spans: tools/call %v, server %v", call != nil, server != nil)
			}
			if got := call.SpanContext().TraceID().String(); got != tc.wantTrace {
				t.Errorf("tools/call in trace %s, want %s", got, tc.wantTrace)
			}
			switch got := call.Parent().SpanID(); {
			case tc.parent != "" && got.String() != tc.parent:
				t.Errorf("tools/call's parent %s, want %s", got, tc.parent)
			case tc.parent == "" && got != server.SpanContext().SpanID():
				t.Errorf("tools/call's parent %s, want the HTTP span %s", got, server.SpanContext().SpanID())
			}
			if got := call.SpanContext().TraceState().String(); got != tc.wantState {
				t.Errorf("tracestate %q, want %q", got, tc.wantState)
			}
			links := server.Links()
			switch {
			case tc.linked && (len(links) != 1 || links[0].SpanContext.TraceID().String() != metaTrace || links[0].SpanContext.SpanID().String() != metaSpan):
				t.Errorf("HTTP span links %+v, want one to the _meta context", links)
			case !tc.linked && len(links) != 0:
				t.Errorf("HTTP span links %+v, want none", links)
			}
		})
	}
}

// FuzzTraceFromMeta: whatever _meta holds, the request goes on (once, with
// no error), and a trace it continues is one its traceparent names.
func FuzzTraceFromMeta(f *testing.F) {
	telemetry.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder())))
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "rojo=00f067aa0ba902b7", "k=v")
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", "", "")
	f.Add("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "=,", "%zz")
	f.Add("01-00000000000000000000000000000000-00f067aa0ba902b7-00", "a=b,a=c", "k=v;p")
	f.Add("", "x", "")
	f.Fuzz(func(t *testing.T, traceparent, tracestate, baggage string) {
		var calls int
		var got trace.SpanContext
		next := traceFromMeta(func(ctx context.Context, _ string, _ mcp.Request) (mcp.Result, error) {
			calls++
			got = trace.SpanContextFromContext(ctx)
			return &mcp.CallToolResult{}, nil
		})
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x",
			Meta: mcp.Meta{"traceparent": traceparent, "tracestate": tracestate, "baggage": baggage}}}
		if _, err := next(context.Background(), "tools/call", req); err != nil || calls != 1 {
			t.Fatalf("err %v after %d calls", err, calls)
		}
		if got.IsValid() && !strings.Contains(strings.ToLower(traceparent), got.TraceID().String()) {
			t.Fatalf("continues trace %s, not named in %q", got.TraceID(), traceparent)
		}
	})
}

// A request without params (tools/list may omit them) has no _meta to read.
func TestTraceCarrierWithoutParams(t *testing.T) {
	for _, req := range []mcp.Request{&mcp.ListToolsRequest{}, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{}}} {
		if c := traceCarrier(req); c != nil {
			t.Errorf("%T: carrier %v", req, c)
		}
	}
}
