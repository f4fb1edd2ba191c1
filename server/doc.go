// Package server is the whole gamerules stack as a library: the
// gamerules.v1 GameRules API over gRPC and REST/JSON with every limit and
// interceptor gamerulesd has. cmd/gamerulesd is only its flags.
//
// The contract:
//
//	opts := server.DefaultOptions()                           // the documented defaults; one field per gamerulesd flag
//	opts.GRPCAddr, opts.HTTPAddr = "127.0.0.1:0", "127.0.0.1:0" // port 0: free ports
//	s, err := server.New(opts)                                // Validate, then build and listen; errors name the option
//	go s.Run(ctx)                                             // serve until ctx is done, then shut down gracefully; nil after a clean stop
//	s.GRPCAddr(), s.HTTPAddr()                                // the bound addresses, valid once New has returned
//
// What a host program injects: Options.Logger (*zap.Logger),
// Options.Registerer and Options.Gatherer (Prometheus), Options.TracerProvider
// (OpenTelemetry), Options.Version, and its own listeners
// (Options.GRPCListener, Options.HTTPListener). The collector settings
// (GCPercent, MemoryLimitMiB) are validated here but applied to the process
// only by gamerulesd's main: a library does not change its host's
// collector.
//
// To serve the API from a program's own *grpc.Server and http.ServeMux with
// the same limits and interceptors, use NewAPI (API.GRPCServerOptions,
// API.RegisterGRPC, API.RESTHandler). Package server/limit has the limits
// alone, to put in front of a program's own handlers (a leaf: nothing of
// the game stack); package server/servertest starts the whole stack for a
// test.
//
// Shutdown (Run, when ctx is done): gRPC health turns NOT_SERVING,
// /readyz answers 503 and REST keep-alive connections close after their
// next answer, while both ports still serve for Options.DrainDelay; then
// health Watch streams end; then gRPC clients get a GOAWAY and the REST
// port and the gRPC port stop accepting and finish the calls in flight
// within Options.ShutdownTimeout, after which what is left is closed.
//
// The house: this package wires the ports, their limits and interceptors;
// the REST face (gateway, JSON, routes, the service as a GameRulesServer)
// is package rest; the pages (/openapi.json, /docs, the playground)
// server/pages; gRPC health and the probes server/probes; the request id
// server/requestid. Its tests are the unit suite; the whole-stack tests
// (a real server over the wire, built binaries, Chromium) are
// server/stacktest.
//
// Files:
//
//	doc.go         this comment
//	options.go     Options, DefaultOptions, Validate: one field per gamerulesd flag
//	server.go      Server, New, Run (and its graceful shutdown), Close; the HTTP port's mux
//	api.go         API, NewAPI, GRPCServerOptions, RegisterGRPC, RESTHandler; NewGRPCService
//	chain.go       the one unary interceptor chain of both transports; admission, the heavy lane, refusals, metrics
//	deadline.go    callDeadline: every call's deadline, made lazily for the calls outside the API's scope
//	grpcserver.go  the gRPC server's options and limits; transportStats (refusals before a handler)
//	grpcmetrics.go the gRPC server metrics (grpc_server_*), each method's series resolved once
//	gateway.go     the REST gateway in its mode (in process, loopback), the REST span
//	http.go        the HTTP metrics and log line, the route label (routeOf), CORS
//	conns.go       the connection limits of both ports
//	tls.go         TLS of both ports and of the gateway's hop
//	tracing.go     OpenTelemetry: spans of both ports, from the OTEL_* variables
//	logging.go     the zap logger and the RPC log line
package server
