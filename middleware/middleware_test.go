package middleware

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestRequestIDAndObserve(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	m := NewMetrics()
	mux := http.NewServeMux()
	var seen string
	mux.HandleFunc("GET /things/{id}", func(w http.ResponseWriter, r *http.Request) {
		seen = gtmgate.RequestIDFromContext(r.Context())
		w.WriteHeader(http.StatusTeapot)
	})
	h := Chain(mux, RequestID(logger), Observe("gateway", m), Recover)

	tests := []struct {
		name, inbound string
		keep          bool
	}{
		{"generated", "", false},
		{"kept", "abc-123", true},
		{"malformed replaced", "bad id\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/things/7?token=secret", nil)
			if tt.inbound != "" {
				r.Header.Set(RequestIDHeader, tt.inbound)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := w.Header().Get(RequestIDHeader)
			if got == "" || got != seen {
				t.Fatalf("request id %q, handler saw %q", got, seen)
			}
			if tt.keep != (got == tt.inbound) {
				t.Fatalf("request id %q for inbound %q", got, tt.inbound)
			}
		})
	}
	if !strings.Contains(logs.String(), `"route":"GET /things/{id}"`) || strings.Contains(logs.String(), "secret") {
		t.Fatalf("log lines wrong: %s", logs.String())
	}
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(w.Body.String(), `gtmgate_http_requests_total{route="GET /things/{id}",status="418",surface="gateway"} 3`) {
		t.Fatalf("metrics missing: %s", w.Body.String()[:200])
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
