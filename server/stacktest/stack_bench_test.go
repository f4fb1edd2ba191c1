package stacktest

import (
	"context"
	"github.com/gamerules/gamerules/server"
	"io"
	"testing"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service"
)

// midGame plays a seeded game of id through the service for plies plies
// (each move picked by ply number) and returns its state as text.
func midGame(tb testing.TB, id string, plies int) *gamerulesv1.GameState {
	tb.Helper()
	srv := service.New()
	ctx := context.Background()
	seed := uint64(7)
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: &seed})
	if err != nil {
		tb.Fatal(err)
	}
	st := ng.GetState()
	for ply := 0; ply < plies; ply++ {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st})
		if err != nil {
			tb.Fatal(err)
		}
		if len(lm.GetMoves()) == 0 {
			break
		}
		s := uint64(ply)
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: lm.GetMoves()[(ply*7)%len(lm.GetMoves())].GetNotation()}, Seed: &s})
		if err != nil {
			tb.Fatal(err)
		}
		st = am.GetState()
	}
	return &gamerulesv1.GameState{Text: st.GetText()}
}

// BenchmarkStack measures whole gRPC calls against a server run in this
// process with the default settings (log level info, to io.Discard): the
// health check (the no-op), and LegalMoves of each game. With -cpuprofile
// it shows where the server's per-call time goes.
func BenchmarkStack(b *testing.B) {
	a := startServerWith(b, func(c *server.Options) { c.LogLevel = "info"; c.Logger = testLogger(io.Discard, "info") })
	conn := dial(b, a.GRPC)
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	health := healthpb.NewHealthClient(conn)
	ctx := context.Background()
	run := func(name string, call func() error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := call(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
	run("health", func() error { _, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); return err })
	for _, g := range []struct {
		id    string
		plies int
	}{{"backgammon", 21}, {"abalone", 12}, {"labyrinth", 9}, {"gravity_trap", 6}} {
		st := midGame(b, g.id, g.plies)
		for _, res := range []bool{false, true} {
			req := &gamerulesv1.LegalMovesRequest{Game: g.id, State: st, IncludeResults: res}
			name := g.id + "/legal"
			if res {
				name += "+results"
			}
			run(name, func() error { _, err := client.LegalMoves(ctx, req, grpc.WaitForReady(true)); return err })
		}
	}
}
