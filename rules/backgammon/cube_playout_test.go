package backgammon

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/rulestest"
)

// TestCubePlayouts plays random money games and matches with random cube
// and resignation decisions through the shared harness (which checks the
// contract of package game at every step, a match's "next game" included)
// and checks besides: the text form and the typed Position round-trip, the
// stake in the score is the game's points at the end, no double is listed
// in the Crawford game or beyond the cube limit, a double that is not
// listed is refused, and a match ends exactly when a player reaches its
// length. GAMERULES_LONG=1 plays 20 times as many.
func TestCubePlayouts(t *testing.T) {
	n := 150
	if long() {
		n *= 20
	}
	stats := map[string]int{}
	// GAMERULES_DUMP_STATES=file writes every distinct state's gnubg ID, for
	// testdata/backgammon/cube/roundtrip.py to load into gnubg.
	dump := os.Getenv("GAMERULES_DUMP_STATES")
	seen := map[string]bool{}
	var ids []string
	defer func() {
		if dump != "" {
			if err := os.WriteFile(dump, []byte(strings.Join(ids, "\n")+"\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}()
	var o Options // the options of the game being played
	games := 0    // games finished in the current play
	rulestest.RandomPlayouts(t, n, 12, rulestest.Config[State, Move]{
		Start: func(k int, r *rand.Rand) State {
			o = Options{}
			if k%2 == 0 {
				o = Options{Cube: true, NoJacoby: r.IntN(2) == 0, Beavers: r.IntN(2) == 0}
			} else {
				o.MatchLength = 1 + r.IntN(9)
				o.Score = [2]int{r.IntN(o.MatchLength), r.IntN(o.MatchLength)}
				l := o.MatchLength - 1
				o.Crawford = (o.Score[0] == l) != (o.Score[1] == l) && r.IntN(2) == 0
			}
			s, err := New(o)
			if err != nil {
				t.Fatalf("New(%+v) = %v", o, err)
			}
			games = 0
			return s
		},
		ParseState: ParseState,
		ParseMove:  ParseMove,
		Continues:  State.SessionGoesOn,
		MaxPlies:   20000,
		Check: func(t testing.TB, s State) {
			checkCubeInvariants(t, s)
			if id := s.PositionID() + ":" + s.MatchID(); dump != "" && !seen[id] && s.Phase() != PhaseOpening {
				seen[id] = true
				ids = append(ids, id)
			}
		},
		Choose: chooseCubeMove,
		Step: func(t testing.TB, s State, m Move, next State) {
			stats[m.Kind().String()]++
			if next.Phase() != PhaseOver || s.Phase() == PhaseOver {
				return
			}
			games++
			out := next.Outcome()
			a0, b0 := s.Score()
			a1, b1 := next.Score()
			gain := [2]int{a1 - a0, b1 - b0}
			if !out.Finished || gain[out.Winner] != out.Points[out.Winner] || gain[1-out.Winner] != 0 || out.Points[out.Winner] < next.CubeValue() {
				t.Fatalf("%s -> %s: outcome %+v, score %d-%d -> %d-%d", s, next, out, a0, b0, a1, b1)
			}
			stats["end "+next.End()]++
			if next.MatchOver() {
				stats["match over"]++
			}
		},
		End: func(t testing.TB, _ int, s State) {
			if s.matchLen > 0 && !s.MatchOver() || games == 0 {
				t.Fatalf("options %+v: ended at %s after %d games", o, s, games)
			}
		},
	})
	t.Logf("%d playouts: %v", n, stats)
}

// chooseCubeMove picks a move as a weak but plausible player would, so that
// games and matches run their course: dice mostly rolled (a decision one
// time in eight, mostly a double), plays mostly not resigned, doubles
// mostly taken and resignations mostly declined.
func chooseCubeMove(s State, moves []Move, r *rand.Rand) Move {
	var m Move
	switch s.Phase() {
	case PhaseOpening, PhaseRoll:
		if moves[len(moves)-1].Kind() >= KindDouble && r.IntN(8) == 0 {
			m = moves[21+r.IntN(len(moves)-21)] // a decision
			if m.Kind() == KindResign && r.IntN(8) != 0 {
				// Mostly a double instead, or the roll when none is
				// listed (checkCubeInvariants checks that such a double
				// is refused).
				if m = DoubleMove(); !slices.Contains(moves, m) {
					m, _ = RollDice(s, r)
				}
			}
		} else {
			m, _ = RollDice(s, r)
		}
	case PhaseMove:
		m = moves[r.IntN(len(moves))]
		if m.Kind() == KindResign && r.IntN(20) != 0 {
			m = moves[0]
		}
	case PhaseDouble:
		m = moves[r.IntN(len(moves))]
		if r.IntN(10) < 7 {
			m = TakeMove()
		}
	case PhaseResign:
		m = moves[r.IntN(len(moves))]
		if r.IntN(10) < 8 {
			m = DeclineMove()
		}
	default:
		m = moves[r.IntN(len(moves))]
	}
	return m
}

func checkCubeInvariants(t testing.TB, s State) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	back, err := ParseState(s.String())
	if err != nil || back != s {
		t.Fatalf("ParseState(%s) = %s, %v", s, back, err)
	}
	if f, err := FromPosition(s.Position()); err != nil || f != s {
		t.Fatalf("FromPosition(%s) = %s, %v", s, f, err)
	}
	if s.CubeValue() > MaxCube {
		t.Fatalf("%s: cube %d", s, s.CubeValue())
	}
	if s.matchLen > 0 && s.Phase() != PhaseOver && (s.score[0] >= s.matchLen || s.score[1] >= s.matchLen) {
		t.Fatalf("%s: playing on after the match", s)
	}
	if s.MatchOver() && s.MatchWinner() == game.NoWinner {
		t.Fatalf("%s: match over without a winner", s)
	}
	moves := s.LegalMoves()
	if len(moves) == 0 && s.matchLen > 0 && !s.MatchOver() {
		t.Fatalf("%s: no move in an unfinished match", s)
	}
	listed := false
	for _, m := range moves {
		if m.Kind() == KindDouble {
			listed = true
			if s.crawford || s.CubeValue() >= MaxCube {
				t.Fatalf("%s: double listed in the Crawford game or at the limit", s)
			}
		}
	}
	// A double that is not listed is refused (the player may not double
	// now: canDouble says why), as text and as a move.
	if ph := s.Phase(); !listed && s.cubeUse && (ph == PhaseOpening || ph == PhaseRoll) {
		if why := s.canDouble(); why == "" {
			t.Fatalf("%s: no double listed, though canDouble allows one", s)
		}
		if next, err := s.Apply(DoubleMove()); err == nil {
			t.Fatalf("%s: double applied, though %s: %s", s, s.canDouble(), next)
		}
	}
}
