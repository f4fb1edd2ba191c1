package labyrinth

import "strconv"

// Open sides of a tile (spec "Board and tiles"): a tile's Sides is the OR
// of the sides it is open on, written as one hex digit in the text form
// (5 = straight N–S, 6 = corner E–S, e = T open E, S and W).
const (
	North uint8 = 1
	East  uint8 = 2
	South uint8 = 4
	West  uint8 = 8
)

// Tile is one corridor tile: its open sides in its current orientation, the
// target it shows (0 = none, 1..24 = targets A..X) and whether it shows the
// Darth Vader symbol. Tile is comparable; the zero Tile (no open side) is not
// a valid tile.
type Tile struct {
	Sides  uint8 // OR of North, East, South, West; a valid tile has 2 or 3 sides
	Target uint8 // 0 for none, else 1..24
	Vader  bool  // shows the Darth Vader symbol (one loose straight does)
}

// Rotate returns t turned k quarter turns clockwise (N→E→S→W→N); k is taken
// modulo 4, so negative k turns anticlockwise. Target and symbol turn with
// the tile.
func (t Tile) Rotate(k int) Tile {
	t.Sides = rotSides(t.Sides, k)
	return t
}

// rotSides turns an open-sides mask k quarter turns clockwise.
func rotSides(m uint8, k int) uint8 {
	for k = k & 3; k > 0; k-- {
		m = (m<<1 | m>>3) & 15
	}
	return m
}

// Shape is the kind of corridor a tile is, whatever its orientation.
type Shape uint8

// Tile shapes. ShapeInvalid is any mask that is not one of the three kinds.
const (
	ShapeInvalid Shape = iota
	ShapeStraight
	ShapeCorner
	ShapeT
)

// String names the shape: "straight", "corner", "T-junction" or "invalid shape".
func (sh Shape) String() string {
	switch sh {
	case ShapeStraight:
		return "straight"
	case ShapeCorner:
		return "corner"
	case ShapeT:
		return "T-junction"
	}
	return "invalid shape"
}

var shapeOf = [16]Shape{
	0x3: ShapeCorner, 0x6: ShapeCorner, 0xc: ShapeCorner, 0x9: ShapeCorner,
	0x5: ShapeStraight, 0xa: ShapeStraight,
	0x7: ShapeT, 0xb: ShapeT, 0xd: ShapeT, 0xe: ShapeT,
}

// Shape reports the shape of t's open sides (ShapeInvalid when Sides is not
// a straight, a corner or a T-junction).
func (t Tile) Shape() Shape {
	if t.Sides > 15 {
		return ShapeInvalid
	}
	return shapeOf[t.Sides]
}

// String returns t's token in the text form: the hex digit of its sides,
// then its target letter (A..X) if any, then '*' if it shows the Vader
// symbol, e.g. "e", "eA", "5*".
func (t Tile) String() string { return string(t.appendText(nil)) }

func (t Tile) appendText(b []byte) []byte {
	b = append(b, "0123456789abcdef"[t.Sides&15])
	if t.Target >= 1 && t.Target <= NumTargets {
		b = append(b, TargetLetter(t.Target))
	}
	if t.Vader {
		b = append(b, '*')
	}
	return b
}

// NumTargets is the number of targets (and target cards): 1..24, written A..X.
const NumTargets = 24

// TargetLetter returns the letter of target 1..24 ('A'..'X'), '?' otherwise.
func TargetLetter(target uint8) byte {
	if target >= 1 && target <= NumTargets {
		return 'A' + target - 1
	}
	return '?'
}

// Square is a square of the 7×7 board: (row−1)·7 + (col−1), 0..48, rows
// counted from the top and columns from the left, both 1..7 (spec "Board and
// tiles"). NoSquare marks no square.
type Square uint8

// NoSquare is the Square value for "none" (Darth Vader's square when that
// variant is off).
const NoSquare Square = 255

// NumSquares is the number of squares on the board.
const NumSquares = 49

// Sq returns the square at 1-based row and col, or NoSquare when either is
// outside 1..7.
func Sq(row, col int) Square {
	if row < 1 || row > 7 || col < 1 || col > 7 {
		return NoSquare
	}
	return Square((row-1)*7 + col - 1)
}

// Row returns the square's row, 1..7 (top to bottom).
func (q Square) Row() int { return int(q)/7 + 1 }

// Col returns the square's column, 1..7 (left to right).
func (q Square) Col() int { return int(q)%7 + 1 }

// Valid reports whether q is on the board.
func (q Square) Valid() bool { return q < NumSquares }

// String writes the square as in the spec, "r3c5"; "-" for NoSquare or any
// value off the board. No allocation (a table).
func (q Square) String() string {
	if !q.Valid() {
		return "-"
	}
	return squareNames[q]
}

// squareNames[q] is "r<row>c<col>" for each square.
var squareNames = func() (t [NumSquares]string) {
	for q := range t {
		t[q] = string(Square(q).appendText(nil))
	}
	return t
}()

func (q Square) appendText(b []byte) []byte {
	return append(b, 'r', byte('0'+q.Row()), 'c', byte('0'+q.Col()))
}

// Point is one of the 12 insertion points (spec "A turn: shift, then move"),
// in the order LegalMoves uses: N2, N4, N6 (into columns 2, 4, 6 from the top,
// pushing down), E2, E4, E6 (into rows 2, 4, 6 from the right, pushing left),
// S2, S4, S6 (from the bottom, pushing up), W2, W4, W6 (from the left,
// pushing right). NoPoint (the zero value) is no point: before the first
// shift, or in a figure move.
type Point uint8

// The insertion points.
const (
	NoPoint Point = iota
	N2
	N4
	N6
	E2
	E4
	E6
	S2
	S4
	S6
	W2
	W4
	W6
)

// NumPoints is the number of insertion points.
const NumPoints = 12

// Valid reports whether p is one of N2..W6.
func (p Point) Valid() bool { return p >= N2 && p <= W6 }

// side returns 0 (N), 1 (E), 2 (S) or 3 (W); line returns the pushed row or
// column, 0-based (1, 3 or 5).
func (p Point) side() int { return int(p-1) / 3 }
func (p Point) line() int { return 2*(int(p-1)%3) + 1 }

// Opposite returns the point at the other end of p's line: the one whose
// push would reverse p's (N2 ↔ S2, E4 ↔ W4). NoPoint for NoPoint.
func (p Point) Opposite() Point {
	if !p.Valid() {
		return NoPoint
	}
	return Point((int(p-1)+6)%12 + 1)
}

// String writes the point as in the spec ("N2", "W6"), "-" for NoPoint.
// No allocation (a table).
func (p Point) String() string {
	if !p.Valid() {
		return "-"
	}
	return pointNames[p]
}

// pointNames[p] is the name of point p, "N2".."W6".
var pointNames = func() (t [W6 + 1]string) {
	for p := N2; p <= W6; p++ {
		t[p] = string(p.appendText(nil))
	}
	return t
}()

// appendText appends p.String() to b.
func (p Point) appendText(b []byte) []byte {
	if !p.Valid() {
		return append(b, '-')
	}
	return append(b, "NESW"[p.side()], byte('0'+p.line()+1))
}

// parsePoint reads "N2".."W6".
func parsePoint(s string) (Point, bool) {
	if len(s) != 2 {
		return NoPoint, false
	}
	side := -1
	switch s[0] {
	case 'N':
		side = 0
	case 'E':
		side = 1
	case 'S':
		side = 2
	case 'W':
		side = 3
	}
	k := int(s[1]) - '0'
	if side < 0 || (k != 2 && k != 4 && k != 6) {
		return NoPoint, false
	}
	return Point(side*3 + k/2), true
}

// Color is a player's colour: the colour of his ship, which decides his
// start square (spec "Players and set-up").
type Color uint8

// The four colours, in the default seating order.
const (
	Red Color = iota
	Yellow
	Green
	Blue
)

// NumColors is the number of colours.
const NumColors = 4

// Letter returns the colour's letter in the text form: 'R', 'Y', 'G', 'B'
// ('?' for an invalid colour).
func (c Color) Letter() byte {
	if c >= NumColors {
		return '?'
	}
	return "RYGB"[c]
}

// String returns "red", "yellow", "green" or "blue".
func (c Color) String() string {
	switch c {
	case Red:
		return "red"
	case Yellow:
		return "yellow"
	case Green:
		return "green"
	case Blue:
		return "blue"
	}
	return "Color(" + strconv.Itoa(int(c)) + ")"
}

// Start returns the colour's start square, a board corner: red r1c1,
// yellow r1c7, green r7c7, blue r7c1 (spec "Players and set-up", a choice).
// NoSquare for an invalid colour.
func (c Color) Start() Square {
	switch c {
	case Red:
		return Sq(1, 1)
	case Yellow:
		return Sq(1, 7)
	case Green:
		return Sq(7, 7)
	case Blue:
		return Sq(7, 1)
	}
	return NoSquare
}

func colorOfLetter(b byte) (Color, bool) {
	switch b {
	case 'R':
		return Red, true
	case 'Y':
		return Yellow, true
	case 'G':
		return Green, true
	case 'B':
		return Blue, true
	}
	return 0, false
}

// fixedSides holds the 16 tiles printed on the board, at the squares whose
// row and column are both odd (spec "Board and tiles"); fixedSides[i][j] is
// the tile at row 2i+1, column 2j+1.
var fixedSides = [4][4]uint8{
	{0x6, 0xe, 0xe, 0xc},
	{0x7, 0x7, 0xe, 0xd},
	{0x7, 0xb, 0xd, 0xd},
	{0x3, 0xb, 0xb, 0x9},
}

// fixedTile[q] is the tile printed at q (with its target: 1..12 on the
// T-junctions in reading order, none on the corners) and isFixed[q] says
// whether q has one.
var fixedTile, isFixed = func() (t [NumSquares]Tile, f [NumSquares]bool) {
	target := uint8(0)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			q := Sq(2*i+1, 2*j+1)
			f[q] = true
			t[q].Sides = fixedSides[i][j]
			if shapeOf[t[q].Sides] == ShapeT {
				target++
				t[q].Target = target
			}
		}
	}
	return t, f
}()

// FixedTile reports the tile printed on the board at q, and whether q has
// one (row and column both odd).
func FixedTile(q Square) (Tile, bool) {
	if !q.Valid() {
		return Tile{}, false
	}
	return fixedTile[q], isFixed[q]
}

// looseTiles returns the 34 loose tiles in a fixed order (spec "Board and
// tiles"): 13 straights (the first shows the Vader symbol), 6 corners with
// targets 19..24, 9 corners without target, 6 T-junctions with targets
// 13..18. Random set-up shuffles this list.
func looseTiles() [34]Tile {
	var t [34]Tile
	i := 0
	for k := 0; k < 13; k++ {
		t[i] = Tile{Sides: 0x5, Vader: k == 0}
		i++
	}
	for k := 0; k < 15; k++ {
		t[i] = Tile{Sides: 0x6}
		if k < 6 {
			t[i].Target = uint8(19 + k)
		}
		i++
	}
	for k := 0; k < 6; k++ {
		t[i] = Tile{Sides: 0x7, Target: uint8(13 + k)}
		i++
	}
	return t
}
