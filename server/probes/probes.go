// Package probes answers the probes: gRPC health whose Watch streams end
// at shutdown (Server), /healthz and /readyz (Register), and the probes'
// own port, --health-addr (Port).
//
// Files:
//
//	probes.go    Server, Register, Port, NewPort, MaxConns, ReadTimeout, IdleTimeout
//	listener.go  Listener (never refuses: evicts the idle connections of the
//	             busiest address), ConnContext, Track
package probes

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// The health port's own limits (--health-addr): probes only, so a few
// connections, each short-lived. A connection that has not sent its
// request headers within ReadTimeout, or sits idle (HTTP/1 keep-alive, or
// HTTP/2 with no stream open) for IdleTimeout, is closed; beyond MaxConns,
// the Listener closes an old idle one for each new one (issue 30: 32 idle
// connections, partial requests or HTTP/2 prefaces used to lock the probes
// out for 30 s).
const (
	MaxConns    = 32
	ReadTimeout = 1 * time.Second
	IdleTimeout = 2 * time.Second
)

// Server is grpc-go's health server whose Watch streams end when
// shutdown begins (EndWatches): an open Watch would otherwise hold the
// graceful stop for the whole --shutdown-timeout, so any client could stall
// every rollout. A watcher first receives NOT_SERVING (Shutdown), then, after
// the drain delay, the stream ends with UNAVAILABLE.
type Server struct {
	*health.Server
	stopping   context.Context
	EndWatches context.CancelFunc
}

// NewServer is a health Server, every service SERVING once set so.
func NewServer() *Server {
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{Server: health.NewServer(), stopping: ctx, EndWatches: cancel}
}

// Watch implements grpc_health_v1.HealthServer.
func (h *Server) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(h.stopping, cancel)
	defer stop()
	err := h.Server.Watch(req, watchStream{stream, ctx})
	if h.stopping.Err() != nil {
		return status.Error(codes.Unavailable, "the server is shutting down; watch another instance")
	}
	return err
}

// watchStream is a Watch stream whose context also ends at shutdown.
type watchStream struct {
	healthpb.Health_WatchServer
	ctx context.Context
}

func (w watchStream) Context() context.Context { return w.ctx }

// Register serves /healthz (liveness: the process answers) and
// /readyz (readiness: 503 once shutdown has begun) on mux.
func Register(mux *http.ServeMux, hs *health.Server) {
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
}

// Port is the probes' own port (--health-addr): /healthz and /readyz,
// and gRPC health over unencrypted HTTP/2, as on the public ports, with
// connections of their own, so that a flood of connections on the public
// ports cannot keep a probe out.
type Port struct {
	Lis  *Listener
	HTTP *http.Server
	GRPC *grpc.Server
}

// NewPort opens the health port on addr; it answers what hs says.
func NewPort(addr string, hs *Server, errorLog *log.Logger) (*Port, error) {
	inner, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--health-addr: %w", err)
	}
	gs := grpc.NewServer(grpc.MaxRecvMsgSize(4<<10), grpc.MaxConcurrentStreams(4))
	healthpb.RegisterHealthServer(gs, hs)
	mux := http.NewServeMux()
	Register(mux, hs.Server)
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	h := &Port{
		Lis:  NewListener(inner, MaxConns),
		GRPC: gs,
	}
	h.HTTP = &http.Server{
		Handler: Track(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Content-Type-Options", "nosniff") // as every answer of the stack (issue 30)
			if r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
				gs.ServeHTTP(w, r)
				return
			}
			mux.ServeHTTP(w, r)
		})),
		ConnContext:       ConnContext,
		Protocols:         protocols,
		ReadHeaderTimeout: ReadTimeout,
		ReadTimeout:       2 * ReadTimeout,
		WriteTimeout:      5 * time.Second,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    8 << 10,
		ErrorLog:          errorLog,
	}
	return h, nil
}
