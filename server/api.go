package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/mcp"
	"github.com/gamerules/gamerules/rest"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/server/requestid"
	"github.com/gamerules/gamerules/service"
)

// API is the gamerules.v1 GameRules service behind the stack's limits and
// interceptors, to mount into a program's own *grpc.Server and HTTP mux:
//
//	api, err := server.NewAPI(server.DefaultOptions())
//	gs := grpc.NewServer(api.GRPCServerOptions()...) // limits, codec, interceptors
//	api.RegisterGRPC(gs)
//	rest, err := api.RESTHandler()                   // the REST gateway, in process
//	mux.Handle("/v1/", rest)
//
// A call through either gets what a call to a Server gets: the admission
// gate, the in-flight limit and queue wait, the request size and element
// budgets, the deadline, the log line, the metrics, panic recovery and the
// request id (the REST handler reads and sets X-Request-Id). What belongs to
// a whole server stays with Server: listeners, TLS, CORS, health, probes,
// /metrics, the docs and playground pages, and graceful shutdown.
type API struct {
	opts    Options
	logger  *zap.Logger
	tr      *tracing
	metrics *grpcMetrics
	refused *prometheus.CounterVec
	reg     metricsRegistry
	httpM   httpMetrics
	// registered are the collectors registered on reg, for Close.
	registered []prometheus.Collector
	adm        *limit.Admission
	// httpResets bounds the HTTP port's HTTP/2 streams reset or abandoned
	// before their body (Server's; --grpc-max-resets).
	httpResets *limit.HTTPResets
	svc        gamerulesv1grpc.GameRulesServer
	rules      *service.Server // the service svc wraps, which /mcp's tools call
	chain      []apiInterceptor
	games      []string
}

// NewAPI validates opts and builds the API with their limits, logging to
// opts.Logger (nil: a logger from LogLevel and LogFormat) and registering
// its metrics on opts.Registerer (nil: a registry of its own, served by
// Server's /metrics; an embedding program that wants the metrics sets
// Registerer and Gatherer), tracing with opts.TracerProvider when it is set
// (the OTEL_* variables are Server's business). Listener, TLS and CORS
// options are not used. Close unregisters the metrics.
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
	var tr *tracing
	if opts.TracerProvider != nil {
		// Only the host's provider: an exporter NewAPI made from the
		// OTEL_* variables would have no owner to shut it down.
		tr = &tracing{tp: opts.TracerProvider, prop: newPropagator()}
	}
	return newAPI(opts, logger, tr)
}

// newAPI builds the API on an already built logger and tracing (nil: off).
func newAPI(opts Options, logger *zap.Logger, tr *tracing) (*API, error) {
	var reg metricsRegistry = registryPair{opts.Registerer, opts.Gatherer}
	if opts.Registerer == nil {
		r := prometheus.NewRegistry()
		r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		reg = r
	}
	metrics := newGRPCMetrics()
	refused := newRefusedCounter()
	svc := service.New()
	a := &API{
		opts: opts, logger: logger, tr: tr, metrics: metrics, refused: refused, reg: reg,
		httpM: makeHTTPMetrics(),
		adm:   newAdmission(opts, refused),
		svc:   NewGRPCService(svc),
		rules: svc,
		games: svc.Games(),
	}
	// Every metric is registered here, checked, so that a host's registry
	// that already holds one of these names is an error, not a panic; Close
	// unregisters them.
	httpClosed := prometheus.NewCounter(prometheus.CounterOpts{
		Name:        "gamerules_http_connections_closed_total",
		Help:        "HTTP/2 connections of the HTTP port closed by a limit, by reason (resets: requests reset or abandoned before their body past --grpc-max-resets per second).",
		ConstLabels: prometheus.Labels{"reason": "resets"},
	})
	a.httpResets = &limit.HTTPResets{Max: opts.GRPCMaxResets, Closed: httpClosed, Logger: logger.Named("http")}
	if err := a.register(append([]prometheus.Collector{metrics, refused, a.httpM.requests, a.httpM.duration, httpClosed}, connMetrics(a.adm, logger.Named("rpc"))...)...); err != nil {
		return nil, err
	}
	a.chain = apiInterceptors(opts, logger, metrics, a.adm, refused, tr)
	return a, nil
}

// register registers cs on the API's registry, all or none.
func (a *API) register(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := a.reg.Register(c); err != nil {
			a.Close()
			return fmt.Errorf("registering the server's metrics on Options.Registerer: %w (a registry holds one server's metrics; Close or the end of Run unregisters them)", err)
		}
		a.registered = append(a.registered, c)
	}
	return nil
}

// Close unregisters the API's metrics from Options.Registerer, so that
// another API or Server can register there (a Server's Run does it when it
// stops). The API must not serve after Close. Safe to call more than once.
func (a *API) Close() {
	for _, c := range a.registered {
		a.reg.Unregister(c)
	}
	a.registered = nil
}

// GRPCServerOptions are the options to make a *grpc.Server with the API's
// limits and interceptors: message and metadata sizes, streams per
// connection, the admission gate (an InTapHandle), the element budget (a
// codec), keepalive and connection limits, and the unary chain (logs,
// metrics, recovery, deadline, in-flight limit). extra come first, so that
// their interceptors run outside these. A grpc.Server takes one InTapHandle
// and one codec: give it no other.
func (a *API) GRPCServerOptions(extra ...grpc.ServerOption) []grpc.ServerOption {
	first := append([]grpc.ServerOption{grpc.ChainUnaryInterceptor(requestid.Unary)}, a.tr.serverOptions()...)
	return a.grpcServerOptions(append(first, extra...)...)
}

// grpcServerOptions are GRPCServerOptions with extra as given (Server puts
// the request id, TLS and tracing there itself).
func (a *API) grpcServerOptions(extra ...grpc.ServerOption) []grpc.ServerOption {
	return grpcServerOptions(a.opts, a.logger, a.metrics, a.adm, a.refused,
		&transportStats{logger: a.logger.Named("rpc"), refused: a.refused, adm: a.adm}, extra...)
}

// RegisterGRPC registers the GameRules service on s, which must have been
// made with GRPCServerOptions, and initializes its metrics.
func (a *API) RegisterGRPC(s *grpc.Server) {
	if a == nil || a.svc == nil {
		panic(errNotMade) // a programming error, as grpc-go's own registration panics are
	}
	gamerulesv1grpc.RegisterGameRulesServer(s, a.svc)
	a.metrics.InitializeMetrics(s)
}

// RESTHandler is the REST/JSON gateway of the API, served in process (no
// gRPC port needed), with the REST port's limits: the body size and body
// budget, the element budget, the in-flight limit and queue wait (429 with
// Retry-After), the request id and the HTTP log line and metrics. Mount it
// at "/v1/" (the API's paths all start there) or at "/".
func (a *API) RESTHandler() (http.Handler, error) {
	if a == nil || a.svc == nil {
		return nil, errNotMade
	}
	opts := a.opts
	opts.RESTGateway = GatewayInProcess
	gw, _, err := restGateway(context.Background(), opts, a.svc, a.chain, a.adm, nil, a.tr, nil)
	if err != nil {
		return nil, err
	}
	h := restLimits(opts, gw, limit.NewInFlight(opts.MaxInFlight, opts.QueueWait), a.refused.WithLabelValues("http", "overloaded"))
	return noSniff(a.tr.handler(requestid.HTTP(instrument(h, a.httpM, a.logger.Named("http"))))), nil
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

// NewGRPCService returns svc as the generated gamerulesv1grpc.GameRulesServer,
// to register on a *grpc.Server (gamerulesv1grpc.RegisterGameRulesServer) or a
// REST gateway (gamerulesv1grpc.RegisterGameRulesHandlerServer) without the
// stack's limits and interceptors; API gives them. It is rest.NewServer
// with no interceptor: it lives outside service/ so that service/ itself
// imports no gRPC server package.
func NewGRPCService(svc *service.Server) gamerulesv1grpc.GameRulesServer {
	return rest.NewServer(svc, nil)
}

// errNotMade is the answer of a method of a zero value: a stack that its
// constructor did not make does not serve.
var errNotMade = errors.New("server: the zero value does not serve; make one with its constructor (server.New, server.NewAPI)")

// mcpHandler is package mcp's streamable HTTP handler over a's service, for
// /mcp on the HTTP port, or nil when opts.MCP is off. Its tool calls run
// under opts.RequestTimeout, its bodies are bounded by opts.MaxRecvBytes,
// and the HTTP port's limits stand in front of it (newHTTPHandler); each
// API call a tool makes runs the chain's MCP links (mcpInterceptors: the
// heavy lane, the deadline, the log line and metrics of its RPC).
func (a *API) mcpHandler(opts Options) http.Handler {
	if !opts.MCP || a == nil || a.rules == nil {
		return nil
	}
	return mcp.HTTPHandler(mcp.Options{
		Service:         a.rules,
		API:             rest.NewServer(a.rules, mcpInterceptors(a.chain)),
		Timeout:         opts.RequestTimeout,
		Version:         opts.Version,
		MaxRequestBytes: int64(opts.MaxRecvBytes),
		// A proxy on the same host forwards the public Host header; the
		// HTTP port's CORS policy, not the Host, says who may call.
		AllowAnyHost: true,
	})
}
