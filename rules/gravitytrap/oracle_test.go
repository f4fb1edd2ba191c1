package gravitytrap

import (
	"encoding/json"
	"math/bits"
	"os"
	"slices"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"
)

// The oracle data in ../../testdata/gravitytrap (exhaustive-search results,
// see docs/rules/gravitytrap.md).

type oracleRow struct {
	State       string  `json:"state"`
	Legal       []int   `json:"legal"`
	Perft       []int64 `json:"perft"`
	ToMoveWins  *bool   `json:"to_move_wins"`
	Winner      string  `json:"winner"`
	WinnerScore *int    `json:"winner_score"`
}

func readPositions(t testing.TB, board string) []oracleRow {
	t.Helper()
	return oracle.JSONL[oracleRow](t, "gravitytrap/positions-"+board+".jsonl")
}

type solvedFile struct {
	Board      string `json:"board"`
	Placements []struct {
		Red     int  `json:"red"`
		Blue    int  `json:"blue"`
		Mirror  bool `json:"mirror"`
		RedWins bool `json:"red_wins"`
	} `json:"placements"`
}

func readSolved(t testing.TB, board string) solvedFile {
	t.Helper()
	data, err := os.ReadFile(oracle.Path(t, "gravitytrap/solved-"+board+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f solvedFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// perft counts the move sequences of exactly depth plies from s (moving
// phase), with the bitset internals; slowPerft is the same through the
// public LegalMoves and Apply, to cross-check it.
func perft(s *State, depth int) int64 {
	if fin, _, _ := s.result(); fin {
		return 0
	}
	set := s.avail(s.toAct)
	if depth == 1 {
		return int64(bits.OnesCount64(set))
	}
	var sum int64
	me := s.toAct
	for ; set != 0; set &= set - 1 {
		t := bits.TrailingZeros64(set)
		n := *s
		n.ship[me] = int8(t)
		n.marbles &^= 1 << t
		n.toAct = 1 - me
		sum += perft(&n, depth-1)
	}
	return sum
}

func slowPerft(t testing.TB, s State, depth int) int64 {
	moves := s.LegalMoves()
	if depth == 1 {
		return int64(len(moves))
	}
	var sum int64
	for _, m := range moves {
		n, err := s.Apply(m)
		if err != nil {
			t.Fatalf("%s: Apply(%v) = %v", s, m, err)
		}
		sum += slowPerft(t, n, depth-1)
	}
	return sum
}

// solver decides positions by exhaustive search with a transposition table
// keyed by the whole position (boards of at most 32 stations).
type solver struct {
	memo map[uint64]bool
}

func newSolver() *solver { return &solver{memo: make(map[uint64]bool, 1<<20)} }

// toMoveWins reports whether the player to move wins s with perfect play.
func (sv *solver) toMoveWins(s *State) bool {
	if fin, w, _ := s.result(); fin {
		return w == s.toAct
	}
	key := s.marbles | uint64(s.ship[0])<<32 | uint64(s.ship[1])<<40 | uint64(s.toAct)<<48
	if v, ok := sv.memo[key]; ok {
		return v
	}
	win := false
	me := s.toAct
	for set := s.avail(me); set != 0 && !win; set &= set - 1 {
		t := bits.TrailingZeros64(set)
		n := *s
		n.ship[me] = int8(t)
		n.marbles &^= 1 << t
		n.toAct = 1 - me
		win = !sv.toMoveWins(&n)
	}
	sv.memo[key] = win
	return win
}

// TestOraclePositions checks all 400 positions of each board against the
// oracle: the text form round-trips, the legal destinations, perft 1..5
// (bitset perft for all depths, the public API up to depth 3), who wins
// with perfect play, and winner and score of finished games.
func TestOraclePositions(t *testing.T) {
	for _, name := range []string{DefaultBoardName, RingsBoardName} {
		t.Run(name, func(t *testing.T) {
			rows := readPositions(t, name)
			if len(rows) != 400 {
				t.Fatalf("%d positions; want 400", len(rows))
			}
			sv := newSolver()
			finished := 0
			for _, r := range rows {
				s, err := ParseState(r.State)
				if err != nil {
					t.Fatalf("ParseState(%q) = %v", r.State, err)
				}
				if s.String() != r.State {
					t.Errorf("ParseState(%q).String() = %q", r.State, s.String())
				}
				if s.Board().Name() != name {
					t.Errorf("ParseState(%q).Board().Name() = %q; want %q", r.State, s.Board().Name(), name)
				}
				var got []int
				for _, m := range s.LegalMoves() {
					if m.Place {
						t.Errorf("%s: placement %v in the moving phase", r.State, m)
					}
					got = append(got, m.Station)
				}
				if !slices.Equal(got, r.Legal) {
					t.Errorf("LegalMoves(%s) = %v; want %v", r.State, got, r.Legal)
				}
				out := s.Outcome()
				if r.Winner != "" {
					finished++
					want := map[string]int{"r": Red, "b": Blue}[r.Winner]
					if !out.Finished || out.Winner != want || out.Points[want] != *r.WinnerScore || out.Points[1-want] != 0 {
						t.Errorf("Outcome(%s) = %+v; want winner %s with %d", r.State, out, r.Winner, *r.WinnerScore)
					}
					continue
				}
				if out.Finished {
					t.Errorf("Outcome(%s) = %+v; want unfinished", r.State, out)
				}
				if len(r.Perft) != 5 || r.ToMoveWins == nil {
					t.Fatalf("%s: oracle row without perft/to_move_wins", r.State)
				}
				for d := 1; d <= 5; d++ {
					if got := perft(&s, d); got != r.Perft[d-1] {
						t.Errorf("perft(%s, %d) = %d; want %d", r.State, d, got, r.Perft[d-1])
					}
				}
				for d := 1; d <= 3; d++ {
					if got := slowPerft(t, s, d); got != r.Perft[d-1] {
						t.Errorf("slowPerft(%s, %d) = %d; want %d", r.State, d, got, r.Perft[d-1])
					}
				}
				if got := sv.toMoveWins(&s); got != *r.ToMoveWins {
					t.Errorf("toMoveWins(%s) = %v; want %v", r.State, got, *r.ToMoveWins)
				}
			}
			if finished == 0 || finished == len(rows) {
				t.Errorf("%d finished positions of %d; the data should mix both", finished, len(rows))
			}
			t.Logf("%d positions, %d finished, %d solver entries", len(rows), finished, len(sv.memo))
		})
	}
}

// solvePlacements plays every placement pair of the solved file through the
// public API (New, Apply) and compares the solver with red_wins. step > 1
// checks every step-th pair only.
func solvePlacements(t *testing.T, name string, step int) {
	b, err := BuiltinBoard(name)
	if err != nil {
		t.Fatal(err)
	}
	f := readSolved(t, name)
	if f.Board != name || len(f.Placements) != b.NumStations()*(b.NumStations()-1) {
		t.Fatalf("solved-%s.json: board %q with %d placements", name, f.Board, len(f.Placements))
	}
	sv := newSolver()
	checked := 0
	for i, p := range f.Placements {
		opp, _ := b.Opposite(p.Red)
		if (opp == p.Blue) != p.Mirror {
			t.Errorf("placement red %d blue %d: mirror = %v but opposite(%d) = %d", p.Red, p.Blue, p.Mirror, p.Red, opp)
		}
		if i%step != 0 {
			continue
		}
		s, err := New(Options{Board: b, AllowMirrorPlacement: p.Mirror})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Move{{Place: true, Station: p.Red}, {Place: true, Station: p.Blue}} {
			if s, err = s.Apply(m); err != nil {
				t.Fatalf("placement red %d blue %d: Apply(%v) = %v", p.Red, p.Blue, m, err)
			}
		}
		if s.Placing() || s.ToAct() != Red {
			t.Fatalf("after placing red %d blue %d: %s; want red to move", p.Red, p.Blue, s)
		}
		if got := sv.toMoveWins(&s); got != p.RedWins {
			t.Errorf("red on %d, blue on %d (%s): red wins = %v; want %v", p.Red, p.Blue, s, got, p.RedWins)
		}
		checked++
	}
	t.Logf("%s: %d placements checked, %d states solved", name, checked, len(sv.memo))
}

// TestSolvedDefault: our exhaustive search agrees with solved-default.json
// on every placement pair (the whole default board, about 720,000 states).
func TestSolvedDefault(t *testing.T) {
	solvePlacements(t, DefaultBoardName, 1)
}

// TestSolvedRings does the same on the rings board, whose game tree is far
// larger (about 5.8 million states, seconds): every 19th pair by default,
// all pairs when GAMERULES_LONG is set.
func TestSolvedRings(t *testing.T) {
	step := 19
	if os.Getenv("GAMERULES_LONG") != "" {
		step = 1
	}
	solvePlacements(t, RingsBoardName, step)
}
