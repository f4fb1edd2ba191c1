package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/service"
)

// API is the gamerules.v1 GameRules service behind the stack's limits and
// interceptors, to mount into a program's own *grpc.Server and HTTP mux:
//
//	api, err := server.NewAPI(server.DefaultOptions())
//	gs := grpc.NewServer(api.GRPCServerOptions()...) // limits, codec, interceptors
//	api.RegisterGRPC(gs)
//	mux.Handle("/v1/", api.RESTHandler())            // the REST gateway, in process
//
// A call through either gets what a call to a Server gets: the admission
// gate, the in-flight limit and queue wait, the request size and element
// budgets, the deadline, the log line, the metrics, panic recovery and the
// request id (the REST handler reads and sets X-Request-Id). What belongs to
// a whole server stays with Server: listeners, TLS, CORS, health, probes,
// /metrics, the docs and playground pages, and graceful shutdown.
type API struct {
	opts     Options
	logger   *zap.Logger
	tr       *tracing
	metrics  *grpcprom.ServerMetrics
	refused  *prometheus.CounterVec
	reg      metricsRegistry
	httpOnce sync.Once
	httpM    httpMetrics
	adm      *limit.Admission
	svc      gamerulesv1.GameRulesServer
	chain    []apiInterceptor
	games    []string
}

// NewAPI validates opts and builds the API with their limits, logging to
// opts.Logger (nil: a logger from LogLevel and LogFormat) and registering
// its metrics on opts.Registerer (nil: a registry of its own, served by
// Server's /metrics; an embedding program that wants the metrics sets
// Registerer and Gatherer). Listener, TLS and CORS options are not used.
func NewAPI(opts Options) (*API, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	logger := opts.Logger
	if logger == nil {
		var err error
		if logger, err = newLogger(opts); err != nil {
			return nil, err
		}
	}
	return newAPI(opts, logger, nil)
}

// newAPI builds the API on an already built logger and tracing (nil: off).
func newAPI(opts Options, logger *zap.Logger, tr *tracing) (*API, error) {
	var reg metricsRegistry = registryPair{opts.Registerer, opts.Gatherer}
	if opts.Registerer == nil {
		r := prometheus.NewRegistry()
		r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		reg = r
	}
	metrics := grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
		grpcprom.WithHistogramBuckets(latencyBuckets),
	))
	if err := reg.Register(metrics); err != nil {
		return nil, fmt.Errorf("registering the gRPC metrics: %w", err)
	}
	refused := refusedCounter(reg)
	svc := service.New()
	a := &API{
		opts: opts, logger: logger, tr: tr, metrics: metrics, refused: refused, reg: reg,
		adm:   newAdmission(opts, refused),
		svc:   newGRPCService(svc),
		games: svc.Games(),
	}
	a.chain = apiInterceptors(opts, logger, metrics, a.adm, refused, tr)
	return a, nil
}

// GRPCServerOptions are the options to make a *grpc.Server with the API's
// limits and interceptors: message and metadata sizes, streams per
// connection, the admission gate (an InTapHandle), the element budget (a
// codec), keepalive and connection limits, and the unary chain (logs,
// metrics, recovery, deadline, in-flight limit). extra come first, so that
// their interceptors run outside these. A grpc.Server takes one InTapHandle
// and one codec: give it no other.
func (a *API) GRPCServerOptions(extra ...grpc.ServerOption) []grpc.ServerOption {
	return a.grpcServerOptions(append([]grpc.ServerOption{grpc.ChainUnaryInterceptor(requestIDUnary)}, extra...)...)
}

// grpcServerOptions are GRPCServerOptions with extra as given (Server puts
// the request id, TLS and tracing there itself).
func (a *API) grpcServerOptions(extra ...grpc.ServerOption) []grpc.ServerOption {
	return grpcServerOptions(a.opts, a.logger, a.metrics, a.adm, a.refused,
		&transportStats{logger: a.logger.Named("rpc"), refused: a.refused}, extra...)
}

// RegisterGRPC registers the GameRules service on s, which must have been
// made with GRPCServerOptions, and initializes its metrics.
func (a *API) RegisterGRPC(s *grpc.Server) {
	gamerulesv1.RegisterGameRulesServer(s, a.svc)
	a.metrics.InitializeMetrics(s)
}

// RESTHandler is the REST/JSON gateway of the API, served in process (no
// gRPC port needed), with the REST port's limits: the body size and body
// budget, the element budget, the in-flight limit and queue wait (429 with
// Retry-After), the request id and the HTTP log line and metrics. Mount it
// at "/v1/" (the API's paths all start there) or at "/".
func (a *API) RESTHandler() (http.Handler, error) {
	opts := a.opts
	opts.RESTGateway = GatewayInProcess
	gw, _, err := restGateway(context.Background(), opts, a.svc, a.chain, a.adm, nil, a.tr, nil)
	if err != nil {
		return nil, err
	}
	h := restLimits(opts, gw, limit.NewInFlight(opts.MaxInFlight, opts.QueueWait), a.refused.WithLabelValues("http", "overloaded"))
	return withRequestID(instrument(h, a.httpMetrics(), a.logger.Named("http"))), nil
}

// httpMetrics are the REST port's metrics, registered once.
func (a *API) httpMetrics() httpMetrics {
	a.httpOnce.Do(func() { a.httpM = newHTTPMetrics(a.reg) })
	return a.httpM
}

// metricsRegistry is where the stack registers its metrics and what
// /metrics serves.
type metricsRegistry interface {
	prometheus.Registerer
	prometheus.Gatherer
}

// registryPair is a host program's Registerer and Gatherer as one
// metricsRegistry.
type registryPair struct {
	prometheus.Registerer
	prometheus.Gatherer
}
