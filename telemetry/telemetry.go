// Package telemetry sets up OpenTelemetry tracing from the standard OTEL_*
// environment variables and holds the few helpers the rest of gtmgate uses
// to make spans: an HTTP server middleware, an HTTP client transport, and
// attribute keys of the semantic conventions.
//
// Instrumented code calls the global OpenTelemetry API (otel.Tracer), which
// costs next to nothing while no SDK is installed. Setup installs one only
// when an OTLP endpoint is configured; the middleware and transports are not
// even added otherwise.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// enabled is set once Setup has installed a tracer provider.
var enabled atomic.Bool

// Enabled reports whether traces are being exported, so that callers can skip
// wrapping handlers and transports when they are not.
func Enabled() bool { return enabled.Load() }

// Configured reports whether the environment asks for traces: an OTLP
// endpoint is set and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none
// turns them off.
func Configured(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	if exp := getenv("OTEL_TRACES_EXPORTER"); exp != "" && !strings.Contains(exp, "otlp") {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs a tracer provider exporting over OTLP/HTTP when the
// environment configures one (see Configured), with the W3C trace-context
// and baggage propagators. The exporter and sampler read the standard
// variables themselves (OTEL_EXPORTER_OTLP_*, OTEL_TRACES_SAMPLER[_ARG]);
// OTEL_SERVICE_NAME defaults to "gtmgate". The returned shutdown flushes
// pending spans; it is a no-op when nothing was installed.
func Setup(ctx context.Context, version string) (shutdown func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	if !Configured(os.Getenv) {
		return noop, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return noop, fmt.Errorf("telemetry: OTLP exporter: %w", err)
	}
	name := os.Getenv("OTEL_SERVICE_NAME")
	if name == "" {
		name = "gtmgate"
	}
	// resource.Default reads OTEL_RESOURCE_ATTRIBUTES; ours come on top.
	res, err := resource.Merge(resource.Default(), resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName(name), semconv.ServiceVersion(version)))
	if err != nil && !errors.Is(err, resource.ErrSchemaURLConflict) {
		return noop, fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	Install(tp)
	return func(ctx context.Context) error {
		enabled.Store(false)
		return tp.Shutdown(ctx)
	}, nil
}

// Install makes tp the provider of every span gtmgate makes, with the W3C
// propagators, and turns the middleware and transports on. Setup calls it;
// tests call it with an in-memory provider.
func Install(tp trace.TracerProvider) {
	otel.SetTracerProvider(tp)
	current.Store(&tracerBox{tp.Tracer(tracerName)})
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	enabled.Store(true)
}
