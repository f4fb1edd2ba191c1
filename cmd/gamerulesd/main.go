// Command gamerulesd serves the gamerules.v1 API: gRPC on one port, and on
// another the same API as REST/JSON (grpc-gateway) with /healthz, /readyz,
// /metrics and /openapi.json.
//
// Usage:
//
//	gamerulesd [--grpc-addr :50051] [--http-addr :8080] [--log-level info] [--log-format json]
//	           [--max-recv-bytes 4194304] [--shutdown-timeout 15s] [--drain-delay 0s] [--version]
//
// Every flag has an environment variable (GAMERULES_GRPC_ADDR, ...); a flag
// given on the command line wins over the variable. SIGINT or SIGTERM stops
// the server: not ready at once, serving on for --drain-delay, then waiting
// up to --shutdown-timeout for the requests in flight.
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
	"syscall"
	"time"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, cfg, nil)
}

// parseConfig reads flags, with environment variables as their defaults.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (Config, bool, error) {
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("gamerulesd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gamerulesd [flags]\n\nServes the gamerules.v1 API: gRPC, and REST/JSON with /healthz, /readyz, /metrics and /openapi.json.\nEvery flag can also be set by the environment variable named with it; a flag wins.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&cfg.GRPCAddr, "grpc-addr", env("GAMERULES_GRPC_ADDR", cfg.GRPCAddr), "gRPC listen address (env GAMERULES_GRPC_ADDR)")
	fs.StringVar(&cfg.HTTPAddr, "http-addr", env("GAMERULES_HTTP_ADDR", cfg.HTTPAddr), "HTTP listen address for REST, /healthz, /readyz, /metrics, /openapi.json (env GAMERULES_HTTP_ADDR)")
	fs.StringVar(&cfg.LogLevel, "log-level", env("GAMERULES_LOG_LEVEL", cfg.LogLevel), "log level: debug, info, warn, error (env GAMERULES_LOG_LEVEL)")
	fs.StringVar(&cfg.LogFormat, "log-format", env("GAMERULES_LOG_FORMAT", cfg.LogFormat), "log format: json or console (env GAMERULES_LOG_FORMAT)")
	maxRecv := fs.Int("max-recv-bytes", cfg.MaxRecvBytes, "largest request accepted, in bytes, on gRPC and REST (env GAMERULES_MAX_RECV_BYTES)")
	shutdown := fs.Duration("shutdown-timeout", cfg.ShutdownTimeout, "how long to wait for requests in flight on shutdown (env GAMERULES_SHUTDOWN_TIMEOUT)")
	drain := fs.Duration("drain-delay", cfg.DrainDelay, "on shutdown, how long to keep serving while reporting not ready, so load balancers stop sending traffic (env GAMERULES_DRAIN_DELAY)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if v := getenv("GAMERULES_MAX_RECV_BYTES"); v != "" {
		if _, err := fmt.Sscan(v, maxRecv); err != nil {
			return cfg, false, fmt.Errorf("GAMERULES_MAX_RECV_BYTES=%q: not a whole number of bytes", v)
		}
	}
	for name, dst := range map[string]*time.Duration{"GAMERULES_SHUTDOWN_TIMEOUT": shutdown, "GAMERULES_DRAIN_DELAY": drain} {
		if v := getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil {
				return cfg, false, fmt.Errorf("%s=%q: %v", name, v, err)
			}
			*dst = d
		}
	}
	if err := fs.Parse(args); err != nil {
		return cfg, false, err
	}
	if fs.NArg() > 0 {
		return cfg, false, fmt.Errorf("unexpected arguments %q (see --help)", fs.Args())
	}
	cfg.MaxRecvBytes = *maxRecv
	cfg.ShutdownTimeout = *shutdown
	cfg.DrainDelay = *drain
	if cfg.MaxRecvBytes <= 0 {
		return cfg, false, fmt.Errorf("--max-recv-bytes (GAMERULES_MAX_RECV_BYTES) must be positive, got %d", cfg.MaxRecvBytes)
	}
	if cfg.ShutdownTimeout <= 0 || cfg.DrainDelay < 0 {
		return cfg, false, fmt.Errorf("--shutdown-timeout must be positive and --drain-delay not negative, got %v and %v", cfg.ShutdownTimeout, cfg.DrainDelay)
	}
	switch cfg.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return cfg, false, fmt.Errorf("--log-level (GAMERULES_LOG_LEVEL) %q: want debug, info, warn or error", cfg.LogLevel)
	}
	if cfg.LogFormat != "json" && cfg.LogFormat != "console" {
		return cfg, false, fmt.Errorf("--log-format (GAMERULES_LOG_FORMAT) %q: want json or console", cfg.LogFormat)
	}
	return cfg, *showVersion, nil
}

// buildVersion returns the version stamped at build time, or what the Go
// build info knows.
func buildVersion() string {
	if version != "" {
		return version
	}
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
