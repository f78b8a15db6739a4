// Package middleware holds the HTTP middleware every listener shares: request
// and correlation ids, structured access logs, Prometheus metrics and panic
// recovery.
package middleware

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/routes"
)

// Chain applies middleware so that the first wraps the outermost.
func Chain(h http.Handler, mw ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// RequestIDHeader carries the server's request id in responses. A client
// may send one too: it is kept as the call's correlation id, never as its
// request id.
const RequestIDHeader = "X-Request-Id"

// CorrelationIDHeader echoes a well-formed inbound X-Request-Id back.
const CorrelationIDHeader = "X-Correlation-Id"

// RequestID gives every request a new server-made id, sets it on the
// response and puts it and a logger carrying it in the context. A
// well-formed inbound X-Request-Id becomes the correlation id: in the
// context, echoed as X-Correlation-Id and recorded beside the request id.
// The request id itself is never the client's: ids the client chooses could
// collide with another tenant's, and the audit log joins a call's entries
// by request id.
func RequestID(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := NewRequestID()
			w.Header()[RequestIDHeader] = []string{id}
			ctx := gtmgate.NewContextWithRequestID(r.Context(), id)
			if cid := r.Header.Get(RequestIDHeader); validRequestID(cid) {
				w.Header()[CorrelationIDHeader] = []string{cid}
				ctx = gtmgate.NewContextWithCorrelationID(ctx, cid)
			}
			ctx = jsonapi.WithLogger(ctx, logger)
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// requestIDCipher is keyed once per process with random bytes; it encrypts
// requestIDCounter into each request id.
var (
	requestIDCipher = func() cipher.Block {
		key := make([]byte, 16)
		rand.Read(key) // never fails (it crashes the program instead)
		b, err := aes.NewCipher(key)
		if err != nil {
			panic(err) // a 16-byte key is always accepted
		}
		return b
	}()
	requestIDCounter atomic.Uint64
)

// NewRequestID returns 32 hex characters naming one request: this process's
// next counter value encrypted with AES-128 under the process's random key.
// AES is a permutation, so no two calls of one process return the same id;
// another process has another key, so its ids collide with these no more
// often than random 128-bit values would. Without the key an id tells
// nothing about the next one, nor how many came before: ids cannot be
// guessed or used to count the gateway's traffic. It costs about as much as
// reading 16 bytes from crypto/rand and, unlike random ids, is unique by
// construction within a process.
func NewRequestID() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[8:], requestIDCounter.Add(1))
	requestIDCipher.Encrypt(b[:], b[:])
	return hex.EncodeToString(b[:])
}

// validRequestID reports whether an inbound X-Request-Id may be kept as a
// correlation id: 1 to 64 characters that are safe in a header, a log line
// and a URL.
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
// the query string, which may carry OAuth codes, nor a path segment that is
// a credential: routes.LoggedPath) and records metrics.
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
				slog.String("path", routes.LoggedPath(r)), slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes),
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
