package telemetry

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gtmgate/gtmgate/routes"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/gtmgate/gtmgate"

// tracerBox holds a tracer: atomic.Pointer needs one concrete type.
type tracerBox struct{ trace.Tracer }

// current is the tracer, looked up once per Install rather than per span
// (the SDK's lookup locks). A global delegating tracer would follow only the
// first provider installed; tests install one each.
var current atomic.Pointer[tracerBox]

func init() { current.Store(&tracerBox{otel.Tracer(tracerName)}) }

// Tracer returns the tracer gtmgate's packages make spans with.
func Tracer() trace.Tracer { return current.Load().Tracer }

// noopSpan is returned by Start while tracing is off.
var noopSpan = trace.SpanFromContext(context.Background())

// Start starts an internal span named "op target" (the conventions' form,
// "execute_tool crm_contacts"; target may be empty), or, while tracing is
// off, returns ctx unchanged and a span that does nothing, without
// allocating: not even the name is built.
func Start(ctx context.Context, op, target string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !Enabled() {
		return ctx, noopSpan
	}
	name := op
	if target != "" {
		name += " " + target
	}
	// A copy, so that attrs does not escape and callers' variadic arrays stay
	// on the stack while tracing is off.
	return Tracer().Start(ctx, name, trace.WithAttributes(slices.Clone(attrs)...))
}

// Fail marks span as failed with a gtmgate error code as error.type.
func Fail(span trace.Span, code string) {
	if code == "" || !span.IsRecording() {
		return
	}
	span.SetStatus(codes.Error, code)
	span.SetAttributes(semconv.ErrorTypeKey.String(code))
}

// ServerMiddleware traces every request of a surface: the caller's W3C trace
// context is continued, and a server span named "METHOD /route" carries the
// HTTP attributes of the semantic conventions. It returns next unchanged when
// tracing is off. Place it outside the middleware that needs the route
// (r.Pattern is read from the request it passes on).
func ServerMiddleware(surface string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if !Enabled() {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
			attrs := []attribute.KeyValue{
				semconv.HTTPRequestMethodKey.String(r.Method), attribute.String("gtmgate.surface", surface),
			}
			if host, port, err := net.SplitHostPort(r.Host); err == nil {
				attrs = append(attrs, semconv.ServerAddress(host))
				if p, err := strconv.Atoi(port); err == nil {
					attrs = append(attrs, semconv.ServerPort(p))
				}
			}
			if ua := r.UserAgent(); ua != "" {
				attrs = append(attrs, semconv.UserAgentOriginal(ua))
			}
			ctx, span := Tracer().Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
			defer span.End()
			sw := &statusWriter{ResponseWriter: w}
			r = r.WithContext(ctx)
			next.ServeHTTP(sw, r)
			// The path once routed: a credential in it ({secret}) is not kept.
			span.SetAttributes(semconv.URLPath(routes.LoggedPath(r)))
			if _, route, ok := strings.Cut(r.Pattern, " "); ok || r.Pattern != "" {
				if !ok {
					route = r.Pattern
				}
				span.SetName(r.Method + " " + route)
				span.SetAttributes(semconv.HTTPRoute(route))
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			span.SetAttributes(semconv.HTTPResponseStatusCode(status))
			if status >= 500 {
				span.SetStatus(codes.Error, http.StatusText(status))
				span.SetAttributes(semconv.ErrorTypeKey.String(strconv.Itoa(status)))
			}
		})
	}
}

// statusWriter remembers the status; Flush and Unwrap keep streaming (SSE)
// and http.ResponseController working through it.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Transport wraps rt so that each outbound request carries the trace
// context (traceparent) and gets a client span, named by method, with the
// server and status attributes and the given peer (a provider key or
// "model_gateway"). It returns rt itself when tracing is off. URLs are not
// recorded whole: some APIs take keys in the query string.
func Transport(rt http.RoundTripper, peer string) http.RoundTripper {
	if !Enabled() {
		return rt
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	return &transport{next: rt, peer: peer}
}

type transport struct {
	next http.RoundTripper
	peer string
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(req.Method), semconv.ServerAddress(req.URL.Hostname()), Provider.String(t.peer)}
	if p, err := strconv.Atoi(req.URL.Port()); err == nil {
		attrs = append(attrs, semconv.ServerPort(p))
	}
	ctx, span := Tracer().Start(req.Context(), req.Method, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	req = req.Clone(ctx)
	otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(req.Header))
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		span.SetStatus(codes.Error, "request failed")
		span.SetAttributes(semconv.ErrorTypeKey.String("transport"))
		span.End()
		return nil, err
	}
	span.SetAttributes(semconv.HTTPResponseStatusCode(resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetStatus(codes.Error, http.StatusText(resp.StatusCode))
		span.SetAttributes(semconv.ErrorTypeKey.String(strconv.Itoa(resp.StatusCode)))
	}
	// The span ends with the round trip; reading the body is the caller's time.
	span.End()
	return resp, nil
}

// TraceID returns the trace id of ctx's span, or "" when it is not traced.
func TraceID(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		return sc.TraceID().String()
	}
	return ""
}
