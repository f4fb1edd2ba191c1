package abalone

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// Move is one turn in the shape of its Aba-Pro notation (spec "Move
// notation"):
//
//   - In-line move (End == NoCell): From is the trailing marble of the group
//     and To the cell it moves to, a neighbour of From. The group is From and
//     the own marbles directly ahead of it in that direction (1 to 3 marbles,
//     fixed by the position); opposing marbles beyond are pushed.
//   - Broadside (End != NoCell): From and End are the two end marbles of a
//     group of 2 or 3 in one line, From the lower Cell (the end that sorts
//     first), and To is where From goes; the direction From→To is not along
//     the group's line. Every marble of the group moves that way.
//
// A Move is comparable, and each legal move has exactly one Move value (the
// one LegalMoves lists and ParseMove returns). The zero Move is not a move.
type Move struct {
	From Cell // in-line: the trailing marble; broadside: the group's lower end
	To   Cell // where From goes: a neighbour of From
	End  Cell // broadside: the group's other end; NoCell for an in-line move
}

// Broadside reports whether m is a broadside (side-step) move.
func (m Move) Broadside() bool { return m.End != NoCell }

// String returns the Aba-Pro notation in lower case: "a1b2" for an in-line
// move, "c3c5d3" (lower end, other end, where the lower end goes) for a
// broadside. One allocation; AppendText writes the same bytes into a
// caller's buffer, and AppendNotations the notation of a whole list into
// one string.
func (m Move) String() string {
	var buf [16]byte
	b, _ := m.AppendText(buf[:0])
	return string(b)
}

// AppendText appends m's notation (exactly the bytes of m.String(), 4 or 6
// for a valid move) to b and returns the extended buffer; it does not
// allocate when b has room, and the error is always nil (Move implements
// encoding.TextAppender).
func (m Move) AppendText(b []byte) ([]byte, error) {
	b = m.From.appendText(b)
	if m.End != NoCell {
		b = m.End.appendText(b)
	}
	return m.To.appendText(b), nil
}

// AppendNotations appends the notation of each of moves to dst, in order
// (dst[len(dst)+i] == moves[i].String(), byte for byte), and returns the
// extended slice. The texts are substrings of one string built for the
// whole list, so the cost is one allocation for all the text (plus dst's
// growth when it lacks capacity), not one per move. This is the call for
// listing moves (e.g. LegalMoves' notation).
func AppendNotations(dst []string, moves []Move) []string {
	var stack [1024]byte
	var endStack [256]int32
	buf, ends := stack[:0], endStack[:0]
	for _, m := range moves {
		buf, _ = m.AppendText(buf)
		ends = append(ends, int32(len(buf)))
	}
	text := string(buf)
	dst = slices.Grow(dst, len(ends))
	start := int32(0)
	for _, e := range ends {
		dst = append(dst, text[start:e])
		start = e
	}
	return dst
}

// Notations returns the notation of each of moves: AppendNotations into a
// new slice (two allocations for the whole list).
func Notations(moves []Move) []string {
	return AppendNotations(make([]string, 0, len(moves)), moves)
}

// lineOf returns the direction from a to b and their distance (1 or 2) when
// a and b are valid cells in one line at most two apart; ok is false otherwise.
func lineOf(a, b Cell) (d Direction, dist int, ok bool) {
	if !a.Valid() || !b.Valid() {
		return 0, 0, false
	}
	l := line[a-1][b-1]
	if l == 0 {
		return 0, 0, false
	}
	return Direction(l&15 - 1), int(l >> 4), true
}

// shape checks the geometry of the cells of an Aba-Pro move, independent of
// any position, and returns the canonical Move (broadside ends in order).
// On failure it returns which cell (0 from, 1 end-or-to, 2 to) is at fault and why.
func shape(from, to, end Cell) (m Move, bad int, reason string) {
	d, dist, ok := lineOf(from, to)
	if !ok || dist != 1 {
		at := 1
		if end != NoCell {
			at = 2
		}
		return Move{}, at, fmt.Sprintf("%s is not a neighbour of %s", to, from)
	}
	if end == NoCell {
		return Move{From: from, To: to}, 0, ""
	}
	a, _, ok := lineOf(from, end)
	if !ok {
		return Move{}, 1, fmt.Sprintf("%s and %s are not the two ends of a group of 2 or 3 marbles in one line", from, end)
	}
	if d == a || d == a.Opposite() {
		return Move{}, 2, fmt.Sprintf("%s to %s is along the line of the group: an in-line move is written with two cells", from, to)
	}
	if end < from {
		n := end.Neighbor(d)
		if n == NoCell {
			return Move{}, 1, fmt.Sprintf("the broadside would move %s off the board", end)
		}
		return Move{From: end, To: n, End: from}, 0, ""
	}
	return Move{From: from, To: to, End: end}, 0, ""
}

// MoveOf builds the Move written in Aba-Pro as from, to (end = NoCell; an
// in-line move) or from, end, to (a broadside, either end first), checking
// only the geometry: to is a neighbour of from; for a broadside from and end
// are 1 or 2 cells apart in one line and from→to is not along that line.
// Broadside ends are put in order (the lower Cell becomes From). The error
// wraps game.ErrIllegalMove.
func MoveOf(from, to, end Cell) (Move, error) {
	m, _, reason := shape(from, to, end)
	if reason != "" {
		return Move{}, fmt.Errorf("abalone: %w: %s", game.ErrIllegalMove, reason)
	}
	return m, nil
}

// ParseMove parses a move in Aba-Pro notation (spec "Move notation") and
// checks that it is legal in s. Two cells ("a1b2") are an in-line move or a
// single marble; three ("c3c5d3" or "c5c3d4") a broadside, with either end
// first. Upper or lower case is accepted, and surrounding spaces are ignored.
// Three cells that describe an in-line move are refused.
//
// Text that is not a move on this board gives a *game.ParseError wrapping
// game.ErrIllegalMove with the offset of the faulty cell. A well-formed move
// that is not legal in s gives the error Apply would give (wrapping
// game.ErrIllegalMove, game.ErrGameOver or game.ErrInvalidState).
func ParseMove(s State, text string) (Move, error) {
	fail := func(off int, reason string) (Move, error) {
		return Move{}, &game.ParseError{Game: "abalone", What: "move", Input: text, Offset: off, Reason: reason, Kind: game.ErrIllegalMove}
	}
	t := strings.TrimLeft(text, " \t")
	lead := len(text) - len(t)
	t = strings.TrimRight(t, " \t")
	if len(t) != 4 && len(t) != 6 {
		return fail(-1, "want two cells (in-line, e.g. a1b2) or three cells (broadside, e.g. c3c5d3)")
	}
	var cells [3]Cell
	for k := 0; k < len(t)/2; k++ {
		c, ok := parseCellAt(t, 2*k)
		if !ok {
			return fail(lead+2*k, fmt.Sprintf("%q is not a cell (A1..I9 on the hexagonal board)", t[2*k:2*k+2]))
		}
		cells[k] = c
	}
	from, to, end := cells[0], cells[1], NoCell
	if len(t) == 6 {
		to, end = cells[2], cells[1]
	}
	m, bad, reason := shape(from, to, end)
	if reason != "" {
		return fail(lead+2*bad, reason)
	}
	if _, err := s.Apply(m); err != nil {
		return Move{}, err
	}
	return m, nil
}

// Apply returns the position after m; s itself does not change. It checks
// that s is valid (else an error wrapping game.ErrInvalidState), that the
// game is not over (else game.ErrGameOver; also when the side to move has no
// legal move), and that m is legal (else game.ErrIllegalMove with the reason:
// no own marble there, a pac, a sandwich, an own marble carried off, more
// than three marbles, a broadside into an occupied cell, a non-canonical
// Move...). Apply(m) succeeds exactly for the moves LegalMoves lists.
// With a ply limit the ply counter goes up by one.
func (s State) Apply(m Move) (State, error) {
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	if s.over() {
		return State{}, fmt.Errorf("abalone: %w: %s: the game is over (%s)", game.ErrGameOver, m, s.Outcome().Detail)
	}
	next, err := s.play(m)
	if err != nil {
		if !s.hasMove() {
			return State{}, fmt.Errorf("abalone: %w: %s: the game is over (%s has no legal move)", game.ErrGameOver, m, playerNames[s.toMove])
		}
		return State{}, err
	}
	return next, nil
}

// play checks m in s (assumed valid and not over) and makes it.
func (s State) play(m Move) (State, error) {
	illegal := func(format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("abalone: %w: %s: %s", game.ErrIllegalMove, m, fmt.Sprintf(format, args...))
	}
	me := s.toMove & 1
	own, opp := s.board[me], s.board[me^1]
	name, other := playerNames[me], playerNames[me^1]
	d, dist, ok := lineOf(m.From, m.To)
	if !ok || dist != 1 {
		return illegal("to (%s) is not a neighbour of from (%s)", m.To, m.From)
	}
	holds := func(c Cell) string {
		switch {
		case own&bitOf(c) != 0:
			return "a " + name + " marble"
		case opp&bitOf(c) != 0:
			return "a " + other + " marble, not a " + name + " one"
		}
		return "no marble"
	}
	if m.End == NoCell {
		if own&bitOf(m.From) == 0 {
			return illegal("%s holds %s", m.From, holds(m.From))
		}
		i := nb[m.From-1][d]
		n := 1
		for i != off && own&(1<<i) != 0 {
			n++
			if n > 3 {
				return illegal("more than three %s marbles in line from %s towards %s; at most three move, and they cannot push their own", name, m.From, dirNames[d])
			}
			i = nb[i][d]
		}
		if i == off {
			return illegal("the move would carry the %s marble on the edge off the board", name)
		}
		if opp&(1<<i) == 0 {
			s.board[me] = own ^ bitOf(m.From) ^ 1<<i
			return s.next(), nil
		}
		first := i
		k := 0
		for i != off && opp&(1<<i) != 0 {
			k++
			i = nb[i][d]
		}
		if k >= n {
			if k == n {
				return illegal("pac: %d %s against %d %s; a push needs more marbles than it pushes", n, name, k, other)
			}
			return illegal("%d %s cannot push %d %s; a push needs more marbles than it pushes (2-1, 3-1, 3-2)", n, name, k, other)
		}
		if i != off && own&(1<<i) != 0 {
			return illegal("sandwich: a %s marble on %s is right behind the pushed %s marbles", name, Cell(i+1), other)
		}
		s.board[me] = own ^ bitOf(m.From) ^ 1<<first
		s.board[me^1] = opp ^ 1<<first
		if i != off {
			s.board[me^1] ^= 1 << i
		}
		return s.next(), nil
	}
	a, size, ok := lineOf(m.From, m.End)
	if !ok {
		return illegal("from (%s) and end (%s) are not the ends of a group of 2 or 3 in one line", m.From, m.End)
	}
	if a > NorthWest {
		return illegal("broadside ends out of order: From must be the lower end (%s)", m.End)
	}
	if d == a || d == a.Opposite() {
		return illegal("%s to %s is along the group's line: an in-line move is written with two cells", m.From, m.To)
	}
	var group, dest uint64
	c := m.From
	for k := 0; k <= size; k++ {
		if own&bitOf(c) == 0 {
			return illegal("%s holds %s", c, holds(c))
		}
		group |= bitOf(c)
		to := c.Neighbor(d)
		if to == NoCell {
			return illegal("the broadside would move %s off the board", c)
		}
		if (own|opp)&bitOf(to) != 0 {
			return illegal("broadside into %s, which holds a marble; a broadside never pushes", to)
		}
		dest |= bitOf(to)
		c = c.Neighbor(a)
	}
	s.board[me] = own ^ group ^ dest
	return s.next(), nil
}

// next passes the turn and counts the ply when a limit is set.
func (s State) next() State {
	s.toMove ^= 1
	if s.maxPlies > 0 {
		s.plies++
	}
	return s
}
