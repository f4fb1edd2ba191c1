package backgammon

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// BenchmarkLegalMoves runs LegalMoves over every oracle position and roll
// (one op = one position); plays/op is the mean number of legal plays.
func BenchmarkLegalMoves(b *testing.B) {
	rows := allOracleRows(b)
	var states []State
	plays := 0
	for _, name := range []string{"curated", "random"} {
		for i := range rows[name] {
			s := oracleState(b, &rows[name][i])
			states = append(states, s)
			plays += len(s.LegalMoves())
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = states[i%len(states)].LegalMoves()
	}
	b.ReportMetric(float64(plays)/float64(len(states)), "plays/op")
}

// TestLegalMovesMedian reports the median time of LegalMoves per oracle
// position (the target: under 5 µs).
func TestLegalMovesMedian(t *testing.T) {
	if testing.Short() || rulestest.RaceEnabled {
		t.Skip("timing")
	}
	rows := allOracleRows(t)
	var ds []time.Duration
	for _, name := range []string{"curated", "random"} {
		for i := range rows[name] {
			s := oracleState(t, &rows[name][i])
			const reps = 20
			start := time.Now()
			for k := 0; k < reps; k++ {
				_ = s.LegalMoves()
			}
			ds = append(ds, time.Since(start)/reps)
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	t.Logf("LegalMoves per position: median %v, 90%% %v, max %v", ds[len(ds)/2], ds[len(ds)*9/10], ds[len(ds)-1])
}

// oracleStates returns the oracle positions (with their rolls) as States.
func oracleStates(b *testing.B) []State {
	rows := allOracleRows(b)
	var states []State
	for _, name := range []string{"curated", "random"} {
		for i := range rows[name] {
			states = append(states, oracleState(b, &rows[name][i]))
		}
	}
	return states
}

// BenchmarkAppendLegalMoves is LegalMoves into a reused slice: no allocation.
func BenchmarkAppendLegalMoves(b *testing.B) {
	states := oracleStates(b)
	var buf []Move
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = states[i%len(states)].AppendLegalMoves(buf[:0])
	}
}

// BenchmarkApply applies the first legal play of each oracle position
// (Apply checks legality, so it generates the plays too).
func BenchmarkApply(b *testing.B) {
	states := oracleStates(b)
	moves := make([]Move, len(states))
	for i, s := range states {
		moves[i] = s.LegalMoves()[0]
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(states)
		if _, err := states[k].Apply(moves[k]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMove reads the last legal play of each oracle position from
// its notation.
func BenchmarkParseMove(b *testing.B) {
	states := oracleStates(b)
	texts := make([]string, len(states))
	for i, s := range states {
		ms := s.LegalMoves()
		texts[i] = ms[len(ms)-1].String()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(states)
		if _, err := ParseMove(states[k], texts[k]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGame plays one whole game per op: seeded dice, random plays.
func BenchmarkGame(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf []Move
	plies := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, _ := New(Options{})
		for s.Phase() != PhaseOver {
			var m Move
			if s.Phase() == PhaseMove {
				buf = s.AppendLegalMoves(buf[:0])
				m = buf[r.IntN(len(buf))]
			} else {
				m, _ = RollDice(s, r)
			}
			s, _ = s.Apply(m)
			plies++
		}
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}

// notationStates returns the positions of the notation benchmarks: the
// chance outcomes of PhaseRoll (the 21 rolls), white's opening 3-1 (16 plays),
// a mid-game non-double with 25 plays and a mid-game double with 53, both
// found by seeded random play (so the same on every run).
func notationStates(tb testing.TB) []struct {
	name string
	s    State
} {
	tb.Helper()
	type named = struct {
		name string
		s    State
	}
	start, _ := New(Options{})
	opening, err := start.Apply(OpeningRollMove(3, 1))
	if err != nil {
		tb.Fatal(err)
	}
	out := []named{{"opening", opening}}
	var mid, double State
	r := rand.New(rand.NewPCG(10, 10))
	for mid.Phase() != PhaseMove || double.Phase() != PhaseMove {
		s := start
		for s.Phase() != PhaseOver {
			var m Move
			if s.Phase() == PhaseMove {
				ms := s.LegalMoves()
				d1, d2 := s.Dice()
				if d1 != d2 && len(ms) == 25 && mid.Phase() != PhaseMove {
					mid = s
				}
				if d1 == d2 && len(ms) == 53 && double.Phase() != PhaseMove {
					double = s
				}
				m = ms[r.IntN(len(ms))]
			} else {
				m, _ = RollDice(s, r)
			}
			s, _ = s.Apply(m)
			if s.Phase() == PhaseRoll && mid.Phase() == PhaseMove && out[0].name == "opening" {
				out = append([]named{{"rolls", s}}, out...)
			}
		}
	}
	return append(out, named{"mid25", mid}, named{"double53", double})
}

var sinkTexts []string

// BenchmarkNotation measures, per position of notationStates, move
// generation alone ("generate"), generation plus the notation of every listed
// move in one buffer ("generate+notation": Notations; before issue 10 it was
// String per move) and with
// String per move ("generate+string").
// allocs/move is the notation's own allocations (generate+notation minus generate)
// per listed move; moves/op the number of listed moves. "results" is
// LegalMovesWithResults, "results+text" adds each result state's text (the states after
// every listed move; "results+texts" with AppendStateTexts, one
// string for all); allocs/state is the text's own allocations
// per result state.
func BenchmarkNotation(b *testing.B) {
	for _, ns := range notationStates(b) {
		rulestest.BenchNotation(b, ns.name, ns.s, rulestest.Notation[State, Move]{
			Notations:        Notations,
			AppendStateTexts: AppendStateTexts,
			Results:          State.LegalMovesWithResults,
		})
	}
}

// BenchmarkNotationRatio measures issue 10's target "LegalMoves + notation
// for a double ≤ 2× the generation alone" side by side: each op times a
// burst of 20 LegalMoves, then a burst of 20 LegalMoves + Notations (and of
// 20 LegalMoves + String per move, the pre-issue-10 way), back to back, so
// that the machine's load drifts as little as possible between the two;
// the reported ratios are the medians over the ops (run with a -benchtime
// of a few hundred x).
func BenchmarkNotationRatio(b *testing.B) {
	for _, ns := range notationStates(b) {
		s := ns.s
		b.Run(ns.name, func(b *testing.B) {
			const burst = 20
			var shared, perMove []float64
			for b.Loop() {
				t0 := time.Now()
				for k := 0; k < burst; k++ {
					_ = s.LegalMoves()
				}
				t1 := time.Now()
				for k := 0; k < burst; k++ {
					sinkTexts = Notations(s.LegalMoves())
				}
				t2 := time.Now()
				for k := 0; k < burst; k++ {
					for _, m := range s.LegalMoves() {
						textSink = m.String()
					}
				}
				t3 := time.Now()
				genTime := float64(t1.Sub(t0))
				shared = append(shared, float64(t2.Sub(t1))/genTime)
				perMove = append(perMove, float64(t3.Sub(t2))/genTime)
			}
			sort.Float64s(shared)
			sort.Float64s(perMove)
			b.ReportMetric(shared[len(shared)/2], "notations/generate")
			b.ReportMetric(perMove[len(perMove)/2], "strings/generate")
		})
	}
}
