package labyrinth_test

import (
	"math/rand/v2"
	"testing"

	lab "github.com/gamerules/gamerules/rules/labyrinth"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// benchState is a mid-game 4-player position with Darth Vader, in the
// shift phase with 44 distinct shifts.
func benchState(b *testing.B) lab.State {
	s := mustNew(b, lab.Options{Players: 4, Seed: 2024, Variants: lab.Variants{Vader: true}})
	r := rand.New(rand.NewPCG(5, 6))
	// 40 plies, then on to a shift phase with a corner or T spare (44 shifts).
	for i := 0; i < 40 || s.Phase() != lab.PhaseShift || s.Spare().Shape() == lab.ShapeStraight; i++ {
		ms := s.LegalMoves()
		s, _ = s.Apply(ms[r.IntN(len(ms))])
	}
	if s.Phase() != lab.PhaseShift {
		b.Fatalf("bench state %v not in the shift phase", s)
	}
	return s
}

// BenchmarkLegalMoves lists the shifts of a position (shift phase).
func BenchmarkLegalMoves(b *testing.B) {
	s := benchState(b)
	if n := len(s.LegalMoves()); n != 44 && n != 22 && n != 48 && n != 24 {
		b.Fatalf("%d shifts", n)
	}
	for b.Loop() {
		s.LegalMoves()
	}
}

// BenchmarkLegalMovesMovePhase lists the squares the mover reaches.
func BenchmarkLegalMovesMovePhase(b *testing.B) {
	s := benchState(b)
	s, _ = s.Apply(s.LegalMoves()[0])
	if len(s.LegalMoves()) == 0 {
		b.Fatal("no moves")
	}
	for b.Loop() {
		s.LegalMoves()
	}
}

// BenchmarkAllShiftsReach is the target (< 50 µs): every distinct
// shift of one position applied through Apply (which validates), and the
// moves (reachable squares) of the player to act after each.
func BenchmarkAllShiftsReach(b *testing.B) {
	s := benchState(b)
	total := 0
	for _, m := range s.LegalMoves() {
		next, err := s.Apply(m)
		if err != nil {
			b.Fatal(err)
		}
		total += len(next.LegalMoves())
	}
	if total == 0 {
		b.Fatal("no reachable squares")
	}
	for b.Loop() {
		for _, m := range s.LegalMoves() {
			next, _ := s.Apply(m)
			next.LegalMoves()
		}
	}
	b.ReportMetric(float64(len(s.LegalMoves())), "shifts")
}

// BenchmarkAllShiftsReachAllFigures also lists every figure's reachable
// squares after each shift (4 ships and Vader).
func BenchmarkAllShiftsReachAllFigures(b *testing.B) {
	s := benchState(b)
	for b.Loop() {
		for _, m := range s.LegalMoves() {
			next, _ := s.Apply(m)
			for p := 0; p < next.Players(); p++ {
				next.Reachable(next.Ship(p))
			}
			next.Reachable(next.Vader())
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	s := benchState(b)
	for b.Loop() {
		if s.Validate() != nil {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkString(b *testing.B) {
	s := benchState(b)
	for b.Loop() {
		_ = s.String()
	}
}

func BenchmarkParseState(b *testing.B) {
	text := benchState(b).String()
	for b.Loop() {
		if _, err := lab.ParseState(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRandomGame plays a whole 4-player game by random legal moves.
func BenchmarkRandomGame(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	plies := 0
	for b.Loop() {
		s := mustNew(b, lab.Options{Players: 4, Seed: r.Uint64()})
		for s.Phase() != lab.PhaseOver {
			ms := s.LegalMoves()
			s, _ = s.Apply(ms[r.IntN(len(ms))])
			plies++
		}
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}

// BenchmarkNotation measures, in benchState's shift phase (44 shifts) and
// in the move phase after the shift that gives the mover the most squares,
// move generation alone ("generate"), generation plus the notation of every
// listed move in one buffer ("generate+notation": Notations; before issue 10 it
// was String per move), with
// String per move ("generate+string"), the result state of every move
// ("results", Apply) and those plus each result's text ("results+text", the states after
// every listed move; "results+texts" with AppendStateTexts, one
// string for all). allocs/move and allocs/state are the text's
// own allocations per listed move or result.
func BenchmarkNotation(b *testing.B) {
	shift := benchState(b)
	var move lab.State
	for _, m := range shift.LegalMoves() {
		if t, _ := shift.Apply(m); len(t.LegalMoves()) > len(move.LegalMoves()) {
			move = t
		}
	}
	for _, ns := range []struct {
		name string
		s    lab.State
	}{{"shift", shift}, {"move", move}} {
		rulestest.BenchNotation(b, ns.name, ns.s, rulestest.Notation[lab.State, lab.Move]{
			Notations:        lab.Notations,
			AppendStateTexts: lab.AppendStateTexts,
		})
	}
}
