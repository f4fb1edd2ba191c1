package server

import (
	"context"
	"io"
	"net"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/server/requestid"
)

// benchStream is the transport stream grpc.SetHeader finds in a call's
// context.
type benchStream struct{ grpc.ServerTransportStream }

func (benchStream) Method() string               { return "" }
func (benchStream) SetHeader(metadata.MD) error  { return nil }
func (benchStream) SendHeader(metadata.MD) error { return nil }
func (benchStream) SetTrailer(metadata.MD) error { return nil }

// BenchmarkUnaryChain is the gRPC port's unary chain alone (the request
// id, then apiInterceptors' gRPC links: access log at info level in JSON,
// metrics, recovery, the limits), chained as grpc-go chains it, around a
// handler that answers at once: what every call pays above its transport
// and its service (issue 35). health is out of the API's scope (no
// limits but the deadline), legalmoves in it.
func BenchmarkUnaryChain(b *testing.B) {
	cfg := DefaultOptions()
	cfg.logOutput = io.Discard
	logger, err := newLogger(cfg)
	if err != nil {
		b.Fatal(err)
	}
	refused := newRefusedCounter()
	metrics := newGRPCMetrics()
	prometheus.NewRegistry().MustRegister(metrics, refused)
	adm := newAdmission(cfg, refused)
	ints := append([]grpc.UnaryServerInterceptor{requestid.Unary}, grpcInterceptors(apiInterceptors(cfg, logger, metrics, adm, refused, nil))...)
	chain := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, final grpc.UnaryHandler) (any, error) {
		var next func(i int) grpc.UnaryHandler
		next = func(i int) grpc.UnaryHandler {
			if i == len(ints)-1 {
				return final
			}
			return func(ctx context.Context, req any) (any, error) { return ints[i+1](ctx, req, info, next(i+1)) }
		}
		return ints[0](ctx, req, info, next(0))
	}
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}})
	ctx = metadata.NewIncomingContext(ctx, metadata.Pairs("content-type", "application/grpc", "user-agent", "grpc-go/1.70"))
	ctx = grpc.NewContextWithServerTransportStream(ctx, benchStream{})
	for _, c := range []struct {
		name, method string
		req, resp    any
	}{
		{"health", "/grpc.health.v1.Health/Check", &gamerulesv1.ListGamesRequest{}, &gamerulesv1.ListGamesResponse{}},
		{"legalmoves", "/gamerules.v1.GameRules/LegalMoves", &gamerulesv1.LegalMovesRequest{Game: "backgammon"}, &gamerulesv1.LegalMovesResponse{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			info := &grpc.UnaryServerInfo{FullMethod: c.method}
			final := func(context.Context, any) (any, error) { return c.resp, nil }
			b.ReportAllocs()
			for b.Loop() {
				if _, err := chain(ctx, c.req, info, final); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
