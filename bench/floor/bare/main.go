// Command bare is the transport floor of the no-op call: a bare grpc-go
// server (no interceptors, no options) that serves only the standard
// gRPC health service (grpc.health.v1.Health, status SERVING), to be
// measured beside gamerulesd's Health/Check by bench/floor.sh.
//
// Usage: bare -addr 127.0.0.1:PORT
package main

import (
	"flag"
	"fmt"
	"net"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	"google.golang.org/grpc/health/grpc_health_v1"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
	s := grpc.NewServer()
	grpc_health_v1.RegisterHealthServer(s, health.NewServer())
	fmt.Println(lis.Addr())
	if err := s.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}
