package render

import (
	"fmt"
	"strings"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// Boards as text: one function per game (BackgammonText, AbaloneText,
// LabyrinthText, GravityTrapText), each taking the same State and Options
// as the SVG function and returning plain text (ASCII, lines ending in
// "\n") that a terminal or a language model can read. Options are checked
// exactly as the SVG functions check them (the same *OptionError for the
// same bad value, so one request can ask for either format); Size and
// HideCoordinates do not apply to text except where a function says so.
// The output is deterministic.

// BackgammonText writes s as gnubg 1.07's "show board" does, byte for byte
// for the board itself (golden tests compare it with gnubg's own output):
// the Position ID and Match ID, the 24 points with up to five checkers
// shown per point (a sixth and more as a count, "6".."9", "A".."F"), the
// bar in the middle column, borne-off checkers in the right-hand column,
// White as O (gnubg's player 0) and Black as X, and on the right the
// players' names and scores ("O: White", "0 points"), the dice ("Rolled
// 31") or "On roll" beside the player on roll, the cube ("(Cube: 1)" in
// the middle, "X: Black (Cube: 2)" when owned, "Cube offered at 4"), the
// match length ("7 points match") and a pending resignation (", resigns
// gammon"). As in gnubg the points are numbered from the side of the player
// on roll (Options.Side chooses another side: only the numbers and the
// "v"/"^" arrow change, as in gnubg the board itself does not turn). Two
// lines follow that gnubg's board lacks: the pip counts ("Pip counts: O
// 167, X 167") and what is to be done, as the SVG's status line says it.
//
// Options.From, To and Marks are checked as Backgammon checks them but not
// drawn: gnubg's layout has no room for them. Errors are *OptionError.
func BackgammonText(s backgammon.State, o Options) (string, error) {
	if _, err := checkCommon(o, 2, false); err != nil {
		return "", err
	}
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v != "" && !bgValidPoint(f.v) {
			return "", optErr(f.field, "%q is not a point; want 1..24, bar or off", f.v)
		}
	}
	if _, _, err := checkMarks(o, bgLocate); err != nil {
		return "", err
	}
	side := s.OnRoll()
	if o.HasSide {
		side = o.Side
	}
	// gnubg's board: an[0] is O's (White's) checkers, an[1] X's (Black's),
	// each indexed from its own side (0 = its 1-point, 24 = its bar).
	var an [2][25]int
	for p := 0; p < 2; p++ {
		for i := 0; i < 24; i++ {
			an[p][i] = s.Checkers(p, i+1)
		}
		an[p][24] = s.Checkers(p, backgammon.Bar)
	}
	var asz [7]string
	name := [2]string{"White", "Black"}
	asz[0], asz[6] = "O: "+name[0], "X: "+name[1]
	w, b := s.Score()
	asz[1], asz[5] = pointsText(w), pointsText(b)
	matchLen := s.MatchLength()
	if s.DoubleOffered() {
		asz[2+2*s.Turn()] = fmt.Sprintf("Cube offered at %d", 2*s.CubeValue())
	} else {
		var sz string
		if d1, d2 := s.Dice(); d1 > 0 {
			sz = fmt.Sprintf("Rolled %d%d", d1, d2)
		} else if !s.Board().Finished() {
			sz = "On roll"
		}
		if r := s.Resignation(); r > 0 {
			sz += ", resigns " + [...]string{"single game", "gammon", "backgammon"}[r-1]
		}
		asz[2+2*s.OnRoll()] = sz
		if owner := s.CubeOwner(); owner < 0 {
			asz[3] = fmt.Sprintf("(Cube: %d)", s.CubeValue())
			if matchLen > 0 {
				asz[3] = matchText(matchLen) + " " + asz[3]
			}
		} else {
			asz[6*owner] = fmt.Sprintf("%c: %s (Cube: %d)", "OX"[owner], name[owner], s.CubeValue())
			if matchLen > 0 {
				asz[3] = matchText(matchLen)
			}
		}
	}
	var t strings.Builder
	drawGnubgBoard(&t, &an, side == backgammon.Black, &asz, s.PositionID(), s.MatchID())
	fmt.Fprintf(&t, "Pip counts: O %d, X %d\n%s\n", s.Pips(0), s.Pips(1), bgStatus(s))
	return t.String(), nil
}

func pointsText(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

func matchText(n int) string {
	if n == 1 {
		return "1 point match"
	}
	return fmt.Sprintf("%d points match", n)
}

// drawGnubgBoard is gnubg's DrawBoardStd (drawboard.c): the board with X's
// home at the bottom right, numbered from X's side when fRoll, else from
// O's; asz are the seven texts of the right-hand column (top to bottom:
// O's name, O's score, O's roll, the cube, X's roll, X's score, X's name).
func drawGnubgBoard(t *strings.Builder, an *[2][25]int, fRoll bool, asz *[7]string, posID, matchID string) {
	const achX, achO = "     X6789ABCDEF", "     O6789ABCDEF"
	offO, offX := 15, 15
	for x := 0; x < 25; x++ {
		offO -= an[0][x]
		offX -= an[1][x]
	}
	// A count of 16 or more (impossible with 15 checkers) is drawn as gnubg's
	// table would be indexed: clamp it so that bad input cannot panic.
	ch := func(tab string, n int) byte { return tab[min(max(n, 0), 15)] }
	cell := func(x int) byte {
		if an[1][x] > 0 {
			return ch(achX, an[1][x])
		}
		return ch(achO, an[0][23-x])
	}
	stack := func(x, y int) byte {
		switch {
		case an[1][x] > y:
			return 'X'
		case an[0][23-x] > y:
			return 'O'
		}
		return ' '
	}
	off := func(n, y int, c byte) {
		for x := 0; x < 3; x++ {
			if n > 5*x+y {
				t.WriteByte(c)
			} else {
				t.WriteByte(' ')
			}
		}
	}
	top, bottom := " +13-14-15-16-17-18------19-20-21-22-23-24-+     ", " +12-11-10--9--8--7-------6--5--4--3--2--1-+     "
	arrow := byte('v')
	if !fRoll {
		top, bottom, arrow = bottom, top, '^'
	}
	t.WriteString(" GNU Backgammon  Position ID: " + posID + "\n")
	t.WriteString("                 Match ID   : " + matchID + "\n")
	t.WriteString(top + asz[0] + "\n")
	for y := 0; y < 4; y++ {
		t.WriteString(" |")
		for x := 12; x < 18; x++ {
			t.WriteByte(' ')
			t.WriteByte(stack(x, y))
			t.WriteByte(' ')
		}
		t.WriteString("| ")
		t.WriteByte(map[bool]byte{true: 'O', false: ' '}[an[0][24] > y])
		t.WriteString(" |")
		for x := 18; x < 24; x++ {
			t.WriteByte(' ')
			t.WriteByte(stack(x, y))
			t.WriteByte(' ')
		}
		t.WriteString("| ")
		off(offO, y, 'O')
		t.WriteByte(' ')
		if y < 2 {
			t.WriteString(asz[y+1])
		}
		t.WriteByte('\n')
	}
	t.WriteString(" |")
	for x := 12; x < 18; x++ {
		t.WriteByte(' ')
		t.WriteByte(cell(x))
		t.WriteByte(' ')
	}
	t.WriteString("| ")
	t.WriteByte(ch(achO, an[0][24]))
	t.WriteString(" |")
	for x := 18; x < 24; x++ {
		t.WriteByte(' ')
		t.WriteByte(cell(x))
		t.WriteByte(' ')
	}
	t.WriteString("| ")
	off(offO, 4, 'O')
	t.WriteByte('\n')
	t.WriteByte(arrow)
	t.WriteString("|                  |BAR|                  |     " + asz[3] + "\n")
	t.WriteString(" |")
	for x := 11; x > 5; x-- {
		t.WriteByte(' ')
		t.WriteByte(cell(x))
		t.WriteByte(' ')
	}
	t.WriteString("| ")
	t.WriteByte(ch(achX, an[1][24]))
	t.WriteString(" |")
	for x := 5; x >= 0; x-- {
		t.WriteByte(' ')
		t.WriteByte(cell(x))
		t.WriteByte(' ')
	}
	t.WriteString("| ")
	off(offX, 4, 'X')
	t.WriteByte('\n')
	for y := 3; y >= 0; y-- {
		t.WriteString(" |")
		for x := 11; x > 5; x-- {
			t.WriteByte(' ')
			t.WriteByte(stack(x, y))
			t.WriteByte(' ')
		}
		t.WriteString("| ")
		t.WriteByte(map[bool]byte{true: 'X', false: ' '}[an[1][24] > y])
		t.WriteString(" |")
		for x := 5; x >= 0; x-- {
			t.WriteByte(' ')
			t.WriteByte(stack(x, y))
			t.WriteByte(' ')
		}
		t.WriteString("| ")
		off(offX, y, 'X')
		t.WriteByte(' ')
		if y < 2 {
			t.WriteString(asz[5-y])
		}
		t.WriteByte('\n')
	}
	t.WriteString(bottom + asz[6] + "\n")
}
