package service

import (
	"context"
	"runtime"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// BenchmarkCall is the service's part of the calls bench/floor measures
// (issue 35): Server.LegalMoves without and with include_results, and
// ApplyMove of the middle listed move without and with
// include_legal_moves + include_results, on every game's mid-game state
// (benchCases) sent as text only, as bench/floor sends them. Each runs
// on one core (GOMAXPROCS 1) and also reports cpu-ns/op, the process's CPU
// per call (the collector's included), which other processes on a loaded
// machine do not inflate as they do ns/op. Run:
// go test -run '^$' -bench '^BenchmarkCall$' -benchtime 200ms ./service/
func BenchmarkCall(b *testing.B) {
	srv := New()
	ctx := context.Background()
	for _, c := range benchCases(b) {
		if c.name == "gravity_trap_64x256" {
			continue // a custom board does not travel as text only
		}
		st := &gamerulesv1.GameState{Text: c.state.GetText()}
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: c.game, State: st})
		if err != nil {
			b.Fatal(err)
		}
		mv := &gamerulesv1.Move{Notation: lm.GetMoves()[len(lm.GetMoves())/2].GetNotation()}
		b.Logf("%s: %d moves, applying %s", c.name, len(lm.GetMoves()), mv.GetNotation())
		for _, results := range []bool{false, true} {
			name := "game=" + c.name + "/call=LegalMoves"
			if results {
				name += "+results"
			}
			req := &gamerulesv1.LegalMovesRequest{Game: c.game, State: st, IncludeResults: results}
			b.Run(name, func(b *testing.B) {
				benchCPU(b, func() error { _, err := srv.LegalMoves(ctx, req); return err })
			})
		}
		for _, next := range []bool{false, true} {
			name := "game=" + c.name + "/call=ApplyMove"
			if next {
				name += "+next+results"
			}
			req := &gamerulesv1.ApplyMoveRequest{Game: c.game, State: st, Move: mv, Seed: &c.seed, IncludeLegalMoves: next, IncludeResults: next}
			b.Run(name, func(b *testing.B) {
				benchCPU(b, func() error { _, err := srv.ApplyMove(ctx, req); return err })
			})
		}
	}
}

// benchCPU runs call on one core and reports, besides ns/op and the
// allocations, its CPU per call (cpu-ns/op).
func benchCPU(b *testing.B, call func() error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	if cpu = processCPU() - cpu; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
