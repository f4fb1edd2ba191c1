package abalone

import (
	"math/bits"
	"sort"
)

// entry groups, for one From cell, the candidate moves that share the
// second cell of their notation: the in-line move towards that cell (when it
// is a neighbour) and the broadsides of the group ending there (when one
// fits on the board). Within an entry the in-line move sorts first and the
// broadsides by their third cell, so scanning the entries in order yields
// moves in notation order.
type entry struct {
	inline bool   // whether there is an in-line move towards the second cell
	dir    uint8  // its direction
	inMove Move   // the in-line move
	nb     uint8  // number of broadsides (0..4)
	group  uint64 // the broadsides' group: From through the second cell
	dest   [4]uint64
	bmove  [4]Move
}

// entries[i] lists the entries of the cell with bit index i, in notation
// order. Moves that carry a marble off the board by their shape alone are
// left out.
var entries [NumCells][]entry

func buildCands() {
	for i := 0; i < NumCells; i++ {
		from := Cell(i + 1)
		bySecond := map[Cell]*entry{}
		get := func(c Cell) *entry {
			if e, ok := bySecond[c]; ok {
				return e
			}
			e := &entry{}
			bySecond[c] = e
			return e
		}
		for d := Direction(0); d < 6; d++ {
			if to := from.Neighbor(d); to != NoCell {
				e := get(to)
				e.inline, e.dir, e.inMove = true, uint8(d), Move{From: from, To: to}
			}
		}
		for a := East; a <= NorthWest; a++ {
			group := []Cell{from}
			for size := 1; size <= 2; size++ {
				next := group[size-1].Neighbor(a)
				if next == NoCell {
					break
				}
				group = append(group, next)
				var bs []Move
				var dests []uint64
			dirs:
				for d := Direction(0); d < 6; d++ {
					if d == a || d == a.Opposite() {
						continue
					}
					var dest uint64
					for _, g := range group {
						to := g.Neighbor(d)
						if to == NoCell {
							continue dirs
						}
						dest |= bitOf(to)
					}
					bs = append(bs, Move{From: from, To: from.Neighbor(d), End: next})
					dests = append(dests, dest)
				}
				if len(bs) == 0 {
					continue
				}
				e := get(next)
				for _, g := range group {
					e.group |= bitOf(g)
				}
				// Broadsides of one group sort by their third cell, To.
				order := make([]int, len(bs))
				for k := range order {
					order[k] = k
				}
				sort.Slice(order, func(p, q int) bool { return bs[order[p]].To < bs[order[q]].To })
				for _, k := range order {
					e.bmove[e.nb], e.dest[e.nb] = bs[k], dests[k]
					e.nb++
				}
			}
		}
		var seconds []Cell
		for c := range bySecond {
			seconds = append(seconds, c)
		}
		sort.Slice(seconds, func(p, q int) bool { return seconds[p] < seconds[q] })
		for _, c := range seconds {
			entries[i] = append(entries[i], *bySecond[c])
		}
	}
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
		list := entries[i]
		for k := range list {
			e := &list[k]
			if e.inline && inlineLegal(own, opp, i, e.dir) {
				dst = append(dst, e.inMove)
			}
			if e.nb > 0 && own&e.group == e.group {
				for j := uint8(0); j < e.nb; j++ {
					if occ&e.dest[j] == 0 {
						dst = append(dst, e.bmove[j])
					}
				}
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
		list := entries[i]
		for k := range list {
			e := &list[k]
			if e.inline && inlineLegal(own, opp, i, e.dir) {
				n++
			}
			if e.nb > 0 && own&e.group == e.group {
				for j := uint8(0); j < e.nb; j++ {
					if occ&e.dest[j] == 0 {
						n++
					}
				}
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
