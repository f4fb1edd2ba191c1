package server

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/rest/restjson"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/server/requestid"
	"github.com/gamerules/gamerules/service/rpcs"
)

// apiInterceptor is one link of an API call's unary interceptor chain, and
// the transports it runs on: onGRPC for calls on the gRPC port, onREST for
// REST calls served in process (gateway.go, rest.NewServer), onMCP for the
// API calls of /mcp's tools (mcpInterceptors).
type apiInterceptor struct {
	f                     grpc.UnaryServerInterceptor
	onGRPC, onREST, onMCP bool
}

// apiInterceptors is the one list of unary interceptors of an API call, the
// first the outermost. Both transports share it, so that a REST call gets
// the same log line, metrics, panic recovery, deadline and game field as a
// gRPC call; the links only one side has are the other side's own
// mechanism in another form:
//
//   - the request id and the span are, on gRPC, requestid.Unary in
//     productionServerOptions and otelgrpc's stats handler (tr), outside this
//     chain; REST runs them here (requestid.Unary reads the id the gateway
//     puts in the incoming metadata, requestid.Metadata; tr.restSpan);
//   - adm.Started (the admission gate's read timer and the count shutdown
//     waits for), limit.ElementGate (the verdict of limit.Codec's wire
//     scan), adm.PublicSize and the in-flight limit are the gRPC port's gate
//     and limits; a REST call has passed the REST port's own (restLimits:
//     limit.Body for size and body budget, rest's strictJSON: the element budget,
//     InFlight.HTTP: the in-flight limit and queue wait) before its handler
//     runs, and is counted by InFlight.HTTP for shutdown;
//   - adm.CostGate, the heavy lane, runs on both, inside the in-flight
//     limit: a call that buys much work (callCost) gives back its slot and
//     takes seats of the lane, one port's and the other's alike.
//
// The API calls of /mcp's tools (package mcp, Options.API) run the REST
// links but the request id's: a tool call is an HTTP request of the REST
// port's limits (its slot, its caller named by limit.Clients), whose id
// requestid.HTTP has put in its context; so a tool's Playout takes the
// heavy lane's seats of its HTTP caller, under the call's deadline, and
// is logged and counted as that RPC.
//
// Recovery sits inside logging and metrics so that a panic, turned into
// INTERNAL, is still logged and counted; so is a gRPC request refused by
// the in-flight limit.
func apiInterceptors(cfg Options, logger *zap.Logger, metrics *grpcMetrics, adm *limit.Admission, refused *prometheus.CounterVec, tr *tracing) []apiInterceptor {
	const grpcPort, restGW, mcpTools = 1, 2, 4
	const grpcOnly, restOnly, both = grpcPort, restGW | mcpTools, grpcPort | restGW | mcpTools
	link := func(f grpc.UnaryServerInterceptor, where int) apiInterceptor {
		return apiInterceptor{f: f, onGRPC: where&grpcPort != 0, onREST: where&restGW != 0, onMCP: where&mcpTools != 0}
	}
	links := []apiInterceptor{
		link(tr.restSpan(), restOnly),
		link(requestid.Unary, restGW),
		link(adm.Started, grpcOnly),
		link(logUnary(logger.Named("rpc")), both),
		link(metrics.UnaryServerInterceptor(), both),
		link(recovery.UnaryServerInterceptor(recovery.WithRecoveryHandlerContext(recoverPanicFunc(logger))), both),
		link(limit.ElementGate, grpcOnly),
		link(adm.PublicSize(cfg.MaxRecvBytes, refused.WithLabelValues("grpc", "too_large")), grpcOnly),
		link(callDeadline(cfg.RequestTimeout, apiScope), both),
		link(limit.NewInFlight(cfg.MaxInFlight, cfg.QueueWait).UnaryServerInterceptor(apiScope, adm.FromGateway), grpcOnly),
		link(adm.CostGate(apiScope, callCost), both),
	}
	return links
}

// gameRulesPrefix is the full-method prefix of the API's own RPCs. Only they
// count against the request limits (apiScope): health checks, reflection
// and /metrics are exempt, so probes and monitoring still answer under
// overload.
var gameRulesPrefix = "/" + gamerulesv1grpc.GameRules_ServiceDesc.ServiceName + "/"

// apiScope is the scope of the gRPC limits: the API's own RPCs.
var apiScope = limit.MethodPrefix(gameRulesPrefix)

// MaxElements is the most sub-messages and strings one request may hold,
// on gRPC and REST (limit.MaxElements): a request over it is refused before
// it is decoded, INVALID_ARGUMENT with reason INVALID_REQUEST on gRPC,
// HTTP 400 on REST.
const MaxElements = limit.MaxElements

// newAdmission is the gRPC port's admission gate for opts: room for
// MaxInFlight+MaxWaiting API calls, the gateway's calls exempt by a token
// only this process knows.
func newAdmission(opts Options, refused *prometheus.CounterVec) *limit.Admission {
	return &limit.Admission{
		ConnSlots:      opts.GRPCMaxInFlightPerConn,
		MaxUnreadBytes: opts.GRPCMaxUnreadBytes,
		UnreadTimeout:  opts.GRPCUnreadTimeout,
		AnswerWait:     opts.QueueWait,
		MaxResets:      opts.GRPCMaxResets,
		Cap:            int64(opts.MaxInFlight + opts.MaxWaiting),
		Scope:          apiScope,
		Refused:        refused.WithLabelValues("grpc", "overloaded"),
		ReadTimeout:    opts.GRPCReadTimeout,
		RequestTimeout: opts.RequestTimeout,
		GatewayToken:   randomToken(),
		Heavy:          newHeavy(opts, refused.WithLabelValues("both", "heavy")),
		TrustedProxies: opts.TrustedProxies,
		HeavyMethod: func(fullMethod string) bool {
			return apiScope(fullMethod) && rpcs.MayBeHeavy(strings.TrimPrefix(fullMethod, gameRulesPrefix))
		},
	}
}

// newHeavy is the heavy lane of opts (Options.HeavySeats): a client's
// share half the seats (at least 1), 2 × share + 2 of its calls queued, a
// wait of 4 × QueueWait, the costs of service/rpcs (µs of CPU: heavy from
// 10 ms, a seat more per second).
func newHeavy(opts Options, refused prometheus.Counter) *limit.Heavy {
	share := max(1, opts.HeavySeats/2)
	return &limit.Heavy{
		Seats:       opts.HeavySeats,
		Share:       share,
		Queue:       2*share + 2,
		Wait:        4 * opts.QueueWait,
		MinCost:     rpcs.HeavyCost,
		CostPerSeat: 1_000_000,
		Refused:     refused,
	}
}

// callCost is a call's cost in µs of CPU (rpcs.Cost), for the heavy lane.
func callCost(_ string, req any) int64 {
	if m, ok := req.(proto.Message); ok {
		return rpcs.Cost(m)
	}
	return rpcs.LightCost
}

// restLimits puts the REST port's limits in front of the gateway gw: the
// caller's name for the heavy lane (limit.Clients, with TrustedProxies),
// the body size and the body budget ((MaxInFlight+MaxWaiting) ×
// MaxRecvBytes), then the in-flight limit lim, their refusals counted on
// refused.
func restLimits(opts Options, gw http.Handler, lim *limit.InFlight, refused prometheus.Counter) http.Handler {
	budget := limit.NewBodyBudget(int64(opts.MaxInFlight+opts.MaxWaiting)*int64(opts.MaxRecvBytes), refused)
	return limit.Clients(limit.Body(lim.HTTP(gw, refused), int64(opts.MaxRecvBytes), budget), opts.TrustedProxies)
}

// grpcInterceptors are the links of chain that run on the gRPC port.
func grpcInterceptors(chain []apiInterceptor) []grpc.UnaryServerInterceptor {
	var out []grpc.UnaryServerInterceptor
	for _, l := range chain {
		if l.onGRPC && l.f != nil {
			out = append(out, l.f)
		}
	}
	return out
}

// restInterceptors are the links of chain that run for in-process REST
// calls.
func restInterceptors(chain []apiInterceptor) []grpc.UnaryServerInterceptor {
	var out []grpc.UnaryServerInterceptor
	for _, l := range chain {
		if l.onREST && l.f != nil {
			out = append(out, l.f)
		}
	}
	return out
}

// mcpInterceptors are the links of chain that run for the API calls of
// /mcp's tools.
func mcpInterceptors(chain []apiInterceptor) []grpc.UnaryServerInterceptor {
	var out []grpc.UnaryServerInterceptor
	for _, l := range chain {
		if l.onMCP && l.f != nil {
			out = append(out, l.f)
		}
	}
	return out
}

// recoverPanicFunc turns a handler's panic into INTERNAL "internal error"
// (HTTP 500 on REST), logged at error level with the stack.
func recoverPanicFunc(logger *zap.Logger) recovery.RecoveryHandlerFuncContext {
	return func(ctx context.Context, p any) error {
		logger.Error("panic in handler", zap.Any("panic", p), zap.Stack("stack"))
		return restjson.ErrPanic
	}
}

// refusedCounter is the metric of requests refused by a limit before any
// handler ran, by port and reason.
func refusedCounter(reg prometheus.Registerer) *prometheus.CounterVec {
	c := newRefusedCounter()
	reg.MustRegister(c)
	return c
}

// newRefusedCounter is refusedCounter's metric, not registered.
func newRefusedCounter() *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gamerules_requests_refused_total",
		Help: "Requests refused before reaching a handler, by port (grpc, http; both for the heavy lane, which the ports share) and reason (overloaded, malformed, too_large, heavy: a client over its share of the heavy lane, or no seat in time).",
	}, []string{"port", "reason"})
}

// connMetrics are the metrics of adm's per-connection limits, to
// register; it gives adm its logger and its ConnsClosed:
// gamerules_grpc_connections_closed_total by reason (resets: too many
// streams reset or abandoned before their message; unread: answers left
// unread past --grpc-unread-timeout), and the gauges
// gamerules_grpc_unread_answer_bytes and gamerules_heavy_seats_in_use (the
// heavy lane's seats held).
func connMetrics(adm *limit.Admission, logger *zap.Logger) []prometheus.Collector {
	closed := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gamerules_grpc_connections_closed_total",
		Help: "gRPC connections closed by a limit, by reason (resets: streams reset, abandoned or refused before their message past --grpc-max-resets per second; unread: answers left unread past --grpc-unread-timeout).",
	}, []string{"reason"})
	unread := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gamerules_grpc_unread_answer_bytes",
		Help: "Bytes of gRPC answers handed to the transport and not yet written to their clients.",
	}, func() float64 { return float64(adm.UnreadBytes()) })
	seats := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gamerules_heavy_seats_in_use",
		Help: "Seats of the heavy lane (--heavy-seats) held now by calls that buy much work.",
	}, func() float64 {
		if adm.Heavy == nil {
			return 0
		}
		return float64(adm.Heavy.InUse())
	})
	for _, r := range []string{"resets", "unread"} {
		closed.WithLabelValues(r)
	}
	adm.ConnsClosed = func(reason string) { closed.WithLabelValues(reason).Inc() }
	adm.Logger = logger
	return []prometheus.Collector{closed, unread, seats}
}

// randomToken returns 128 random bits in hex: the gateway token, which
// only this process knows.
func randomToken() string {
	var b [16]byte
	_, _ = crand.Read(b[:])
	return hex.EncodeToString(b[:])
}
