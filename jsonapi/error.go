package jsonapi

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"

	fastjson "github.com/go-json-experiment/json/v1"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/bufpool"
	"go.opentelemetry.io/otel/trace"
)

// ErrorBody is the JSON body of every gateway error, also inside MCP tool
// results: {"error": {"code", "message", "hint"?, "field"?}, "error_detail"?, "request_id"}.
type ErrorBody struct {
	Error       ErrorInfo `json:"error"`
	ErrorDetail any       `json:"error_detail,omitempty"`
	ApprovalID  string    `json:"approval_id,omitempty"`
	RetryAfter  int       `json:"retry_after,omitempty"`
	RequestID   string    `json:"request_id"`
}

// ErrorInfo is the "error" member of ErrorBody.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Field is the JSON path of the request body's field at fault.
	Field string `json:"field,omitempty"`
}

// NewErrorBody renders err for the caller. Internal errors show only
// "internal error"; their cause is logged by WriteError.
func NewErrorBody(err error, requestID string) ErrorBody {
	e := gtmgate.AsError(err)
	msg := e.Message
	if e.Code == gtmgate.EInternal {
		msg = "internal error"
	}
	return ErrorBody{
		Error:       ErrorInfo{Code: e.Code, Message: msg, Hint: e.Hint, Field: e.Field},
		ErrorDetail: e.Detail,
		ApprovalID:  e.ApprovalID,
		RetryAfter:  e.RetryAfter,
		RequestID:   requestID,
	}
}

// WriteError writes err as the JSON error body with its code's status. The
// cause of internal errors is logged with the request id, never sent.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := gtmgate.AsError(err)
	rid := gtmgate.RequestIDFromContext(r.Context())
	if e.Code == gtmgate.EInternal {
		LoggerFrom(r.Context()).Error("internal error", "request_id", rid, "err", e.Err)
	}
	status := Status(e.Code)
	if e.Code == gtmgate.EUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", `Bearer`)
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	Write(w, status, NewErrorBody(e, rid))
}

// Write encodes v as the JSON response body with the given status.
func Write(w http.ResponseWriter, status int, v any) {
	buf := bufpool.Get()
	defer bufpool.Put(buf) // a ResponseWriter does not keep what it is given
	enc := fastjson.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"code":"INTERNAL","message":"internal error"}}` + "\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

type loggerKey struct{}

// WithLogger returns ctx carrying the logger of the request's surface.
func WithLogger(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// LogEnabled reports whether the request's logger keeps records of level.
func LogEnabled(ctx context.Context, level slog.Level) bool {
	return surfaceLogger(ctx).Enabled(ctx, level)
}

// surfaceLogger returns the logger WithLogger put in ctx, or slog.Default.
func surfaceLogger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// LoggerFrom returns the request's logger, or slog.Default, with the
// request id, the client's correlation id and the trace id attached when ctx
// has them. The attribute is added here, when
// something is logged, rather than once per request: most requests log
// nothing but their access line.
func LoggerFrom(ctx context.Context) *slog.Logger {
	l := surfaceLogger(ctx)
	if id := gtmgate.RequestIDFromContext(ctx); id != "" {
		l = l.With("request_id", id)
	}
	if id := gtmgate.CorrelationIDFromContext(ctx); id != "" {
		l = l.With("correlation_id", id)
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		l = l.With("trace_id", sc.TraceID().String())
	}
	return l
}
