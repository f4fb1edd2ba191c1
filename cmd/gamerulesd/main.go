// Command gamerulesd serves the gamerules.v1 API: gRPC on one port, and on
// another the same API as REST/JSON (grpc-gateway) with /healthz, /readyz,
// /metrics and /openapi.json.
//
// Usage:
//
//	gamerulesd [--grpc-addr :50051] [--http-addr :8080] [--log-level info] [--log-format json]
//	           [--max-recv-bytes 524288] [--max-in-flight 4×GOMAXPROCS] [--max-waiting 64]
//	           [--queue-wait 250ms] [--request-timeout 5s] [--heavy-seats GOMAXPROCS] [--grpc-max-streams 100]
//	           [--max-connections 1000] [--grpc-first-call-timeout 30s] [--health-addr ADDR]
//	           [--grpc-max-connection-idle 5m] [--grpc-max-connection-age 5m]
//	           [--grpc-max-connection-age-grace 30s] [--grpc-handshake-timeout 10s]
//	           [--grpc-read-timeout 2s] [--grpc-max-in-flight-per-conn 3×GOMAXPROCS]
//	           [--grpc-max-unread-bytes 33554432] [--grpc-unread-timeout 10s] [--grpc-max-resets 100]
//	           [--grpc-keepalive-min-time 10s]
//	           [--http-read-timeout 10s] [--http-idle-timeout 2m]
//	           [--shutdown-timeout 15s] [--drain-delay 0s]
//	           [--tls-cert FILE --tls-key FILE [--tls-client-ca FILE]] [--cors-origins ORIGINS]
//	           [--trusted-proxies CIDRS]
//	           [--rest-gateway inprocess|loopback] [--gc-percent 400] [--memory-limit-mib 256]
//	           [--version]
//
// Every flag has an environment variable (GAMERULES_GRPC_ADDR, ...); a flag
// given on the command line wins over the variable. SIGINT or SIGTERM stops
// the server: not ready at once (gRPC health NOT_SERVING, /readyz 503, REST
// keep-alive connections closed after their next answer), serving on for
// --drain-delay, then health Watch streams end, gRPC clients get a GOAWAY,
// and the server waits up to --shutdown-timeout for the requests in flight.
//
// Every request gets an id (the client's X-Request-Id header or x-request-id
// metadata, else a new one), returned in the answer and written on its log
// lines. OpenTelemetry tracing of both ports is on when the standard
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set.
// /docs renders the OpenAPI document (assets embedded).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/gamerules/gamerules/server"
	"github.com/gamerules/gamerules/server/limit"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3"; when
// unset, the module version or VCS revision from the build info is used.
var version = ""

func main() {
	if err := mainErr(os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0) // the usage went to stderr, as the flag package does
		}
		fmt.Fprintln(os.Stderr, "gamerulesd:", err)
		os.Exit(1)
	}
}

func mainErr(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, showVersion, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	if showVersion {
		fmt.Fprintln(stdout, "gamerulesd", buildVersion())
		return nil
	}
	setGC(cfg, getenv)
	s, err := server.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal, a second one kills the process at once (Go's
	// default), for an operator who will not wait out the drain.
	go func() { <-ctx.Done(); stop() }()
	return s.Run(ctx)
}

// setGC applies cfg's collector settings to the process, except those Go
// takes from GOGC and GOMEMLIMIT when they are set.
func setGC(cfg server.Options, getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(cfg.GCPercent)
	}
	if getenv("GOMEMLIMIT") == "" && cfg.MemoryLimitMiB > 0 {
		debug.SetMemoryLimit(int64(cfg.MemoryLimitMiB) << 20)
	}
}

// parseConfig reads flags, with environment variables as their defaults.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (server.Options, bool, error) {
	cfg := server.DefaultOptions()
	cfg.Getenv = getenv
	fs := flag.NewFlagSet("gamerulesd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gamerulesd [flags]\n\nServes the gamerules.v1 API: gRPC, and REST/JSON with /healthz, /readyz, /metrics and /openapi.json.\nEvery flag can also be set by the environment variable named with it; a flag wins.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	env := map[string]string{} // flag name -> its environment variable
	str := func(p *string, name, envName, usage string) {
		fs.StringVar(p, name, *p, usage+" (env "+envName+")")
		env[name] = envName
	}
	num := func(p *int, name, envName, usage string) {
		fs.IntVar(p, name, *p, usage+" (env "+envName+")")
		env[name] = envName
	}
	num64 := func(p *int64, name, envName, usage string) {
		fs.Int64Var(p, name, *p, usage+" (env "+envName+")")
		env[name] = envName
	}
	dur := func(p *time.Duration, name, envName, usage string) {
		fs.DurationVar(p, name, *p, usage+" (env "+envName+")")
		env[name] = envName
	}
	str(&cfg.GRPCAddr, "grpc-addr", "GAMERULES_GRPC_ADDR", "gRPC listen address")
	str(&cfg.HTTPAddr, "http-addr", "GAMERULES_HTTP_ADDR", "HTTP listen address for REST, /healthz, /readyz, /metrics, /openapi.json")
	str(&cfg.LogLevel, "log-level", "GAMERULES_LOG_LEVEL", "log level: debug, info, warn, error")
	str(&cfg.LogFormat, "log-format", "GAMERULES_LOG_FORMAT", "log format: json or console")
	num(&cfg.MaxRecvBytes, "max-recv-bytes", "GAMERULES_MAX_RECV_BYTES", "largest request accepted, in bytes, on gRPC and REST")
	num(&cfg.MaxInFlight, "max-in-flight", "GAMERULES_MAX_IN_FLIGHT", "API requests run at once, per port (health and metrics exempt)")
	num(&cfg.MaxWaiting, "max-waiting", "GAMERULES_MAX_WAITING", "gRPC requests admitted beyond --max-in-flight to wait for a slot; more are refused at once")
	dur(&cfg.QueueWait, "queue-wait", "GAMERULES_QUEUE_WAIT", "longest wait for a request slot before RESOURCE_EXHAUSTED (REST 429)")
	dur(&cfg.RequestTimeout, "request-timeout", "GAMERULES_REQUEST_TIMEOUT", "deadline of every API request; a client's shorter deadline wins")
	num(&cfg.HeavySeats, "heavy-seats", "GAMERULES_HEAVY_SEATS", "seats of the heavy lane, for calls that buy much work (large Playout, Expand, Batch, replays, records), shared by both ports; a client holds at most half (default GOMAXPROCS)")
	num(&cfg.GRPCMaxStreams, "grpc-max-streams", "GAMERULES_GRPC_MAX_STREAMS", "concurrent streams allowed on one gRPC connection")
	str(&cfg.HealthAddr, "health-addr", "GAMERULES_HEALTH_ADDR", "listen address of a port for probes only (/healthz, /readyz, gRPC health; plain text), with connections of its own; default none")
	num(&cfg.MaxConnections, "max-connections", "GAMERULES_MAX_CONNECTIONS", "connections held open at once per public port, 1..1000000 (idle: about 29 KB each on gRPC, 12 KB on HTTP); beyond it a new connection is closed at once")
	dur(&cfg.GRPCFirstCallTimeout, "grpc-first-call-timeout", "GAMERULES_GRPC_FIRST_CALL_TIMEOUT", "close a gRPC connection that has begun no call this long after it was accepted")
	dur(&cfg.GRPCMaxConnectionIdle, "grpc-max-connection-idle", "GAMERULES_GRPC_MAX_CONNECTION_IDLE", "close a gRPC connection with no call for this long")
	dur(&cfg.GRPCMaxConnectionAge, "grpc-max-connection-age", "GAMERULES_GRPC_MAX_CONNECTION_AGE", "close every gRPC connection after this long, so clients rebalance")
	dur(&cfg.GRPCMaxConnectionAgeGrace, "grpc-max-connection-age-grace", "GAMERULES_GRPC_MAX_CONNECTION_AGE_GRACE", "time a connection closed for age gives its calls to finish")
	dur(&cfg.GRPCReadTimeout, "grpc-read-timeout", "GAMERULES_GRPC_READ_TIMEOUT", "time an API call's message may take to arrive after its headers")
	num(&cfg.GRPCMaxInFlightPerConn, "grpc-max-in-flight-per-conn", "GAMERULES_GRPC_MAX_IN_FLIGHT_PER_CONN", "API calls of one gRPC connection running or with answers not yet written, at once; more wait within --queue-wait")
	num64(&cfg.GRPCMaxUnreadBytes, "grpc-max-unread-bytes", "GAMERULES_GRPC_MAX_UNREAD_BYTES", "bytes of gRPC answers not yet written to their clients, in total; past it a connection with unread answers gets no new call (0: no bound)")
	dur(&cfg.GRPCUnreadTimeout, "grpc-unread-timeout", "GAMERULES_GRPC_UNREAD_TIMEOUT", "close a gRPC connection whose answers stay unwritten (not read) this long")
	num(&cfg.GRPCMaxResets, "grpc-max-resets", "GAMERULES_GRPC_MAX_RESETS", "API streams of one gRPC connection reset or ended before their message, per second, not counting those whose deadline (10 ms or more) had half passed; past it the connection is closed; the same bound holds for REST requests on the HTTP port's HTTP/2 (TLS) connections (0: no limit)")
	dur(&cfg.GRPCHandshakeTimeout, "grpc-handshake-timeout", "GAMERULES_GRPC_HANDSHAKE_TIMEOUT", "close a gRPC connection that has not finished its HTTP/2 handshake in this long")
	dur(&cfg.GRPCKeepaliveMinTime, "grpc-keepalive-min-time", "GAMERULES_GRPC_KEEPALIVE_MIN_TIME", "shortest keepalive ping interval allowed to a client")
	dur(&cfg.HTTPReadTimeout, "http-read-timeout", "GAMERULES_HTTP_READ_TIMEOUT", "time allowed to read a whole HTTP request, headers and body")
	dur(&cfg.HTTPIdleTimeout, "http-idle-timeout", "GAMERULES_HTTP_IDLE_TIMEOUT", "close a keep-alive HTTP connection idle for this long")
	dur(&cfg.ShutdownTimeout, "shutdown-timeout", "GAMERULES_SHUTDOWN_TIMEOUT", "how long to wait for requests in flight on shutdown")
	dur(&cfg.DrainDelay, "drain-delay", "GAMERULES_DRAIN_DELAY", "on shutdown, how long to keep serving while reporting not ready, so load balancers stop sending traffic")
	str(&cfg.TLSCert, "tls-cert", "GAMERULES_TLS_CERT", "PEM certificate (chain) file: serve TLS on both ports (with --tls-key)")
	str(&cfg.TLSKey, "tls-key", "GAMERULES_TLS_KEY", "PEM private key file of --tls-cert")
	str(&cfg.TLSClientCA, "tls-client-ca", "GAMERULES_TLS_CLIENT_CA", "PEM CA certificates file: require client certificates signed by them (mutual TLS)")
	num(&cfg.GCPercent, "gc-percent", "GAMERULES_GC_PERCENT", "garbage collector target, 25..10000, as GOGC (which wins when set)")
	num(&cfg.MemoryLimitMiB, "memory-limit-mib", "GAMERULES_MEMORY_LIMIT_MIB", "soft memory limit in MiB, 32..1048576 or 0 for none, at which the collector works harder, as GOMEMLIMIT (which wins when set)")
	str(&cfg.RESTGateway, "rest-gateway", "GAMERULES_REST_GATEWAY", "how REST reaches the service: inprocess (direct calls) or loopback (a gRPC call to the gRPC port)")
	str(&cfg.PlaygroundWasmDir, "playground-wasm-dir", "GAMERULES_PLAYGROUND_WASM_DIR", "directory of js/build.sh's output (js/dist), served at /wasm/ for the playground's offline mode (?offline=1); default none")
	fs.BoolVar(&cfg.MCP, "mcp", cfg.MCP, "serve the games as Model Context Protocol tools at /mcp on the HTTP port (env GAMERULES_MCP; --mcp=false turns it off)")
	env["mcp"] = "GAMERULES_MCP"
	fs.Func("cors-origins", "comma-separated browser origins allowed to call the REST API, or * (env GAMERULES_CORS_ORIGINS; default none)", func(v string) error {
		cfg.CORSOrigins = splitList(v)
		return nil
	})
	env["cors-origins"] = "GAMERULES_CORS_ORIGINS"
	fs.Func("trusted-proxies", "comma-separated addresses and CIDR blocks of reverse proxies whose X-Forwarded-For (gRPC: x-forwarded-for metadata) names the caller, for its share of the heavy lane (env GAMERULES_TRUSTED_PROXIES; default none)", func(v string) error {
		p, err := limit.ParsePrefixes(v)
		cfg.TrustedProxies = p
		return err
	})
	env["trusted-proxies"] = "GAMERULES_TRUSTED_PROXIES"
	showVersion := fs.Bool("version", false, "print the version and exit")
	// Environment variables first, in flag order, so that flags override them.
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name, ok := env[f.Name]
		if !ok || envErr != nil {
			return
		}
		if v := getenv(name); v != "" {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("%s=%q: %s", name, v, flagValueError(f, err))
			}
		}
	})
	if envErr != nil {
		return cfg, false, envErr
	}
	if err := fs.Parse(args); err != nil {
		return cfg, false, err
	}
	if fs.NArg() > 0 {
		return cfg, false, fmt.Errorf("unexpected arguments %q (see --help)", fs.Args())
	}
	cfg.Version = buildVersion()
	if err := cfg.Validate(); err != nil {
		return cfg, false, err
	}
	return cfg, *showVersion, nil
}

// flagValueError says what a flag wants, where the flag package would only
// say "parse error".
func flagValueError(f *flag.Flag, err error) string {
	switch f.Value.(flag.Getter).Get().(type) {
	case int, int64:
		return "want a whole number"
	case time.Duration:
		return "want a duration such as 250ms, 5s or 2m"
	}
	return err.Error()
}

// buildVersion returns the version stamped at build time, or what the Go
// build info knows (server.BuildVersion).
func buildVersion() string {
	if version != "" {
		return version
	}
	return server.BuildVersion()
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
