package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/server/pages"
	"github.com/gamerules/gamerules/server/probes"
	"github.com/gamerules/gamerules/server/requestid"
)

// gcPercent returns the collector's target (Go has no getter: setting
// returns the old value, which is set back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// Addrs are the addresses the server actually listens on (useful with port 0).
type Addrs struct {
	GRPC, HTTP string
}

// Server is the whole gamerules stack: the gamerules.v1 API over gRPC on one
// port and over REST/JSON on another, with its limits (admission, in-flight
// and queue wait, body bytes, element budget, deadlines, connection limits),
// interceptors (request id, logs, metrics, panic recovery, tracing), gRPC
// health and reflection, and on the HTTP port /healthz, /readyz, /metrics,
// /openapi.json, /docs and the playground. Make one with New, then Run it.
// It keeps no game state: any number of copies can serve behind a load
// balancer.
type Server struct {
	opts       Options
	logger     *zap.Logger
	ownLogger  bool   // built by New from LogLevel and LogFormat: New's caller does not own it
	stopLog    func() // flushes the own logger's buffer and stops its flushing (newBufferedLogger)
	tls        *serverTLS
	tr         *tracing
	api        *API
	grpcLis    net.Listener
	httpLis    net.Listener
	grpcServer *grpc.Server
	httpServer *http.Server
	healthSrv  *probes.Server
	httpLimit  *limit.InFlight
	conns      *connLimits
	healthPort *probes.Port // nil without --health-addr
	closeGW    func()
	running    sync.Once
}

// New validates opts (Options.Validate), builds the stack and opens both
// listeners (or takes Options.GRPCListener and HTTPListener), so that
// GRPCAddr and HTTPAddr are valid once it returns; nothing is served until
// Run. Its errors name the option (flag) at fault: a bad option, an
// unreadable TLS file, an address already in use.
func New(opts Options) (*Server, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	s := &Server{opts: opts, closeGW: func() {}}
	ok := false
	defer func() {
		if !ok {
			s.closeEarly()
		}
	}()
	var err error
	if s.logger = opts.Logger; s.logger == nil {
		if s.logger, s.stopLog, err = newBufferedLogger(opts); err != nil {
			return nil, err
		}
		s.ownLogger = true
	}
	if s.tls, err = loadTLS(opts); err != nil {
		return nil, err
	}
	if s.tr, err = newTracing(context.Background(), opts); err != nil {
		return nil, err
	}
	if s.grpcLis = opts.GRPCListener; s.grpcLis == nil {
		if s.grpcLis, err = net.Listen("tcp", opts.GRPCAddr); err != nil {
			return nil, fmt.Errorf("gRPC listener (--grpc-addr, Options.GRPCAddr %q): %w", opts.GRPCAddr, err)
		}
	}
	if s.httpLis = opts.HTTPListener; s.httpLis == nil {
		if s.httpLis, err = net.Listen("tcp", opts.HTTPAddr); err != nil {
			return nil, fmt.Errorf("HTTP listener (--http-addr, Options.HTTPAddr %q): %w", opts.HTTPAddr, err)
		}
	}
	if s.api, err = newAPI(opts, s.logger, s.tr); err != nil {
		return nil, err
	}
	a := s.api
	// Both listeners, the host's too, hold at most --max-connections
	// (conns.go); the listeners' Close closes the inner ones.
	if s.conns, err = newConnLimits(opts, s.grpcLis, s.httpLis, a); err != nil {
		return nil, err
	}
	s.grpcLis, s.httpLis = s.conns.grpc, s.conns.http
	s.grpcServer = grpc.NewServer(a.grpcServerOptions(append(productionServerOptions(s.tls, s.tr), grpc.StatsHandler(connUse{s.conns.grpc}))...)...)
	a.RegisterGRPC(s.grpcServer)
	s.healthSrv = probes.NewServer()
	healthpb.RegisterHealthServer(s.grpcServer, s.healthSrv)
	if opts.HealthAddr != "" {
		if s.healthPort, err = probes.NewPort(opts.HealthAddr, s.healthSrv, httpErrorLog(s.logger.Named("health"))); err != nil {
			return nil, err
		}
	}
	reflection.Register(s.grpcServer)

	// REST calls pass the same interceptors (logs, metrics, recovery,
	// deadline) as gRPC calls: in process by default, or over the gateway's
	// loopback hop to the gRPC port (--rest-gateway; gateway.go).
	gw, closeGW, err := restGateway(context.Background(), opts, a.svc, a.chain, a.adm, s.tls, s.tr, s.grpcLis.Addr())
	if err != nil {
		return nil, err
	}
	s.closeGW = closeGW
	s.httpLimit = limit.NewInFlight(opts.MaxInFlight, opts.QueueWait)
	s.httpServer = &http.Server{
		// Outermost: an HTTP/2 stream reset before its handler began costs
		// nothing more, and a connection resetting past --grpc-max-resets a
		// second is closed (limit.HTTPResets).
		Handler:           a.httpResets.Handler(noSniff(s.tr.handler(newHTTPHandler(opts, gw, a.mcpHandler(opts), a.reg, a.httpM, s.healthSrv.Server, s.httpLimit, a.refused.WithLabelValues("http", "overloaded"), s.logger.Named("http"))))),
		ConnContext:       a.httpResets.ConnContext,
		ReadHeaderTimeout: min(opts.HTTPReadTimeout, 10*time.Second),
		ReadTimeout:       opts.HTTPReadTimeout, // a slow client cannot hold a request open
		WriteTimeout:      opts.HTTPReadTimeout + opts.RequestTimeout + 5*time.Second,
		IdleTimeout:       opts.HTTPIdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          httpErrorLog(s.logger.Named("http")),
		ConnState:         s.conns.httpConnState,
	}
	ok = true
	return s, nil
}

// Close releases what New opened, for a Server that will not Run: the
// listeners, the gateway's connection, the tracer provider New made, and the
// metrics' registration. It returns an error when the Server has run or is
// running (Run releases all of it when it stops).
func (s *Server) Close() error {
	if s == nil || s.grpcServer == nil {
		return errNotMade
	}
	first := false
	s.running.Do(func() { first = true })
	if !first {
		return errors.New("server: Close of a Server that has run; Run releases what it holds when it stops")
	}
	s.closeEarly()
	return nil
}

// closeEarly releases what a failed New opened.
func (s *Server) closeEarly() {
	if s.api != nil {
		s.api.Close()
	}
	s.closeGW()
	if s.grpcLis != nil {
		s.grpcLis.Close()
	}
	if s.httpLis != nil {
		s.httpLis.Close()
	}
	if s.healthPort != nil {
		s.healthPort.Lis.Close()
	}
	if s.tr != nil {
		_ = s.tr.shutdown(context.Background())
	}
	if s.ownLogger {
		_ = s.logger.Sync()
		s.stopLog()
	}
}

// GRPCAddr is the address the gRPC port listens on (also after Run) ("127.0.0.1:41234"
// when Options.GRPCAddr asked for port 0); valid once New has returned.
func (s *Server) GRPCAddr() string { return s.grpcLis.Addr().String() }

// HTTPAddr is the address the HTTP port listens on; valid once New has
// returned.
func (s *Server) HTTPAddr() string { return s.httpLis.Addr().String() }

// HealthAddr is the address the health port (Options.HealthAddr) listens
// on, or "" when there is none; valid once New has returned.
func (s *Server) HealthAddr() string {
	if s.healthPort == nil {
		return ""
	}
	return s.healthPort.Lis.Addr().String()
}

// run is New and Run in one, for the tests: when ready is not nil, the
// listening addresses are sent on it once both ports are open.
func run(ctx context.Context, cfg Options, ready chan<- Addrs) error {
	s, err := New(cfg)
	if err != nil {
		return err
	}
	if ready != nil {
		ready <- Addrs{GRPC: s.GRPCAddr(), HTTP: s.HTTPAddr()}
	}
	return s.Run(ctx)
}

// errRunTwice is Run's answer when the Server has already run.
var errRunTwice = errors.New("server: Run called twice; a Server serves once (make another with New)")

// Run serves both ports until ctx is done, then shuts down gracefully and
// returns nil; or, when a port fails, shuts down and returns that error.
// Shutdown: the health status turns NOT_SERVING, /readyz answers 503 and
// REST keep-alive connections close after their next answer, while both
// ports still serve for Options.DrainDelay; then health Watch streams end,
// and both servers stop accepting (gRPC clients get a GOAWAY, at once
// unless the REST gateway is loopback, then after REST's calls) and finish
// the requests in flight, bounded by Options.ShutdownTimeout, after which
// what is left is closed; the metrics are unregistered from Options.Registerer.
// A Server runs once (a second Run is an error); one that will not run is
// released with Close.
func (s *Server) Run(ctx context.Context) error {
	if s == nil || s.grpcServer == nil {
		return errNotMade
	}
	first := false
	s.running.Do(func() { first = true })
	if !first {
		return errRunTwice
	}
	cfg, logger, a := s.opts, s.logger, s.api
	defer func() {
		if s.ownLogger {
			_ = logger.Sync()
			s.stopLog()
		}
	}()
	// The traces are flushed within what is left of the shutdown timeout
	// (at least stopGrace), so that tracing cannot hold the process past
	// it; 5 s when Run ends before the shutdown began.
	var flushBy time.Time
	defer func() {
		d := 5 * time.Second
		if !flushBy.IsZero() {
			d = max(time.Until(flushBy), stopGrace)
		}
		sctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		if err := s.tr.shutdown(sctx); err != nil {
			logger.Warn("flushing traces", zap.Error(err))
		}
	}()
	defer s.closeGW()
	defer a.Close() // the metrics' registration, so that the registry can hold another server's
	grpcServer, httpServer, healthSrv, httpLimit := s.grpcServer, s.httpServer, s.healthSrv, s.httpLimit

	var wg sync.WaitGroup
	errc := make(chan error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		// TrackConns lets the admission gate close a connection past its
		// limits (resets, unread answers).
		if err := grpcServer.Serve(limit.TrackConns(s.grpcLis)); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			errc <- fmt.Errorf("gRPC server: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := serveHTTP(httpServer, s.httpLis, s.tls); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- fmt.Errorf("HTTP server: %w", err)
		}
	}()
	if hp := s.healthPort; hp != nil {
		// The probes' port serves until the end (not counted in wg: it
		// fails only if its listener does, and then probes say so).
		go func() { _ = hp.HTTP.Serve(hp.Lis) }()
		defer func() { hp.HTTP.Close(); hp.GRPC.Stop() }()
	}
	logCtx, stopLog := context.WithCancel(context.Background())
	defer stopLog()
	go a.adm.LogRefusals(logCtx, logger.Named("rpc"))
	go s.conns.logRefusals(logCtx, logger, cfg.MaxConnections)
	healthSrv.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	healthSrv.SetServingStatus(gamerulesv1grpc.GameRules_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	logger.Info("gamerulesd serving",
		zap.String("version", cfg.Version),
		zap.String("grpc_addr", s.GRPCAddr()),
		zap.String("http_addr", s.HTTPAddr()),
		zap.String("health_addr", s.HealthAddr()),
		zap.Int("max_connections", cfg.MaxConnections),
		zap.Strings("games", a.games),
		zap.Int("max_recv_bytes", cfg.MaxRecvBytes),
		zap.Int("max_in_flight", cfg.MaxInFlight),
		zap.Int("max_waiting", cfg.MaxWaiting),
		zap.Duration("request_timeout", cfg.RequestTimeout),
		zap.Bool("tls", s.tls != nil), zap.Bool("mutual_tls", cfg.TLSClientCA != ""),
		zap.Strings("cors_origins", cfg.CORSOrigins), zap.Bool("tracing", s.tr != nil),
		zap.Int("gc_percent", gcPercent()), zap.Int64("memory_limit_bytes", debug.SetMemoryLimit(-1)))

	var runErr error
	select {
	case <-ctx.Done():
		logger.Info("shutting down", zap.Duration("drain_delay", cfg.DrainDelay), zap.Duration("timeout", cfg.ShutdownTimeout))
	case runErr = <-errc:
		logger.Error("server failed; shutting down", zap.Error(runErr))
	}
	// 1. Not ready: gRPC health says NOT_SERVING (watchers are told: a
	// client with the service config's healthCheckConfig stops picking this
	// replica at once), and /readyz answers 503, while both ports still
	// serve; each REST keep-alive connection is closed after its next
	// answer (Connection: close), so clients and proxies reconnect, to
	// another replica once the balancer has dropped this one.
	httpServer.SetKeepAlivesEnabled(false)
	healthSrv.Shutdown()
	if cfg.DrainDelay > 0 && runErr == nil {
		logger.Info("draining: not ready, still serving", zap.Duration("drain_delay", cfg.DrainDelay))
		time.Sleep(cfg.DrainDelay)
	}
	// 2. End the health Watch streams, which would otherwise hold the
	// graceful stop until the timeout.
	healthSrv.EndWatches()

	// 3. Stop accepting, and let the calls in flight finish. gRPC's
	// GracefulStop sends every client a GOAWAY (its channels move to other
	// replicas; calls it had not started are retried elsewhere by grpc-go)
	// and closes the listener; it starts at once, with REST's Shutdown,
	// so that gRPC clients are told to go while REST drains, not after.
	// Except with --rest-gateway loopback: REST handlers need the gRPC port
	// (the gateway's hop), so gRPC serves on until no REST handler runs.
	// On the HTTP port, once no REST handler runs, whatever is left (bodies
	// still arriving, answers a client is slow to read) is closed. Then
	// gRPC: once no API handler runs, whatever is left (streams that sent
	// no message, reflection streams) is closed. Nothing a client does can
	// hold this past the handlers it has running.
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	flushBy, _ = sctx.Deadline()
	grpcDone := make(chan struct{})
	var graceful time.Time
	stopGRPC := func() {
		graceful = time.Now()
		go func() { grpcServer.GracefulStop(); close(grpcDone) }()
	}
	if cfg.RESTGateway != GatewayLoopback {
		stopGRPC()
	}
	httpDone := make(chan struct{})
	go func() { _ = httpServer.Shutdown(sctx); close(httpDone) }()
	if !waitIdle(sctx, httpDone, func() bool { return httpLimit.Running() == 0 }) {
		logger.Warn("shutdown timed out with REST calls still running; closing")
	}
	httpServer.Close()
	<-httpDone
	if cfg.RESTGateway == GatewayLoopback {
		stopGRPC()
	}
	// A stream whose handler has not started may be one whose message has
	// arrived while its goroutine waits for a CPU (a loaded machine): Stop
	// would cut it off, and its client would see the connection closed
	// after the GOAWAY. So such streams hold the stop too, but only for
	// arrivalGrace after the graceful stop began: no new stream is taken
	// after the GOAWAY, so header-only streams (which have no message to
	// deliver) cannot hold it longer.
	if !waitIdle(sctx, grpcDone, func() bool {
		return a.adm.Running() == 0 && (a.adm.Arriving() == 0 || time.Since(graceful) >= arrivalGrace)
	}) {
		logger.Warn("shutdown timed out with gRPC calls still running; stopping")
	}
	// grpc-go's Stop (and Serve) return only when every handler has: a
	// handler that ignores its cancelled context would hold the process
	// past the timeout. So wait for them only until the deadline (a
	// moment more when it has passed, for the connections to close), and
	// return without them then: the process exits by the timeout
	// whatever a handler does.
	stopped := make(chan struct{})
	go func() { grpcServer.Stop(); <-grpcDone; wg.Wait(); close(stopped) }()
	deadline, _ := sctx.Deadline()
	wait := time.NewTimer(max(time.Until(deadline), stopGrace))
	defer wait.Stop()
	select {
	case <-stopped:
		logger.Info("stopped")
	case <-wait.C:
		logger.Warn("stopped with handlers still running past the shutdown timeout")
	}
	return runErr
}

// arrivalGrace is how long, at shutdown, gRPC streams whose handler has not
// started hold the stop (Admission.Arriving).
const arrivalGrace = 500 * time.Millisecond

// stopGrace is how long Run waits, once the shutdown timeout has passed,
// for grpc-go to close its connections before returning without them.
const stopGrace = 100 * time.Millisecond

// newHTTPHandler routes the HTTP port: probes, metrics, the OpenAPI document,
// the pages (package pages: /docs, /openapi.json, the playground), and everything else to the REST gateway.
func newHTTPHandler(cfg Options, gw, mcpH http.Handler, reg prometheus.Gatherer, m httpMetrics, hs *health.Server, lim *limit.InFlight, refused prometheus.Counter, logger *zap.Logger) http.Handler {
	mux := http.NewServeMux()
	probes.Register(mux, hs)
	// /metrics gathers every metric for each scrape: a few at once (a
	// Prometheus server scrapes one at a time); beyond, promhttp answers 503.
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{MaxRequestsInFlight: pages.MetricsInFlight}))
	// The pages (/docs, /openapi.json, the playground) have their own small
	// limit, apart from the API's --max-in-flight (package pages).
	pagesMux := http.NewServeMux()
	pages.Register(pagesMux, cfg.PlaygroundWasmDir)
	limited := pages.Limit(pagesMux, limit.NewInFlight(pages.InFlight, cfg.QueueWait), refused)
	for _, p := range pages.Paths {
		mux.Handle(p, limited)
	}
	if mcpH != nil {
		// /mcp: the MCP tools (package mcp), behind the REST port's own
		// limits (in flight, body size) as the API is.
		mux.Handle("/mcp", restLimits(cfg, mcpH, lim, refused))
	}
	mux.Handle("/", restLimits(cfg, gw, lim, refused))
	return requestid.HTTP(instrument(withCORS(cfg, mux), m, logger))
}

// waitIdle waits until done is closed, or idle has held for 20 ms (two
// checks 10 ms apart after the first), or ctx ends; it reports false only
// when ctx ended first.
func waitIdle(ctx context.Context, done <-chan struct{}, idle func() bool) bool {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	quiet := 0
	for {
		select {
		case <-done:
			return true
		case <-ctx.Done():
			return false
		case <-tick.C:
			if quiet++; !idle() {
				quiet = 0
			}
			if quiet >= 3 {
				return true
			}
		}
	}
}
