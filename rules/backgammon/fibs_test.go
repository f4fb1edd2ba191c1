package backgammon

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"
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
			if s.Lossless(FormatFIBS) {
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

// TestFIBSBoardGnubg checks our FIBS boards against the boards gnubg 1.07
// writes ("set output rawboard on", "show board") for the states of the
// XGID corpus (testdata/backgammon/xgid/gnubg-fibs.jsonl.gz, made by
// gnubg-fibs.py), gnubg's "You" being its player 1, our Black:
//
//   - our reading of gnubg's board has every bit of the Position ID and
//     Match ID of the state gnubg holds (our reading of the XGID, the offer
//     of a double removed as gnubg steps back to it), but for what a FIBS
//     board cannot hold: the Jacoby flag (read as off), beavers (none) and
//     a money game without the cube (read with the cube);
//   - our board written from Black's side, names "root" and "gnubg", has
//     gnubg's numbers in every field but those where gnubg departs from the
//     protocol's description: the match length of money play (gnubg 0, the
//     protocol 9999), the dice of the player not on roll (gnubg repeats the
//     roll; the protocol has that player's own, 0 0), the checkers on the
//     bar (gnubg 0; the protocol the count, also in the board), can move
//     (gnubg 0; the protocol the number of dice to play) and redoubles
//     (gnubg 1 except in the Crawford game; the protocol the number of
//     instant redoubles, 0 without them).
func TestFIBSBoardGnubg(t *testing.T) {
	type row struct{ XGID, Board string }
	rows := oracle.JSONL[row](t, "backgammon/xgid/gnubg-fibs.jsonl.gz")
	if len(rows) < 2000 {
		t.Fatalf("only %d rows", len(rows))
	}
	gnubgDeparts := map[int]bool{fbMatch: true, fbDice: true, fbDice + 1: true, fbOppDice: true, fbOppDice + 1: true,
		fbOnBar: true, fbOnBar + 1: true, 47 + 1: true, 51: true}
	bitsAgree, fieldsAgree, fields := 0, 0, 0
	differ := map[string]int{}
	for i, r := range rows {
		s, err := ParseXGID(r.XGID)
		if err != nil {
			t.Fatalf("row %d: ParseXGID(%s) = %v", i, r.XGID, err)
		}
		s.doubled, s.actor = false, s.turn // gnubg steps back to the offer
		got, err := ParseFIBSBoard(r.Board)
		if err != nil {
			t.Fatalf("row %d: ParseFIBSBoard(%s) = %v", i, r.Board, err)
		}
		want := s
		want.jacoby, want.beavers, want.cubeUse = false, false, true
		if got != want {
			t.Errorf("row %d: %s: gnubg writes %s, which we read as %s, want %s", i, r.XGID, r.Board, got, want)
		}
		bitsAgree += xgidBits(t, got.PositionID()+":"+got.MatchID(), want.PositionID()+":"+want.MatchID())
		ours := strings.Split(s.FIBSBoard(Black, "root", "gnubg"), ":")[1:]
		theirs := strings.Split(r.Board, ":")[1:]
		for k := range theirs {
			fields++
			if ours[k] == theirs[k] {
				fieldsAgree++
				continue
			}
			differ[fibsFields[k]]++
			if !gnubgDeparts[k] {
				t.Errorf("row %d: %s: %s is %s, gnubg writes %s\nours  %s\ngnubg %s", i, r.XGID, fibsFields[k], ours[k], theirs[k], s.FIBSBoard(Black, "root", "gnubg"), r.Board)
			}
		}
	}
	t.Logf("%d gnubg boards read: %d of %d bits of the IDs agree; our boards: %d of %d fields agree, the rest where gnubg departs from the protocol: %v",
		len(rows), bitsAgree, len(rows)*152, fieldsAgree, fields, differ)
}
