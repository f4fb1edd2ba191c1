package abalone

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// Padding keeps both sides at the legal 8..14 marbles while a test's action
// happens on rows E..I: Black A1–A5, B1–B3; White B4–B6, C2–C7 (9, so
// that one marble pushed off does not end the game).
const (
	padBlack = "a1 a2 a3 a4 a5 b1 b2 b3"
	padWhite = "b4 b5 b6 c2 c3 c4 c5 c6 c7"
)

// setup builds a position from space-separated cell lists (with padding
// added) and the side to move.
func setup(t testing.TB, black, white string, toMove int) State {
	t.Helper()
	var p Position
	for _, n := range strings.Fields(padBlack + " " + black) {
		c, err := ParseCell(n)
		if err != nil {
			t.Fatal(err)
		}
		p.Black = append(p.Black, c)
	}
	for _, n := range strings.Fields(padWhite + " " + white) {
		c, err := ParseCell(n)
		if err != nil {
			t.Fatal(err)
		}
		p.White = append(p.White, c)
	}
	p.ToMove = toMove
	s, err := FromPosition(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// moveTests are hand-checked moves: the position (beyond the padding), the
// move text, and either the marbles after it or the error.
var moveTests = []struct {
	name         string
	black, white string
	move         string
	// On success: the action cells after the move (padding unchanged).
	afterBlack, afterWhite string
	// On failure: a substring of the message and whether it is a *game.ParseError.
	err   string
	parse bool
}{
	{name: "single marble", black: "e1", move: "e1e2", afterBlack: "e2"},
	{name: "single marble, upper case", black: "e1", move: "E1E2", afterBlack: "e2"},
	{name: "spaces around", black: "e1", move: " e1f2 ", afterBlack: "f2"},
	{name: "two in line", black: "e1 e2", move: "e1e2", afterBlack: "e2 e3"},
	{name: "three in line", black: "e1 e2 e3", move: "e1e2", afterBlack: "e2 e3 e4"},
	{name: "three in line backwards", black: "e2 e3 e4", move: "e4e3", afterBlack: "e1 e2 e3"},
	{name: "sumito 2-1", black: "e1 e2", white: "e3", move: "e1e2", afterBlack: "e2 e3", afterWhite: "e4"},
	{name: "sumito 3-1", black: "e1 e2 e3", white: "e4", move: "e1e2", afterBlack: "e2 e3 e4", afterWhite: "e5"},
	{name: "sumito 3-2", black: "e3 e4 e5", white: "e6 e7", move: "e3e4", afterBlack: "e4 e5 e6", afterWhite: "e7 e8"},
	{name: "ejection 2-1", black: "e7 e8", white: "e9", move: "e7e8", afterBlack: "e8 e9"},
	{name: "ejection 3-1", black: "e6 e7 e8", white: "e9", move: "e6e7", afterBlack: "e7 e8 e9"},
	{name: "ejection 3-2", black: "e5 e6 e7", white: "e8 e9", move: "e5e6", afterBlack: "e6 e7 e8", afterWhite: "e9"},
	{name: "ejection on a diagonal", black: "g7 h8", white: "i9", move: "g7h8", afterBlack: "h8 i9"},
	{name: "push not taken", black: "e1 e2", white: "e3", move: "e2f2", afterBlack: "e1 f2", afterWhite: "e3"},
	{name: "broadside of two", black: "e2 e3", move: "e2e3f3", afterBlack: "f3 f4"},
	{name: "broadside of three", black: "e2 e3 e4", move: "e2e4f3", afterBlack: "f3 f4 f5"},
	{name: "broadside, other end first", black: "e2 e3 e4", move: "e4e2f5", afterBlack: "f3 f4 f5"},
	{name: "broadside, upper case", black: "e2 e3 e4", move: "E4E2F5", afterBlack: "f3 f4 f5"},
	{name: "broadside downwards", black: "f5 g6 h7", move: "f5h7e5", afterBlack: "e5 f6 g7"},
	{name: "broadside on a diagonal", black: "e5 f5 g5", move: "e5g5e6", afterBlack: "e6 f6 g6"},

	{name: "pac 1-1", black: "e1", white: "e2", move: "e1e2", err: "pac: 1 black against 1 white"},
	{name: "pac 2-2", black: "e1 e2", white: "e3 e4", move: "e1e2", err: "pac: 2 black against 2 white"},
	{name: "pac 3-3", black: "e1 e2 e3", white: "e4 e5 e6", move: "e1e2", err: "pac: 3 black against 3 white"},
	{name: "2 cannot push 3", black: "e1 e2", white: "e3 e4 e5", move: "e1e2", err: "2 black cannot push 3 white"},
	{name: "sandwich 3-1", black: "e1 e2 e3 e5", white: "e4", move: "e1e2", err: "sandwich: a black marble on e5"},
	{name: "sandwich 3-2", black: "e1 e2 e3 e6", white: "e4 e5", move: "e1e2", err: "sandwich: a black marble on e6"},
	{name: "sandwich 2-1", black: "e1 e2 e4", white: "e3", move: "e1e2", err: "sandwich"},
	{name: "own marble off", black: "e7 e8 e9", move: "e7e8", err: "off the board"},
	{name: "a move off the board has no notation", black: "e9", move: "e8e9", err: "e8 holds no marble"},
	{name: "four in line", black: "e1 e2 e3 e4", move: "e1e2", err: "more than three black marbles"},
	{name: "four in line, pushing", black: "e1 e2 e3 e4", white: "e5", move: "e1e2", err: "more than three"},
	{name: "empty cell", black: "e1", move: "e2e3", err: "e2 holds no marble"},
	{name: "opponent's marble", black: "i9", white: "e2", move: "e2e3", err: "e2 holds a white marble, not a black one"},
	{name: "broadside into occupied cell", black: "e2 e3 e4", white: "f4", move: "e2e4f3", err: "broadside into f4"},
	{name: "broadside into own marble", black: "e2 e3 e4 f5", move: "e2e4f3", err: "broadside into f5"},
	{name: "broadside off the board", black: "h8 i9", move: "h8i9h9", err: "would move i9 off the board"},
	{name: "broadside with a gap", black: "e2 e4", move: "e2e4f3", err: "e3 holds no marble"},
	{name: "broadside of an opponent", black: "e2", white: "e3", move: "e2e3f3", err: "e3 holds a white marble"},

	{name: "in-line written with three cells", black: "e2 e3 e4", move: "e2e4e3", err: "an in-line move is written with two cells", parse: true},
	{name: "in-line written with three cells, backwards", black: "e2 e3 e4", move: "e4e2e3", err: "along the line", parse: true},
	{name: "ends not in line", black: "e2 e3", move: "e2f4f2", err: "are not the two ends", parse: true},
	{name: "ends too far apart", black: "e2 e3 e4 e5", move: "e2e5f3", err: "are not the two ends", parse: true},
	{name: "ends the same", black: "e2", move: "e2e2f3", err: "are not the two ends", parse: true},
	{name: "not a neighbour", black: "e1", move: "e1e3", err: "e3 is not a neighbour of e1", parse: true},
	{name: "to same as from", black: "e1", move: "e1e1", err: "not a neighbour", parse: true},
	{name: "broadside to not a neighbour", black: "e2 e3", move: "e2e3g4", err: "g4 is not a neighbour of e2", parse: true},
	{name: "not a cell", black: "e1", move: "a6a5", err: `"a6" is not a cell`, parse: true},
	{name: "not a row", black: "e1", move: "e1j1", err: `"j1" is not a cell`, parse: true},
	{name: "too short", black: "e1", move: "e1", err: "want two cells", parse: true},
	{name: "odd length", black: "e1", move: "e1e2e", err: "want two cells", parse: true},
	{name: "empty", move: "", err: "want two cells", parse: true},
	{name: "punctuation", black: "e1", move: "e1-e2", err: "want two cells", parse: true},
}

func TestMoves(t *testing.T) {
	for _, tt := range moveTests {
		t.Run(tt.name, func(t *testing.T) {
			s := setup(t, tt.black, tt.white, Black)
			before := s
			m, err := ParseMove(s, tt.move)
			if tt.err != "" {
				if err == nil {
					t.Fatalf("ParseMove(%q) = %v, nil; want error %q", tt.move, m, tt.err)
				}
				if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "abalone: ") {
					t.Errorf("ParseMove(%q) error = %v; want one wrapping ErrIllegalMove containing %q", tt.move, err, tt.err)
				}
				var pe *game.ParseError
				if errors.As(err, &pe) != tt.parse {
					t.Errorf("ParseMove(%q) error = %T; want *game.ParseError: %v", tt.move, err, tt.parse)
				}
				if s != before {
					t.Errorf("ParseMove changed the state")
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseMove(%q) = %v", tt.move, err)
			}
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("Apply(%v) = %v", m, err)
			}
			want := setup(t, tt.afterBlack, tt.afterWhite, White)
			if next != want {
				t.Errorf("after %s: %s; want %s", tt.move, next, want)
			}
			if s != before {
				t.Errorf("Apply changed its receiver")
			}
			if !containsMove(s.LegalMoves(), m) {
				t.Errorf("LegalMoves() lacks %s", m)
			}
			if back, err := ParseMove(s, m.String()); err != nil || back != m {
				t.Errorf("ParseMove(%q) = %v, %v; want %v", m.String(), back, err, m)
			}
		})
	}
}

func containsMove(ms []Move, m Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func TestMoveString(t *testing.T) {
	c := func(s string) Cell {
		x, err := ParseCell(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	tests := []struct {
		m    Move
		want string
	}{
		{Move{From: c("a1"), To: c("b2")}, "a1b2"},
		{Move{From: c("E2"), To: c("f3"), End: c("e4")}, "e2e4f3"},
		{Move{}, "--"},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("%#v.String() = %q; want %q", tt.m, got, tt.want)
		}
	}
	// Non-canonical Move values are refused by Apply, with the reason.
	s := setup(t, "e2 e3 e4", "", Black)
	bad := []struct {
		m   Move
		err string
	}{
		{Move{From: c("e4"), To: c("f5"), End: c("e2")}, "ends out of order"},
		{Move{From: c("e2"), To: c("f3"), End: c("e2")}, "not the ends of a group"},
		{Move{From: c("e2"), To: c("e3"), End: c("e4")}, "along the group's line"},
		{Move{From: c("e2"), To: c("g3")}, "not a neighbour"},
		{Move{From: 99, To: c("e3")}, "not a neighbour"},
		{Move{}, "not a neighbour"},
	}
	for _, tt := range bad {
		if _, err := s.Apply(tt.m); !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Apply(%#v) = %v; want ErrIllegalMove containing %q", tt.m, err, tt.err)
		}
	}
	// MoveOf puts broadside ends in order.
	if m, err := MoveOf(c("e4"), c("f5"), c("e2")); err != nil || m != (Move{From: c("e2"), To: c("f3"), End: c("e4")}) {
		t.Errorf("MoveOf(e4, f5, e2) = %v, %v; want e2e4f3", m, err)
	}
	if _, err := MoveOf(c("e4"), c("e5"), c("e2")); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("MoveOf(e4, e5, e2) = %v; want ErrIllegalMove", err)
	}
}

func TestParseMoveOffsets(t *testing.T) {
	s, _ := New(Options{})
	tests := []struct {
		in     string
		offset int
	}{
		{"z1b2", 0},
		{"a1b9", 2},
		{"  a1x2", 4},
		{"a1c3", 2},
		{"a1a3j5", 4},
		{"a1e5b1", 2},
		{"a1b2c3", 4},
	}
	for _, tt := range tests {
		_, err := ParseMove(s, tt.in)
		var pe *game.ParseError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || pe.Kind != game.ErrIllegalMove {
			t.Errorf("ParseMove(%q) = %v; want a ParseError at offset %d", tt.in, err, tt.offset)
		}
	}
}

func TestCells(t *testing.T) {
	n := 0
	for r := byte('A'); r <= 'I'; r++ {
		for num := 0; num <= 10; num++ {
			c := CellAt(r, num)
			if c == NoCell {
				continue
			}
			n++
			if c != Cell(n) || c.Row() != r || c.Num() != num {
				t.Errorf("CellAt(%c, %d) = %d (%c%d); want %d", r, num, c, c.Row(), c.Num(), n)
			}
			if back, err := ParseCell(c.String()); err != nil || back != c {
				t.Errorf("ParseCell(%q) = %v, %v", c.String(), back, err)
			}
			// Neighbours are symmetric.
			for d := Direction(0); d < 6; d++ {
				if nbr := c.Neighbor(d); nbr != NoCell && nbr.Neighbor(d.Opposite()) != c {
					t.Errorf("%s.Neighbor(%s) = %s, whose %s neighbour is %s", c, d, nbr, d.Opposite(), nbr.Neighbor(d.Opposite()))
				}
			}
		}
	}
	if n != NumCells {
		t.Fatalf("%d cells; want %d", n, NumCells)
	}
	for _, name := range []string{"a0", "a6", "e10", "f1", "i4", "j5", "", "e", "5e"} {
		if c, err := ParseCell(name); err == nil {
			t.Errorf("ParseCell(%q) = %v; want an error", name, c)
		}
	}
	nbrs := map[string]string{"a1": "a2 b2 b1 - - -", "e5": "e6 f6 f5 e4 d4 d5", "i9": "- - - i8 h8 h9", "e1": "e2 f2 - - - d1"}
	for name, want := range nbrs {
		c, _ := ParseCell(name)
		var got []string
		for d := Direction(0); d < 6; d++ {
			got = append(got, c.Neighbor(d).String())
		}
		if strings.Join(got, " ") != want {
			t.Errorf("neighbours of %s (E NE NW W SW SE) = %v; want %s", name, got, want)
		}
	}
}

func TestTextForm(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"},
		{Options{Layout: BelgianDaisy}, "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b"},
		{Options{Layout: GermanDaisy}, "5/ww2bb/www1bbb/1ww2bb1/9/1bb2ww1/bbb1www/bb2ww/5 b"},
		{Options{MaxPlies: 200}, "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0/200"},
	}
	for _, tt := range tests {
		s, err := New(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.String(); got != tt.want {
			t.Errorf("New(%+v).String() = %q; want %q", tt.opts, got, tt.want)
		}
		back, err := ParseState(tt.want)
		if err != nil || back != s {
			t.Errorf("ParseState(%q) = %v, %v; want %v", tt.want, back, err, s)
		}
	}
	// Upper case and extra spaces are accepted.
	s, err := ParseState("WWWWW/WWWWWW/2WWW2/8/9/8/2BBB2/BBBBBB/BBBBB  W   3/10 ")
	if err != nil || s.String() != "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb w 3/10" {
		t.Errorf("ParseState(upper case) = %v, %v", s, err)
	}
}

func TestParseStateErrors(t *testing.T) {
	tests := []struct {
		in     string
		reason string
		offset int // -1: a Validate error, not a ParseError
	}{
		{"", "row I has 0 cells", 0},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb", "side to move", 43},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb x", `side to move "x"`, 44},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 3", "ply counter", 46},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 3/x", "ply counter", 46},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 03/10", "ply counter", 46},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 11/10", "more than the limit", 46},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0/0", "ply limit 0", 46},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 1/2 x", "side to move (b or w)", 43},
		{"wwwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", "more than 5 cells", 5},
		{"wwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", "row I has 4 cells", 4},
		{"wwwww/wwwwww/2www2/44/9/8/2bbb2/bbbbbb/bbbbb b", "two digits", 20},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb b", "want '/' after row B", 37},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb/ b", "want a space", 43},
		{"wwwww/wwwwww/2wxw2/8/9/8/2bbb2/bbbbbb/bbbbb b", `unexpected 'x' in row G`, 15},
		{"wwwww/wwwwww/2w0w2/8/9/8/2bbb2/bbbbbb/bbbbb b", `unexpected '0'`, 15},
		{"wwwww/wwwwww/2wéw2/8/9/8/2bbb2/bbbbbb/bbbbb b", `unexpected 'é' in row G`, 15},
		{"wwwww/wwwwww/2w\xffw2/8/9/8/2bbb2/bbbbbb/bbbbb b", `unexpected byte 0xff (not UTF-8) in row G`, 15},
		{"5/6/7/8/9/8/7/6/5 b", "black has 0 marbles", -1},
		{"wwwww/wwwwww/www4/8/9/8/2bbb2/bbbbbb/bbbbb b", "white has 14", 99}, // valid: a control row
		{"2www/wwwww1/7/8/9/8/7/bbbb2/bbbb1 b", "both sides have lost six", -1},
		{"wwwww/wwwwww/2www2/8/9/8/7/bbbbb1/bb3 b", "black has 7 marbles", -1},
	}
	for _, tt := range tests {
		s, err := ParseState(tt.in)
		if tt.offset == 99 {
			if err != nil {
				t.Errorf("ParseState(%q) = %v; want a valid state", tt.in, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseState(%q) = %v; want an error %q", tt.in, s, tt.reason)
			continue
		}
		if !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("ParseState(%q) = %v; want ErrInvalidState containing %q", tt.in, err, tt.reason)
		}
		var pe *game.ParseError
		if ok := errors.As(err, &pe); ok != (tt.offset >= 0) || ok && pe.Offset != tt.offset {
			t.Errorf("ParseState(%q) = %#v; want a ParseError at offset %d", tt.in, err, tt.offset)
		}
	}
}

func TestValidate(t *testing.T) {
	c := func(names string) []Cell {
		var out []Cell
		for _, n := range strings.Fields(names) {
			x, err := ParseCell(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, x)
		}
		return out
	}
	eight := "a1 a2 a3 a4 a5 b1 b2 b3"
	nine := eight + " b4"
	whiteEight := "i5 i6 i7 i8 i9 h4 h5 h6"
	whiteNine := whiteEight + " h7"
	tests := []struct {
		p   Position
		err string // "" = valid
	}{
		{Position{Black: c(eight), White: c(whiteNine)}, ""},
		{Position{Black: c(nine), White: c(whiteEight), ToMove: White, Plies: 5, MaxPlies: 5}, ""},
		{Position{Black: c(eight), White: c(whiteEight)}, "both sides have lost six"},
		{Position{Black: c(eight), White: c(whiteNine), ToMove: White}, "black has lost six marbles, so white made the winning push and black is to move, not white"},
		{Position{Black: c(nine), White: c(whiteEight), ToMove: Black}, "white has lost six marbles"},
		{Position{Black: c("a1 a2 a3 a4 a5 b1 b2"), White: c(whiteNine)}, "black has 7 marbles"},
		{Position{Black: c(nine), White: c("i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g3 g4 g5 g6")}, "white has 15 marbles"},
		{Position{Black: c(nine), White: c(whiteEight + " a1")}, "cell a1 is given twice"},
		{Position{Black: c(nine + " b4"), White: c(whiteNine)}, "cell b4 is given twice"},
		{Position{Black: append(c(nine), 62), White: c(whiteNine)}, "cell 62 is not on the board"},
		{Position{Black: append(c(nine), NoCell), White: c(whiteNine)}, "cell 0 is not on the board"},
		{Position{Black: c(nine), White: c(whiteNine), ToMove: 2}, "side to move 2"},
		{Position{Black: c(nine), White: c(whiteNine), Plies: 3}, "without a ply limit"},
		{Position{Black: c(nine), White: c(whiteNine), Plies: 6, MaxPlies: 5}, "more than the limit"},
		{Position{Black: c(nine), White: c(whiteNine), MaxPlies: -1}, "max_plies (the ply limit) -1 out of range"},
		{Position{Black: c(nine), White: c(whiteNine), Plies: MaxPliesLimit + 1, MaxPlies: 10}, "plies (played) 1000001 out of range"},
	}
	for _, tt := range tests {
		s, err := FromPosition(tt.p)
		if tt.err == "" {
			if err != nil {
				t.Errorf("FromPosition(%+v) = %v", tt.p, err)
			} else if got := s.Position(); got.ToMove != tt.p.ToMove || len(got.Black) != len(tt.p.Black) || got.MaxPlies != tt.p.MaxPlies || got.Plies != tt.p.Plies {
				t.Errorf("FromPosition(%+v).Position() = %+v", tt.p, got)
			}
			continue
		}
		if !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("FromPosition(%+v) = %v; want ErrInvalidState containing %q", tt.p, err, tt.err)
		}
	}
	// Broken States built inside the package (as a bad caller of unsafe code
	// or a future bug could) are refused too, and never panic.
	broken := []State{
		{},
		{board: [2]uint64{1<<61 | 0xff, 0xff << 20}},
		{board: [2]uint64{0x3fff, 0x3fff << 13}},
		{board: [2]uint64{0x3fff, 0x3fff << 40}, toMove: 7},
	}
	for _, s := range broken {
		if err := s.Validate(); !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("Validate(%#v) = %v; want ErrInvalidState", s, err)
		}
		if _, err := s.Apply(Move{}); !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("Apply on %#v = %v; want ErrInvalidState", s, err)
		}
		_ = s.LegalMoves()
		_ = s.String()
		_ = s.Outcome()
	}
}

func TestOptions(t *testing.T) {
	a1, _ := ParseCell("a1")
	bad := []Options{
		{Layout: 9},
		{MaxPlies: -1},
		{MaxPlies: MaxPliesLimit + 1},
		{Layout: Classic, Black: []Cell{a1}},
		{Layout: GermanDaisy, ToMove: White},
		{Layout: Custom},
		{Layout: Custom, Black: []Cell{a1, a1}},
	}
	for _, o := range bad {
		if s, err := New(o); !errors.Is(err, game.ErrInvalidOptions) {
			t.Errorf("New(%+v) = %v, %v; want ErrInvalidOptions", o, s, err)
		}
	}
	classic, _ := New(Options{})
	p := classic.Position()
	s, err := New(Options{Layout: Custom, Black: p.Black, White: p.White, ToMove: White, MaxPlies: 30})
	if err != nil || s.String() != "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb w 0/30" {
		t.Errorf("New(custom) = %v, %v", s, err)
	}
	for i, name := range []string{"classic", "belgian_daisy", "german_daisy", "custom"} {
		l, err := ParseLayout(name)
		if err != nil || l != Layout(i) || l.String() != name {
			t.Errorf("ParseLayout(%q) = %v, %v", name, l, err)
		}
	}
	if l, err := ParseLayout(""); err != nil || l != Classic {
		t.Errorf("ParseLayout(\"\") = %v, %v; want classic", l, err)
	}
	if _, err := ParseLayout("belgian"); !errors.Is(err, game.ErrInvalidOptions) {
		t.Errorf("ParseLayout(belgian) = %v; want ErrInvalidOptions", err)
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		state    string
		finished bool
		winner   int
		points   []int
		detail   string
	}{
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", false, game.NoWinner, []int{0, 0}, ""},
		{"wwwww/wwwwww/2ww3/8/9/8/2bbb2/bbbbbb/bbbb1 w", false, game.NoWinner, []int{1, 1}, ""},
		// Black pushed six off (White has 8 left).
		{"wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w", true, Black, []int{6, 1}, "six pushed off"},
		{"wwwww/wwwww1/2ww3/8/9/8/2bbb2/1bbbb1/1b3 b", true, White, []int{2, 6}, "six pushed off"},
		// Ply limit: more pushed off wins; equal is a draw.
		{"wwwww/wwwwww/2ww3/8/9/8/2bbb2/bbbbbb/bbbb1 b 9/10", false, game.NoWinner, []int{1, 1}, ""},
		{"wwwww/wwwwww/2ww3/8/9/8/2bbb2/bbbbbb/bbbb1 b 10/10", true, game.NoWinner, []int{1, 1}, "draw"},
		{"wwwww/wwwwww/2w4/8/9/8/2bbb2/bbbbbb/bbbb1 w 10/10", true, Black, []int{2, 1}, "ply limit"},
		{"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbb2 b 4/4", true, White, []int{0, 2}, "ply limit"},
		// Black (to move) is walled in: no legal move, so Black loses.
		{"bbbbb/wwwwww/7/8/9/8/7/wwwwww/bbbbb b", true, White, []int{2, 4}, "no legal move"},
		// The same with White to move is an ordinary position.
		{"bbbbb/wwwwww/7/8/9/8/7/wwwwww/bbbbb w", false, game.NoWinner, []int{2, 4}, ""},
	}
	for _, tt := range tests {
		s, err := ParseState(tt.state)
		if err != nil {
			t.Fatalf("ParseState(%q) = %v", tt.state, err)
		}
		o := s.Outcome()
		if o.Finished != tt.finished || o.Winner != tt.winner || o.Detail != tt.detail || len(o.Points) != 2 || o.Points[0] != tt.points[0] || o.Points[1] != tt.points[1] {
			t.Errorf("Outcome(%s) = %+v; want finished %v winner %d points %v detail %q", tt.state, o, tt.finished, tt.winner, tt.points, tt.detail)
		}
		moves := s.LegalMoves()
		if (len(moves) == 0) != tt.finished {
			t.Errorf("LegalMoves(%s) has %d moves; finished %v", tt.state, len(moves), tt.finished)
		}
		if tt.finished {
			if _, err := s.Apply(Move{From: CellAt('A', 1), To: CellAt('B', 1)}); !errors.Is(err, game.ErrGameOver) {
				t.Errorf("Apply on finished %s = %v; want ErrGameOver", tt.state, err)
			}
			if _, err := ParseMove(s, "a1b1"); !errors.Is(err, game.ErrGameOver) {
				t.Errorf("ParseMove on finished %s = %v; want ErrGameOver", tt.state, err)
			}
		}
	}
}

// TestPlyLimit plays to a ply limit through Apply.
func TestPlyLimit(t *testing.T) {
	s, err := New(Options{MaxPlies: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"a1b2", "i5h5", "b2c3"} {
		if s.Plies() != i || s.Outcome().Finished {
			t.Fatalf("before ply %d: %s, Outcome %+v", i, s, s.Outcome())
		}
		m, err := ParseMove(s, text)
		if err != nil {
			t.Fatal(err)
		}
		if s, err = s.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if o := s.Outcome(); !o.Finished || o.Detail != "draw" || s.String() != "1wwww/wwwwww/2www2/3w4/4b4/3b4/2bbb2/b1bbbb/1bbbb w 3/3" {
		t.Errorf("after 3 plies with limit 3: %s, Outcome %+v", s, o)
	}
	if moves := s.LegalMoves(); len(moves) != 0 {
		t.Errorf("LegalMoves at the ply limit = %v", moves)
	}
}

func TestInfo(t *testing.T) {
	i := Info()
	if i.ID != "abalone" || i.Name != "Abalone" || !slices.Equal(i.Players, []string{"black", "white"}) || i.MinPlayers != 2 || i.MaxPlayers != 2 || i.HasChance || i.HasHiddenInformation {
		t.Errorf("Info() = %+v", i)
	}
	if MarblesEach != 14 || MarblesToWin != 6 || Classic.String() != "classic" {
		t.Errorf("MarblesEach %d, MarblesToWin %d, Classic %q", MarblesEach, MarblesToWin, Classic)
	}
	i.Players[0] = "changed"
	if Info().Players[0] != "black" {
		t.Errorf("Info().Players shares its array")
	}
}

// TestHugeInputShortError: errors quote at most the first 80 bytes of user
// input (game.Quote), also inside a ParseError's reason, so a megabyte of
// input does not make a megabyte-long error.
func TestHugeInputShortError(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	const rows = "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb "
	_, errLayout := ParseLayout(huge)
	_, errCell := ParseCell(huge)
	_, errSide := ParseState(rows + huge)
	_, errPlies := ParseState(rows + "b 1/" + huge)
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"ParseLayout", errLayout, "unknown layout"},
		{"ParseCell", errCell, "is not a cell"},
		{"ParseState side", errSide, "side to move"},
		{"ParseState plies", errPlies, "ply counter"},
	} {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) || !strings.Contains(tt.err.Error(), "x...") {
			t.Errorf("%s: error %.200v; want one with %q and the input cut to 80 bytes", tt.name, tt.err, tt.want)
		}
		if n := len(tt.err.Error()); n > 400 {
			t.Errorf("%s: error is %d bytes (%.120q...); want the input quoted to 80 bytes", tt.name, n, tt.err.Error())
		}
	}
}
