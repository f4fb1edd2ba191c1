// Package rulestest is the random-playout harness every rules engine runs in
// its tests: it plays seeded random games and checks, at every step, the
// invariants written down in package game (RandomPlayouts; every variant,
// backgammon's cube and match included, through Config's hooks). It also
// holds the test scaffolding the engines share: the text-form checks
// against the legacy string code (CheckTexts, CheckStateTexts), the
// notation benchmark (BenchNotation), the greedy policy's match against
// the random one (HeadToHead) and RaceEnabled.
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
	// Position, when set, rebuilds s from its typed form
	// (FromPosition(s.Position())); the result must have s's text form.
	Position func(s S) (S, error)
	// Continues, when set, reports whether a finished s goes on to a further
	// game in the same play (backgammon: State.SessionGoesOn, a finished game
	// inside an unfinished match). Such a state must list moves, and each
	// of them starts a game that is not finished. Unset: never.
	Continues func(s S) bool
	// Choose, when set, picks the move to play in s from moves (its legal
	// moves, never empty) with r; it must return one of them. Unset: a
	// uniformly random one.
	Choose func(s S, moves []M, r *rand.Rand) M
	// Step, when set, is called after every move m with the state before and
	// the state after it (per-transition invariants, statistics).
	Step func(t testing.TB, s S, m M, next S)
	// End, when set, is called with the last state of game number i, where
	// play is over.
	End func(t testing.TB, i int, s S)
}

// RandomPlayouts plays n games with random legal moves from a PCG seeded by
// seed, and checks at every state the invariants of package game: Validate
// passes; the text form and the typed form (Config.Position) round-trip;
// LegalMoves has no duplicates and is empty exactly when Outcome is
// finished and the play does not continue (Config.Continues: a match's
// next game); each move's notation round-trips through ParseMove; Apply
// does not change its receiver; once play is over Apply of the zero Move
// fails with game.ErrGameOver (on a finished game that continues, with
// game.ErrIllegalMove); the play ends within MaxPlies. A "game" here
// is a whole play from Start, so a backgammon match is one.
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
			if cfg.Position != nil {
				back, err := cfg.Position(s)
				if err != nil || back.String() != text {
					t.Fatalf("game %d ply %d: FromPosition(%s.Position()) = %v, %v", g, ply, text, back, err)
				}
			}
			if cfg.Check != nil {
				cfg.Check(t, s)
			}
			moves := s.LegalMoves()
			out := s.Outcome()
			goesOn := out.Finished && cfg.Continues != nil && cfg.Continues(s)
			if (out.Finished && !goesOn) != (len(moves) == 0) {
				t.Fatalf("game %d ply %d: %s: Outcome().Finished = %v, continues %v, with %d legal moves", g, ply, text, out.Finished, goesOn, len(moves))
			}
			if out.Finished {
				checkGameOver(t, g, ply, s, moves, goesOn)
			}
			if len(moves) == 0 {
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
			var m M
			if cfg.Choose != nil {
				if m = cfg.Choose(s, moves, r); !seen[m] {
					t.Fatalf("game %d ply %d: %s: Choose gave %v, which is not a legal move", g, ply, text, m)
				}
			} else {
				m = moves[r.IntN(len(moves))]
			}
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
			if goesOn && next.Outcome().Finished {
				t.Fatalf("game %d ply %d: %s: %v, the move to the next game, gave the finished %s", g, ply, text, m, next)
			}
			if cfg.Step != nil {
				cfg.Step(t, s, m, next)
			}
			s = next
			total++
		}
		if cfg.End != nil {
			cfg.End(t, g, s)
		}
	}
	return total
}

// checkGameOver checks that Apply on the finished s refuses the zero Move
// (unless it is listed) with an error wrapping game.ErrGameOver, or
// game.ErrIllegalMove when play goes on to a further game.
func checkGameOver[S State[S, M], M Move](t testing.TB, g, ply int, s S, moves []M, goesOn bool) {
	t.Helper()
	var zero M
	for _, m := range moves {
		if m == zero {
			return
		}
	}
	want := game.ErrGameOver
	if goesOn {
		want = game.ErrIllegalMove
	}
	if _, err := s.Apply(zero); err == nil || !errors.Is(err, want) {
		t.Fatalf("game %d ply %d: Apply on the finished %s = %v; want an error wrapping %v", g, ply, s, err, want)
	}
}
