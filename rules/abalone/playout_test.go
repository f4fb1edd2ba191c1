package abalone

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/rulestest"
)

func long() bool { return os.Getenv("GAMERULES_LONG") != "" }

// referenceResults is a slow generator written from the spec's wording
// rather than from the engine's Aba-Pro shape: every group of 1..3 own
// marbles in line, every direction, in line (pushing) or broadside. It
// returns the set of positions (boards) the legal moves lead to.
func referenceResults(s State) map[[2]uint64]bool {
	me := s.ToMove()
	out := map[[2]uint64]bool{}
	for c := Cell(1); c <= NumCells; c++ {
		if s.At(c) != me {
			continue
		}
		for a := Direction(0); a < 6; a++ {
			group := []Cell{c}
			for size := 1; size <= 3; size++ {
				if size > 1 {
					next := group[size-2].Neighbor(a)
					if next == NoCell || s.At(next) != me {
						break
					}
					group = append(group, next)
				}
				for d := Direction(0); d < 6; d++ {
					board := s.board
					if size == 1 || d == a || d == a.Opposite() {
						lead := group[len(group)-1]
						if d != a {
							lead = group[0]
						}
						front := lead.Neighbor(d)
						if front == NoCell || s.At(front) == me {
							continue
						}
						var pushed []Cell
						for x := front; x != NoCell && s.At(x) == 1-me; x = x.Neighbor(d) {
							pushed = append(pushed, x)
						}
						if len(pushed) >= size {
							continue
						}
						if len(pushed) > 0 {
							beyond := pushed[len(pushed)-1].Neighbor(d)
							if beyond != NoCell && s.At(beyond) != -1 {
								continue
							}
							for _, x := range pushed {
								board[1-me] &^= bitOf(x)
							}
							for _, x := range pushed {
								if y := x.Neighbor(d); y != NoCell {
									board[1-me] |= bitOf(y)
								}
							}
						}
					} else {
						ok := true
						for _, g := range group {
							if to := g.Neighbor(d); to == NoCell || s.At(to) != -1 {
								ok = false
							}
						}
						if !ok {
							continue
						}
					}
					for _, g := range group {
						board[me] &^= bitOf(g)
					}
					for _, g := range group {
						board[me] |= bitOf(g.Neighbor(d))
					}
					out[board] = true
				}
			}
		}
	}
	return out
}

// allShapes lists every Move value with valid cells and a shape that could
// be a move: to a neighbour of from, and for broadsides an end in line at
// distance 1 or 2 in any direction (so non-canonical ones too).
func allShapes() []Move {
	var out []Move
	for from := Cell(1); from <= NumCells; from++ {
		for d := Direction(0); d < 6; d++ {
			to := from.Neighbor(d)
			if to == NoCell {
				continue
			}
			out = append(out, Move{From: from, To: to})
			for a := Direction(0); a < 6; a++ {
				for end, k := from.Neighbor(a), 0; end != NoCell && k < 2; end, k = end.Neighbor(a), k+1 {
					out = append(out, Move{From: from, To: to, End: end})
				}
			}
		}
	}
	return out
}

var shapes = allShapes()

// checkAgainstReference checks s's LegalMoves against the reference
// generator (same set of resulting positions, no two moves alike) and that
// Apply succeeds on exactly the listed moves among all Move shapes.
func checkAgainstReference(t testing.TB, s State) {
	t.Helper()
	moves := s.LegalMoves()
	if s.Outcome().Finished {
		if len(moves) != 0 {
			t.Fatalf("%s: finished with %d moves", s, len(moves))
		}
		return
	}
	want := referenceResults(s)
	legal := map[Move]bool{}
	for _, m := range moves {
		legal[m] = true
		next, err := s.Apply(m)
		if err != nil {
			t.Fatalf("%s: Apply(%s) = %v", s, m, err)
		}
		if !want[next.board] {
			t.Fatalf("%s: move %s is not legal by the reference generator", s, m)
		}
	}
	if len(moves) != len(want) || len(legal) != len(moves) {
		t.Fatalf("%s: %d moves (%d distinct); the reference generator finds %d positions", s, len(moves), len(legal), len(want))
	}
	for _, m := range shapes {
		_, err := s.Apply(m)
		if (err == nil) != legal[m] {
			t.Fatalf("%s: Apply(%#v) = %v; listed in LegalMoves: %v", s, m, err, legal[m])
		}
		if err != nil && !errors.Is(err, game.ErrIllegalMove) {
			t.Fatalf("%s: Apply(%s) = %v; want ErrIllegalMove", s, m, err)
		}
	}
}

// randomState places 8..14 marbles of each colour (not both 8) at random.
func randomState(r *rand.Rand) State {
	var s State
	nb, nw := 8+r.IntN(7), 8+r.IntN(7)
	if nb == 8 && nw == 8 {
		nw = 9
	}
	perm := r.Perm(NumCells)
	for _, i := range perm[:nb] {
		s.board[0] |= 1 << i
	}
	for _, i := range perm[nb : nb+nw] {
		s.board[1] |= 1 << i
	}
	s.toMove = uint8(r.IntN(2))
	return s
}

// randomDenseState packs marbles into a few rows so that pushes, pacs and
// sandwiches are common.
func randomDenseState(r *rand.Rand) State {
	for {
		var s State
		lo := r.IntN(4)
		for i := rowStart[lo]; i < rowStart[lo+5]; i++ {
			switch r.IntN(5) {
			case 0, 1:
				s.board[0] |= 1 << i
			case 2, 3:
				s.board[1] |= 1 << i
			}
		}
		s.toMove = uint8(r.IntN(2))
		if s.Validate() == nil {
			return s
		}
	}
}

func TestAgainstReferenceRandomStates(t *testing.T) {
	n := 50
	if long() {
		n = 5000
	}
	r := rand.New(rand.NewPCG(4, 1))
	for i := 0; i < n; i++ {
		checkAgainstReference(t, randomState(r))
		checkAgainstReference(t, randomDenseState(r))
	}
}

func playoutConfig(check func(testing.TB, State)) rulestest.Config[State, Move] {
	layouts := []Layout{Classic, BelgianDaisy, GermanDaisy}
	return rulestest.Config[State, Move]{
		Start: func(i int, r *rand.Rand) State {
			o := Options{Layout: layouts[i%3]}
			// Most games get a ply limit so that they stay short; every
			// tenth plays on until six marbles are pushed off.
			if i%10 != 0 {
				o.MaxPlies = 1 + r.IntN(300)
			}
			s, err := New(o)
			if err != nil {
				panic(err)
			}
			return s
		},
		ParseState: ParseState,
		ParseMove:  ParseMove,
		Position:   func(s State) (State, error) { return FromPosition(s.Position()) },
		MaxPlies:   20000,
		Check:      check,
	}
}

// TestRandomPlayouts plays seeded random games from every layout through the
// shared harness, and checks Outcome and the reference generator along the way.
func TestRandomPlayouts(t *testing.T) {
	games := 60
	if long() {
		games = 100_000
	}
	states, every := 0, 211
	if long() {
		every = 4999 // the reference check costs about a millisecond
	}
	check := func(t testing.TB, s State) {
		states++
		o := s.Outcome()
		if o.Points[Black] != s.Lost(White) || o.Points[White] != s.Lost(Black) {
			t.Fatalf("%s: Outcome points %v; lost %d/%d", s, o.Points, s.Lost(Black), s.Lost(White))
		}
		if o.Finished != (o.Points[0] == 6 || o.Points[1] == 6 || s.MaxPlies() > 0 && s.Plies() == s.MaxPlies() || !s.hasMove()) {
			t.Fatalf("%s: Outcome %+v", s, o)
		}
		if bits.OnesCount64(s.board[0]) < MinMarbles || bits.OnesCount64(s.board[1]) < MinMarbles {
			t.Fatalf("%s: a side below 8 marbles", s)
		}
		if states%every == 0 {
			checkAgainstReference(t, s)
		}
	}
	plies := rulestest.RandomPlayouts(t, games, 20240601, playoutConfig(check))
	t.Logf("%d games, %d plies", games, plies)
}

// TestAppendLegalMovesAllocs checks that generating into a reused slice
// does not allocate, and that LegalMoves allocates once.
func TestAppendLegalMovesAllocs(t *testing.T) {
	s, _ := New(Options{Layout: GermanDaisy})
	buf := make([]Move, 0, 256)
	if n := testing.AllocsPerRun(100, func() { buf = s.AppendLegalMoves(buf[:0]) }); n != 0 {
		t.Errorf("AppendLegalMoves allocates %v times per call; want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.LegalMoves() }); n != 1 {
		t.Errorf("LegalMoves allocates %v times per call; want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = s.Apply(buf[0]) }); n != 0 {
		t.Errorf("Apply allocates %v times per call; want 0", n)
	}
	got := s.AppendLegalMoves([]Move{{}})
	if len(got) != 81 || got[0] != (Move{}) {
		t.Errorf("AppendLegalMoves did not append to its argument: %d moves", len(got))
	}
}
