package chat

import (
	"context"
	"testing"

	"github.com/gtmgate/gtmgate/telemetry"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestChatSpan: a traced chat completion is a "chat <model>" span with the
// GenAI attributes (operation, model, token usage) and the tenant, and the
// call to the model gateway is its child. Not parallel: it installs the
// process's tracer provider.
func TestChatSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	telemetry.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	e := newEnv(t, jsonUpstream(200, answerBody, nil), nil)
	resp := e.post(t, context.Background(), clientBody, nil)
	resp.Body.Close()
	e.recorder.next(t)
	var chat, upstream sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		switch s.Name() {
		case "chat small":
			chat = s
		case "POST":
			upstream = s
		}
	}
	if chat == nil || upstream == nil {
		t.Fatalf("spans %v", rec.Ended())
	}
	want := map[attribute.Key]string{
		"gen_ai.operation.name": "chat", "gen_ai.request.model": "small", "gtmgate.tenant.id": "acme",
		"gen_ai.usage.input_tokens": "11", "gen_ai.usage.output_tokens": "3", "gtmgate.provider": "",
	}
	got := map[attribute.Key]string{}
	for _, kv := range chat.Attributes() {
		got[kv.Key] = kv.Value.Emit()
	}
	for k, v := range want {
		if v != "" && got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if upstream.Parent().SpanID() != chat.SpanContext().SpanID() {
		t.Error("the model gateway call is not the chat span's child")
	}
}
