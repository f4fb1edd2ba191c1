package abalone

import (
	"math/bits"
	"math/rand/v2"

	"github.com/gamerules/gamerules/rules/game"
)

// Weights of GreedyMove's count (spec "Greedy playout policy").
const (
	greedyPushOff = 1000 // an opposing marble pushed off the board
	greedyTheirs  = 3    // the weight of the opponent's centrality against the mover's
)

// ringMask[r] has a bit for each cell at r steps from the centre cell E5
// (r = 0..4; ring 4 is the edge).
var ringMask = func() (m [5]uint64) {
	// Cells in bit order, row by row from its lowest number up (as
	// board.go's tables, which package init fills after this variable).
	i := 0
	for r := 0; r < 9; r++ {
		for n := rowLo[r]; n <= rowHi[r]; n++ {
			dr, dn := r-4, n-5
			d := max(abs(dr), abs(dn))
			if (dr < 0) != (dn < 0) && dr != 0 && dn != 0 {
				d = abs(dr) + abs(dn)
			}
			m[d] |= 1 << i
			i++
		}
	}
	return m
}()

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// centrality is the sum over the marbles of b of their closeness to the
// centre: 4 on E5, down to 0 on the edge.
func centrality(b uint64) int {
	c := 0
	for r := 0; r < 4; r++ {
		c += (4 - r) * bits.OnesCount64(b&ringMask[r])
	}
	return c
}

// GreedyMove is the greedy playout policy (spec "Greedy playout policy"):
// it returns the legal move of s the policy plays, the state after it, and
// true; false when s has no legal move (a finished game). Ties are broken
// uniformly with rng; s is not changed.
//
// It plays a move that pushes an opposing marble off the board when there
// is one, and otherwise (and among those) the move that best keeps the
// mover's marbles in the centre and drives the opponent's toward the edge:
// the mover's centrality less three times the opponent's, where each
// marble counts 4 on E5 down to 0 on the edge (1,000 per marble pushed
// off). A marble kept off the edge cannot be pushed off, a compact centre
// group out-numbers the opponent's lines, and a marble pushed to the edge
// is the next one off: the maxims of Abalone strategy. A random player
// walks its marbles to the edge, where they are pushed off. Weighing the
// opponent's marbles thrice makes greedy players attack, so that two of
// them mostly end their games (from the classic start, in 78 to 80 plies
// on average) instead of shuffling in the centre; not always: about 0.4%
// of such games are still going after 10,000 plies (spec). Each legal move is made once without its legality check, as a
// random ply's Apply makes it once with the check.
func (s State) GreedyMove(rng *rand.Rand) (Move, State, bool) {
	if err := s.Validate(); err != nil || s.over() {
		return Move{}, State{}, false
	}
	moves := s.LegalMoves()
	if len(moves) == 0 {
		return Move{}, State{}, false
	}
	me := s.toMove & 1
	oppBefore := bits.OnesCount64(s.board[me^1])
	var pick game.Choice
	var bestNext State
	for i, m := range moves {
		next, err := s.play(m)
		if err != nil {
			continue // not reached: a listed move is legal
		}
		sc := greedyPushOff*(oppBefore-bits.OnesCount64(next.board[me^1])) + centrality(next.board[me]) - greedyTheirs*centrality(next.board[me^1])
		if pick.Offer(i, sc, rng) {
			bestNext = next
		}
	}
	best := pick.Index()
	if best < 0 {
		return Move{}, State{}, false
	}
	return moves[best], bestNext, true
}
