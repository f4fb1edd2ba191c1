package labyrinth_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	lab "github.com/gamerules/gamerules/rules/labyrinth"
)

// fuzzSeeds are text forms from set-up, random play, views and a finished game.
func fuzzSeeds(t testing.TB) []string {
	var out []string
	r := rand.New(rand.NewPCG(11, 12))
	for v := 0; v < 8; v++ {
		s := mustNew(t, lab.Options{Players: 2 + v%3, Seed: uint64(v), Variants: lab.Variants{Vader: v&1 != 0, OpenCards: v&2 != 0, NoReturn: v&4 != 0}})
		out = append(out, s.String(), s.View(0).String())
		for ply := 0; s.Phase() != lab.PhaseOver; ply++ {
			if ply == 31 || ply == 200 {
				out = append(out, s.String(), s.View(-1).String())
			}
			ms := s.LegalMoves()
			s, _ = s.Apply(ms[r.IntN(len(ms))])
		}
		out = append(out, s.String())
	}
	return out
}

// FuzzParseState: ParseState never panics; what it accepts prints back
// exactly, and a playable result plays.
func FuzzParseState(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Add("")
	f.Add("6 5 R11 - Rs : -")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := lab.ParseState(text)
		if err != nil {
			var pe *game.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("ParseState(%q) = %v; want a *game.ParseError wrapping ErrInvalidState", text, err)
			}
			return
		}
		if got := s.String(); got != text {
			t.Fatalf("ParseState(%q).String() = %q", text, got)
		}
		if err := s.Validate(); err != nil {
			if !s.IsView() {
				t.Fatalf("ParseState(%q) accepted a state that Validate refuses: %v", text, err)
			}
			return
		}
		for _, m := range s.LegalMoves() {
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("%q: Apply(%v) = %v", text, m, err)
			}
			if err := next.Validate(); err != nil {
				t.Fatalf("%q: after %v: %v", text, m, err)
			}
		}
	})
}

// FuzzApply plays a move list (in notation, space-separated) from a seeded
// set-up: Apply never panics, refuses with a game error, and every state
// it returns validates and round-trips.
func FuzzApply(f *testing.F) {
	f.Add(uint64(0), uint8(2), uint8(0), "N2 r1c1 S2 N4:3 r7c7")
	f.Add(uint64(7), uint8(4), uint8(1), "W4:2 V:r4c4 r1c1 E6 r1c7")
	f.Add(uint64(9), uint8(3), uint8(7), "S6:1 r1c2 N6 r1c7 X r9c9 V:r1c1")
	f.Fuzz(func(t *testing.T, seed uint64, players, variants uint8, moves string) {
		s, err := lab.New(lab.Options{Players: int(players), Seed: seed, Variants: lab.Variants{Vader: variants&1 != 0, OpenCards: variants&2 != 0, NoReturn: variants&4 != 0}})
		if err != nil {
			if !errors.Is(err, game.ErrInvalidOptions) {
				t.Fatalf("New = %v; want ErrInvalidOptions", err)
			}
			return
		}
		for _, text := range strings.Fields(moves) {
			m, err := lab.ParseMove(s, text)
			if err != nil {
				if !errors.Is(err, game.ErrIllegalMove) {
					t.Fatalf("ParseMove(%q) = %v", text, err)
				}
				continue
			}
			next, err := s.Apply(m)
			if err != nil {
				if !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrGameOver) {
					t.Fatalf("%v: Apply(%v) = %v; want ErrIllegalMove or ErrGameOver", s, m, err)
				}
				continue
			}
			if err := next.Validate(); err != nil {
				t.Fatalf("%v: after %v: %v", s, m, err)
			}
			if back, err := lab.ParseState(next.String()); err != nil || back != next {
				t.Fatalf("ParseState(%q) = %v, %v", next, back, err)
			}
			s = next
		}
	})
}
