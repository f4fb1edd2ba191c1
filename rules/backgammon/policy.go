package backgammon

import (
	"math/rand/v2"

	"github.com/gamerules/gamerules/rules/game"
)

// Weights of GreedyMove's count (spec "Greedy playout policy").
const (
	greedyHit      = 10 // an opponent's checker on the bar
	greedyOff      = 5  // a checker of the mover's borne off
	greedyHomeMade = 3  // a point of the mover's home board held by two or more
	greedyMade     = 1  // any other point held by two or more
	greedyBlot     = -4 // a single checker of the mover's that an opponent's checker could hit
)

// GreedyMove is the greedy playout policy (spec "Greedy playout policy"):
// it returns the legal move of s the policy plays, the state after it, and
// true; false at a chance point (PhaseOpening and PhaseRoll: the caller
// draws the roll with RollDice, so the policy never doubles nor resigns
// before rolling) and when s has no legal move (a finished game that ends
// the session). Ties are broken uniformly with rng; s is not changed.
//
// In PhaseMove it plays the play whose resulting position counts best for
// the mover: 10 per opponent checker on the bar, 5 per checker borne off,
// 3 per home-board point made, 1 per other point made, −4 per blot an
// opponent checker behind it could hit. Elsewhere (PhaseDouble: take, drop
// or beaver; PhaseResign: accept or decline; the next game of a match) it
// picks uniformly among the legal moves other than a resignation, and it
// never offers to resign while another move is legal. Its cost is
// LegalMovesWithResults and a pass over the 25 points per play: the
// results of plays are applied without a legality check (as a random
// playout's ply applies its pick with ApplyListed, not Apply).
func (s State) GreedyMove(rng *rand.Rand) (Move, State, bool) {
	if ph := s.Phase(); ph == PhaseOpening || ph == PhaseRoll {
		return Move{}, State{}, false
	}
	moves, next := s.LegalMovesWithResults()
	if len(moves) == 0 {
		return Move{}, State{}, false
	}
	var pick game.Choice
	for i, m := range moves {
		sc := 0
		switch m.kind {
		case KindPlay:
			sc = greedyCount(&next[i].board, int(s.turn))
		case KindResign:
			sc = -1 << 30 // only when nothing else is legal
		}
		pick.Offer(i, sc, rng)
	}
	best := pick.Index()
	return moves[best], next[best], true
}

// greedyCount is GreedyMove's count of board for player me.
func greedyCount(board *[2][25]uint8, me int) int {
	my, op := &board[me], &board[1-me]
	// The opponent moves from the mover's low points to his high ones (an
	// opponent's checker on its own slot k stands on the mover's point
	// 24-k) and enters from the bar on the mover's points 1..6, so a blot
	// on a point above low, the mover's point of the opponent's rearmost
	// checker (0 for one on the bar, 25 for none), could be hit.
	low := 25
	if op[24] > 0 {
		low = 0
	} else {
		for k := 23; k >= 0; k-- {
			if op[k] > 0 {
				low = 24 - k
				break
			}
		}
	}
	sc := greedyHit * int(op[24])
	on := int(my[24])
	for i := 0; i < 24; i++ {
		n := int(my[i])
		on += n
		switch {
		case n >= 2 && i < 6:
			sc += greedyHomeMade
		case n >= 2:
			sc += greedyMade
		case n == 1 && i+1 > low:
			sc += greedyBlot
		}
	}
	return sc + greedyOff*(Checkers-on)
}
