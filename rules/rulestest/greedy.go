package rulestest

import (
	"math/rand/v2"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// Duel tells HeadToHead how to play one game between an engine's greedy
// playout policy and the uniformly random one.
type Duel[S State[S, M], M Move] struct {
	// Start returns the initial state of game number i (a two-player game).
	Start func(i int) S
	// Greedy is the engine's GreedyMove.
	Greedy func(s S, r *rand.Rand) (M, S, bool)
	// Chance, when not nil, draws the outcome of a chance point (true), or
	// reports that s is a decision (false).
	Chance func(s S, r *rand.Rand) (M, bool)
	// ToAct is the player (0 or 1) who chooses the move in s.
	ToAct func(s S) int
	// MaxPlies stops a game still going (counted unfinished).
	MaxPlies int
}

// Record is the tally of HeadToHead.
type Record struct {
	Games, GreedyWins, RandomWins, Draws, Unfinished int
}

// HeadToHead plays games seeded games between the greedy policy and the
// random one, the greedy player taking seat 0 in even games and seat 1 in
// odd ones, and returns the tally. Every move is checked against
// LegalMoves and applied by Apply, so a greedy move that is not legal, or a
// state after it that Apply would not give, fails t.
func HeadToHead[S interface {
	State[S, M]
	comparable
}, M Move](t testing.TB, games int, seed uint64, d Duel[S, M]) Record {
	t.Helper()
	rec := Record{Games: games}
	for g := 0; g < games; g++ {
		r := rand.New(rand.NewPCG(seed, uint64(g)))
		s := d.Start(g)
		greedySeat := g % 2
		ply := 0
		for ; ply < d.MaxPlies && !s.Outcome().Finished; ply++ {
			if d.Chance != nil {
				if m, ok := d.Chance(s, r); ok {
					next, err := s.Apply(m)
					if err != nil {
						t.Fatalf("game %d ply %d: chance %v: %v", g, ply, m, err)
					}
					s = next
					continue
				}
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				t.Fatalf("game %d ply %d: %v is not finished but has no legal move", g, ply, s)
			}
			if d.ToAct(s) != greedySeat {
				next, err := s.Apply(moves[r.IntN(len(moves))])
				if err != nil {
					t.Fatalf("game %d ply %d: %v", g, ply, err)
				}
				s = next
				continue
			}
			m, next, ok := d.Greedy(s, r)
			if !ok {
				t.Fatalf("game %d ply %d: no greedy move in %v", g, ply, s)
			}
			legal := false
			for _, x := range moves {
				legal = legal || x == m
			}
			want, err := s.Apply(m)
			if !legal || err != nil || want != next {
				t.Fatalf("game %d ply %d: greedy move %v in %v: listed %v, Apply %v; the state after it %v, Apply gives %v", g, ply, m, s, legal, err, next, want)
			}
			s = next
		}
		out := s.Outcome()
		switch {
		case !out.Finished:
			rec.Unfinished++
		case out.Winner == game.NoWinner:
			rec.Draws++
		case out.Winner == greedySeat:
			rec.GreedyWins++
		default:
			rec.RandomWins++
		}
	}
	return rec
}
