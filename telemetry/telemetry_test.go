package telemetry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestConfigured(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "otlp"}, true},
	} {
		if got := Configured(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: Configured = %v, want %v", tc.env, got, tc.want)
		}
	}
}

// TestStartWhileOff: with tracing off, spans cost no allocation.
func TestStartWhileOff(t *testing.T) {
	if Enabled() {
		t.Skip("tracing installed by another test")
	}
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		_, span := Start(ctx, "x", "y", TenantID.String("t"))
		span.End()
	})
	if allocs != 0 {
		t.Fatalf("Start while off allocates %.0f times", allocs)
	}
}

// TestServerAndTransport: an inbound request continues the caller's trace,
// is named by its route, and an outbound call made under it carries the
// trace to the upstream in traceparent.
func TestServerAndTransport(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	var gotParent string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotParent = r.Header.Get("traceparent")
		w.WriteHeader(http.StatusTeapot)
	}))
	defer upstream.Close()
	client := &http.Client{Transport: Transport(http.DefaultTransport, "hubspot")}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /things/{id}", func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, upstream.URL+"/x?key=secret", nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		resp.Body.Close()
		w.WriteHeader(http.StatusInternalServerError)
	})
	h := ServerMiddleware("gateway")(mux)
	req := httptest.NewRequest(http.MethodGet, "/things/7", nil)
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	h.ServeHTTP(httptest.NewRecorder(), req)

	spans := rec.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	client0, server := spans[0], spans[1]
	if server.Name() != "GET /things/{id}" || server.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("server span %q, parent %s", server.Name(), server.Parent().SpanID())
	}
	if client0.Parent().SpanID() != server.SpanContext().SpanID() {
		t.Error("client span is not the server span's child")
	}
	if !strings.Contains(gotParent, client0.SpanContext().SpanID().String()) || !strings.Contains(gotParent, "4bf92f3577b34da6a3ce929d0e0e4736") {
		t.Errorf("upstream got traceparent %q", gotParent)
	}
	for _, kv := range client0.Attributes() {
		if strings.Contains(kv.Value.Emit(), "secret") {
			t.Errorf("client span attribute %s carries the query string", kv.Key)
		}
	}
	if server.Status().Code.String() != "Error" || client0.Status().Code.String() != "Error" {
		t.Errorf("statuses: server %v, client %v", server.Status(), client0.Status())
	}
}
