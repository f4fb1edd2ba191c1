package server

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// tracing is the OpenTelemetry set-up: nil when tracing is off.
type tracing struct {
	tp   trace.TracerProvider
	prop propagation.TextMapPropagator
	// shutdown flushes and stops tp when the server made it (nil when the
	// host program gave it, and owns it).
	stop func(context.Context) error
}

// newTracing turns tracing on when the standard OTEL_EXPORTER_OTLP_ENDPOINT
// or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set: spans go to that OTLP
// endpoint over HTTP/protobuf (the exporter reads the other standard
// OTEL_EXPORTER_OTLP_* variables too), and W3C trace context is taken from
// and passed on with requests. Off otherwise.
func newTracing(ctx context.Context, cfg Options) (*tracing, error) {
	prop := newPropagator()
	if cfg.TracerProvider != nil {
		return &tracing{tp: cfg.TracerProvider, prop: prop}, nil
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return nil, nil
	}
	for _, v := range []string{"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"} {
		if p := getenv(v); p != "" && p != "http/protobuf" {
			return nil, fmt.Errorf("%s=%q: gamerulesd exports traces over http/protobuf only", v, p)
		}
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		semconv.ServiceName("gamerulesd"), semconv.ServiceVersion(cfg.Version)))
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &tracing{tp: tp, prop: prop, stop: tp.Shutdown}, nil
}

// serverOptions are the gRPC server's tracing options (a span per call).
func (t *tracing) serverOptions() []grpc.ServerOption {
	if t == nil {
		return nil
	}
	return []grpc.ServerOption{grpc.StatsHandler(otelgrpc.NewServerHandler(
		otelgrpc.WithTracerProvider(t.tp), otelgrpc.WithPropagators(t.prop)))}
}

// dialOptions are the gateway connection's: its calls continue the HTTP
// request's trace.
func (t *tracing) dialOptions() []grpc.DialOption {
	if t == nil {
		return nil
	}
	return []grpc.DialOption{grpc.WithStatsHandler(otelgrpc.NewClientHandler(
		otelgrpc.WithTracerProvider(t.tp), otelgrpc.WithPropagators(t.prop)))}
}

// handler wraps the HTTP port: a span per request.
func (t *tracing) handler(next http.Handler) http.Handler {
	if t == nil {
		return next
	}
	return otelhttp.NewHandler(next, "gamerulesd.http",
		otelhttp.WithTracerProvider(t.tp), otelhttp.WithPropagators(t.prop),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + routeOf(r.URL.Path) }))
}

// shutdown flushes the spans not yet exported.
func (t *tracing) shutdown(ctx context.Context) error {
	if t == nil || t.stop == nil {
		return nil
	}
	return t.stop(ctx)
}

// newPropagator is the W3C trace context and baggage propagator of both
// ports.
func newPropagator() propagation.TextMapPropagator {
	return propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
}
