// Package middleware holds the HTTP middleware every listener shares: request
// ids, structured access logs, Prometheus metrics and panic recovery.
package middleware

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Chain applies middleware so that the first wraps the outermost.
func Chain(h http.Handler, mw ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// RequestIDHeader carries the request id in both directions.
const RequestIDHeader = "X-Request-Id"

// RequestID takes a well-formed inbound X-Request-Id or makes one, sets it on
// the response and puts it and a logger carrying it in the context.
func RequestID(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := r.Header.Get(RequestIDHeader)
			if !validRequestID(id) {
				id = NewRequestID()
			}
			w.Header()[RequestIDHeader] = []string{id}
			ctx := gtmgate.NewContextWithRequestID(r.Context(), id)
			ctx = jsonapi.WithLogger(ctx, logger)
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// requestIDPrefix makes this process's request ids distinct from every
// other's; a counter makes them distinct from each other.
var (
	requestIDPrefix = func() [8]byte {
		var b [8]byte
		rand.Read(b[:])
		return b
	}()
	requestIDCounter atomic.Uint64
)

// NewRequestID returns 32 hex characters unique to this request: a random
// per-process prefix and a counter. Ids identify requests in logs and the
// audit log; they are not secrets, so a counter serves better than drawing
// random bytes for every request.
func NewRequestID() string {
	var b [16]byte
	copy(b[:8], requestIDPrefix[:])
	binary.BigEndian.PutUint64(b[8:], requestIDCounter.Add(1))
	return hex.EncodeToString(b[:])
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// statusWriter records the status and size of a response. It forwards
// Flush and Unwrap so streaming and http.ResponseController keep working.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Observe logs each request (method, route pattern, status, duration; never
// the query string, which may carry OAuth codes) and records metrics.
func Observe(surface string, m *Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r)
			if sw.status == 0 {
				sw.status = http.StatusOK
			}
			d := time.Since(start)
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			}
			if m != nil {
				m.observe(surface, route, sw.status, d)
			}
			ctx := r.Context()
			if !jsonapi.LogEnabled(ctx, slog.LevelInfo) {
				return // the access line would be dropped: skip building it
			}
			jsonapi.LoggerFrom(ctx).LogAttrs(ctx, slog.LevelInfo, "request",
				slog.String("surface", surface), slog.String("method", r.Method), slog.String("route", route),
				slog.String("path", r.URL.Path), slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes),
				slog.Float64("duration_ms", float64(d.Microseconds())/1000))
		})
	}
}

// Recover turns a panic into a 500 with the JSON error body and logs it.
func Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				jsonapi.LoggerFrom(r.Context()).Error("panic", "panic", v)
				jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EInternal, "internal error"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
