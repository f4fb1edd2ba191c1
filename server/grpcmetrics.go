package server

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// grpcMetrics are the gRPC server metrics go-grpc-middleware's
// providers/prometheus ServerMetrics keeps, with the same names, help,
// labels, buckets and counting: grpc_server_started_total,
// grpc_server_handled_total (by grpc_code), grpc_server_msg_received_total,
// grpc_server_msg_sent_total and the grpc_server_handling_seconds
// histogram (latencyBuckets), each by grpc_type, grpc_service and
// grpc_method.
//
// It replaces that package's ServerMetrics because its unary interceptor
// resolves every child by WithLabelValues on each call (four label hashes
// and lookups, a reporter and its label slices: 6% of a Health/Check's
// server CPU, issue 35's profile); this one resolves a method's children
// once, on its first call (or InitializeMetrics), and a call then costs
// one sync.Map lookup and the increments.
type grpcMetrics struct {
	started, handled, received, sent *prometheus.CounterVec
	seconds                          *prometheus.HistogramVec
	methods                          sync.Map // full method of a unary call -> *unaryChildren
}

// unaryChildren are one unary method's metric children. The sent and
// handled children are resolved when first counted, so that a series
// appears exactly when it did with ServerMetrics (InitializeMetrics makes
// them all for the registered methods).
type unaryChildren struct {
	m                 *grpcMetrics
	service, method   string
	started, received prometheus.Counter
	seconds           prometheus.Observer
	sent              atomic.Pointer[prometheus.Counter]
	handled           [17]atomic.Pointer[prometheus.Counter] // by codes.Code, OK … Unauthenticated
}

func newGRPCMetrics() *grpcMetrics {
	labels := []string{"grpc_type", "grpc_service", "grpc_method"}
	return &grpcMetrics{
		started: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "grpc_server_started_total",
			Help: "Total number of RPCs started on the server.",
		}, labels),
		handled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "grpc_server_handled_total",
			Help: "Total number of RPCs completed on the server, regardless of success or failure.",
		}, append(labels[:3:3], "grpc_code")),
		received: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "grpc_server_msg_received_total",
			Help: "Total number of RPC stream messages received on the server.",
		}, labels),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "grpc_server_msg_sent_total",
			Help: "Total number of gRPC stream messages sent by the server.",
		}, labels),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "grpc_server_handling_seconds",
			Help:    "Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.",
			Buckets: latencyBuckets,
		}, labels),
	}
}

// Describe is prometheus.Collector's.
func (m *grpcMetrics) Describe(ch chan<- *prometheus.Desc) {
	m.started.Describe(ch)
	m.handled.Describe(ch)
	m.received.Describe(ch)
	m.sent.Describe(ch)
	m.seconds.Describe(ch)
}

// Collect is prometheus.Collector's.
func (m *grpcMetrics) Collect(ch chan<- prometheus.Metric) {
	m.started.Collect(ch)
	m.handled.Collect(ch)
	m.received.Collect(ch)
	m.sent.Collect(ch)
	m.seconds.Collect(ch)
}

// allCodes are the codes InitializeMetrics makes a handled series of, in
// go-grpc-middleware's order.
var allCodes = []codes.Code{
	codes.OK, codes.Canceled, codes.Unknown, codes.InvalidArgument, codes.DeadlineExceeded, codes.NotFound,
	codes.AlreadyExists, codes.PermissionDenied, codes.Unauthenticated, codes.ResourceExhausted,
	codes.FailedPrecondition, codes.Aborted, codes.OutOfRange, codes.Unimplemented, codes.Internal,
	codes.Unavailable, codes.DataLoss,
}

// InitializeMetrics makes every series of every method registered on s,
// at zero.
func (m *grpcMetrics) InitializeMetrics(s reflection.ServiceInfoProvider) {
	for service, info := range s.GetServiceInfo() {
		for _, mi := range info.Methods {
			typ := streamType(mi.IsClientStream, mi.IsServerStream)
			m.started.WithLabelValues(typ, service, mi.Name)
			m.received.WithLabelValues(typ, service, mi.Name)
			m.sent.WithLabelValues(typ, service, mi.Name)
			m.seconds.WithLabelValues(typ, service, mi.Name)
			for _, c := range allCodes {
				m.handled.WithLabelValues(typ, service, mi.Name, c.String())
			}
		}
	}
}

// streamType is the grpc_type label of a method.
func streamType(clientStream, serverStream bool) string {
	switch {
	case !clientStream && !serverStream:
		return "unary"
	case clientStream && !serverStream:
		return "client_stream"
	case !clientStream && serverStream:
		return "server_stream"
	}
	return "bidi_stream"
}

// metricsMethod splits a full method name as go-grpc-middleware does
// (at the first "/" after the leading one; "unknown" twice without one).
func metricsMethod(full string) (service, method string) {
	full = strings.TrimPrefix(full, "/")
	if i := strings.IndexByte(full, '/'); i >= 0 {
		return full[:i], full[i+1:]
	}
	return "unknown", "unknown"
}

func (m *grpcMetrics) unary(full string) *unaryChildren {
	if c, ok := m.methods.Load(full); ok {
		return c.(*unaryChildren)
	}
	service, method := metricsMethod(full)
	c := &unaryChildren{m: m, service: service, method: method,
		started:  m.started.WithLabelValues("unary", service, method),
		received: m.received.WithLabelValues("unary", service, method),
		seconds:  m.seconds.WithLabelValues("unary", service, method),
	}
	actual, _ := m.methods.LoadOrStore(full, c)
	return actual.(*unaryChildren)
}

func (c *unaryChildren) countSent() {
	p := c.sent.Load()
	if p == nil {
		s := c.m.sent.WithLabelValues("unary", c.service, c.method)
		p = &s
		c.sent.Store(p)
	}
	(*p).Inc()
}

func (c *unaryChildren) countHandled(code codes.Code) {
	if int(code) >= len(c.handled) {
		c.m.handled.WithLabelValues("unary", c.service, c.method, code.String()).Inc()
		return
	}
	p := c.handled[code].Load()
	if p == nil {
		h := c.m.handled.WithLabelValues("unary", c.service, c.method, code.String())
		p = &h
		c.handled[code].Store(p)
	}
	(*p).Inc()
}

// metricsCode is a call's grpc_code as go-grpc-middleware reads it: the
// error's status, or a context error's.
func metricsCode(err error) codes.Code {
	s, ok := status.FromError(err)
	if !ok {
		s = status.FromContextError(err)
	}
	return s.Code()
}

// UnaryServerInterceptor counts a unary call: started, its request
// received, its answer sent (when it has no error), handled by code, and
// its duration.
func (m *grpcMetrics) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		c := m.unary(info.FullMethod)
		c.started.Inc()
		c.received.Inc()
		resp, err := handler(ctx, req)
		if err == nil {
			c.countSent()
		}
		c.countHandled(metricsCode(err))
		c.seconds.Observe(time.Since(start).Seconds())
		return resp, err
	}
}

// StreamServerInterceptor counts a streaming call: started, each message
// received and sent, handled by code, and its duration.
func (m *grpcMetrics) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		typ := streamType(info.IsClientStream, info.IsServerStream)
		service, method := metricsMethod(info.FullMethod)
		m.started.WithLabelValues(typ, service, method).Inc()
		err := handler(srv, &countedStream{ServerStream: ss,
			received: func() { m.received.WithLabelValues(typ, service, method).Inc() },
			sent:     func() { m.sent.WithLabelValues(typ, service, method).Inc() },
		})
		m.handled.WithLabelValues(typ, service, method, metricsCode(err).String()).Inc()
		m.seconds.WithLabelValues(typ, service, method).Observe(time.Since(start).Seconds())
		return err
	}
}

// countedStream counts a stream's messages received and sent without
// error.
type countedStream struct {
	grpc.ServerStream
	received, sent func()
}

func (s *countedStream) SendMsg(msg any) error {
	err := s.ServerStream.SendMsg(msg)
	if err == nil {
		s.sent()
	}
	return err
}

func (s *countedStream) RecvMsg(msg any) error {
	err := s.ServerStream.RecvMsg(msg)
	if err == nil {
		s.received()
	}
	return err
}
