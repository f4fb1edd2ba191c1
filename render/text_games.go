package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/gravitytrap"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// plain turns a status line of the SVG into ASCII ("·" and "—" become
// commas and hyphens, any other non-ASCII rune "?").
func plain(s string) string {
	s = strings.NewReplacer(" · ", ", ", "·", ",", "—", "-", "–", "-", "×", "x").Replace(s)
	return strings.Map(func(r rune) rune {
		if r > 126 {
			return '?'
		}
		return r
	}, s)
}

// AbaloneText writes s as the hexagon of its nine rows, the way Abalone
// programs print a board: row I at the top and A at the bottom (Options.Side
// 1 turns it half a turn, A at the top, as the SVG does), each row indented
// so that neighbours touch diagonally, "B" a black marble, "W" a white one,
// "." an empty cell; the row letters on the left and the diagonal numbers
// 1..9 along the lower edge (left out with Options.HideCoordinates). The
// cells Options.From and To name are written in lower case ("b", "w", or
// "*" when empty). Then each side's marbles and the marbles it has lost,
// and whose turn it is (with the ply when there is a ply limit) or the
// result. Example (the classic start, Black to move):
//
//	    I W W W W W
//	   H W W W W W W
//	  G . . W W W . .
//	 F . . . . . . . .
//	E . . . . . . . . .
//	 D . . . . . . . . 9
//	  C . . B B B . . 8
//	   B B B B B B B 7
//	    A B B B B B 6
//	       1 2 3 4 5
//
// Marks are checked as Abalone checks them but not drawn. Errors are
// *OptionError.
func AbaloneText(s abalone.State, o Options) (string, error) {
	if _, err := checkCommon(o, 2, false); err != nil {
		return "", err
	}
	hl := map[abalone.Cell]bool{}
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v == "" {
			continue
		}
		c, err := abalone.ParseCell(f.v)
		if err != nil {
			return "", optErr(f.field, "%q is not a cell; want a1..i9 on the board", f.v)
		}
		hl[c] = true
	}
	if _, _, err := checkMarks(o, func(name string) markBox {
		c, err := abalone.ParseCell(name)
		if err != nil {
			return markBox{wantFormat: "a cell a1..i9 on the board"}
		}
		return markBox{name: c.String(), valid: true}
	}); err != nil {
		return "", err
	}
	coords := !o.HideCoordinates
	// cells of row r (0 = A): numbers lo..hi.
	span := func(r int) (lo, hi int) {
		if r <= 4 {
			return 1, 5 + r
		}
		return r - 3, 9
	}
	var lines []string
	for r := 8; r >= 0; r-- {
		var t strings.Builder
		lo, hi := span(r)
		indent := r - 4
		if indent < 0 {
			indent = -indent
		}
		t.WriteString(strings.Repeat(" ", indent))
		if coords {
			t.WriteByte(byte('A' + r))
		}
		for n := lo; n <= hi; n++ {
			if coords || n > lo {
				t.WriteByte(' ')
			}
			c := abalone.CellAt(byte('A'+r), n)
			ch := byte('.')
			switch s.At(c) {
			case 0:
				ch = 'B'
			case 1:
				ch = 'W'
			}
			if hl[c] {
				ch = map[byte]byte{'.': '*', 'B': 'b', 'W': 'w'}[ch]
			}
			t.WriteByte(ch)
		}
		// The diagonals 6..9 are numbered where rows D..A would go on.
		if coords && r < 4 {
			fmt.Fprintf(&t, " %d", 6+r)
		}
		lines = append(lines, t.String())
	}
	if coords {
		lines = append(lines, "       1 2 3 4 5")
	}
	if o.HasSide && o.Side == 1 {
		// Half a turn: every line reversed, the last first.
		width := 0
		for _, l := range lines {
			width = max(width, len(l))
		}
		turned := make([]string, len(lines))
		for i, l := range lines {
			b := []byte(l + strings.Repeat(" ", width-len(l)))
			for x, y := 0, len(b)-1; x < y; x, y = x+1, y-1 {
				b[x], b[y] = b[y], b[x]
			}
			turned[len(lines)-1-i] = strings.TrimRight(string(b), " ")
		}
		lines = turned
	}
	var t strings.Builder
	for _, l := range lines {
		t.WriteString(l + "\n")
	}
	names := [2]string{"Black", "White"}
	for p := 0; p < 2; p++ {
		fmt.Fprintf(&t, "%s (%c): %d marbles, lost %d\n", names[p], "BW"[p], s.Marbles(p), s.Lost(p))
	}
	status := names[s.ToMove()] + " to move"
	if out := s.Outcome(); out.Finished {
		status = "Draw"
		if out.Winner >= 0 {
			status = names[out.Winner] + " wins"
		}
		if out.Detail != "" {
			status += " (" + out.Detail + ")"
		}
	} else if s.MaxPlies() > 0 {
		status += fmt.Sprintf(", ply %d of %d", s.Plies()+1, s.MaxPlies())
	}
	t.WriteString(plain(status) + "\n")
	return t.String(), nil
}

// LabyrinthText writes s as the 7×7 tiles, each five characters wide and
// three high: "#" for walls, blanks for corridors, and in the middle line
// the tile's target letter (A..X; "*" for the tile with the Darth Vader
// symbol) then the figures on it: each ship by its colour's initial in
// lower case (r, y, g, b) and Darth Vader as "V" (more than three figures
// than fit beside the letter: the first ones and "+"). Rows 1..7 are numbered on the left
// and columns on top (left out with Options.HideCoordinates); the twelve
// insertion points are arrows around the board ("v" above N2, N4, N6, "<"
// right of E2.., "^" below S2.., ">" left of W2..), the one that would
// reverse the previous push shown as "x". Below: the spare tile in its
// orientation, whose turn and what to do, and per player his colour, ship
// square, cards found and current target. Options.HasSide shows only what
// that player may see (State.View), as the SVG does. From, To and Marks
// are checked as Labyrinth checks them but not drawn. Errors are
// *OptionError.
func LabyrinthText(s labyrinth.State, o Options) (string, error) {
	if _, err := checkCommon(o, s.Players(), true); err != nil {
		return "", err
	}
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v != "" && !lbValidName(f.v) {
			return "", optErr(f.field, "%q is not a square (r1c1..r7c7) or an insertion point (N2..W6)", f.v)
		}
	}
	if o.HasSide {
		s = s.View(o.Side)
	}
	if _, _, err := checkMarks(o, lbLocate); err != nil {
		return "", err
	}
	coords := !o.HideCoordinates
	figures := map[labyrinth.Square][]byte{}
	for p := 0; p < s.Players(); p++ {
		if q, c := s.Ship(p), s.Color(p); q.Valid() && int(c) < labyrinth.NumColors {
			figures[q] = append(figures[q], c.String()[0])
		}
	}
	if v := s.Vader(); v.Valid() {
		figures[v] = append(figures[v], 'V')
	}
	// tile returns the three lines of a tile with figs on it.
	tile := func(tl labyrinth.Tile, figs []byte) [3]string {
		open := func(side uint8) bool { return tl.Sides&side != 0 }
		wall := func(side uint8, o, c string) string {
			if open(side) {
				return o
			}
			return c
		}
		mid := []byte{' ', ' ', ' '}
		room := mid
		switch {
		case tl.Target != 0:
			mid[0], room = labyrinth.TargetLetter(tl.Target), mid[1:]
		case tl.Vader:
			mid[0], room = '*', mid[1:]
		}
		if len(figs) > len(room) {
			figs = append(figs[:len(room)-1:len(room)-1], '+')
		}
		copy(room, figs)
		return [3]string{
			"#" + wall(labyrinth.North, "   ", "###") + "#",
			wall(labyrinth.West, " ", "#") + string(mid[:3]) + wall(labyrinth.East, " ", "#"),
			"#" + wall(labyrinth.South, "   ", "###") + "#",
		}
	}
	forbidden := s.Last().Opposite()
	arrow := func(p labyrinth.Point, a byte) byte {
		if p == forbidden {
			return 'x'
		}
		return a
	}
	var t strings.Builder
	left := "   "
	if coords {
		t.WriteString(left + " ")
		for c := 1; c <= 7; c++ {
			fmt.Fprintf(&t, "  c%d ", c)
		}
		t.WriteString("\n")
	}
	// the arrows above: N2, N4, N6 over columns 2, 4, 6
	edge := func(pts [3]labyrinth.Point, a byte) {
		t.WriteString(left + " ")
		for c := 1; c <= 7; c++ {
			if c%2 == 0 {
				fmt.Fprintf(&t, "  %c  ", arrow(pts[c/2-1], a))
			} else {
				t.WriteString("     ")
			}
		}
		t.WriteString("\n")
	}
	edge([3]labyrinth.Point{labyrinth.N2, labyrinth.N4, labyrinth.N6}, 'v')
	for r := 1; r <= 7; r++ {
		var lines [3]strings.Builder
		for c := 1; c <= 7; c++ {
			q := labyrinth.Sq(r, c)
			tl := tile(s.Tile(q), figures[q])
			for i := range lines {
				lines[i].WriteString(tl[i])
			}
		}
		for i := range lines {
			label := "   "
			if coords && i == 1 {
				label = "r" + strconv.Itoa(r) + " "
			}
			w, e := byte(' '), byte(' ')
			if i == 1 && r%2 == 0 {
				w = arrow([...]labyrinth.Point{labyrinth.W2, labyrinth.W4, labyrinth.W6}[r/2-1], '>')
				e = arrow([...]labyrinth.Point{labyrinth.E2, labyrinth.E4, labyrinth.E6}[r/2-1], '<')
			}
			t.WriteString(label)
			t.WriteByte(w)
			t.WriteString(lines[i].String())
			t.WriteByte(e)
			t.WriteString("\n")
		}
	}
	edge([3]labyrinth.Point{labyrinth.S2, labyrinth.S4, labyrinth.S6}, '^')
	sp := tile(s.Spare(), nil)
	fmt.Fprintf(&t, "Spare: %s\n       %s\n       %s\n", sp[0], sp[1], sp[2])
	t.WriteString(plain(lbStatus(s)) + "\n")
	for p := 0; p < s.Players(); p++ {
		target := "all found: back to the start"
		if tg := s.Target(p); tg != 0 {
			target = "target " + string(labyrinth.TargetLetter(tg))
		} else if len(s.Stack(p)) > 0 {
			target = "target hidden"
		}
		fmt.Fprintf(&t, "Player %d %s (%c): ship on %s, found %d of %d, %s\n", p+1, s.Color(p), s.Color(p).String()[0], s.Ship(p), len(s.Found(p)), len(s.Found(p))+len(s.Stack(p)), target)
	}
	if v := s.Vader(); v.Valid() {
		fmt.Fprintf(&t, "Darth Vader (V) on %s\n", v)
	}
	return t.String(), nil
}

// GravityTrapText writes s as its stations: a plot of the board's layout
// (Board.Layout, as the SVG draws it) on a grid of characters, each station
// as "o" (a marble), "." (empty), "R" or "B" (the red or blue ship) with its
// id beside it (left out with Options.HideCoordinates), then every line of
// the board as the stations along it with their contents ("line 1: 0R 1o
// 2. ..."), and whose turn it is (placing or moving) with the marbles left,
// or the result. Options.Side is checked but changes nothing, as in the
// SVG; From and To name stations and are checked, not drawn. Errors are
// *OptionError.
func GravityTrapText(s gravitytrap.State, o Options) (string, error) {
	if _, err := checkCommon(o, 2, false); err != nil {
		return "", err
	}
	b := s.Board()
	n := b.NumStations()
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v == "" {
			continue
		}
		if k, err := strconv.Atoi(f.v); err != nil || k < 0 || k >= n || strconv.Itoa(k) != f.v {
			return "", optErr(f.field, "%q is not a station; want 0..%d", f.v, n-1)
		}
	}
	content := func(i int) byte {
		switch {
		case s.Ship(0) == i:
			return 'R'
		case s.Ship(1) == i:
			return 'B'
		case s.HasMarble(i):
			return 'o'
		}
		return '.'
	}
	lay := gtFinite(b.Layout())
	minX, maxX, minY, maxY := lay[0].X, lay[0].X, lay[0].Y, lay[0].Y
	for _, st := range lay {
		minX, maxX = min(minX, st.X), max(maxX, st.X)
		minY, maxY = min(minY, st.Y), max(maxY, st.Y)
	}
	const cols, rowsN = 48, 19
	grid := make([][]byte, rowsN)
	for i := range grid {
		grid[i] = []byte(strings.Repeat(" ", cols+4))
	}
	scale := func(v, lo, hi float64, size int) int {
		if hi-lo < 1e-9 {
			return size / 2
		}
		return int((v-lo)/(hi-lo)*float64(size-1) + 0.5)
	}
	for i, st := range lay {
		x := scale(st.X, minX, maxX, cols)
		y := rowsN - 1 - scale(st.Y, minY, maxY, rowsN)
		label := string(content(i))
		if !o.HideCoordinates {
			label += strconv.Itoa(i)
		}
		for k := 0; k < len(label) && x+k < len(grid[y]); k++ {
			grid[y][x+k] = label[k]
		}
	}
	var t strings.Builder
	if name := b.Name(); name != "" {
		fmt.Fprintf(&t, "Board: %s\n", name)
	}
	for _, row := range grid {
		t.WriteString(strings.TrimRight(string(row), " ") + "\n")
	}
	for li, line := range b.Lines() {
		fmt.Fprintf(&t, "line %d:", li+1)
		for _, i := range line {
			fmt.Fprintf(&t, " %d%c", i, content(i))
		}
		t.WriteString("\n")
	}
	t.WriteString(plain(gtStatus(s)) + "\n")
	return t.String(), nil
}
