package abalone

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gamerules/gamerules/rules/game"
)

// Players. Black moves first (spec "Pieces and start").
const (
	Black = 0
	White = 1
)

// Counts of marbles (spec "Pieces and start", "End and score").
const (
	// MarblesEach is the number of marbles each side starts with.
	MarblesEach = 14
	// MarblesToWin is the number of opposing marbles to push off to win.
	MarblesToWin = 6
	// MinMarbles is the fewest marbles a side can have on the board (14 - 6).
	MinMarbles = MarblesEach - MarblesToWin
)

// MaxPliesLimit is the largest accepted max_plies option.
const MaxPliesLimit = 1_000_000

// playerNames are the players by index, as in messages and Info.
var playerNames = [2]string{"black", "white"}

// Info returns the description of Abalone (black and white, no chance).
func Info() game.Info {
	return game.Info{
		ID:           "abalone",
		Name:         "Abalone",
		Players:      append([]string(nil), playerNames[:]...),
		MinPlayers:   2,
		MaxPlayers:   2,
		RulesVersion: "1.0.0",
	}
}

// Layout is a starting layout (spec "Pieces and start"). The zero value is Classic.
type Layout uint8

// The layouts.
const (
	Classic      Layout = iota // Black A1–A5, B1–B6, C3–C5; White I5–I9, H4–H9, G5–G7
	BelgianDaisy               // two daisies of each colour on the left and right
	GermanDaisy                // two daisies of each colour one row further in
	Custom                     // the cells and side to move given in Options
)

var layoutNames = [...]string{"classic", "belgian_daisy", "german_daisy", "custom"}

// String returns the layout's option name: "classic", "belgian_daisy",
// "german_daisy" or "custom".
func (l Layout) String() string {
	if int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// ParseLayout returns the layout with the given option name (see
// Layout.String); "" means Classic. The error wraps game.ErrInvalidOptions.
func ParseLayout(name string) (Layout, error) {
	if name == "" {
		return Classic, nil
	}
	for i, n := range layoutNames {
		if n == name {
			return Layout(i), nil
		}
	}
	return 0, fmt.Errorf("abalone: %w: unknown layout %s (want classic, belgian_daisy, german_daisy or custom)", game.ErrInvalidOptions, game.Quote(name))
}

// layoutCells holds the standard layouts as black, white cell lists.
var layoutCells = [3][2]string{
	Classic:      {"a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5", "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7"},
	BelgianDaisy: {"a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9", "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6"},
	GermanDaisy:  {"b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9", "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5"},
}

func layoutBoard(l Layout) (b [2]uint64) {
	for p := 0; p < 2; p++ {
		for _, name := range strings.Fields(layoutCells[l][p]) {
			c, err := ParseCell(name)
			if err != nil {
				panic(err) // the tables above are constants
			}
			b[p] |= bitOf(c)
		}
	}
	return b
}

// Options are the variants of a new game.
type Options struct {
	// Layout is the starting layout; the zero value is Classic.
	Layout Layout
	// Black and White are the cells of each colour; used with Layout Custom
	// only (an error otherwise). Marbles lost are 14 minus these counts.
	Black, White []Cell
	// ToMove is the side to move, Black (0) or White (1); used with Layout
	// Custom only. The standard layouts start with Black.
	ToMove int
	// MaxPlies, when > 0, ends the game after that many plies (1..MaxPliesLimit):
	// the side that pushed off more marbles wins, equal counts draw. 0 = off.
	MaxPlies int
}

// State is a whole Abalone position: the marbles of each colour, the side to
// move and, with a ply limit, the plies played and the limit. Marbles lost
// are 14 minus the marbles on the board.
//
// A State is a small value (no pointers); copies are independent, every
// method leaves its receiver unchanged, and States are safe to share between
// goroutines. States are comparable with ==, and two States are equal exactly
// when their text forms are equal. The zero State is invalid; use New,
// FromPosition or ParseState.
type State struct {
	board    [2]uint64 // bit i = cell i+1 holds a marble of that colour
	toMove   uint8     // Black or White
	plies    uint32    // plies played; counted only when maxPlies > 0, else 0
	maxPlies uint32    // 0 = no limit
}

// New returns the start of a new game with the given options. The error
// wraps game.ErrInvalidOptions when the layout is unknown, MaxPlies is out of
// range, custom cells are given with a standard layout, or the custom
// position is not valid (see Validate).
func New(o Options) (State, error) {
	if o.MaxPlies < 0 || o.MaxPlies > MaxPliesLimit {
		return State{}, fmt.Errorf("abalone: %w: max_plies %d out of range 0..%d", game.ErrInvalidOptions, o.MaxPlies, MaxPliesLimit)
	}
	switch {
	case o.Layout < Custom:
		if len(o.Black) > 0 || len(o.White) > 0 || o.ToMove != Black {
			return State{}, fmt.Errorf("abalone: %w: cells and side to move can only be given with the custom layout, not %s", game.ErrInvalidOptions, o.Layout)
		}
		return State{board: layoutBoard(o.Layout), maxPlies: uint32(o.MaxPlies)}, nil
	case o.Layout == Custom:
		s, err := FromPosition(Position{Black: o.Black, White: o.White, ToMove: o.ToMove, MaxPlies: o.MaxPlies})
		if err != nil {
			return State{}, fmt.Errorf("abalone: %w: custom layout: %s", game.ErrInvalidOptions, strings.TrimPrefix(err.Error(), "abalone: "))
		}
		return s, nil
	}
	return State{}, fmt.Errorf("abalone: %w: unknown layout %d", game.ErrInvalidOptions, o.Layout)
}

// Position is a State spelled out, for building a State from typed data and
// reading one back (see FromPosition and State.Position).
type Position struct {
	Black, White []Cell // the cells of each colour (any order on input, ascending on output)
	ToMove       int    // Black (0) or White (1)
	Plies        int    // plies played; must be 0 when MaxPlies is 0
	MaxPlies     int    // ply limit, 0 = none
}

// FromPosition builds a State from a Position and validates it. The error
// wraps game.ErrInvalidState and names the offending cell or field.
func FromPosition(p Position) (State, error) {
	var s State
	for pl, cells := range [2][]Cell{p.Black, p.White} {
		for _, c := range cells {
			if !c.Valid() {
				return State{}, fmt.Errorf("abalone: %w: %s cell %d is not on the board", game.ErrInvalidState, playerNames[pl], uint8(c))
			}
			if (s.board[0]|s.board[1])&bitOf(c) != 0 {
				return State{}, fmt.Errorf("abalone: %w: cell %s is given twice", game.ErrInvalidState, c)
			}
			s.board[pl] |= bitOf(c)
		}
	}
	if p.ToMove != Black && p.ToMove != White {
		return State{}, fmt.Errorf("abalone: %w: side to move %d is not 0 (black) or 1 (white)", game.ErrInvalidState, p.ToMove)
	}
	if p.MaxPlies < 0 || p.MaxPlies > MaxPliesLimit {
		return State{}, fmt.Errorf("abalone: %w: max_plies (the ply limit) %d out of range 0..%d", game.ErrInvalidState, p.MaxPlies, MaxPliesLimit)
	}
	if p.Plies < 0 || p.Plies > MaxPliesLimit {
		return State{}, fmt.Errorf("abalone: %w: plies (played) %d out of range 0..%d", game.ErrInvalidState, p.Plies, MaxPliesLimit)
	}
	s.toMove, s.plies, s.maxPlies = uint8(p.ToMove), uint32(p.Plies), uint32(p.MaxPlies)
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}

// Position returns the State spelled out, cells in ascending order.
func (s State) Position() Position {
	return Position{Black: cellsOf(s.board[0]), White: cellsOf(s.board[1]), ToMove: int(s.toMove), Plies: int(s.plies), MaxPlies: int(s.maxPlies)}
}

// ToMove returns the side to move, Black (0) or White (1).
func (s State) ToMove() int { return int(s.toMove) }

// At returns the player (Black or White) whose marble is on c, or -1 when c
// is empty or not a cell.
func (s State) At(c Cell) int {
	if !c.Valid() {
		return -1
	}
	switch {
	case s.board[0]&bitOf(c) != 0:
		return Black
	case s.board[1]&bitOf(c) != 0:
		return White
	}
	return -1
}

// Cells returns the cells holding player's (0 or 1) marbles as a set: bit
// c−1 is set when cell c (1..NumCells, numbered as the spec's "Board and
// coordinates": row A first, each row from its lowest number up) holds
// one, so that ascending bits are the cells in ascending order, as
// Position lists them. Two states'
// sets are equal exactly when that player's marbles stand on the same cells.
func (s State) Cells(player int) uint64 { return s.board[player&1] }

// Marbles returns the number of marbles player (0 or 1) has on the board.
func (s State) Marbles(player int) int { return bits.OnesCount64(s.board[player&1]) }

// Lost returns the number of marbles player (0 or 1) has lost: 14 minus the
// marbles on the board. The other player pushed them off.
func (s State) Lost(player int) int { return MarblesEach - s.Marbles(player) }

// Plies returns the plies played; always 0 when there is no ply limit (plies
// are counted only when a limit is set, so that the State equals its text form).
func (s State) Plies() int { return int(s.plies) }

// MaxPlies returns the ply limit, 0 when there is none.
func (s State) MaxPlies() int { return int(s.maxPlies) }

// Validate reports whether s is a position that can be played from: each
// side has 8..14 marbles and at most one side has 8 (the game ends at the
// sixth marble pushed off), no cell holds two marbles, every marble is on the
// board, the side to move is 0 or 1, and the plies played are within the
// limit (0 without a limit). The error wraps game.ErrInvalidState and says
// which rule is broken. The zero State has no marbles and is invalid.
//
// A side at 8 marbles has just lost its sixth marble, pushed off by the
// other side's move, so it must be the side to move: a state where the
// winner is to move could not arise (spec "End and score"; a choice where
// the spec is silent, following "a state that could not arise is rejected").
func (s State) Validate() error {
	if (s.board[0]|s.board[1])&^boardMask != 0 {
		return fmt.Errorf("abalone: %w: a marble is off the board (bitboard %#x/%#x)", game.ErrInvalidState, s.board[0], s.board[1])
	}
	if both := s.board[0] & s.board[1]; both != 0 {
		return fmt.Errorf("abalone: %w: cell %s holds a black and a white marble", game.ErrInvalidState, Cell(bits.TrailingZeros64(both)+1))
	}
	for p := 0; p < 2; p++ {
		if n := s.Marbles(p); n < MinMarbles || n > MarblesEach {
			return fmt.Errorf("abalone: %w: %s has %d marbles on the board; want %d..%d", game.ErrInvalidState, playerNames[p], n, MinMarbles, MarblesEach)
		}
	}
	if s.Marbles(0) == MinMarbles && s.Marbles(1) == MinMarbles {
		return fmt.Errorf("abalone: %w: both sides have lost six marbles; the game ends at the first six", game.ErrInvalidState)
	}
	if s.toMove > 1 {
		return fmt.Errorf("abalone: %w: side to move %d is not 0 (black) or 1 (white)", game.ErrInvalidState, s.toMove)
	}
	if loser := 1 - int(s.toMove); s.Marbles(loser) == MinMarbles {
		return fmt.Errorf("abalone: %w: %s has lost six marbles, so %s made the winning push and %s is to move, not %s", game.ErrInvalidState, playerNames[loser], playerNames[1-loser], playerNames[loser], playerNames[1-loser])
	}
	if s.maxPlies > MaxPliesLimit {
		return fmt.Errorf("abalone: %w: ply limit %d above %d", game.ErrInvalidState, s.maxPlies, MaxPliesLimit)
	}
	if s.plies > s.maxPlies {
		if s.maxPlies == 0 {
			return fmt.Errorf("abalone: %w: %d plies counted without a ply limit; plies are counted only with a limit", game.ErrInvalidState, s.plies)
		}
		return fmt.Errorf("abalone: %w: %d plies played, more than the limit %d", game.ErrInvalidState, s.plies, s.maxPlies)
	}
	return nil
}

// Outcome returns the result so far (spec "End and score"). Points[p] is the
// number of marbles player p has pushed off. The game is finished when a side
// has pushed off six (that side wins, Detail "six pushed off"), when the ply
// limit is reached (more pushed off wins, Detail "ply limit"; equal counts
// are a draw, Detail "draw"), or when the side to move has no legal move
// (it loses, Detail "no legal move"; a choice, the rules have no such case).
// Outcome does not validate s.
func (s State) Outcome() game.Outcome {
	o := game.Outcome{Winner: game.NoWinner, Points: []int{s.Lost(White), s.Lost(Black)}}
	switch {
	case o.Points[0] >= MarblesToWin:
		o.Finished, o.Winner, o.Detail = true, Black, "six pushed off"
	case o.Points[1] >= MarblesToWin:
		o.Finished, o.Winner, o.Detail = true, White, "six pushed off"
	case s.maxPlies > 0 && s.plies >= s.maxPlies:
		o.Finished, o.Detail = true, "ply limit"
		switch {
		case o.Points[0] > o.Points[1]:
			o.Winner = Black
		case o.Points[1] > o.Points[0]:
			o.Winner = White
		default:
			o.Detail = "draw"
		}
	case !s.hasMove():
		o.Finished, o.Winner, o.Detail = true, int(s.toMove^1), "no legal move"
	}
	return o
}

// over reports whether the game ended by score or by the ply limit (the
// cheap checks; the no-legal-move end is not included).
func (s State) over() bool {
	return bits.OnesCount64(s.board[0]) <= MinMarbles || bits.OnesCount64(s.board[1]) <= MinMarbles ||
		s.maxPlies > 0 && s.plies >= s.maxPlies
}

// rowLen is the number of cells on each row A..I.
func rowLen(r int) int { return rowHi[r] - rowLo[r] + 1 }

// String returns the text form of the spec ("Text form of a state"): rows I
// (top) to A, each from its lowest number up, separated by '/'; 'b' black,
// 'w' white, a digit for a run of empty cells; a space and the side to move
// 'b' or 'w'; with a ply limit, a space and "<played>/<limit>". The classic
// start is "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b".
//
// One allocation; AppendText writes the same bytes into a caller's buffer.
func (s State) String() string {
	var buf [96]byte
	b, _ := s.AppendText(buf[:0])
	return string(b)
}

// AppendText appends s's text (exactly the bytes of s.String(): at most 61
// cells, 8 '/', the side to move and the ply counter) to b and returns the
// extended buffer; it does not allocate when b has room, and the error is
// always nil (State implements encoding.TextAppender).
func (s State) AppendText(b []byte) ([]byte, error) {
	// Row by row, visiting the occupied cells only (at most 28, against 61
	// cells), into an array on the stack that is appended to b once.
	var out [61 + 8 + 2]byte
	k := 0
	black, occupied := s.board[0], s.board[0]|s.board[1]
	for r := 8; r >= 0; r-- {
		lo, n := rowStart[r], rowStart[r+1]-rowStart[r]
		mask := uint64(1)<<n - 1
		blackRow, occ := (black>>lo)&mask, (occupied>>lo)&mask
		next := 0 // the first cell of the row not yet written
		for ; occ != 0; occ &= occ - 1 {
			i := bits.TrailingZeros64(occ)
			if i > next {
				out[k] = '0' + byte(i-next)
				k++
			}
			out[k] = 'w'
			if blackRow&(1<<i) != 0 {
				out[k] = 'b'
			}
			k++
			next = i + 1
		}
		if n > next {
			out[k] = '0' + byte(n-next)
			k++
		}
		if r > 0 {
			out[k] = '/'
			k++
		}
	}
	out[k], out[k+1] = ' ', "bw?"[min(s.toMove, 2)]
	b = append(b, out[:k+2]...)
	if s.maxPlies > 0 {
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(s.plies), 10)
		b = append(b, '/')
		b = strconv.AppendUint(b, uint64(s.maxPlies), 10)
	}
	return b, nil
}

// ParseState parses the text form written by State.String and validates the
// position. Marbles and the side to move may be upper or lower case; fields
// are separated by spaces. A run of empty cells is one digit 1..9 (two digits
// in a row are refused, so each text has one reading). The error is a
// *game.ParseError wrapping game.ErrInvalidState, with the byte offset of the
// problem; or, for text that parses but is not a valid position, the error
// from Validate.
func ParseState(text string) (State, error) {
	fail := func(off int, format string, args ...any) (State, error) {
		return State{}, &game.ParseError{Game: "abalone", What: "state", Input: text, Offset: off, Reason: fmt.Sprintf(format, args...), Kind: game.ErrInvalidState}
	}
	var s State
	i := 0
	for r := 8; r >= 0; r-- {
		cell := rowStart[r]
		end := rowStart[r+1]
		prevDigit := false
		for i < len(text) && text[i] != '/' && text[i] != ' ' {
			ch := text[i]
			switch {
			case ch >= '1' && ch <= '9':
				if prevDigit {
					return fail(i, "two digits in a row; write a run of empty cells as one digit")
				}
				cell += int(ch - '0')
				prevDigit = true
			case ch == 'b' || ch == 'B' || ch == 'w' || ch == 'W':
				if cell < end {
					if ch == 'b' || ch == 'B' {
						s.board[0] |= 1 << cell
					} else {
						s.board[1] |= 1 << cell
					}
				}
				cell++
				prevDigit = false
			default:
				// Quote the whole character, not its first byte ("é", not "Ã").
				ch, size := utf8.DecodeRuneInString(text[i:])
				if ch == utf8.RuneError && size <= 1 {
					return fail(i, "unexpected byte %#x (not UTF-8) in row %c; want b, w or a digit 1..9", text[i], 'A'+r)
				}
				return fail(i, "unexpected %q in row %c; want b, w or a digit 1..9", ch, 'A'+r)
			}
			if cell > end {
				return fail(i, "row %c has more than %d cells", 'A'+r, rowLen(r))
			}
			i++
		}
		if cell < end {
			return fail(i, "row %c has %d cells; want %d", 'A'+r, cell-rowStart[r], rowLen(r))
		}
		if r > 0 {
			if i >= len(text) || text[i] != '/' {
				return fail(i, "want '/' after row %c (9 rows, I first)", 'A'+r)
			}
			i++
		}
	}
	rest := text[i:]
	if len(rest) == 0 || rest[0] != ' ' {
		return fail(i, "want a space and the side to move after the rows")
	}
	fields := strings.Fields(rest)
	if len(fields) < 1 || len(fields) > 2 {
		return fail(i, "want the side to move (b or w) and optionally <played>/<limit> after the rows")
	}
	switch fields[0] {
	case "b", "B":
		s.toMove = Black
	case "w", "W":
		s.toMove = White
	default:
		return fail(i+strings.Index(rest, fields[0]), "side to move %s; want b or w", game.Quote(fields[0]))
	}
	if len(fields) == 2 {
		at := i + strings.LastIndex(rest, fields[1])
		played, limit, ok := strings.Cut(fields[1], "/")
		p, err1 := strconv.ParseUint(played, 10, 32)
		l, err2 := strconv.ParseUint(limit, 10, 32)
		if !ok || err1 != nil || err2 != nil || strconv.FormatUint(p, 10) != played || strconv.FormatUint(l, 10) != limit {
			return fail(at, "ply counter %s; want <played>/<limit>, e.g. 37/200", game.Quote(fields[1]))
		}
		if l == 0 || l > MaxPliesLimit {
			return fail(at, "ply limit %d out of range 1..%d (leave the counter out for no limit)", l, MaxPliesLimit)
		}
		if p > l {
			return fail(at, "%d plies played, more than the limit %d", p, l)
		}
		s.plies, s.maxPlies = uint32(p), uint32(l)
	}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}
