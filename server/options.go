package server

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
)

// Options is everything a Server can be told: what gamerulesd's flags set
// (each field names its flag; the GAMERULES_* environment variables set the
// same), plus what a program that embeds the server injects (Logger,
// Registerer and Gatherer, TracerProvider, Version, listeners).
// DefaultOptions gives the documented defaults; Validate is the one place
// options are checked, and New calls it.
type Options struct {
	// GRPCAddr is the gRPC listen address, default ":50051"; port 0 picks
	// a free port (Server.GRPCAddr tells which). Ignored when GRPCListener
	// is set.
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
	// HeavySeats is the capacity of the heavy lane (limit.Heavy), for the
	// calls that buy much work by what they ask for (rpcs.Cost at least
	// rpcs.HeavyCost: a Playout of games × max plies, an Expand's node
	// budget, a large Batch, replay or record), shared by both ports
	// (default GOMAXPROCS). Such a call gives back its in-flight slot and
	// takes 1 seat, more for a costlier call (one more per 1,000,000
	// µs of CPU, rpcs.Cost's unit), up to a client's share, half the seats (at least 1): a
	// client (a gRPC connection, a REST caller's address) holds at most
	// its share, up to 2 × share + 2 of its calls wait for seats in its
	// own queue, the queues served in turn, each call at most 4 ×
	// QueueWait; beyond, RESOURCE_EXHAUSTED (REST: 429 with Retry-After).
	// A gRPC connection also holds at most that many streams of the
	// methods that may be heavy (rpcs.MayBeHeavy) in the admission gate
	// (share + queue), and all connections at most half of it. Light
	// calls never wait for a seat.
	HeavySeats int
	// TrustedProxies are the reverse proxies (addresses and CIDR blocks)
	// whose X-Forwarded-For header (gRPC: x-forwarded-for metadata) names
	// the caller, so that callers behind a proxy get a share of the heavy
	// lane each rather than one for all (limit.Clients,
	// limit.Admission.Client); comma-separated on the command line.
	// Default: none (a REST caller is its connection's address, a gRPC
	// caller its connection).
	TrustedProxies []netip.Prefix
	// GRPCMaxStreams is the most concurrent streams one gRPC connection may
	// open (HTTP/2 MAX_CONCURRENT_STREAMS; default 100).
	GRPCMaxStreams int
	// HealthAddr, when set (e.g. ":8081"; default "": none), is a third
	// port for probes only: /healthz, /readyz and gRPC health (plain text,
	// HTTP/1.1 and HTTP/2), at most 32 connections of its own, never
	// refusing a new one (beyond 32 it closes an idle or half-sent one of
	// the address holding the most: probes.Listener), so that
	// probes are answered while a flood holds every place on the public
	// ports (MaxConnections). Keep it out of the Service that clients reach.
	HealthAddr string
	// MaxConnections is how many connections each public port (GRPCAddr,
	// HTTPAddr) holds open at once (default 1,000; 1..1,000,000). Beyond it
	// a new connection is closed as soon as it is accepted (refused, not
	// queued: a queue in the kernel would hold every later connection,
	// a probe's too, behind it), and counted in
	// gamerules_connections_refused_total. An idle gRPC connection costs
	// about 29 KB of RSS, an idle HTTP connection about 12 KB
	// (TestConnectionFlood), so the default bounds both ports' connections
	// to about 45 MB above idle. Each connection is a file descriptor: the process's
	// limit (ulimit -n) should exceed 2 × MaxConnections + 200.
	MaxConnections int
	// GRPCFirstCallTimeout closes a gRPC connection that has not begun a
	// call this long after it was accepted (default 30 s), much sooner than
	// GRPCMaxConnectionIdle; a client that connects early and calls later
	// just reconnects. (On the HTTP port, a connection that sends no
	// request is closed after min(HTTPReadTimeout, 10 s), http.Server's
	// ReadHeaderTimeout.)
	GRPCFirstCallTimeout time.Duration
	// GRPCMaxConnectionIdle closes a gRPC connection with no call for this
	// long (default 5 min); GRPCMaxConnectionAge closes any connection after
	// this long (default 5 min, with GRPCMaxConnectionAgeGrace, default 30 s,
	// for its calls to finish; grpc-go adds ±10% jitter), so that clients
	// rebalance across replicas: a client of a ClusterIP Service is then
	// moved at least that often, and a round_robin client of the headless
	// Service re-resolves its DNS name (grpc-go does when a connection
	// closes), so a new replica gets its share within 5 minutes, the time
	// scale of the HPA's own decisions (its scale-down window is 5 min); the
	// cost is one TLS handshake per connection per 5 minutes.
	GRPCMaxConnectionIdle     time.Duration
	GRPCMaxConnectionAge      time.Duration
	GRPCMaxConnectionAgeGrace time.Duration
	// GRPCReadTimeout is how long an API call's message may take to arrive
	// after its headers (default 2 s); a stream that sends headers and no
	// message is then ended, so that it cannot hold a place in the
	// admission gate.
	GRPCReadTimeout time.Duration
	// GRPCMaxInFlightPerConn is how many API calls of one gRPC connection
	// may run, or have answers the transport has not yet written, at once
	// (default 3 × GOMAXPROCS, three quarters of MaxInFlight's default), so
	// that one client leaves slots to others; past it a call waits within
	// QueueWait, as for a slot. Each connection also holds at most
	// limit.PendingPerConn (16) streams whose message has not arrived in
	// the admission gate; the next are refused at once.
	GRPCMaxInFlightPerConn int
	// GRPCMaxUnreadBytes bounds the bytes of gRPC answers handed to the
	// transport and not yet written (a client that does not read), in
	// total (default 32 MiB; 0: no bound): past it, a connection with unread
	// answers of its own gets no new call until they drain, within
	// QueueWait. Per connection, GRPCMaxInFlightPerConn bounds them.
	GRPCMaxUnreadBytes int64
	// GRPCUnreadTimeout closes a gRPC connection whose answers stay
	// unwritten for this long, the client not reading them (default 10 s).
	GRPCUnreadTimeout time.Duration
	// GRPCMaxResets is how many of one gRPC connection's API streams may,
	// in one second, be reset or end before their message (default 100;
	// 0: no limit); the next closes the connection (logged once, counted in
	// gamerules_grpc_connections_closed_total). A stream that ends because
	// its client's deadline (of 10 ms or more) has passed, or half of it,
	// is not counted, nor is a stream the server refused. The same bound
	// holds per HTTP/2 connection of the HTTP port, for REST requests reset
	// before their body has arrived (limit.HTTPResets; a Grpc-Timeout half
	// passed is not counted): past it the connection is closed.
	GRPCMaxResets int
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
	// PlaygroundWasmDir is a directory holding js/build.sh's output (its
	// js/dist: gamerules.wasm, wasm_exec.js, index.js), served at
	// /wasm/<file> for the playground's offline mode (?offline=1), which
	// runs the rules in the browser instead of calling /v1. Default: none
	// (the wasm is 12 MB, 3 MB gzipped, so it is not embedded; /wasm/ is
	// 404 and the offline mode says it is not served here). The files go
	// gzipped to a client that takes gzip (server/pages).
	PlaygroundWasmDir string

	// MCP serves every game as Model Context Protocol tools at /mcp on the
	// HTTP port (package mcp, streamable HTTP), behind the same limits,
	// request ids, logs, metrics and CORS policy as the REST API; default
	// true (flag --mcp=false turns it off, and /mcp is then 404).
	MCP bool

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

	// GRPCListener and HTTPListener, when set, are served instead of
	// listening on GRPCAddr and HTTPAddr (e.g. a systemd socket, or a
	// listener the host program opened); the Server closes them when it
	// stops.
	GRPCListener, HTTPListener net.Listener

	// Logger, when set, receives the server's log lines (named "rpc" and
	// "http" below it) instead of a logger built from LogLevel and
	// LogFormat; the host program owns it (the server does not Sync it).
	Logger *zap.Logger
	// Registerer and Gatherer, when set, are where the server registers
	// its metrics and what /metrics serves (e.g. prometheus.DefaultRegisterer
	// and prometheus.DefaultGatherer, or a registry of the host's); set both
	// or neither. When unset, the server makes its own registry with the Go
	// and process collectors. A Registerer can hold one server's metrics.
	Registerer prometheus.Registerer
	Gatherer   prometheus.Gatherer
	// TracerProvider, when set, traces both ports (OpenTelemetry), instead
	// of the OTLP exporter that OTEL_EXPORTER_OTLP_ENDPOINT (or
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) configures; the host program owns
	// it and shuts it down. Default: nil, and tracing is on only when that
	// variable is set.
	TracerProvider trace.TracerProvider
	// Getenv is how New reads OTEL_EXPORTER_OTLP_ENDPOINT,
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and their _PROTOCOL variables to
	// decide whether tracing is on and to refuse a protocol other than
	// http/protobuf; default (nil) os.Getenv. The OTLP exporter itself
	// reads the process environment (its endpoint, headers, timeouts), so a
	// host that wants another endpoint gives a TracerProvider instead.
	Getenv func(string) string
	// Version is the version the server reports (start-up log line, trace
	// resource); DefaultOptions sets BuildVersion().
	Version string

	// logOutput, when set (by tests), receives the log lines instead of
	// standard error.
	logOutput io.Writer
}

// DefaultOptions returns the options used when nothing is set: those
// documented on each field, and Version from the build (BuildVersion).
func DefaultOptions() Options {
	return Options{
		GRPCAddr:                  ":50051",
		HTTPAddr:                  ":8080",
		MCP:                       true,
		LogLevel:                  "info",
		LogFormat:                 "json",
		MaxRecvBytes:              512 << 10,
		MaxInFlight:               4 * runtime.GOMAXPROCS(0),
		MaxWaiting:                64,
		QueueWait:                 250 * time.Millisecond,
		RequestTimeout:            5 * time.Second,
		GRPCMaxStreams:            100,
		HeavySeats:                runtime.GOMAXPROCS(0),
		MaxConnections:            1000,
		GRPCFirstCallTimeout:      30 * time.Second,
		GRPCMaxConnectionIdle:     5 * time.Minute,
		GRPCMaxConnectionAge:      5 * time.Minute,
		GRPCMaxConnectionAgeGrace: 30 * time.Second,
		GRPCHandshakeTimeout:      10 * time.Second,
		GRPCReadTimeout:           2 * time.Second,
		GRPCMaxInFlightPerConn:    3 * runtime.GOMAXPROCS(0),
		GRPCMaxUnreadBytes:        32 << 20,
		GRPCUnreadTimeout:         10 * time.Second,
		GRPCMaxResets:             100,
		GRPCKeepaliveMinTime:      10 * time.Second,
		HTTPReadTimeout:           10 * time.Second,
		HTTPIdleTimeout:           2 * time.Minute,
		ShutdownTimeout:           15 * time.Second,
		RESTGateway:               GatewayInProcess,
		GCPercent:                 400,
		MemoryLimitMiB:            256,
		Version:                   BuildVersion(),
	}
}

// Validate refuses options that cannot work, naming the flag (and the
// environment variable where one was the likely source); New calls it.
func (c Options) Validate() error {
	positive := []struct {
		name string
		ok   bool
		val  any
	}{
		{"--max-recv-bytes", c.MaxRecvBytes > 0, c.MaxRecvBytes},
		{"--max-in-flight", c.MaxInFlight > 0, c.MaxInFlight},
		{"--grpc-max-streams", c.GRPCMaxStreams > 0, c.GRPCMaxStreams},
		{"--heavy-seats", c.HeavySeats > 0, c.HeavySeats},
		{"--request-timeout", c.RequestTimeout > 0, c.RequestTimeout},
		{"--max-connections", c.MaxConnections > 0, c.MaxConnections},
		{"--grpc-first-call-timeout", c.GRPCFirstCallTimeout > 0, c.GRPCFirstCallTimeout},
		{"--grpc-max-connection-idle", c.GRPCMaxConnectionIdle > 0, c.GRPCMaxConnectionIdle},
		{"--grpc-max-connection-age", c.GRPCMaxConnectionAge > 0, c.GRPCMaxConnectionAge},
		{"--grpc-handshake-timeout", c.GRPCHandshakeTimeout > 0, c.GRPCHandshakeTimeout},
		{"--grpc-read-timeout", c.GRPCReadTimeout > 0, c.GRPCReadTimeout},
		{"--grpc-max-in-flight-per-conn", c.GRPCMaxInFlightPerConn > 0, c.GRPCMaxInFlightPerConn},
		{"--grpc-unread-timeout", c.GRPCUnreadTimeout > 0, c.GRPCUnreadTimeout},
		{"--grpc-keepalive-min-time", c.GRPCKeepaliveMinTime > 0, c.GRPCKeepaliveMinTime},
		{"--http-read-timeout", c.HTTPReadTimeout > 0, c.HTTPReadTimeout},
		{"--http-idle-timeout", c.HTTPIdleTimeout > 0, c.HTTPIdleTimeout},
		{"--shutdown-timeout", c.ShutdownTimeout > 0, c.ShutdownTimeout},
	}
	for _, v := range positive {
		if !v.ok {
			return fmt.Errorf("%s must be positive, got %v", v.name, v.val)
		}
	}
	notNegative := []struct {
		name string
		ok   bool
		val  any
	}{
		{"--max-waiting", c.MaxWaiting >= 0, c.MaxWaiting},
		{"--queue-wait", c.QueueWait >= 0, c.QueueWait},
		{"--grpc-max-connection-age-grace", c.GRPCMaxConnectionAgeGrace >= 0, c.GRPCMaxConnectionAgeGrace},
		{"--drain-delay", c.DrainDelay >= 0, c.DrainDelay},
		{"--grpc-max-unread-bytes", c.GRPCMaxUnreadBytes >= 0, c.GRPCMaxUnreadBytes},
		{"--grpc-max-resets", c.GRPCMaxResets >= 0, c.GRPCMaxResets},
	}
	if m := c.MemoryLimitMiB; m != 0 && (m < 32 || m > 1<<20) {
		return fmt.Errorf("--memory-limit-mib must be 0 (none) or 32..1048576 (1 TiB), got %d", m)
	}
	if c.GCPercent < 25 || c.GCPercent > 10_000 {
		return fmt.Errorf("--gc-percent must be 25..10000, got %d", c.GCPercent)
	}
	for _, v := range notNegative {
		if !v.ok {
			return fmt.Errorf("%s must not be negative, got %v", v.name, v.val)
		}
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"--max-in-flight", c.MaxInFlight}, {"--max-waiting", c.MaxWaiting}, {"--heavy-seats", c.HeavySeats}, {"--grpc-max-streams", c.GRPCMaxStreams}, {"--max-connections", c.MaxConnections}} {
		if v.n > 1_000_000 {
			return fmt.Errorf("%s %d is over 1,000,000; no server needs that many", v.name, v.n)
		}
	}
	if c.MaxRecvBytes > 64<<20 {
		return fmt.Errorf("--max-recv-bytes %d is over 64 MiB; no request needs that much", c.MaxRecvBytes)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	case "":
		if c.Logger == nil {
			return fmt.Errorf("--log-level (GAMERULES_LOG_LEVEL) %q: want debug, info, warn or error", c.LogLevel)
		}
	default:
		return fmt.Errorf("--log-level (GAMERULES_LOG_LEVEL) %q: want debug, info, warn or error", c.LogLevel)
	}
	if c.PlaygroundWasmDir != "" {
		if fi, err := os.Stat(filepath.Join(c.PlaygroundWasmDir, "gamerules.wasm")); err != nil || !fi.Mode().IsRegular() {
			return fmt.Errorf("--playground-wasm-dir (GAMERULES_PLAYGROUND_WASM_DIR) %q: want a directory with gamerules.wasm (run js/build.sh: js/dist)", c.PlaygroundWasmDir)
		}
	}
	if c.RESTGateway != GatewayInProcess && c.RESTGateway != GatewayLoopback {
		return fmt.Errorf("--rest-gateway (GAMERULES_REST_GATEWAY) %q: want inprocess or loopback", c.RESTGateway)
	}
	if c.LogFormat != "json" && c.LogFormat != "console" && !(c.LogFormat == "" && c.Logger != nil) {
		return fmt.Errorf("--log-format (GAMERULES_LOG_FORMAT) %q: want json or console", c.LogFormat)
	}
	if (c.Registerer == nil) != (c.Gatherer == nil) {
		return fmt.Errorf("Registerer and Gatherer go together: set both or neither")
	}
	return c.checkProduction()
}

// checkProduction checks the TLS and CORS settings, naming the flag.
func (c Options) checkProduction() error {
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together: give both or neither")
	}
	if c.TLSClientCA != "" && c.TLSCert == "" {
		return fmt.Errorf("--tls-client-ca needs --tls-cert and --tls-key (mutual TLS is TLS)")
	}
	for _, o := range c.CORSOrigins {
		if o != "*" && !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			return fmt.Errorf("--cors-origins %q: an origin is scheme://host[:port], e.g. https://play.example.com, or *", o)
		}
	}
	return nil
}

// The REST gateway's two ways to reach the service (--rest-gateway).
const (
	// GatewayInProcess calls the service's methods directly, through the
	// same interceptor chain as a gRPC call (apiInterceptors): the JSON body
	// is decoded once into the request message and the answer marshalled
	// once to JSON. The default.
	GatewayInProcess = "inprocess"
	// GatewayLoopback dials the server's own gRPC port and makes every REST
	// call a gRPC call over loopback (a second protobuf marshal and
	// unmarshal each way, and an HTTP/2 hop). Kept for comparison.
	GatewayLoopback = "loopback"
)

// BuildVersion returns what the Go build info knows of this binary's
// version: the module version, else "devel-" and the VCS revision, else
// "(devel)"; "(unknown)" for a binary built without build info.
func BuildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			return "devel-" + s.Value
		}
	}
	return "(devel)"
}
