package service

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/internal/benchcpu"
)

// BenchmarkExpandRoll is Expand depth 2 from a backgammon roll phase
// (every roll and every play of it), answer marshalled.
func BenchmarkExpandRoll(b *testing.B) {
	srv := New()
	req := &gamerulesv1.ExpandRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}, Depth: 2}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := srv.Expand(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := resp.MarshalVT(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchLegalMoves256 is a Batch of 256 backgammon LegalMoves of
// the opening position after 3-1 (16 plays), answer marshalled.
func BenchmarkBatchLegalMoves256(b *testing.B) {
	srv := New()
	req := &gamerulesv1.BatchRequest{}
	for range 256 {
		req.Requests = append(req.Requests, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{
			LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}}}})
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := srv.Batch(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := resp.MarshalVT(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlayoutPly is the CPU of a Playout ply of each game from its
// start, by the random and the greedy policy side by side (one core, so
// that the time is the CPU; ns/ply and allocs/ply are the figures, and
// cpu-ns/ply the process's CPU time per ply, which on a machine loaded by
// other work stays near ns/ply of an idle one while ns/ply grows).
func BenchmarkPlayoutPly(b *testing.B) {
	srv := New()
	ctx := context.Background()
	for _, g := range srv.Games() {
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: g, Seed: proto.Uint64(1)})
		if err != nil {
			b.Fatal(err)
		}
		games := map[string]int32{"gravity_trap": 400, "backgammon": 20}[g]
		if games == 0 {
			games = 4
		}
		for _, pol := range []gamerulesv1.PlayoutPolicy{gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_RANDOM, gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY} {
			req := &gamerulesv1.PlayoutRequest{Game: g, State: ng.GetState(), Games: games, Seed: proto.Uint64(2), Policy: pol.Enum()}
			name := g + "/" + strings.ToLower(strings.TrimPrefix(pol.String(), "PLAYOUT_POLICY_"))
			b.Run(name, func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
				var plies int64
				var allocs uint64
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				allocs = ms.Mallocs
				cpu := benchcpu.Process()
				for b.Loop() {
					resp, err := srv.Playout(ctx, req)
					if err != nil {
						b.Fatal(err)
					}
					plies += resp.GetTotalPlies()
				}
				cpu = benchcpu.Process() - cpu
				runtime.ReadMemStats(&ms)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies), "ns/ply")
				if cpu > 0 {
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(plies), "cpu-ns/ply")
				}
				b.ReportMetric(float64(ms.Mallocs-allocs)/float64(plies), "allocs/ply")
			})
		}
	}
}
