package gravitytrap

import (
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

func benchStates(b testing.TB) []State {
	var out []State
	for _, name := range []string{DefaultBoardName, RingsBoardName} {
		for _, r := range readPositions(b, name) {
			s, err := ParseState(r.State)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, s)
		}
	}
	return out
}

// BenchmarkLegalMoves: one op = LegalMoves of one of the 800 oracle positions.
func BenchmarkLegalMoves(b *testing.B) {
	states := benchStates(b)
	if got := len(states[0].LegalMoves()); got != 3 {
		b.Fatalf("LegalMoves(%s) has %d moves; want 3", states[0], got)
	}
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(states[i%len(states)].LegalMoves())
	}
	_ = n
}

// BenchmarkApply: one op = Apply of the first legal move of an oracle position.
func BenchmarkApply(b *testing.B) {
	var states []State
	var moves []Move
	for _, s := range benchStates(b) {
		if ms := s.LegalMoves(); len(ms) > 0 {
			states, moves = append(states, s), append(moves, ms[0])
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := states[i%len(states)].Apply(moves[i%len(moves)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseState: one op = ParseState of an oracle position's text.
func BenchmarkParseState(b *testing.B) {
	var texts []string
	for _, s := range benchStates(b) {
		texts = append(texts, s.String())
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := ParseState(texts[i%len(texts)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPerft: perft 5 from the set-up position red 0, blue 4 (bitset
// internals; the leaf count is checked against the public API at depth 3).
func BenchmarkPerft(b *testing.B) {
	for _, text := range []string{"RoooBooooooooooooooooo r", "RoooBooooooooooooooooo r rings"} {
		s, err := ParseState(text)
		if err != nil {
			b.Fatal(err)
		}
		if perft(&s, 3) != slowPerft(b, s, 3) {
			b.Fatalf("%s: perft 3 disagrees with the public API", text)
		}
		b.Run(s.Board().Name(), func(b *testing.B) {
			var nodes int64
			for b.Loop() {
				nodes = perft(&s, 5)
			}
			b.ReportMetric(float64(nodes), "leaves")
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

// BenchmarkSolveDefault: one op = solving every placement of the default board.
func BenchmarkSolveDefault(b *testing.B) {
	for b.Loop() {
		sv := newSolver()
		for red := 0; red < 22; red++ {
			for blue := 0; blue < 22; blue++ {
				if red == blue {
					continue
				}
				s := State{board: defaultBoard, ship: [2]int8{int8(red), int8(blue)}, marbles: defaultBoard.all &^ (1 << red) &^ (1 << blue)}
				sv.toMoveWins(&s)
			}
		}
	}
}

// BenchmarkNotation measures, at the set-up of the default board (22
// placements "place N"), in the oracle position with the most moves on each
// built-in board, move generation alone ("generate"), generation plus the
// notation of every listed move in one buffer ("generate+notation": Notations;
// before issue 10 it was String per move), with String per move ("generate+string"), the result state of
// every move ("results", Apply) and those plus each result's text
// ("results+text", the states after every listed move; "results+texts" with
// AppendStateTexts, one string for all). allocs/move and allocs/state are the text's own
// allocations per listed move or result.
func BenchmarkNotation(b *testing.B) {
	setup, _ := New(Options{})
	type named struct {
		name string
		s    State
	}
	cases := []named{{"setup", setup}}
	best := map[string]State{}
	for _, s := range benchStates(b) {
		name := s.Board().Name()
		if t, ok := best[name]; !ok || len(s.LegalMoves()) > len(t.LegalMoves()) {
			best[name] = s
		}
	}
	cases = append(cases, named{"default", best[DefaultBoardName]}, named{"rings", best[RingsBoardName]})
	for _, ns := range cases {
		rulestest.BenchNotation(b, ns.name, ns.s, rulestest.Notation[State, Move]{
			Notations:        Notations,
			AppendStateTexts: AppendStateTexts,
		})
	}
}
