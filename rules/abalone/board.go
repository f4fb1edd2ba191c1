package abalone

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/gamerules/gamerules/rules/game"
)

// NumCells is the number of cells on the board (a hexagon with five cells a side).
const NumCells = 61

// Cell is one of the 61 cells, numbered 1 (A1) to 61 (I9) in alphanumeric
// order: A1..A5, B1..B6, C1..C7, D1..D8, E1..E9, F2..F9, G3..G9, H4..H9, I5..I9
// (spec "Board and coordinates"). Because every number is a single digit, the
// numeric order of Cells is also the order of their names, so sorting by Cell
// sorts by notation. The zero value is NoCell.
type Cell uint8

// NoCell is the zero Cell: no cell (e.g. Move.End of an in-line move).
const NoCell Cell = 0

// Direction is one of the six directions on the board, counterclockwise from
// East. Opposite directions differ by 3. On the (row, number) coordinates of
// the spec: E (r, n+1), NE (r+1, n+1), NW (r+1, n), W (r, n-1), SW (r-1, n-1),
// SE (r-1, n).
type Direction uint8

// The six directions. East, NorthEast and NorthWest lead to higher-numbered
// Cells; their opposites to lower ones.
const (
	East Direction = iota
	NorthEast
	NorthWest
	West
	SouthWest
	SouthEast
)

var dirNames = [6]string{"east", "north-east", "north-west", "west", "south-west", "south-east"}

// String returns the direction's name, e.g. "north-east".
func (d Direction) String() string {
	if d < 6 {
		return dirNames[d]
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// Opposite returns the direction pointing the other way.
func (d Direction) Opposite() Direction { return (d + 3) % 6 }

// dRow and dNum are the coordinate steps of each direction.
var (
	dRow = [6]int{0, 1, 1, 0, -1, -1}
	dNum = [6]int{1, 1, 0, -1, -1, 0}
)

// rowLo and rowHi are the lowest and highest number on each row A..I.
var (
	rowLo = [9]int{1, 1, 1, 1, 1, 2, 3, 4, 5}
	rowHi = [9]int{5, 6, 7, 8, 9, 9, 9, 9, 9}
)

// Internally cells are bit indexes 0..60 (Cell-1); off is the index used for
// "off the board" in the neighbour table.
const off = NumCells

var (
	rowStart [10]int                // bit index of the first cell of each row; rowStart[9] = 61
	idxRow   [NumCells]int8         // row 0..8 of each bit index
	idxNum   [NumCells]int8         // number 1..9 of each bit index
	nb       [NumCells + 1][6]uint8 // neighbour bit index in each direction, or off; nb[off][*] = off
	// line[i][j] describes j seen from i when they lie in one line at distance
	// 1 or 2: (direction+1) | distance<<4; 0 otherwise.
	line [NumCells][NumCells]uint8
)

// boardMask has a bit for each of the 61 cells.
const boardMask = uint64(1)<<NumCells - 1

func init() {
	i := 0
	for r := 0; r < 9; r++ {
		rowStart[r] = i
		for n := rowLo[r]; n <= rowHi[r]; n++ {
			idxRow[i], idxNum[i] = int8(r), int8(n)
			i++
		}
	}
	rowStart[9] = i
	for c := Cell(1); c <= NumCells; c++ {
		cellNames[c] = string(c.appendText(nil))
	}
	for d := 0; d < 6; d++ {
		nb[off][d] = off
	}
	for i := 0; i < NumCells; i++ {
		for d := 0; d < 6; d++ {
			nb[i][d] = uint8(index(int(idxRow[i])+dRow[d], int(idxNum[i])+dNum[d]))
		}
	}
	for i := 0; i < NumCells; i++ {
		for d := 0; d < 6; d++ {
			j := nb[i][d]
			for dist := 1; dist <= 2 && j != off; dist++ {
				line[i][j] = uint8(d+1) | uint8(dist)<<4
				j = nb[j][d]
			}
		}
	}
	buildCands()
}

// index returns the bit index of (row 0..8, number 1..9), or off.
func index(r, n int) int {
	if r < 0 || r > 8 || n < rowLo[r] || n > rowHi[r] {
		return off
	}
	return rowStart[r] + n - rowLo[r]
}

// CellAt returns the cell on row 'A'..'I' (or 'a'..'i') with number 1..9, or
// NoCell when there is no such cell on the board.
func CellAt(row byte, num int) Cell {
	if row >= 'a' && row <= 'i' {
		row -= 'a' - 'A'
	}
	if row < 'A' || row > 'I' {
		return NoCell
	}
	i := index(int(row-'A'), num)
	if i == off {
		return NoCell
	}
	return Cell(i + 1)
}

// Valid reports whether c is one of the 61 cells (not NoCell, not out of range).
func (c Cell) Valid() bool { return c >= 1 && c <= NumCells }

// Row returns the row letter 'A'..'I' of a valid cell.
func (c Cell) Row() byte { return 'A' + byte(idxRow[c-1]) }

// Num returns the number 1..9 of a valid cell.
func (c Cell) Num() int { return int(idxNum[c-1]) }

// String returns the cell in lower case as in Aba-Pro output, e.g. "e5";
// "-" for NoCell and "?N" for a value out of range. A valid cell's name
// comes from a table: no allocation.
func (c Cell) String() string {
	if c.Valid() {
		return cellNames[c]
	}
	return string(c.appendText(nil))
}

// cellNames[c] is the name of valid cell c ("a1".."i9"), filled by init.
var cellNames [NumCells + 1]string

// appendText appends c.String() to b.
func (c Cell) appendText(b []byte) []byte {
	switch {
	case c.Valid():
		return append(b, c.Row()+'a'-'A', '0'+byte(c.Num()))
	case c == NoCell:
		return append(b, '-')
	}
	return strconv.AppendUint(append(b, '?'), uint64(uint8(c)), 10)
}

// Neighbor returns the cell next to c in direction d, or NoCell at the edge
// (or when c or d is out of range).
func (c Cell) Neighbor(d Direction) Cell {
	if !c.Valid() || d > 5 {
		return NoCell
	}
	j := nb[c-1][d]
	if j == off {
		return NoCell
	}
	return Cell(j + 1)
}

// ParseCell parses a cell name such as "e5" or "E5".
func ParseCell(s string) (Cell, error) {
	if len(s) == 2 && s[1] >= '0' && s[1] <= '9' {
		if c := CellAt(s[0], int(s[1]-'0')); c != NoCell {
			return c, nil
		}
	}
	return NoCell, fmt.Errorf("abalone: %s is not a cell (A1..I9 on the hexagonal board)", game.Quote(s))
}

// parseCellAt reads a two-character cell name at s[i:]; ok is false when it is
// not one.
func parseCellAt(s string, i int) (Cell, bool) {
	if i+2 > len(s) || s[i+1] < '0' || s[i+1] > '9' {
		return NoCell, false
	}
	c := CellAt(s[i], int(s[i+1]-'0'))
	return c, c != NoCell
}

// bitOf returns the bitboard bit of a valid cell.
func bitOf(c Cell) uint64 { return 1 << (c - 1) }

// cellsOf lists the cells of a bitboard in ascending order.
func cellsOf(b uint64) []Cell {
	out := make([]Cell, 0, bits.OnesCount64(b))
	for b != 0 {
		out = append(out, Cell(bits.TrailingZeros64(b)+1))
		b &= b - 1
	}
	return out
}
