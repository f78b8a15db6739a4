package middleware

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

func TestRequestIDAndObserve(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	m := NewMetrics()
	mux := http.NewServeMux()
	var seen, seenCorrelation string
	mux.HandleFunc("GET /things/{id}", func(w http.ResponseWriter, r *http.Request) {
		seen = gtmgate.RequestIDFromContext(r.Context())
		seenCorrelation = gtmgate.CorrelationIDFromContext(r.Context())
		jsonapi.LoggerFrom(r.Context()).Info("handled")
		w.WriteHeader(http.StatusTeapot)
	})
	h := Chain(mux, RequestID(logger), Observe("gateway", m), Recover)

	tests := []struct {
		name, inbound, correlation string
	}{
		{"generated", "", ""},
		{"inbound kept as correlation id only", "abc-123", "abc-123"},
		{"server id sent back is not reused", "", ""}, // inbound set below to the previous response's id
		{"malformed dropped", "bad id\n", ""},
		{"too long dropped", strings.Repeat("a", 65), ""},
	}
	ids := map[string]bool{}
	var last string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/things/7?token=secret", nil)
			inbound, correlation := tt.inbound, tt.correlation
			if tt.name == "server id sent back is not reused" {
				inbound, correlation = last, last
			}
			if inbound != "" {
				r.Header.Set(RequestIDHeader, inbound)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := w.Header().Get(RequestIDHeader)
			if got == "" || got != seen {
				t.Fatalf("request id %q, handler saw %q", got, seen)
			}
			if got == inbound || ids[got] || len(got) != 32 {
				t.Fatalf("request id %q for inbound %q: not a new server id", got, inbound)
			}
			ids[got], last = true, got
			if c := w.Header().Get(CorrelationIDHeader); c != correlation || seenCorrelation != correlation {
				t.Fatalf("correlation id: header %q, handler saw %q, want %q", c, seenCorrelation, correlation)
			}
		})
	}
	if !strings.Contains(logs.String(), `"correlation_id":"abc-123"`) {
		t.Fatalf("correlation id not logged: %s", logs.String())
	}
	if !strings.Contains(logs.String(), `"route":"GET /things/{id}"`) || strings.Contains(logs.String(), "secret") {
		t.Fatalf("log lines wrong: %s", logs.String())
	}
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(w.Body.String(), `gtmgate_http_requests_total{route="GET /things/{id}",status="418",surface="gateway"} 5`) {
		t.Fatalf("metrics missing: %s", w.Body.String()[:200])
	}
}

// TestNewRequestIDUnguessable checks that consecutive ids share no prefix
// and do not count: the old ids were a fixed prefix and a counter, which
// let one tenant predict another's ids and read the gateway's volume.
func TestNewRequestIDUnguessable(t *testing.T) {
	const n = 10000
	seen := make(map[string]bool, n)
	prev := NewRequestID()
	samePrefix := 0
	for range n {
		id := NewRequestID()
		if len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Fatalf("id %q is not 32 hex characters", id)
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
		if id[:8] == prev[:8] {
			samePrefix++
		}
		prev = id
	}
	// Random ids share their first 32 bits with the previous one with
	// probability 2^-32; a fixed prefix would every time.
	if samePrefix > 1 {
		t.Fatalf("%d of %d consecutive ids share their first 8 characters", samePrefix, n)
	}
}

// BenchmarkNewRequestID measures the id every request of every listener
// pays for.
func BenchmarkNewRequestID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = NewRequestID()
	}
}

func TestRecover(t *testing.T) {
	h := Chain(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }), RequestID(slog.New(slog.DiscardHandler)), Recover)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != 500 || !strings.Contains(w.Body.String(), `"code":"INTERNAL"`) || strings.Contains(w.Body.String(), "boom") {
		t.Fatalf("got %d %s", w.Code, w.Body.String())
	}
}
