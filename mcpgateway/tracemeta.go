package mcpgateway

import (
	"context"
	"reflect"

	"github.com/gtmgate/gtmgate/telemetry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// metaTraceKeys are the keys of params._meta that carry trace context
// (SEP-414): W3C traceparent and tracestate, and W3C baggage, unprefixed.
var metaTraceKeys = [...]string{"traceparent", "tracestate", "baggage"}

// traceFromMeta continues the trace an agent names in a request's
// params._meta, as the HTTP middleware continues the one in the request's
// headers: its spans (tools/call, the provider calls under it) join the
// agent's trace.
//
// When both carry a valid context, _meta wins. It is the MCP request's
// own context (SEP-414; the OpenTelemetry MCP conventions make it the
// parent of the server's MCP span), where the headers are the HTTP hop's:
// a proxy, a retry or the client's HTTP instrumentation may have set
// them. The two are usually one trace; when they are not (or the headers
// carried none, and the HTTP server span began a trace of its own), that
// span gets a link to the _meta context, so the HTTP request's trace leads
// to the agent's. (The conventions put the link the other way, on the MCP
// span; that span is the tool handler's.) A traceparent that does not
// parse is ignored and the headers' trace kept, as the propagator ignores
// a bad header. The tool handler keeps a context that already holds a
// valid span context, so the one put here is the one it continues.
func traceFromMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !telemetry.Enabled() {
			return next(ctx, method, req)
		}
		carrier := traceCarrier(req)
		if carrier == nil {
			return next(ctx, method, req)
		}
		ambient := trace.SpanFromContext(ctx)
		if !ambient.IsRecording() {
			ambient = trace.SpanFromContext(requestContext(req))
		}
		ctx = otel.GetTextMapPropagator().Extract(ctx, carrier)
		if sc := trace.SpanContextFromContext(ctx); sc.IsValid() && sc.IsRemote() &&
			ambient.IsRecording() && ambient.SpanContext().TraceID() != sc.TraceID() {
			ambient.AddLink(trace.Link{SpanContext: sc})
		}
		return next(ctx, method, req)
	}
}

// traceCarrier returns the trace keys of req's params._meta that hold
// strings, or nil when there are none.
func traceCarrier(req mcp.Request) propagation.MapCarrier {
	params := req.GetParams()
	// A request without params holds a typed nil pointer, whose GetMeta
	// would dereference it.
	if v := reflect.ValueOf(params); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	meta := params.GetMeta()
	var carrier propagation.MapCarrier
	for _, k := range metaTraceKeys {
		if v, ok := meta[k].(string); ok && v != "" {
			if carrier == nil {
				carrier = propagation.MapCarrier{}
			}
			carrier[k] = v
		}
	}
	return carrier
}

// requestContext is the HTTP request's context that New puts in the
// request's token info, or the background context when there is none.
func requestContext(req mcp.Request) context.Context {
	if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
		if rctx, ok := extra.TokenInfo.Extra[string(requestExtra)].(context.Context); ok {
			return rctx
		}
	}
	return context.Background()
}
