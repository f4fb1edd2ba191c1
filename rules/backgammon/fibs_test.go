package backgammon

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// TestFIBSBoardExamples reads hand-checked boards: the example of the FIBS
// client protocol's board state description, and boards gnubg 1.07 writes
// ("set output rawboard on", "show board") for known XGIDs.
func TestFIBSBoardExamples(t *testing.T) {
	for _, c := range []struct{ board, want string }{
		// The protocol description's example: "You" are O (colour 1,
		// direction -1) to play 6-2 in a 3-point match at 0-0, the start
		// position, the cube in the middle; O is Black: Black to play 6-2.
		// gnubg 1.07 reads the same as
		// XGID=-b----E-C---eE---c-e----B-:0:0:1:62:0:0:0:3:10 (set xgid).
		{"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0",
			"4HPwATDgc/ABMA:cAlrAAAAAAAE"},
		// The same board as someplayer (X, White) sees it: the board
		// numbers are the same, the player's fields change places.
		{"board:someplayer:You:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:6:2:1:1:1:0:-1:1:25:0:0:0:0:0:0:0:0:0",
			"4HPwATDgc/ABMA:cAlrAAAAAAAE"},
	} {
		s, err := ParseFIBSBoard(c.board)
		if err != nil {
			t.Fatalf("ParseFIBSBoard(%s) = %v", c.board, err)
		}
		if s.PositionID()+":"+s.MatchID() != c.want {
			t.Errorf("ParseFIBSBoard(%s) = %s, want %s", c.board, s, c.want)
		}
		// Our writer writes the same board from the same side.
		you, name, opp := Black, "You", "someplayer"
		if c.board[6] == 's' {
			you, name, opp = White, opp, name
		}
		if w := s.FIBSBoard(you, name, opp); w != c.board {
			t.Errorf("FIBSBoard(%d) = %s, want %s", you, w, c.board)
		}
		if a, err := ParseAnyState(c.board); err != nil || a != s {
			t.Errorf("ParseAnyState(%s) = %v, %v", c.board, a, err)
		}
	}
	for _, c := range []struct{ board, field string }{
		{"board:a:b:3:0:0", "52 fields"},
		{"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:2:-1:0:25:0:0:0:0:2:0:0:0", "color"},
		{"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:3:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0", "cube"},
		{"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:7:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0", "player's die"},
		{"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:1:0:0:0:2:0:0:0", "player's checkers off"},
		{"board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:x:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0", "turn"},
	} {
		_, err := ParseFIBSBoard(c.board)
		if err == nil || !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("ParseFIBSBoard(%s) = %v; want an invalid state naming %q", c.board, err, c.field)
		}
	}
}

// TestFIBSBoardRoundTrip: every state of random games and matches, written
// as a FIBS board from either side and read back, is itself when a FIBS
// board can hold it, and otherwise keeps the board, the dice owner, the
// score and the cube.
func TestFIBSBoardRoundTrip(t *testing.T) {
	n := 60
	if long() {
		n *= 20
	}
	whole, lossy := 0, 0
	xgidPlayouts(t, n, 32, func(s State) {
		for you := 0; you < 2; you++ {
			x := s.FIBSBoard(you, "", "")
			got, err := ParseFIBSBoard(x)
			if err != nil && s.phase == PhaseOver && s.end != endBorneOff {
				lossy++ // a game won by a drop or a resignation
				continue
			}
			if err != nil {
				t.Fatalf("%s: ParseFIBSBoard(%s) = %v", s, x, err)
			}
			if again, err := ParseFIBSBoard(got.FIBSBoard(you, "", "")); err != nil || again != got {
				t.Fatalf("%s: %s reads as %s, which reads back as %v, %v", s, x, got, again, err)
			}
			if fibsHolds(s) {
				whole++
				if got != s {
					t.Fatalf("%s: %s reads back as %s", s, x, got)
				}
				continue
			}
			lossy++
			if got.board != s.board || got.turn != s.turn || got.score != s.score || got.cubeLog != s.cubeLog || got.owner != s.owner || got.matchLen != s.matchLen {
				t.Fatalf("%s: %s reads back as %s", s, x, got)
			}
		}
	})
	t.Logf("%d boards held whole, %d with documented losses", whole, lossy)
	if whole < 1000 || lossy == 0 {
		t.Fatalf("too few states: %d whole, %d lossy", whole, lossy)
	}
}

// fibsHolds reports whether a FIBS board holds s whole.
func fibsHolds(s State) bool {
	switch {
	case s.phase == PhaseOpening, s.resign != 0, s.beavers, s.jacoby, !s.cubeUse:
		return false
	case s.phase == PhaseOver:
		return s.end == endBorneOff && !s.doubled && !s.crawford
	}
	return true
}
