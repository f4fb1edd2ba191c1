package server

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"testing"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// fakeStream is a server stream that receives two messages, then io.EOF's
// stand-in, and sends without error.
type fakeStream struct {
	grpc.ServerStream
	n int
}

func (s *fakeStream) Context() context.Context    { return context.Background() }
func (s *fakeStream) SetHeader(metadata.MD) error { return nil }
func (s *fakeStream) SendMsg(any) error           { return nil }
func (s *fakeStream) RecvMsg(any) error {
	if s.n++; s.n > 2 {
		return errors.New("end")
	}
	return nil
}

// TestGRPCMetricsAsMiddleware checks grpcMetrics against the metrics it
// replaces, go-grpc-middleware's ServerMetrics with latencyBuckets: the
// same series, help and counts after the same calls (unary calls that
// succeed, fail with a status, with a context error and with a plain
// error, on a registered and an unregistered method, and a stream), the
// durations aside.
func TestGRPCMetricsAsMiddleware(t *testing.T) {
	gs := grpc.NewServer()
	healthpb.RegisterHealthServer(gs, health.NewServer())
	exposition := func(c prometheus.Collector, unary grpc.UnaryServerInterceptor, stream grpc.StreamServerInterceptor, init func()) string {
		reg := prometheus.NewRegistry()
		reg.MustRegister(c)
		init()
		calls := []struct {
			method string
			err    error
		}{
			{"/grpc.health.v1.Health/Check", nil},
			{"/grpc.health.v1.Health/Check", nil},
			{"/grpc.health.v1.Health/Check", status.Error(codes.InvalidArgument, "bad")},
			{"/gamerules.v1.GameRules/LegalMoves", nil},
			{"/gamerules.v1.GameRules/LegalMoves", context.DeadlineExceeded},
			{"/gamerules.v1.GameRules/ApplyMove", status.Error(codes.ResourceExhausted, "big")},
			{"/gamerules.v1.GameRules/ApplyMove", errors.New("plain")},
			{"/gamerules.v1.GameRules/Score", status.Error(codes.Code(40), "odd")},
			{"noslash", nil},
		}
		for _, c := range calls {
			_, _ = unary(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: c.method}, func(context.Context, any) (any, error) { return "answer", c.err })
		}
		info := &grpc.StreamServerInfo{FullMethod: "/grpc.health.v1.Health/Watch", IsServerStream: true}
		_ = stream(nil, &fakeStream{}, info, func(_ any, ss grpc.ServerStream) error {
			for ss.RecvMsg(nil) == nil {
				_ = ss.SendMsg(nil)
			}
			return status.Error(codes.Canceled, "gone")
		})
		text := gatherText(t, reg)
		// The durations differ; their counts and buckets' presence do not.
		return regexp.MustCompile(`(?m)^(grpc_server_handling_seconds_(bucket\{[^}]*\}|sum\{[^}]*\})) .*$`).ReplaceAllString(text, "$1 X")
	}
	old := grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(grpcprom.WithHistogramBuckets(latencyBuckets)))
	want := exposition(old, old.UnaryServerInterceptor(), old.StreamServerInterceptor(), func() { old.InitializeMetrics(gs) })
	m := newGRPCMetrics()
	got := exposition(m, m.UnaryServerInterceptor(), m.StreamServerInterceptor(), func() { m.InitializeMetrics(gs) })
	if got != want {
		t.Errorf("exposition differs from go-grpc-middleware's:\n--- got\n%s\n--- want\n%s", got, want)
	}
	if n := bytes.Count([]byte(want), []byte("\n")); n < 100 {
		t.Errorf("only %d lines of exposition: the test compares too little", n)
	}
}

// gatherText is reg's metrics in the text exposition format.
func gatherText(t *testing.T, reg prometheus.Gatherer) string {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&b, mf); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
