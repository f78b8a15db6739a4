package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// traceContext reads and writes W3C traceparent/tracestate.
var traceContext = propagation.TraceContext{}

// Carry returns ctx's trace context as a W3C traceparent, for work that
// continues it later (a held call its approver releases); "" when ctx is
// not traced.
func Carry(ctx context.Context) string {
	carrier := propagation.MapCarrier{}
	traceContext.Inject(ctx, carrier)
	return carrier.Get("traceparent")
}

// Resume starts the span "op target" as a child of the trace carried (see
// Carry), linked to ctx's own span: the work continues the trace it was
// asked for in, and the trace of whoever resumed it points there. Without a
// valid carried trace it is Start.
func Resume(ctx context.Context, carried, op, target string) (context.Context, trace.Span) {
	if !Enabled() {
		return ctx, noopSpan
	}
	parent := trace.SpanContextFromContext(traceContext.Extract(context.Background(), propagation.MapCarrier{"traceparent": carried}))
	if !parent.IsValid() {
		return Start(ctx, op, target)
	}
	name := op
	if target != "" {
		name += " " + target
	}
	var opts []trace.SpanStartOption
	if own := trace.SpanContextFromContext(ctx); own.IsValid() {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: own}))
	}
	return Tracer().Start(trace.ContextWithRemoteSpanContext(ctx, parent), name, opts...)
}
