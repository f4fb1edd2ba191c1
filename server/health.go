package server

import (
	"context"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"

	"github.com/gamerules/gamerules/server/limit"
)

// healthServer is grpc-go's health server whose Watch streams end when
// shutdown begins (endWatches): an open Watch would otherwise hold the
// graceful stop for the whole --shutdown-timeout, so any client could stall
// every rollout. A watcher first receives NOT_SERVING (Shutdown), then, after
// the drain delay, the stream ends with UNAVAILABLE.
type healthServer struct {
	*health.Server
	stopping   context.Context
	endWatches context.CancelFunc
}

func newHealthServer() *healthServer {
	ctx, cancel := context.WithCancel(context.Background())
	return &healthServer{Server: health.NewServer(), stopping: ctx, endWatches: cancel}
}

// Watch implements grpc_health_v1.HealthServer.
func (h *healthServer) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(h.stopping, cancel)
	defer stop()
	err := h.Server.Watch(req, watchStream{stream, ctx})
	if h.stopping.Err() != nil {
		return status.Error(codes.Unavailable, "the server is shutting down; watch another instance")
	}
	return err
}

// watchStream is a Watch stream whose context also ends at shutdown.
type watchStream struct {
	healthpb.Health_WatchServer
	ctx context.Context
}

func (w watchStream) Context() context.Context { return w.ctx }

// transportStats is a gRPC stats handler that sees what the interceptors
// cannot: a request refused by grpc-go before any handler ran, because its
// message could not be parsed (invalid wire bytes, a string that is not
// UTF-8: grpc-go answers INTERNAL) or is larger than --max-recv-bytes
// (RESOURCE_EXHAUSTED). Each is logged, one line with the method and the
// peer, and counted in gamerules_requests_refused_total.
//
// It also tags each connection for adm's per-connection limits
// (Admission.TagConn, ConnEnd), when adm is set.
type transportStats struct {
	logger  *zap.Logger
	refused *prometheus.CounterVec
	adm     *limit.Admission
}

type methodKey struct{}

func (s *transportStats) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	return context.WithValue(ctx, methodKey{}, info.FullMethodName)
}

func (s *transportStats) HandleRPC(ctx context.Context, rs stats.RPCStats) {
	end, ok := rs.(*stats.End)
	if !ok || end.Error == nil {
		return
	}
	st := status.Convert(end.Error)
	var reason string
	switch {
	case st.Code() == codes.Internal && strings.HasPrefix(st.Message(), "grpc: failed to unmarshal"):
		reason = "malformed"
	case st.Code() == codes.ResourceExhausted && strings.HasPrefix(st.Message(), "grpc: ") && strings.Contains(st.Message(), "larger than max"):
		reason = "too_large"
	default:
		return
	}
	s.refused.WithLabelValues("grpc", reason).Inc()
	method, _ := ctx.Value(methodKey{}).(string)
	addr := ""
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		addr = p.Addr.String()
	}
	s.logger.Info("request refused before the handler", zap.String("reason", reason), zap.String("grpc.method", method),
		zap.String("peer.address", addr), zap.String("grpc.code", st.Code().String()), zap.String("error", st.Message()))
}

func (s *transportStats) TagConn(ctx context.Context, info *stats.ConnTagInfo) context.Context {
	if s.adm == nil {
		return ctx
	}
	return s.adm.TagConn(ctx, info)
}

func (s *transportStats) HandleConn(ctx context.Context, cs stats.ConnStats) {
	if _, end := cs.(*stats.ConnEnd); end && s.adm != nil {
		s.adm.ConnEnd(ctx)
	}
}

var _ stats.Handler = (*transportStats)(nil)
