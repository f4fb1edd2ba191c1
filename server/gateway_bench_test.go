package server

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/server/probes"
	"github.com/gamerules/gamerules/service"
)

// gatewayStack is the HTTP port's handler as run builds it (newHTTPHandler
// around restGateway in one mode, the gRPC server behind it on a loopback
// port), without the HTTP listener, so that a request can be served by
// ServeHTTP alone: what it costs is the server's work for a REST call, the
// loopback hop included in loopback mode.
type gatewayStack struct {
	handler http.Handler
	reg     *prometheus.Registry
	grpc    string // the gRPC port's address
}

// srv is the service (nil: the real one); set changes the defaults (log
// level error, logs discarded).
func newGatewayStack(tb testing.TB, srv gamerulesv1grpc.GameRulesServer, set func(*Options)) gatewayStack {
	tb.Helper()
	cfg := DefaultOptions()
	cfg.LogLevel = "error"
	cfg.logOutput = io.Discard
	set(&cfg)
	logger, err := newLogger(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics := newGRPCMetrics()
	reg.MustRegister(metrics)
	refused := refusedCounter(reg)
	if srv == nil {
		srv = NewGRPCService(service.New())
	}
	var tr *tracing
	if cfg.TracerProvider != nil {
		if tr, err = newTracing(context.Background(), cfg); err != nil {
			tb.Fatal(err)
		}
	}
	adm := newAdmission(cfg, refused)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	gs := newGRPCServer(cfg, logger, metrics, adm, refused, &transportStats{logger: logger, refused: refused}, srv, productionServerOptions(nil, tr)...)
	metrics.InitializeMetrics(gs)
	go func() { _ = gs.Serve(lis) }()
	ctx, cancel := context.WithCancel(context.Background())
	gw, closeGW, err := restGateway(ctx, cfg, srv, apiInterceptors(cfg, logger, metrics, adm, refused, tr), adm, nil, tr, lis.Addr())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cancel(); closeGW(); gs.Stop() })
	hs := probes.NewServer()
	h := tr.handler(newHTTPHandler(cfg, gw, nil, reg, newHTTPMetrics(reg), hs.Server, limit.NewInFlight(cfg.MaxInFlight, cfg.QueueWait), refused.WithLabelValues("http", "overloaded"), logger.Named("http")))
	return gatewayStack{handler: h, reg: reg, grpc: lis.Addr().String()}
}

// serve answers one request through the stack.
func (g gatewayStack) serve(method, path, body string, header ...string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = bytes.NewReader([]byte(body))
	}
	req := httptest.NewRequest(method, path, r)
	req.RemoteAddr = "192.0.2.7:4242"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	g.handler.ServeHTTP(rec, req)
	return rec
}

// selfCPU is the process's user and system CPU time so far, in ns.
func selfCPU() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// gatewayBenchCases are the REST calls the gateway benchmark serves.
var gatewayBenchCases = []struct{ name, path, body string }{
	{"backgammon", "/v1/games/backgammon:legalMoves", `{"state":{"text":"` + bg31 + `"}}`},
	{"backgammon_results", "/v1/games/backgammon:legalMoves", `{"state":{"text":"` + bg31 + `"},"includeResults":true}`},
	{"abalone", "/v1/games/abalone:legalMoves", `{"state":{"text":"` + abStart + `"}}`},
	{"labyrinth_results", "/v1/games/labyrinth:legalMoves", `{"state":{"text":"` + labShift + `"},"includeResults":true}`},
	{"gravity_trap", "/v1/games/gravity_trap:legalMoves", `{"state":{"text":"` + gtMove + `"}}`},
}

// BenchmarkRESTGateway serves REST LegalMoves calls through the HTTP
// port's handler, the gateway in process against over its loopback hop to
// the gRPC port: the server's CPU and allocations per REST call (no HTTP
// client or listener). Compare with benchstat:
//
//	go test -run '^$' -bench RESTGateway -count 8 ./server > b.txt
//	benchstat -col /gateway b.txt
func BenchmarkRESTGateway(b *testing.B) {
	for _, c := range gatewayBenchCases {
		for _, mode := range []string{GatewayLoopback, GatewayInProcess} {
			b.Run("call="+c.name+"/gateway="+mode, func(b *testing.B) {
				g := newGatewayStack(b, nil, func(cfg *Options) { cfg.RESTGateway = mode })
				if rec := g.serve(http.MethodPost, c.path, c.body); rec.Code != 200 {
					b.Fatalf("%s = %d %s", c.path, rec.Code, rec.Body)
				}
				body := []byte(c.body)
				b.ReportAllocs()
				cpu0 := selfCPU()
				n := 0
				for b.Loop() {
					n++
					req := httptest.NewRequest(http.MethodPost, c.path, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					rec := httptest.NewRecorder()
					g.handler.ServeHTTP(rec, req)
					if rec.Code != 200 {
						b.Fatalf("%s = %d", c.path, rec.Code)
					}
				}
				// The process's CPU (every goroutine: the gRPC server and
				// client of the loopback hop, GC) per call.
				b.ReportMetric(float64(selfCPU()-cpu0)/float64(n), "cpu-ns/op")
			})
		}
	}
}
