package abalone

import (
	"math/bits"
	"sort"
)

// cand is a move that may be legal for a marble on a given cell: an in-line
// move in direction dir, or a broadside of a fixed group with precomputed masks.
type cand struct {
	m     Move
	dir   uint8
	broad bool
	group uint64 // broadside: the group's cells, all of which must be own
	dest  uint64 // broadside: the destination cells, all of which must be empty
}

// cands[i] lists, in notation order, every move whose From is the cell with
// bit index i and that does not by its shape carry a marble off the board.
var cands [NumCells][]cand

func buildCands() {
	for i := 0; i < NumCells; i++ {
		from := Cell(i + 1)
		var list []cand
		for d := Direction(0); d < 6; d++ {
			if to := from.Neighbor(d); to != NoCell {
				list = append(list, cand{m: Move{From: from, To: to}, dir: uint8(d)})
			}
		}
		for a := East; a <= NorthWest; a++ {
			for size := 1; size <= 2; size++ {
				var group []Cell
				for c, k := from, 0; k <= size && c != NoCell; k++ {
					group = append(group, c)
					c = c.Neighbor(a)
				}
				if len(group) != size+1 {
					continue
				}
			dirs:
				for d := Direction(0); d < 6; d++ {
					if d == a || d == a.Opposite() {
						continue
					}
					c := cand{m: Move{From: from, To: from.Neighbor(d), End: group[size]}, dir: uint8(d), broad: true}
					for _, g := range group {
						to := g.Neighbor(d)
						if to == NoCell {
							continue dirs
						}
						c.group |= bitOf(g)
						c.dest |= bitOf(to)
					}
					list = append(list, c)
				}
			}
		}
		// Notation order: "xy" (in-line) < "xyz" (broadside) for the same
		// second cell; the second cell is To for in-line, End for broadside.
		sort.Slice(list, func(p, q int) bool { return notationLess(list[p].m, list[q].m) })
		cands[i] = list
	}
}

// notationLess orders moves by their Aba-Pro notation, in the same order as
// comparing m.String() (cells sort as their names do).
func notationLess(m, n Move) bool {
	if m.From != n.From {
		return m.From < n.From
	}
	m2, m3, n2, n3 := m.To, NoCell, n.To, NoCell
	if m.End != NoCell {
		m2, m3 = m.End, m.To
	}
	if n.End != NoCell {
		n2, n3 = n.End, n.To
	}
	if m2 != n2 {
		return m2 < n2
	}
	return m3 < n3
}

// inlineLegal reports whether the own marble at bit index i can move in line
// in direction d (alone, or as the trailing marble of 2 or 3, possibly pushing).
func inlineLegal(own, opp uint64, i int, d uint8) bool {
	j := nb[i][d]
	n := 1
	for j != off && own&(1<<j) != 0 {
		if n++; n > 3 {
			return false
		}
		j = nb[j][d]
	}
	if j == off {
		return false
	}
	if opp&(1<<j) == 0 {
		return true
	}
	k := 0
	for j != off && opp&(1<<j) != 0 {
		if k++; k >= n {
			return false
		}
		j = nb[j][d]
	}
	return j == off || own&(1<<j) == 0
}

// appendMoves appends every legal move of the side to move, ignoring whether
// the game is over, in notation order.
func (s *State) appendMoves(dst []Move) []Move {
	me := s.toMove & 1
	own, opp := s.board[me]&boardMask, s.board[me^1]&boardMask
	occ := own | opp
	for b := own; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		list := cands[i]
		for k := range list {
			c := &list[k]
			if c.broad {
				if own&c.group == c.group && occ&c.dest == 0 {
					dst = append(dst, c.m)
				}
			} else if inlineLegal(own, opp, i, c.dir) {
				dst = append(dst, c.m)
			}
		}
	}
	return dst
}

// countMoves returns len(s.appendMoves(nil)) without storing the moves.
func (s *State) countMoves() int {
	me := s.toMove & 1
	own, opp := s.board[me]&boardMask, s.board[me^1]&boardMask
	occ := own | opp
	n := 0
	for b := own; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		list := cands[i]
		for k := range list {
			c := &list[k]
			if c.broad {
				if own&c.group == c.group && occ&c.dest == 0 {
					n++
				}
			} else if inlineLegal(own, opp, i, c.dir) {
				n++
			}
		}
	}
	return n
}

// hasMove reports whether the side to move has any legal move (ignoring
// whether the game is over). A single marble next to an empty cell is enough,
// so this is almost always decided at the first marble.
func (s *State) hasMove() bool {
	me := s.toMove & 1
	own, opp := s.board[me]&boardMask, s.board[me^1]&boardMask
	for b := own; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		for d := uint8(0); d < 6; d++ {
			if inlineLegal(own, opp, i, d) {
				return true
			}
		}
	}
	return false
}

// maxMovesHint is the capacity LegalMoves starts with; positions from play
// have well under 128 moves (the German daisy start has 80).
const maxMovesHint = 128

// LegalMoves returns every legal move of the side to move, each once, sorted
// by Aba-Pro notation (the order of Move.String: by From in A1..I9 order,
// then the second cell, an in-line move before the broadsides that share its
// first two cells). It is empty (nil) exactly when the game is over (see
// Outcome). s does not change. For an invalid State (see Validate) the
// result is unspecified, but LegalMoves does not panic.
func (s State) LegalMoves() []Move {
	if s.over() {
		return nil
	}
	var buf [maxMovesHint]Move
	moves := s.appendMoves(buf[:0])
	if len(moves) == 0 {
		return nil
	}
	out := make([]Move, len(moves))
	copy(out, moves)
	return out
}

// AppendLegalMoves appends the moves LegalMoves returns to dst and returns
// the extended slice. It allocates only when dst lacks capacity, so a caller
// that reuses its slice (a search, perft) generates moves without allocating.
func (s State) AppendLegalMoves(dst []Move) []Move {
	if s.over() {
		return dst
	}
	return s.appendMoves(dst)
}
