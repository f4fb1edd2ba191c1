// Package stacktest holds the whole-stack tests of package server: a real
// server on loopback ports, or a built gamerulesd, driven over the wire
// (floods, hostile and attack traffic, limits, shutdown, TLS, CORS,
// tracing), the playground and /docs in Chromium, and the README's
// examples. They are kept apart so that "go test ./server" is the fast unit
// suite; "go test ./server/..." runs both. The package has test files only.
//
// Files (all _test.go): stacktest (this helper: run, testLogger),
// server (startServer, dial, post, get; probes, errors), catalogue (the
// hostile-input catalogue, also in package server for
// TestRESTInProcessMatchesLoopback), hostile, attack, connflood, limits,
// resource and import_deadline (built binaries, SIGTERM), production (TLS,
// CORS, request ids, tracing, /docs), browser, offline_browser and
// docs_browser (Chromium), readme, docs, play, oneturn, match, replay, bulk,
// mask, query, replay_cpu and stack_bench; issue 30's healthport (the
// health port under idle, partial, h2c and flooding connections),
// resetsuspect (honest clients and the reset limit), nosniff (every answer's
// X-Content-Type-Options) and deadline_property (every RPC stops at its
// deadline, over gRPC and REST).
package stacktest

import (
	"context"
	"io"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/gamerules/gamerules/server"
)

// run is server.New and Run in one: when ready is not nil, the listening
// addresses are sent on it once both ports are open.
func run(ctx context.Context, cfg server.Options, ready chan<- server.Addrs) error {
	s, err := server.New(cfg)
	if err != nil {
		return err
	}
	if ready != nil {
		ready <- server.Addrs{GRPC: s.GRPCAddr(), HTTP: s.HTTPAddr()}
	}
	return s.Run(ctx)
}

// testLogger is the server's JSON logger (--log-format json) at level,
// writing to w: what the server writes to its standard error, to read in a
// test.
func testLogger(w io.Writer, level string) *zap.Logger {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		panic(err)
	}
	zc := zap.NewProductionConfig()
	zc.EncoderConfig.TimeKey = "time"
	zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	return zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zc.EncoderConfig), zapcore.AddSync(w), zap.NewAtomicLevelAt(lvl)))
}
