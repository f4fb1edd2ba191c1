package gravitytrap

import (
	"math/bits"
	"math/rand/v2"

	"github.com/gamerules/gamerules/rules/game"
)

// Scores of a flight for GreedyMove, best first; a flight that neither
// wins nor loses at once scores its room (see GreedyMove) between
// greedyLoseNext and greedyWin.
const (
	greedyWin      = 1 << 20  // the other ship is trapped: the mover wins
	greedyLoseNext = -1 << 10 // the other ship can trap the mover next
	greedyLose     = -1 << 20 // the mover's own ship is trapped: he loses
)

// GreedyMove is the greedy playout policy (spec "Greedy playout policy"):
// it returns the legal move of s the policy plays, the state after it, and
// true; false when s has no legal move (a finished game). Ties are broken
// uniformly with rng; s is not changed. It looks one flight of each ship
// ahead on the state's bitboards, so a ply costs a few bit operations per
// legal move beside LegalMoves' own work:
//
//   - a flight after which the other ship has no marble to fly to traps it
//     and wins: it is played first;
//   - a flight after which the mover's own ship has none loses at once
//     (the player who made his last move loses): it is played last;
//   - a flight that leaves the mover's ship a single marble the other ship
//     can take while keeping a flight of its own lets the other trap the
//     mover next: played only when nothing else is left;
//   - among the rest, the most room: the marbles the mover's ship can still
//     reach less the other ship's.
//
// In set-up the first ship goes on the station whose lines reach the most
// stations; the second placement, after which the marbles go on, is scored
// as a flight: it wins if it leaves the first ship no marble to fly to, is
// played last if it leaves its own ship none, and otherwise leaves the
// most room.
func (s State) GreedyMove(rng *rand.Rand) (Move, State, bool) {
	moves := s.LegalMoves()
	if len(moves) == 0 {
		return Move{}, State{}, false
	}
	var pick game.Choice
	for i, m := range moves {
		pick.Offer(i, s.greedyScore(m), rng)
	}
	next, err := s.Apply(moves[pick.Index()])
	if err != nil {
		return Move{}, State{}, false // not reached: a listed move applies
	}
	return moves[pick.Index()], next, true
}

// greedyScore is GreedyMove's score of the legal move m of s.
func (s *State) greedyScore(m Move) int {
	b := s.board
	t := m.Station
	if s.placing {
		o := s.ship[1-s.toAct]
		if o == NoStation {
			return bits.OnesCount64(b.reach[t])
		}
		// The last placement: the marbles go on every other station, the
		// first ship moves next, and the result is scored as a flight's
		// (State.result): the placer stuck loses, else the first ship stuck
		// wins, else the room, the marbles the placer reaches less the
		// first ship's (neither ship's station counted; the first ship's
		// reach is the same for every placement but the one next to it).
		marbles := b.all &^ (1 << t) &^ (1 << o)
		mine, theirs := b.reach[t]&marbles, b.reach[o]&marbles
		switch {
		case mine == 0:
			return greedyLose
		case theirs == 0:
			return greedyWin
		}
		return bits.OnesCount64(mine) - bits.OnesCount64(theirs)
	}
	marbles := s.marbles &^ (1 << t)
	mine := b.reach[t] & marbles
	theirs := b.reach[s.ship[1-s.toAct]] & marbles
	switch {
	case mine == 0:
		return greedyLose
	case theirs == 0:
		return greedyWin
	}
	if bits.OnesCount64(mine) == 1 && theirs&mine != 0 {
		// The other ship may take the mover's last marble; it traps him
		// if it keeps a flight of its own from there.
		u := bits.TrailingZeros64(mine)
		if b.reach[u]&(marbles&^(1<<u)) != 0 {
			return greedyLoseNext
		}
	}
	return bits.OnesCount64(mine) - bits.OnesCount64(theirs)
}
