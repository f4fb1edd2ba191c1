package backgammon

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// TestCubePlayouts plays random money games and matches with random cube
// and resignation decisions and checks every invariant at every step: the
// text form and the typed Position round-trip, every listed move applies and
// its notation parses back to it, the stake in the score is the game's
// points at the end, no double is listed in the Crawford game or beyond the
// cube limit, and a match ends exactly when a player reaches its length.
// GAMERULES_LONG=1 plays 20 times as many.
func TestCubePlayouts(t *testing.T) {
	n := 150
	if long() {
		n *= 20
	}
	r := rand.New(rand.NewPCG(12, 2026))
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
	for k := 0; k < n; k++ {
		var o Options
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
		games := 0
		for ply := 0; ; ply++ {
			if ply > 20000 {
				t.Fatalf("options %+v: no end after %d plies", o, ply)
			}
			checkCubeInvariants(t, s)
			if id := s.PositionID() + ":" + s.MatchID(); dump != "" && !seen[id] && s.Phase() != PhaseOpening {
				seen[id] = true
				ids = append(ids, id)
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				if s.matchLen > 0 && !s.MatchOver() {
					t.Fatalf("%s: no move in an unfinished match", s)
				}
				break
			}
			var m Move
			switch s.Phase() {
			case PhaseOpening, PhaseRoll:
				if moves[len(moves)-1].Kind() >= KindDouble && r.IntN(8) == 0 {
					m = moves[21+r.IntN(len(moves)-21)] // a decision
					if m.Kind() == KindResign && r.IntN(8) != 0 {
						m = DoubleMove()
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
			if parsed, err := ParseMove(s, m.String()); err != nil || parsed != m {
				if m.Kind() != KindDouble || s.canDouble() == "" {
					t.Fatalf("%s: ParseMove(%q) = %v, %v", s, m, parsed, err)
				}
			}
			next, err := s.Apply(m)
			if m.Kind() == KindDouble && s.canDouble() != "" {
				if err == nil {
					t.Fatalf("%s: double applied, though %s", s, s.canDouble())
				}
				m, _ = RollDice(s, r)
				next, err = s.Apply(m)
			}
			if err != nil {
				t.Fatalf("%s: Apply(%s) = %v", s, m, err)
			}
			stats[m.Kind().String()]++
			if next.Phase() == PhaseOver && s.Phase() != PhaseOver {
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
			}
			s = next
		}
		if s.matchLen > 0 && !s.MatchOver() || games == 0 {
			t.Fatalf("options %+v: ended at %s after %d games", o, s, games)
		}
	}
	t.Logf("%d playouts: %v", n, stats)
}

func checkCubeInvariants(t *testing.T, s State) {
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
	for _, m := range s.LegalMoves() {
		if m.Kind() == KindDouble && (s.crawford || s.CubeValue() >= MaxCube) {
			t.Fatalf("%s: double listed in the Crawford game or at the limit", s)
		}
	}
}
