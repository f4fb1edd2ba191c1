package server_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server"
	"github.com/gamerules/gamerules/server/servertest"
)

// TestEmbeddedOptions: what a host program injects is what the server uses:
// its listeners, its logger (the start-up line carries its Version), its
// Prometheus registry (the API's metrics are registered there and /metrics
// serves its Gatherer) and its tracer provider (a span per call), which the
// server does not shut down.
func TestEmbeddedOptions(t *testing.T) {
	grpcLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zap.InfoLevel)
	reg := prometheus.NewRegistry()
	exp := tracetest.NewInMemoryExporter()
	tp := trace.NewTracerProvider(trace.WithSyncer(exp))
	s := servertest.Start(t, func(o *server.Options) {
		o.GRPCListener, o.HTTPListener = grpcLis, httpLis
		o.Logger = zap.New(core)
		o.Registerer, o.Gatherer = reg, reg
		o.TracerProvider = tp
		o.Version = "v9.8.7-test"
	})
	if s.GRPCAddr() != grpcLis.Addr().String() || s.HTTPAddr() != httpLis.Addr().String() {
		t.Errorf("addresses %s %s; want the given listeners' %s %s", s.GRPCAddr(), s.HTTPAddr(), grpcLis.Addr(), httpLis.Addr())
	}
	c := gamerulesv1grpc.NewGameRulesClient(servertest.Dial(t, s))
	if _, err := c.ListGames(context.Background(), &gamerulesv1.ListGamesRequest{}); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.Get("http://" + s.HTTPAddr() + "/healthz"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	started := logs.FilterMessage("gamerulesd serving").All()
	if len(started) != 1 || started[0].ContextMap()["version"] != "v9.8.7-test" {
		t.Errorf("start-up lines in the host's logger: %v; want one with version v9.8.7-test", started)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range families {
		have[f.GetName()] = true
	}
	for _, name := range []string{"grpc_server_handled_total", "gamerules_requests_refused_total", "gamerules_http_requests_total"} {
		if !have[name] {
			t.Errorf("the host's registry lacks %s", name)
		}
	}
	if have["go_goroutines"] {
		t.Error("the server registered the Go collector on the host's registry (the host decides that)")
	}
	resp, err := http.Get("http://" + s.HTTPAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `grpc_server_handled_total{grpc_code="OK",grpc_method="ListGames"`) {
		t.Errorf("/metrics does not serve the host's Gatherer:\n%.400s", body)
	}
	if n := len(exp.GetSpans()); n == 0 {
		t.Error("no span in the host's tracer provider after a call")
	}
}

// TestNewRefusesBadOptions: New names the option at fault and opens nothing.
func TestNewRefusesBadOptions(t *testing.T) {
	for _, tc := range []struct {
		set  func(*server.Options)
		want string
	}{
		{func(o *server.Options) { o.MaxInFlight = 0 }, "--max-in-flight"},
		{func(o *server.Options) { o.RESTGateway = "pigeon" }, "--rest-gateway"},
		{func(o *server.Options) { o.TLSCert = "x.pem" }, "--tls-key"},
		{func(o *server.Options) { o.Registerer = prometheus.NewRegistry() }, "Gatherer"},
		{func(o *server.Options) { o.GRPCAddr = "127.0.0.1:99999" }, "gRPC listener"},
	} {
		o := server.DefaultOptions()
		o.GRPCAddr, o.HTTPAddr = "127.0.0.1:0", "127.0.0.1:0"
		tc.set(&o)
		if _, err := server.New(o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New: %v; want an error naming %s", err, tc.want)
		}
	}
}

// TestRunOnce: a Server serves once; a second Run says so instead of
// serving closed listeners.
func TestRunOnce(t *testing.T) {
	o := server.DefaultOptions()
	o.GRPCAddr, o.HTTPAddr, o.LogLevel = "127.0.0.1:0", "127.0.0.1:0", "error"
	s, err := server.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatalf("Run with a done context: %v; want a clean stop", err)
	}
	if err := s.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("second Run: %v; want an error", err)
	}
}

// TestRegistryShared: a host registry that already holds one of the
// server's metric names is refused with an error (not a panic), and after a
// Server stops (or is closed unrun) the same registry takes another one.
func TestRegistryShared(t *testing.T) {
	opts := func(reg *prometheus.Registry) server.Options {
		o := server.DefaultOptions()
		o.GRPCAddr, o.HTTPAddr, o.LogLevel = "127.0.0.1:0", "127.0.0.1:0", "error"
		o.Registerer, o.Gatherer = reg, reg
		return o
	}
	for _, name := range []string{"gamerules_requests_refused_total", "gamerules_http_requests_total", "grpc_server_handled_total"} {
		reg := prometheus.NewRegistry()
		reg.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: "taken"}))
		if _, err := server.New(opts(reg)); err == nil || !strings.Contains(err.Error(), "Registerer") {
			t.Errorf("%s taken: New = %v; want an error naming the Registerer", name, err)
		}
		if _, err := server.NewAPI(opts(reg)); err == nil {
			t.Errorf("%s taken: NewAPI accepted", name)
		}
		// The failed New left nothing registered: the host's own metric is all there is.
		if fams, _ := reg.Gather(); len(fams) > 1 {
			t.Errorf("%s taken: %d metric families left registered after the failed New", name, len(fams))
		}
	}
	reg := prometheus.NewRegistry()
	s, err := server.New(opts(reg))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	unrun, err := server.New(opts(reg))
	if err != nil {
		t.Fatalf("New on the registry of a stopped server: %v", err)
	}
	addr := unrun.HTTPAddr()
	if err := unrun.Close(); err != nil {
		t.Fatalf("Close of an unrun server: %v", err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Close", addr)
	}
	if err := unrun.Run(context.Background()); err == nil {
		t.Error("Run after Close: want an error")
	}
	if _, err := server.NewAPI(opts(reg)); err != nil {
		t.Errorf("NewAPI on the registry after Close: %v", err)
	}
	var zero server.Server
	if err := zero.Run(context.Background()); err == nil {
		t.Error("Run of a zero Server: want an error, not a panic")
	}
}

// TestAPITraces: an API made by NewAPI traces its calls with the host's
// TracerProvider, on gRPC and REST.
func TestAPITraces(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	o := server.DefaultOptions()
	o.LogLevel = "error"
	o.TracerProvider = trace.NewTracerProvider(trace.WithSyncer(exp))
	api, err := server.NewAPI(o)
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	rest, err := api.RESTHandler()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	rest.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/games", nil))
	if rec.Code != 200 || len(exp.GetSpans()) == 0 {
		t.Errorf("REST ListGames: %d, %d spans; want 200 and a span", rec.Code, len(exp.GetSpans()))
	}
}
