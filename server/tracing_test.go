package server

import (
	"context"
	"testing"
	"time"
)

// TestTracingFromEnvironment: tracing is off without an OTLP endpoint in
// the environment, on with one (the rest of TestTracing, which runs the
// whole stack, is in server/stacktest).
func TestTracingFromEnvironment(t *testing.T) {
	// Off without an endpoint.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	if tr, err := newTracing(context.Background(), DefaultOptions()); tr != nil || err != nil {
		t.Errorf("newTracing without an endpoint = %v, %v; want off", tr, err)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
	tr, err := newTracing(context.Background(), DefaultOptions())
	if tr == nil || err != nil {
		t.Errorf("newTracing with OTEL_EXPORTER_OTLP_ENDPOINT = %v, %v; want on", tr, err)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = tr.shutdown(ctx)
		cancel()
	}
}
