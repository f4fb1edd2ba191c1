package main

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/gen/openapiv2"
	"github.com/gamerules/gamerules/service"
)

// Config is everything the server can be told. DefaultConfig gives the
// defaults; the flags and GAMERULES_* environment variables override them.
type Config struct {
	// GRPCAddr is the gRPC listen address, default ":50051".
	GRPCAddr string
	// HTTPAddr is the HTTP listen address (REST gateway, /healthz, /readyz,
	// /metrics, /openapi.json), default ":8080".
	HTTPAddr string
	// LogLevel is debug, info, warn or error; default info.
	LogLevel string
	// LogFormat is json (default) or console.
	LogFormat string
	// MaxRecvBytes is the largest request accepted, in bytes, on both
	// ports (default 512 KiB). The largest legitimate request, a Gravity
	// Trap state on a maximal custom board, is 53 KB of compact JSON, 310 KB
	// pretty-printed with a 2-space indent, 19 KB of protobuf, and holds 784
	// elements (TestLargestLegitimateRequest); what a request costs to
	// decode is bounded by MaxElements, not by its size. A larger gRPC
	// request is RESOURCE_EXHAUSTED; a larger REST body is refused with HTTP
	// 413.
	MaxRecvBytes int
	// MaxInFlight is how many API requests run at once, per port (default
	// 4 × GOMAXPROCS). Health checks, reflection and /metrics are exempt.
	MaxInFlight int
	// MaxWaiting is how many more gRPC requests may be admitted (their
	// message read and decoded) while all MaxInFlight slots are taken
	// (default 64; a decoded request holds at most MaxElements elements,
	// about 1 MB); beyond MaxInFlight+MaxWaiting a request is
	// refused RESOURCE_EXHAUSTED at once, before its message is read.
	MaxWaiting int
	// QueueWait is the longest a request waits for a slot before it is
	// refused RESOURCE_EXHAUSTED (REST: 429 with Retry-After); default 250 ms.
	QueueWait time.Duration
	// RequestTimeout is the deadline of every API request (default 5 s); a
	// client's shorter deadline wins.
	RequestTimeout time.Duration
	// GRPCMaxStreams is the most concurrent streams one gRPC connection may
	// open (HTTP/2 MAX_CONCURRENT_STREAMS; default 100).
	GRPCMaxStreams int
	// GRPCMaxConnectionIdle closes a gRPC connection with no call for this
	// long (default 5 min); GRPCMaxConnectionAge closes any connection after
	// this long (default 30 min, with GRPCMaxConnectionAgeGrace, default 30 s,
	// for its calls to finish), so that clients rebalance across replicas.
	GRPCMaxConnectionIdle     time.Duration
	GRPCMaxConnectionAge      time.Duration
	GRPCMaxConnectionAgeGrace time.Duration
	// GRPCReadTimeout is how long an API call's message may take to arrive
	// after its headers (default 2 s); a stream that sends headers and no
	// message is then ended, so that it cannot hold a place in the
	// admission gate.
	GRPCReadTimeout time.Duration
	// GRPCHandshakeTimeout closes a gRPC connection that has not finished
	// its HTTP/2 handshake (preface and SETTINGS) in this long (default 10 s).
	GRPCHandshakeTimeout time.Duration
	// GRPCKeepaliveMinTime is the shortest interval at which a client may
	// send keepalive pings (default 10 s); a client pinging more often is
	// disconnected (GOAWAY "too_many_pings").
	GRPCKeepaliveMinTime time.Duration
	// HTTPReadTimeout bounds reading a whole REST request, headers and body
	// (default 10 s); HTTPIdleTimeout closes a keep-alive HTTP connection
	// idle for this long (default 2 min).
	HTTPReadTimeout time.Duration
	HTTPIdleTimeout time.Duration
	// ShutdownTimeout bounds how long shutdown waits for requests in flight
	// (default 15 s); after it, remaining connections are closed.
	ShutdownTimeout time.Duration
	// DrainDelay is how long the server keeps serving after a shutdown
	// signal while /readyz and gRPC health say not ready, so that load
	// balancers stop sending new requests first (default 0; the Kubernetes
	// manifest sets 5 s).
	DrainDelay time.Duration
	// TLSCert and TLSKey are PEM files of the server's certificate (chain)
	// and key; when set, both ports serve TLS only, and the gateway's own
	// hop to the gRPC port is TLS too. TLSClientCA, a PEM file of CA
	// certificates, turns on mutual TLS: every client must present a
	// certificate signed by one of them. Default: none (plain text).
	TLSCert, TLSKey, TLSClientCA string
	// CORSOrigins are the browser origins allowed to call the REST API
	// (e.g. "https://play.example.com"; "*" for any), comma-separated on
	// the command line. Default: none (no CORS headers; a preflight is 405).
	CORSOrigins []string
	// RESTGateway is how the REST gateway reaches the service: "inprocess"
	// (the default: it calls the service's methods directly, through the
	// same interceptors as a gRPC call) or "loopback" (it dials the gRPC
	// port and makes each REST call a gRPC call; slower, kept for
	// comparison). See gateway.go.
	RESTGateway string

	// GCPercent is the garbage collector's target (Go's GOGC), default
	// 400: the server's live heap is small (a few MB when idle), so at Go's
	// 100 it collects after every few MB of answers, and the collector was
	// a third of a loaded server's CPU; at 400 it costs about half of that
	// (BENCHMARKS.md). MemoryLimitMiB, default 256 (the Kubernetes
	// manifest's limit), is the soft memory limit (Go's GOMEMLIMIT) at
	// which the collector works harder whatever GCPercent says, so that a
	// heap bounded by the request limits stays within it; 0 means none.
	// When GOGC or GOMEMLIMIT is set in the environment, Go's own value
	// wins. They apply to the process (gamerulesd's main), not to a server
	// run inside another program.
	GCPercent      int
	MemoryLimitMiB int

	// tracerProvider, when set (by tests), replaces the OTLP exporter that
	// OTEL_EXPORTER_OTLP_ENDPOINT would configure.
	tracerProvider tracerProvider
	// logOutput, when set (by tests), receives the log lines instead of
	// standard error.
	logOutput io.Writer
}

// DefaultConfig returns the configuration used when nothing is set.
func DefaultConfig() Config {
	return Config{
		GRPCAddr:                  ":50051",
		HTTPAddr:                  ":8080",
		LogLevel:                  "info",
		LogFormat:                 "json",
		MaxRecvBytes:              512 << 10,
		MaxInFlight:               4 * runtime.GOMAXPROCS(0),
		MaxWaiting:                64,
		QueueWait:                 250 * time.Millisecond,
		RequestTimeout:            5 * time.Second,
		GRPCMaxStreams:            100,
		GRPCMaxConnectionIdle:     5 * time.Minute,
		GRPCMaxConnectionAge:      30 * time.Minute,
		GRPCMaxConnectionAgeGrace: 30 * time.Second,
		GRPCHandshakeTimeout:      10 * time.Second,
		GRPCReadTimeout:           2 * time.Second,
		GRPCKeepaliveMinTime:      10 * time.Second,
		HTTPReadTimeout:           10 * time.Second,
		HTTPIdleTimeout:           2 * time.Minute,
		ShutdownTimeout:           15 * time.Second,
		RESTGateway:               gatewayInProcess,
		GCPercent:                 400,
		MemoryLimitMiB:            256,
	}
}

// gcPercent returns the collector's target (Go has no getter: setting
// returns the old value, which is set back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// latencyBuckets are the histogram buckets, in seconds, of the gRPC and the
// HTTP latency metrics (100 µs to 1 s: the rules answer in microseconds).
var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}

// Addrs are the addresses the server actually listens on (useful with port 0).
type Addrs struct {
	GRPC, HTTP string
}

// run serves until ctx is cancelled, then shuts down gracefully: the health
// status turns NOT_SERVING, /readyz answers 503, and both servers finish the
// requests in flight (bounded by cfg.ShutdownTimeout). When ready is not nil,
// the listening addresses are sent on it once both ports are open.
func run(ctx context.Context, cfg Config, ready chan<- Addrs) error {
	logger, err := newLogger(cfg)
	if err != nil {
		return err
	}
	defer func() { _ = logger.Sync() }()
	tlsSet, err := loadTLS(cfg)
	if err != nil {
		return err
	}
	tr, err := newTracing(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tr.shutdown(sctx); err != nil {
			logger.Warn("flushing traces", zap.Error(err))
		}
	}()

	grpcLis, err := net.Listen("tcp", cfg.GRPCAddr)
	if err != nil {
		return fmt.Errorf("gRPC listener: %w", err)
	}
	httpLis, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		grpcLis.Close()
		return fmt.Errorf("HTTP listener: %w", err)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
		grpcprom.WithHistogramBuckets(latencyBuckets),
	))
	reg.MustRegister(metrics)
	refused := refusedCounter(reg)

	srv := service.New()
	adm := &admission{
		cap:            int64(cfg.MaxInFlight + cfg.MaxWaiting),
		refused:        refused.WithLabelValues("grpc", "overloaded"),
		readTimeout:    cfg.GRPCReadTimeout,
		requestTimeout: cfg.RequestTimeout,
		gatewayToken:   randomToken(),
	}
	grpcServer := newGRPCServer(cfg, logger, metrics, adm, refused, &transportStats{logger: logger.Named("rpc"), refused: refused}, srv,
		productionServerOptions(tlsSet, tr)...)
	metrics.InitializeMetrics(grpcServer)
	healthSrv := newHealthServer()
	healthpb.RegisterHealthServer(grpcServer, healthSrv)
	reflection.Register(grpcServer)

	// REST calls pass the same interceptors (logs, metrics, recovery,
	// deadline) as gRPC calls: in process by default, or over the gateway's
	// loopback hop to the gRPC port (--rest-gateway; gateway.go).
	gw, closeGW, err := restGateway(ctx, cfg, srv, apiInterceptors(cfg, logger, metrics, adm, refused, tr), adm, tlsSet, tr, grpcLis.Addr())
	if err != nil {
		grpcLis.Close()
		httpLis.Close()
		return err
	}
	defer closeGW()
	httpLimit := newLimiter(cfg.MaxInFlight, cfg.QueueWait)
	httpServer := &http.Server{
		Handler:           tr.handler(newHTTPHandler(cfg, gw, reg, healthSrv.Server, httpLimit, refused.WithLabelValues("http", "overloaded"), logger.Named("http"))),
		ReadHeaderTimeout: min(cfg.HTTPReadTimeout, 10*time.Second),
		ReadTimeout:       cfg.HTTPReadTimeout, // a slow client cannot hold a request open
		WriteTimeout:      cfg.HTTPReadTimeout + cfg.RequestTimeout + 5*time.Second,
		IdleTimeout:       cfg.HTTPIdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          zap.NewStdLog(logger.Named("http")),
	}

	var wg sync.WaitGroup
	errc := make(chan error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := grpcServer.Serve(grpcLis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			errc <- fmt.Errorf("gRPC server: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := serveHTTP(httpServer, httpLis, tlsSet); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- fmt.Errorf("HTTP server: %w", err)
		}
	}()
	logCtx, stopLog := context.WithCancel(context.Background())
	defer stopLog()
	go adm.logRefusals(logCtx, logger.Named("rpc"))
	healthSrv.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	healthSrv.SetServingStatus(gamerulesv1.GameRules_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	logger.Info("gamerulesd serving",
		zap.String("version", buildVersion()),
		zap.String("grpc_addr", grpcLis.Addr().String()),
		zap.String("http_addr", httpLis.Addr().String()),
		zap.Strings("games", srv.Games()),
		zap.Int("max_recv_bytes", cfg.MaxRecvBytes),
		zap.Int("max_in_flight", cfg.MaxInFlight),
		zap.Int("max_waiting", cfg.MaxWaiting),
		zap.Duration("request_timeout", cfg.RequestTimeout),
		zap.Bool("tls", tlsSet != nil), zap.Bool("mutual_tls", cfg.TLSClientCA != ""),
		zap.Strings("cors_origins", cfg.CORSOrigins), zap.Bool("tracing", tr != nil),
		zap.Int("gc_percent", gcPercent()), zap.Int64("memory_limit_bytes", debug.SetMemoryLimit(-1)))
	if ready != nil {
		ready <- Addrs{GRPC: grpcLis.Addr().String(), HTTP: httpLis.Addr().String()}
	}

	var runErr error
	select {
	case <-ctx.Done():
		logger.Info("shutting down", zap.Duration("drain_delay", cfg.DrainDelay), zap.Duration("timeout", cfg.ShutdownTimeout))
	case runErr = <-errc:
		logger.Error("server failed; shutting down", zap.Error(runErr))
	}
	// 1. Not ready: gRPC health says NOT_SERVING (watchers are told), and
	// /readyz answers 503, while both ports still serve.
	healthSrv.Shutdown()
	if cfg.DrainDelay > 0 && runErr == nil {
		logger.Info("draining: not ready, still serving", zap.Duration("drain_delay", cfg.DrainDelay))
		time.Sleep(cfg.DrainDelay)
	}
	// 2. End the health Watch streams, which would otherwise hold the
	// graceful stop until the timeout.
	healthSrv.endWatches()

	// 3. Stop accepting, and let the calls in flight finish. REST first:
	// with --rest-gateway loopback its handlers need the gRPC port (the
	// gateway's hop), so gRPC serves on until no REST handler runs (in
	// process the order does not matter, and this one is as good); then whatever is left on the HTTP port
	// (bodies still arriving, answers a client is slow to read) is closed.
	// Then gRPC: once no API handler runs, whatever is left (streams that
	// sent no message, reflection streams) is closed. Nothing a client does
	// can hold this past the handlers it has running.
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	httpDone := make(chan struct{})
	go func() { _ = httpServer.Shutdown(sctx); close(httpDone) }()
	if !waitIdle(sctx, httpDone, func() bool { return httpLimit.running.Load() == 0 }) {
		logger.Warn("shutdown timed out with REST calls still running; closing")
	}
	httpServer.Close()
	<-httpDone
	grpcDone := make(chan struct{})
	go func() { grpcServer.GracefulStop(); close(grpcDone) }()
	if !waitIdle(sctx, grpcDone, func() bool { return adm.running.Load() == 0 }) {
		logger.Warn("shutdown timed out with gRPC calls still running; stopping")
	}
	grpcServer.Stop()
	<-grpcDone
	wg.Wait()
	logger.Info("stopped")
	return runErr
}

// newGRPCServer builds the gRPC server with its limits and interceptors.
//
// Limits: the message size (cfg.MaxRecvBytes), the admission gate (adm,
// before a message is read), the element budget (costCodec, before a
// message is decoded), streams per connection, keepalive enforcement, and
// idle and age limits on connections. The unary interceptors are
// apiInterceptors' gRPC links (chain.go; the first is the outermost):
// logging, metrics, recovery, the element budget's verdict (costGate), the
// public size limit, the deadline, then the in-flight limit. What fails
// before any interceptor runs (a message that does not parse or is too
// large) is seen by the stats handler ts.
//
// extra options come first, so that their interceptors (the request id)
// run outside all of these.
func newGRPCServer(cfg Config, logger *zap.Logger, metrics *grpcprom.ServerMetrics, adm *admission, refused *prometheus.CounterVec, ts *transportStats, srv gamerulesv1.GameRulesServer, extra ...grpc.ServerOption) *grpc.Server {
	recoverPanic := recoverPanicFunc(logger)
	s := grpc.NewServer(append(extra,
		// Twice the public limit, for the gateway's protobuf form of a
		// JSON body; publicSize holds other clients to the limit itself.
		grpc.MaxRecvMsgSize(2*cfg.MaxRecvBytes),
		// Metadata: 64 KiB, as the REST port's headers (grpc-go's default
		// is 16 MiB per stream).
		grpc.MaxHeaderListSize(64<<10),
		grpc.MaxConcurrentStreams(uint32(cfg.GRPCMaxStreams)),
		grpc.InTapHandle(adm.tap),
		grpc.ForceServerCodecV2(newCostCodec()),
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
	)...)
	gamerulesv1.RegisterGameRulesServer(s, srv)
	return s
}

// newHTTPHandler routes the HTTP port: probes, metrics, the OpenAPI document,
// the playground page (web.go), and everything else to the REST gateway.
func newHTTPHandler(cfg Config, gw http.Handler, reg *prometheus.Registry, hs *health.Server, lim *limiter, refused prometheus.Counter, logger *zap.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		resp, err := hs.Check(r.Context(), &healthpb.HealthCheckRequest{})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "not ready")
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapiv2.GameRules)
	})
	registerWeb(mux)
	registerDocs(mux)
	budget := &bodyBudget{max: int64(cfg.MaxInFlight+cfg.MaxWaiting) * int64(cfg.MaxRecvBytes), refused: refused}
	mux.Handle("/", guardREST(limitHTTP(gw, lim, refused), int64(cfg.MaxRecvBytes), budget))
	return withRequestID(instrument(withCORS(cfg, mux), newHTTPMetrics(reg), logger))
}

// dialTarget turns a listener address into one the gateway can dial: an
// unspecified host (":50051", "[::]:50051") becomes loopback.
func dialTarget(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || tcp.IP == nil || tcp.IP.IsUnspecified() {
		_, port, _ := net.SplitHostPort(a.String())
		return net.JoinHostPort("127.0.0.1", port)
	}
	return tcp.String()
}

// newLogger builds the zap logger from the config.
func newLogger(cfg Config) (*zap.Logger, error) {
	level, err := zapcore.ParseLevel(cfg.LogLevel)
	if err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", cfg.LogLevel)
	}
	var zc zap.Config
	switch cfg.LogFormat {
	case "json":
		zc = zap.NewProductionConfig()
	case "console":
		zc = zap.NewDevelopmentConfig()
	default:
		return nil, fmt.Errorf("--log-format %q: want json or console", cfg.LogFormat)
	}
	zc.Level = zap.NewAtomicLevelAt(level)
	zc.Sampling = nil
	zc.EncoderConfig.TimeKey = "time"
	zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	if cfg.logOutput != nil {
		return zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zc.EncoderConfig), zapcore.AddSync(cfg.logOutput), zc.Level)), nil
	}
	return zc.Build()
}

// zapLogger adapts zap to go-grpc-middleware's logging.Logger.
func zapLogger(l *zap.Logger) logging.Logger {
	return logging.LoggerFunc(func(_ context.Context, lvl logging.Level, msg string, fields ...any) {
		f := make([]zap.Field, 0, len(fields)/2)
		for i := 0; i+1 < len(fields); i += 2 {
			key, _ := fields[i].(string)
			if key == "grpc.time_ms" {
				// The middleware writes milliseconds as a string; log the
				// duration as the HTTP line does: "duration", float seconds.
				if ms, err := strconv.ParseFloat(fmt.Sprint(fields[i+1]), 64); err == nil {
					f = append(f, zap.Float64("duration", ms/1000))
					continue
				}
			}
			f = append(f, zap.Any(key, fields[i+1]))
		}
		l := l.WithOptions(zap.WithCaller(false)).With(f...)
		switch lvl {
		case logging.LevelDebug:
			l.Debug(msg)
		case logging.LevelInfo:
			l.Info(msg)
		case logging.LevelWarn:
			l.Warn(msg)
		default:
			l.Error(msg)
		}
	})
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

// randomToken returns 128 random bits in hex: the gateway token, which
// only this process knows.
func randomToken() string {
	var b [16]byte
	_, _ = crand.Read(b[:])
	return hex.EncodeToString(b[:])
}
