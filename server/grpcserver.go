package server

import (
	"context"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"strings"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/limit"
)

// newGRPCServer builds the gRPC server with its limits and interceptors.
//
// Limits: the message size (cfg.MaxRecvBytes), the admission gate (adm,
// before a message is read), the element budget (limit.Codec, before a
// message is decoded), streams per connection, keepalive enforcement, and
// idle and age limits on connections. The unary interceptors are
// apiInterceptors' gRPC links (chain.go; the first is the outermost):
// logging, metrics, recovery, the element budget's verdict (limit.ElementGate), the
// public size limit, the deadline, then the in-flight limit. What fails
// before any interceptor runs (a message that does not parse or is too
// large) is seen by the stats handler ts.
//
// extra options come first, so that their interceptors (the request id)
// run outside all of these.
func newGRPCServer(cfg Options, logger *zap.Logger, metrics *grpcMetrics, adm *limit.Admission, refused *prometheus.CounterVec, ts *transportStats, srv gamerulesv1grpc.GameRulesServer, extra ...grpc.ServerOption) *grpc.Server {
	s := grpc.NewServer(grpcServerOptions(cfg, logger, metrics, adm, refused, ts, extra...)...)
	gamerulesv1grpc.RegisterGameRulesServer(s, srv)
	return s
}

// grpcServerOptions are newGRPCServer's options: extra first, then the
// limits and interceptors.
func grpcServerOptions(cfg Options, logger *zap.Logger, metrics *grpcMetrics, adm *limit.Admission, refused *prometheus.CounterVec, ts *transportStats, extra ...grpc.ServerOption) []grpc.ServerOption {
	recoverPanic := recoverPanicFunc(logger)
	return append(extra,
		// The public limit, or twice it for the loopback gateway (grpcRecvLimit).
		grpc.MaxRecvMsgSize(grpcRecvLimit(cfg)),
		// Metadata: 64 KiB, as the REST port's headers (grpc-go's default
		// is 16 MiB per stream).
		grpc.MaxHeaderListSize(64<<10),
		grpc.MaxConcurrentStreams(uint32(cfg.GRPCMaxStreams)),
		// Calls run on reused goroutines (grpc-go starts a new one when all
		// are busy): a new goroutine's stack grows by copying on every
		// call's way down the interceptors and the state decode, which
		// cost 15% of a light call's CPU (issue 35's profile). As many as
		// calls may run or wait at once.
		grpc.NumStreamWorkers(uint32(streamWorkers(cfg))),
		grpc.InTapHandle(adm.TapHandle),
		grpc.ForceServerCodecV2(limit.Codec()),
		grpc.StatsHandler(ts),
		// A connection must finish its HTTP/2 handshake quickly.
		grpc.ConnectionTimeout(cfg.GRPCHandshakeTimeout),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{
			MinTime:             cfg.GRPCKeepaliveMinTime,
			PermitWithoutStream: true,
		}),
		grpc.KeepaliveParams(keepalive.ServerParameters{
			MaxConnectionIdle:     cfg.GRPCMaxConnectionIdle,
			MaxConnectionAge:      cfg.GRPCMaxConnectionAge,
			MaxConnectionAgeGrace: cfg.GRPCMaxConnectionAgeGrace,
			// Ping a silent client after a minute; one that does not answer
			// within 20 s is gone.
			Time:    time.Minute,
			Timeout: 20 * time.Second,
		}),
		grpc.ChainUnaryInterceptor(grpcInterceptors(apiInterceptors(cfg, logger, metrics, adm, refused, nil))...),
		grpc.ChainStreamInterceptor(
			logging.StreamServerInterceptor(zapLogger(logger.Named("rpc")), logging.WithLogOnEvents(logging.FinishCall)),
			metrics.StreamServerInterceptor(),
			recovery.StreamServerInterceptor(recovery.WithRecoveryHandlerContext(recoverPanic)),
		),
	)
}

// streamWorkers is the number of goroutines grpc-go keeps to run calls
// on: --max-in-flight + --max-waiting, the calls that may run or wait at
// once, at most 1024.
func streamWorkers(cfg Options) int {
	return min(max(cfg.MaxInFlight+cfg.MaxWaiting, 1), 1024)
}

// grpcRecvLimit is the gRPC server's own receive limit
// (grpc.MaxRecvMsgSize), which grpc-go checks on a message's length before
// reading it and names in its RESOURCE_EXHAUSTED text ("grpc: received
// message larger than max (N vs. L)"). It is --max-recv-bytes itself, so
// that every too-large gRPC request is refused naming that limit. Only the
// loopback gateway needs twice it: the protobuf form of a JSON body can be
// larger than the JSON (a number such as 1e9 is 3 bytes of JSON and a
// 5-byte varint), so that the gRPC port then reads up to twice the limit and
// adm.PublicSize holds other clients to the limit itself (a client sending
// more than twice it then reads grpc-go's text naming twice the limit).
func grpcRecvLimit(cfg Options) int {
	if cfg.RESTGateway == GatewayLoopback {
		return 2 * cfg.MaxRecvBytes
	}
	return cfg.MaxRecvBytes
}

// latencyBuckets are the histogram buckets, in seconds, of the gRPC and the
// HTTP latency metrics (100 µs to 1 s: the rules answer in microseconds).
var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}

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
