package service

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gamerules/gamerules/rules/game"
)

// searcher is what Expand and Playout need of a Position, on the rules
// values themselves rather than on messages: every game's Position
// implements it (one line each in service/<game>.go, through
// childrenOf and playRandom).
type searcher interface {
	// children returns the positions after each legal move, in
	// LegalMoves' order (the same moves, the same count). Errors are
	// engine bugs (a listed move that does not apply).
	children() ([]Position, error)
	// playout plays one game from the position with rng: legal moves by
	// the policy pol (uniformly random, or the game's greedy one), chance
	// outcomes drawn by their probability. first >= 0 makes the first move
	// the first-th legal move (a decision, not a chance point); otherwise
	// it is chosen as any other. It stops at the end of the game (a
	// finished game inside a backgammon match ends it too) or after
	// maxPlies plies. With record, it keeps the moves' notations.
	playout(rng *rand.Rand, pol policy, first, maxPlies int, record bool) (playedGame, error)
	// turn is the player (0-based) to act; meaningful only where the
	// game is not over and the moves are not chance outcomes.
	turn() int
}

// playedGame is one game of a playout.
type playedGame struct {
	// plies is how many plies were played.
	plies int
	// first is the index of the first move in LegalMoves' order of the
	// start (-1 when the start was over).
	first int
	// out is the outcome of the last state; out.Finished false when the
	// game was stopped at its ply cap.
	out game.Outcome
	// moves are the notations, with record.
	moves []string
}

// rulesState is the surface of an engine's State that childrenOf and
// playRandom use (see package game).
type rulesState[S any, M comparable] interface {
	LegalMoves() []M
	Apply(M) (S, error)
	Outcome() game.Outcome
}

// childrenOf implements searcher.children for a rules state s: each legal
// move applied, wrapped by wrap.
func childrenOf[S rulesState[S, M], M comparable](name string, s S, wrap func(S) Position) ([]Position, error) {
	moves := s.LegalMoves()
	out := make([]Position, len(moves))
	for i, m := range moves {
		next, err := s.Apply(m)
		if err != nil {
			return nil, fmt.Errorf("%s: listed move %v does not apply: %v", name, m, err)
		}
		out[i] = wrap(next)
	}
	return out, nil
}

// policy is how a playout's players choose their moves
// (PlayoutRequest.policy).
type policy uint8

const (
	policyRandom policy = iota // uniformly among the legal moves
	policyGreedy               // the game's GreedyMove (rules/<game>)
)

// greedyFunc is a rules package's greedy playout policy: the move it plays
// in s, the state after it, and false when s has no legal move. Its ties
// are broken with the generator it is given.
type greedyFunc[S, M any] func(s S, rng *rand.Rand) (M, S, bool)

// playoutRules is what playRandom needs of a rules package beyond the
// State's own methods (rulesState).
type playoutRules[S, M any] struct {
	// name is the game's id, for the errors.
	name string
	// greedy is the game's greedy policy (State.GreedyMove).
	greedy greedyFunc[S, M]
	// draw, when not nil, serves the chance points: it returns the drawn
	// outcome and true there, false elsewhere.
	draw func(S, *rand.Rand) (M, bool)
	// appendMoves, when not nil, is the State's AppendLegalMoves, which
	// lists a ply's moves into one reused slice; nil: LegalMoves.
	appendMoves func(S, []M) []M
	// applyListed, when not nil, applies a move of the state's own list
	// (or a drawn outcome) without checking it again
	// (backgammon.State.ApplyListed: its Apply would validate the state
	// and generate the plays again), so that a ply generates its moves
	// once; nil: Apply.
	applyListed func(S, M) S
}

// playRandom implements searcher.playout for a rules state s by the rules
// r: at a chance point (r.draw) the drawn outcome, elsewhere a legal move
// chosen by the policy (pol: with greedy the game's greedy policy, which
// returns the state after its move itself; uniformly at random
// otherwise).
func playRandom[S rulesState[S, M], M interface {
	comparable
	String() string
}](r playoutRules[S, M], s S, rng *rand.Rand, pol policy, first, maxPlies int, record bool) (playedGame, error) {
	g := playedGame{first: -1}
	name, greedy, draw := r.name, r.greedy, r.draw
	if pol != policyGreedy {
		greedy = nil
	}
	var moves []M
	for ply := 0; ; ply++ {
		out := s.Outcome()
		if out.Finished {
			g.out = out
			return g, nil
		}
		if ply >= maxPlies {
			g.out = out
			g.out.Finished = false
			return g, nil
		}
		var m M
		chance := false
		if draw != nil {
			m, chance = draw(s, rng)
		}
		if ply == 0 || (!chance && greedy == nil) {
			if r.appendMoves != nil && moves != nil {
				// Into the first ply's list (which LegalMoves sizes).
				moves = r.appendMoves(s, moves[:0])
			} else {
				moves = s.LegalMoves()
			}
			if len(moves) == 0 {
				// Not finished, yet no move: an engine bug.
				return g, fmt.Errorf("%s: playout: no legal move in an unfinished state", name)
			}
		}
		var next S
		applied := false
		switch {
		case chance && ply == 0:
			g.first = slices.Index(moves, m)
		case chance:
		case ply == 0 && first >= 0 && first < len(moves):
			m, g.first = moves[first], first
		case greedy != nil:
			var ok bool
			if m, next, ok = greedy(s, rng); !ok {
				return g, fmt.Errorf("%s: playout: no greedy move in an unfinished state", name)
			}
			applied = true
			if ply == 0 {
				g.first = slices.Index(moves, m)
			}
		default:
			i := rng.IntN(len(moves))
			m = moves[i]
			if ply == 0 {
				g.first = i
			}
		}
		switch {
		case applied:
		case r.applyListed != nil:
			next = r.applyListed(s, m)
		default:
			var err error
			if next, err = s.Apply(m); err != nil {
				return g, fmt.Errorf("%s: playout: move %v does not apply: %v", name, m, err)
			}
		}
		if record {
			g.moves = append(g.moves, m.String())
		}
		s = next
		g.plies++
	}
}
