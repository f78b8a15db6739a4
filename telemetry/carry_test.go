package telemetry

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestCarryAndResume: work resumed under a carried trace continues it and
// links to the trace that resumed it; a bad carried value starts as usual.
func TestCarryAndResume(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	if got := Carry(context.Background()); got != "" {
		t.Errorf("Carry of an untraced context = %q", got)
	}
	agentCtx, held := Start(context.Background(), "toolrun.approval_gate", "")
	carried := Carry(agentCtx)
	held.End()
	approverCtx, approver := Start(context.Background(), "POST /admin/approvals/{id}/approve", "")
	for _, tc := range []struct {
		carried    string
		wantParent bool
	}{{carried, true}, {"", false}, {"00-zz-00f067aa0ba902b7-01", false}} {
		_, span := Resume(approverCtx, tc.carried, "approval.execute", "apr_1")
		span.End()
		got := rec.Ended()[len(rec.Ended())-1]
		if tc.wantParent {
			if got.Parent().SpanID() != held.SpanContext().SpanID() || got.SpanContext().TraceID() != held.SpanContext().TraceID() {
				t.Errorf("resumed %q: parent %s in trace %s, want the held call's span", tc.carried, got.Parent().SpanID(), got.SpanContext().TraceID())
			}
			if len(got.Links()) != 1 || got.Links()[0].SpanContext.SpanID() != approver.SpanContext().SpanID() {
				t.Errorf("resumed span links %v, want the approver's span", got.Links())
			}
		} else if got.Parent().SpanID() != approver.SpanContext().SpanID() {
			t.Errorf("resumed %q: parent %s, want the approver's span as with Start", tc.carried, got.Parent().SpanID())
		}
	}
	approver.End()
}
