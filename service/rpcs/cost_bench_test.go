//go:build unix

package rpcs

import (
	"context"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
)

// The calibration of Cost (cost.go): the process's CPU time (user and
// system, the garbage collector's included, from getrusage) per unit of
// work of each heavy RPC, called in process on one goroutine. CPU time,
// not wall time, so that a machine shared with other work changes the
// figures little. Run:
//
//	go test -run '^$' -bench BenchmarkCost -benchtime 20x ./service/rpcs/
//
// and read the cpu-µs/<unit> metrics; cost.go's weights are their
// rounded maxima over the games.

// cpuTime is the process's CPU time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perUnit runs call b.N times and reports the CPU time per unit it
// reports (the plies played, the nodes built, …) as cpu-µs/<unit>.
func perUnit(b *testing.B, unit string, call func() (int64, error)) {
	b.Helper()
	var units int64
	start := cpuTime(b)
	for b.Loop() {
		n, err := call()
		if err != nil {
			b.Fatal(err)
		}
		units += n
	}
	cpu := cpuTime(b) - start
	if units > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(units), "cpu-µs/"+unit)
	}
}

// startOf is game's start.
func startOf(b *testing.B, srv *service.Server, game string) *gamerulesv1.GameState {
	ng, err := srv.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: game})
	if err != nil {
		b.Fatal(err)
	}
	return ng.GetState()
}

// BenchmarkCostPlayout: CPU per ply played, each game from its start, by
// policy.
func BenchmarkCostPlayout(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	for _, game := range srv.Games() {
		st := startOf(b, srv, game)
		for _, policy := range []gamerulesv1.PlayoutPolicy{gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_RANDOM, gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY} {
			b.Run(game+"/"+policy.String(), func(b *testing.B) {
				perUnit(b, "ply", func() (int64, error) {
					resp, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: game, State: st, Games: 4, MaxPlies: 500, Policy: &policy})
					return resp.GetTotalPlies(), err
				})
			})
		}
	}
}

// BenchmarkCostExpand: CPU per node of a tree of depth 2 (at most 2,000
// nodes), each game from its start.
func BenchmarkCostExpand(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	for _, game := range srv.Games() {
		st := startOf(b, srv, game)
		b.Run(game, func(b *testing.B) {
			perUnit(b, "node", func() (int64, error) {
				resp, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: game, State: st, Depth: 2, MaxNodes: 2000})
				if err != nil {
					// A tree wider than 2,000 nodes: depth 1.
					resp, err = srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: game, State: st, Depth: 1, MaxNodes: 2000})
				}
				return int64(resp.GetNodeCount()), err
			})
		})
	}
}

// BenchmarkCostBatch: CPU per item of a Batch of 500 LegalMoves calls and
// of 500 ApplyMove calls (backgammon's opening, a roll of 3-1).
func BenchmarkCostBatch(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	st := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}
	kinds := map[string]func() *gamerulesv1.BatchRequestItem{
		"LegalMoves": func() *gamerulesv1.BatchRequestItem {
			return &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st}}}
		},
		"ApplyMove": func() *gamerulesv1.BatchRequestItem {
			return &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_ApplyMove{ApplyMove: &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: "8/5 6/5"}, IncludeLegalMoves: true}}}
		},
	}
	for name, item := range kinds {
		items := make([]*gamerulesv1.BatchRequestItem, 500)
		for i := range items {
			items[i] = item()
		}
		b.Run(name, func(b *testing.B) {
			perUnit(b, "item", func() (int64, error) {
				resp, err := srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: items})
				_ = proto.Size(resp) // the answer is marshalled
				return int64(len(items)), err
			})
		})
	}
}

// recorded is a game of game played to its end by the random policy
// (from seed), as moves.
func recorded(b *testing.B, srv *service.Server, game string, seed uint64) []string {
	resp, err := srv.Playout(context.Background(), &gamerulesv1.PlayoutRequest{Game: game, State: startOf(b, srv, game), Games: 1, IncludeMoves: true, Seed: &seed, MaxPlies: 3000})
	if err != nil {
		b.Fatal(err)
	}
	return resp.GetPlayed().GetGames()[0].GetMoves()
}

// BenchmarkCostReplay: CPU per move of a replay of a random game, each
// game, with and without the states.
func BenchmarkCostReplay(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	for _, game := range srv.Games() {
		moves := recorded(b, srv, game, 7)
		moves = moves[:min(len(moves), 1000)] // the most states a replay answers
		if _, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: game, Moves: moves}); err != nil {
			b.Logf("%s: a random game's moves do not replay as notation (%v); not measured", game, err)
			continue
		}
		for _, states := range []bool{false, true} {
			name := game
			if states {
				name += "/states"
			}
			b.Run(name, func(b *testing.B) {
				perUnit(b, "move", func() (int64, error) {
					resp, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: game, Moves: moves, IncludeStates: states})
					_ = proto.Size(resp)
					return int64(len(moves)), err
				})
			})
		}
	}
}

// BenchmarkCostRecord: CPU per byte of a record exported (the JSON record
// of each game, backgammon's .mat) and per byte of the same record
// imported.
func BenchmarkCostRecord(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	for _, game := range srv.Games() {
		formats := []string{"json"}
		if game == "backgammon" {
			formats = append(formats, "mat")
		}
		if game == "abalone" {
			formats = append(formats, "apgn")
		}
		moves := recorded(b, srv, game, 7)
		moves = moves[:min(len(moves), 1000)]
		for _, f := range formats {
			req := &gamerulesv1.ExportRecordRequest{Game: game, Format: f, Replay: &gamerulesv1.ReplayGameRequest{Game: game, Moves: moves}}
			exp, err := srv.ExportRecord(ctx, req)
			if err != nil {
				b.Logf("%s %s: %v", game, f, err)
				continue
			}
			text := exp.GetText()
			b.Run("export/"+game+"/"+f, func(b *testing.B) {
				perUnit(b, "byte", func() (int64, error) {
					resp, err := srv.ExportRecord(ctx, req)
					return int64(len(resp.GetText())), err
				})
			})
			b.Run("import/"+game+"/"+f, func(b *testing.B) {
				perUnit(b, "byte", func() (int64, error) {
					_, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: game, Format: f, Text: text})
					return int64(len(text)), err
				})
			})
			b.Run("replay/"+game+"/"+f, func(b *testing.B) {
				perUnit(b, "move", func() (int64, error) {
					_, err := srv.ExportRecord(ctx, req)
					return int64(len(moves)), err
				})
			})
		}
	}
}

// BenchmarkCostLight: CPU per light call (LegalMoves of backgammon's
// opening), the floor of the unit.
func BenchmarkCostLight(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	st := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}
	perUnit(b, "call", func() (int64, error) {
		resp, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
		_ = proto.Size(resp)
		return 1, err
	})
}
