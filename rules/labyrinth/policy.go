package labyrinth

import (
	"math/rand/v2"

	"github.com/gamerules/gamerules/rules/game"
)

// greedyFind is GreedyMove's score of a figure move that finds a card (or
// brings the ship home to win); any other move scores minus its distance
// to the nearest such square.
const greedyFind = 100

// GreedyMove is the greedy playout policy (spec "Greedy playout policy"):
// it returns the legal move of s the policy plays, the state after it, and
// true; false when s has no legal move (a finished game, a view). Ties are
// broken uniformly with rng; s is not changed.
//
// In the move phase it moves the figure onto a square that finds one of
// the player's cards (his current card; any unfound one with open cards;
// a Vader card by Darth Vader only), or, with every card found, brings the
// ship home; otherwise it moves the figure to the reachable square nearest
// (in rows plus columns) to such a square. A random player finds his card
// only when its square happens to be drawn among the ten or twenty it can
// reach. The shift is drawn uniformly: judging the 44 to 48 shifts would
// cost a flood of the board each, dozens of random plies. A move-phase ply
// costs one scan of the 49 squares and a distance per legal move beside
// LegalMoves and Apply, which a random ply also makes.
func (s State) GreedyMove(rng *rand.Rand) (Move, State, bool) {
	moves := s.LegalMoves()
	if len(moves) == 0 {
		return Move{}, State{}, false
	}
	best := rng.IntN(len(moves))
	if s.phase == PhaseMove {
		best = s.greedyFigure(moves, rng)
	}
	next, err := s.Apply(moves[best])
	if err != nil {
		return Move{}, State{}, false // not reached: a listed move applies
	}
	return moves[best], next, true
}

// greedyFigure is GreedyMove's choice among the figure moves of s.
func (s *State) greedyFigure(moves []Move, rng *rand.Rand) int {
	p := int(s.turn)
	// goals[v]: the squares where the ship (v = 0) or Vader (v = 1) finds
	// a card, or the ship's home once every card is found.
	var goalArr [2][NumTargets]Square
	goals := [2][]Square{goalArr[0][:0], goalArr[1][:0]}
	lo, hi := s.found[p], s.count[p]
	if lo == hi {
		goals[0] = append(goals[0], s.colors[p].Start())
	} else {
		if !s.variants.OpenCards {
			hi = lo + 1
		}
		for q := Square(0); q < NumSquares; q++ {
			t := s.board[q].Target
			if t == 0 {
				continue
			}
			for i := lo; i < hi; i++ {
				if s.cards[p][i] == t {
					v := 0
					if s.vaderCard(t) {
						v = 1
					}
					goals[v] = append(goals[v], q)
					break
				}
			}
		}
	}
	var pick game.Choice
	for i, m := range moves {
		v := 0
		if m.Vader {
			v = 1
		}
		sc := -2 * NumSquares // no goal on the board (the card is on the spare)
		for _, g := range goals[v] {
			d := abs(g.Row()-m.To.Row()) + abs(g.Col()-m.To.Col())
			if d == 0 {
				sc = greedyFind
				break
			}
			sc = max(sc, -d)
		}
		pick.Offer(i, sc, rng)
	}
	return pick.Index()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
