// Package servertest starts the whole gamerules stack (server.New) on free
// loopback ports for a test, and stops it when the test ends: the server a
// test talks to is the one gamerulesd runs, limits and interceptors
// included, not a bare grpc.NewServer.
//
//	s := servertest.Start(t, nil)
//	conn := servertest.Dial(t, s) // a gRPC client connection to it
//	http.Get("http://" + s.HTTPAddr() + "/v1/games")
package servertest

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/gamerules/gamerules/server"
)

// Start runs a Server with server.DefaultOptions() on 127.0.0.1 ports
// picked by the system, logging at error level only, after set (when not
// nil) has changed the options, and stops it at the test's cleanup; the
// test fails if the server does not start or does not stop cleanly
// (Run's error). It returns once both ports accept connections.
func Start(tb testing.TB, set func(*server.Options)) *server.Server {
	tb.Helper()
	opts := server.DefaultOptions()
	opts.GRPCAddr, opts.HTTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	opts.LogLevel = "error"
	if set != nil {
		set(&opts)
	}
	s, err := server.New(opts)
	if err != nil {
		tb.Fatalf("servertest: server.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	tb.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				tb.Errorf("servertest: Run returned %v after shutdown", err)
			}
		case <-time.After(opts.ShutdownTimeout + opts.DrainDelay + 10*time.Second):
			tb.Errorf("servertest: the server did not stop in %v", opts.ShutdownTimeout+opts.DrainDelay+10*time.Second)
		}
	})
	return s
}

// Dial returns a plain-text gRPC client connection to s, closed at the
// test's cleanup.
func Dial(tb testing.TB, s *server.Server) *grpc.ClientConn {
	tb.Helper()
	conn, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatalf("servertest: dial %s: %v", s.GRPCAddr(), err)
	}
	tb.Cleanup(func() { conn.Close() })
	return conn
}
