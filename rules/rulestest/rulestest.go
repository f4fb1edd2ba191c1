// Package rulestest is the random-playout harness every rules engine runs in
// its tests: it plays seeded random games and checks, at every step, the
// invariants written down in package game.
package rulestest

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// State is the surface of an engine's State that the harness needs. S is the
// engine's State type and M its Move type.
type State[S any, M any] interface {
	Validate() error
	LegalMoves() []M
	Apply(M) (S, error)
	Outcome() game.Outcome
	String() string
}

// Move is the surface of an engine's Move that the harness needs.
type Move interface {
	comparable
	String() string
}

// Config tells RandomPlayouts how to drive one game.
type Config[S State[S, M], M Move] struct {
	// Start returns the initial state of game number i (i from 0).
	Start func(i int, r *rand.Rand) S
	// ParseState parses a state's text form (the inverse of S.String).
	ParseState func(string) (S, error)
	// ParseMove parses a move's notation in state s (the inverse of M.String).
	ParseMove func(s S, text string) (M, error)
	// MaxPlies bounds a game's length; a longer game fails the test.
	MaxPlies int
	// Check, when set, is called on every state reached (extra per-game invariants).
	Check func(t testing.TB, s S)
}

// RandomPlayouts plays n games with random legal moves from a PCG seeded by
// seed, and checks at every state: Validate passes; the text form
// round-trips; LegalMoves has no duplicates and is empty exactly when
// Outcome is finished; each move's notation round-trips through ParseMove;
// Apply does not change its receiver; the game ends within MaxPlies.
// It returns the number of plies played in all.
func RandomPlayouts[S State[S, M], M Move](t testing.TB, n int, seed uint64, cfg Config[S, M]) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	total := 0
	for g := 0; g < n; g++ {
		s := cfg.Start(g, r)
		for ply := 0; ; ply++ {
			if err := s.Validate(); err != nil {
				t.Fatalf("game %d ply %d: Validate(%s) = %v", g, ply, s, err)
			}
			text := s.String()
			if cfg.ParseState != nil && (ply < 10 || ply&(ply-1) == 0) {
				back, err := cfg.ParseState(text)
				if err != nil {
					t.Fatalf("game %d ply %d: ParseState(%q) = %v", g, ply, text, err)
				}
				if back.String() != text {
					t.Fatalf("game %d ply %d: ParseState(%q).String() = %q", g, ply, text, back.String())
				}
			}
			if cfg.Check != nil {
				cfg.Check(t, s)
			}
			moves := s.LegalMoves()
			out := s.Outcome()
			if out.Finished != (len(moves) == 0) {
				t.Fatalf("game %d ply %d: %s: Outcome().Finished = %v with %d legal moves", g, ply, text, out.Finished, len(moves))
			}
			if out.Finished {
				break
			}
			if ply >= cfg.MaxPlies {
				t.Fatalf("game %d: not finished after %d plies: %s", g, ply, text)
			}
			seen := make(map[M]bool, len(moves))
			for _, m := range moves {
				if seen[m] {
					t.Fatalf("game %d ply %d: %s: move %v listed twice", g, ply, text, m)
				}
				seen[m] = true
			}
			m := moves[r.IntN(len(moves))]
			if cfg.ParseMove != nil {
				back, err := cfg.ParseMove(s, m.String())
				if err != nil || back != m {
					t.Fatalf("game %d ply %d: %s: ParseMove(%q) = %v, %v; want %v", g, ply, text, m.String(), back, err, m)
				}
			}
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("game %d ply %d: %s: Apply(%v) = %v", g, ply, text, m, err)
			}
			if s.String() != text {
				t.Fatalf("game %d ply %d: Apply changed its receiver: %q became %q", g, ply, text, s.String())
			}
			s = next
			total++
		}
		var zero M
		if _, err := s.Apply(zero); err == nil || !errors.Is(err, game.ErrGameOver) {
			t.Fatalf("game %d: Apply on a finished game = %v; want an error wrapping game.ErrGameOver", g, err)
		}
	}
	return total
}
