package backgammon

import (
	"sort"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// oracleRow is one line of testdata/backgammon/gnubg-*.jsonl.gz: gnubg 1.07's
// complete list of legal plays for a position and roll (testdata/README.md).
type oracleRow struct {
	ID           int      `json:"id"`
	PositionID   string   `json:"position_id"`
	Board        *Board   `json:"board"`
	PlayerOnRoll int      `json:"player_on_roll"`
	Dice         [2]int   `json:"dice"`
	Tags         []string `json:"tags"`
	Count        int      `json:"count"`
	MaxDiceUsed  int      `json:"max_dice_used"`
	Moves        []string `json:"moves"`
	Details      []struct {
		Move     string `json:"move"`
		Gnubg    string `json:"gnubg"`
		ResultID string `json:"result_id"`
		NextID   string `json:"next_id"`
	} `json:"details"`
}

func loadOracle(t testing.TB, name string) []oracleRow {
	t.Helper()
	return oracle.JSONL[oracleRow](t, "backgammon/"+name)
}

func allOracleRows(t testing.TB) map[string][]oracleRow {
	return map[string][]oracleRow{
		"curated": loadOracle(t, "gnubg-curated.jsonl.gz"),
		"random":  loadOracle(t, "gnubg-random.jsonl.gz"),
	}
}

// oracleState is the row's position with the player on roll to play the dice.
func oracleState(t testing.TB, r *oracleRow) State {
	t.Helper()
	if r.Board != nil {
		s, err := FromBoard(*r.Board, r.PlayerOnRoll, PhaseMove, r.Dice[0], r.Dice[1])
		if err != nil {
			t.Fatalf("row %d: FromBoard = %v", r.ID, err)
		}
		if got := s.PositionID(); got != r.PositionID {
			t.Fatalf("row %d: FromBoard(...).PositionID() = %s; want %s", r.ID, got, r.PositionID)
		}
		return s
	}
	s, err := FromPositionID(r.PositionID, White, PhaseMove, r.Dice[0], r.Dice[1])
	if err != nil {
		t.Fatalf("row %d: FromPositionID(%s) = %v", r.ID, r.PositionID, err)
	}
	return s
}

// TestOracle checks every oracle position: the set of Position IDs after our
// legal plays equals gnubg's next_id set (and so does the count), each play's
// result_id (the mover's view) matches, and gnubg's own notation and the
// step-by-step form both parse, apply and lead to next_id.
func TestOracle(t *testing.T) {
	total := 0
	for name, rows := range allOracleRows(t) {
		if len(rows) < 100 {
			t.Fatalf("%s: only %d rows", name, len(rows))
		}
		for i := range rows {
			r := &rows[i]
			s := oracleState(t, r)
			if got := s.PositionID(); got != r.PositionID {
				t.Fatalf("%s row %d: PositionID() = %s; want %s", name, r.ID, got, r.PositionID)
			}
			moves := s.LegalMoves()
			if r.Count == 0 {
				if len(moves) != 1 || moves[0] != PassMove() {
					t.Errorf("%s row %d %s %v: LegalMoves = %v; want [pass]", name, r.ID, r.PositionID, r.Dice, moves)
					continue
				}
				next, err := s.Apply(moves[0])
				if err != nil {
					t.Fatalf("%s row %d: Apply(pass) = %v", name, r.ID, err)
				}
				if next.Board() != s.Board() || next.Turn() == s.Turn() || next.Phase() != PhaseRoll {
					t.Errorf("%s row %d: Apply(pass) = %s; want the same board, opponent to roll", name, r.ID, next)
				}
				total++
				continue
			}
			byID := map[string]Move{}
			var got []string
			for _, m := range moves {
				next := s.play(m) // m comes from LegalMoves; Apply is checked below
				byID[next.PositionID()] = m
				got = append(got, next.PositionID())
			}
			var want []string
			for _, d := range r.Details {
				want = append(want, d.NextID)
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s row %d %s dice %v: %d plays %v;\n want %d %v\n got next IDs  %v\n want next IDs %v",
					name, r.ID, r.PositionID, r.Dice, len(moves), moves, r.Count, r.Moves, got, want)
				continue
			}
			if len(moves) != r.Count {
				t.Errorf("%s row %d: %d plays; want %d", name, r.ID, len(moves), r.Count)
			}
			for k, d := range r.Details {
				// gnubg's notation through ParseMove and Apply.
				m, err := ParseMove(s, d.Gnubg)
				if err != nil {
					t.Errorf("%s row %d %s %v: ParseMove(%q) = %v", name, r.ID, r.PositionID, r.Dice, d.Gnubg, err)
					continue
				}
				next, err := s.Apply(m)
				if err != nil {
					t.Fatalf("%s row %d: Apply(%s) = %v", name, r.ID, m, err)
				}
				if next.PositionID() != d.NextID {
					t.Errorf("%s row %d %s %v: %q -> %s gives %s; want %s", name, r.ID, r.PositionID, r.Dice, d.Gnubg, m, next.PositionID(), d.NextID)
				}
				mover := next
				mover.turn = s.turn
				if mover.PositionID() != d.ResultID {
					t.Errorf("%s row %d: %q: result from the mover's side %s; want %s", name, r.ID, d.Gnubg, mover.PositionID(), d.ResultID)
				}
				if next.Phase() == PhaseOver && next.Turn() == s.Turn() {
					t.Errorf("%s row %d: %q: the finished state is not written from the loser's side", name, r.ID, d.Gnubg)
				}
				// The oracle's step-by-step form reads as the same play
				// (every play of every 4th row under -race, which is slow).
				if rulestest.RaceEnabled && (i%4 != 0 || k > 20) {
					total++
					continue
				}
				m2, err := ParseMove(s, d.Move)
				if err != nil || m2 != byID[d.NextID] || m != m2 {
					t.Errorf("%s row %d %s %v: ParseMove(%q) = %v, %v; ParseMove(%q) = %v; want %v", name, r.ID, r.PositionID, r.Dice, d.Move, m2, err, d.Gnubg, m, byID[d.NextID])
				}
				total++
			}
		}
	}
	t.Logf("%d plays checked", total)
}
