package backgammon

import (
	"errors"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

var fuzzStates = []string{
	white31, openingID, "4HPwATDgc/ABMA:cAkAAAAAAAAE", "6wQQ00G/B48AAA:MAELAAAAAAAE",
	"AAAABgAAAAAAAA:MAIAAAAAAAAE", startID, "lK/gADScXsEBSA:MAEKAAAAAAAE",
	"DQ/VIBiMny4AQg:cIkSAQAAAAAE",
}

// FuzzParseState: no input panics; what parses is valid and round-trips.
func FuzzParseState(f *testing.F) {
	for _, s := range fuzzStates {
		f.Add(s)
	}
	f.Add("4HPwATDgc/ABMA:")
	f.Add(":MIEFAAAAAAAE")
	f.Add("////////////8A:MIEFAAAAAAAE")
	f.Add("sGfwATDgc/ABMA:ExEAAAAAAAAA cube beavers beaver_count=3") // a third beaver
	f.Add("sGfwATDgc/ABMA:EjEAAAAAAAAA cube beavers beaver_count=2")
	f.Add("4HPwATDgc/ABMA:cAmqAAAAAAAA") // a match, bit 66 clear
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseState(text)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("ParseState(%q) = %v; not an ErrInvalidState", text, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseState(%q) gave an invalid state: %v", text, err)
		}
		back, err := ParseState(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseState(%q).String() = %q does not round-trip: %v", text, s, err)
		}
	})
}

// FuzzParseMove: no move text panics; what parses is legal and applies.
func FuzzParseMove(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.state, tt.text)
	}
	f.Add(white31, "bar/22*/16(2) 13/7*")
	f.Add(white31, "24/23*/22*/21*/20*(4)")
	f.Add(openingID, "roll 3-1")
	f.Add("sGfwATDgc/ABMA:ExEAAAAAAAAA cube beavers beaver_count=3", "take")
	f.Add("sGfwATDgc/ABMA:EhkAAAAAAAAA cube beavers", "beaver")
	f.Fuzz(func(t *testing.T, state, text string) {
		s, err := ParseState(state)
		if err != nil {
			return
		}
		m, err := ParseMove(s, text)
		if err != nil {
			if !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrGameOver) {
				t.Fatalf("ParseMove(%s, %q) = %v; not ErrIllegalMove or ErrGameOver", s, text, err)
			}
			return
		}
		next, err := s.Apply(m)
		if err != nil {
			t.Fatalf("ParseMove(%s, %q) = %v, which Apply refuses: %v", s, text, m, err)
		}
		if err := next.Validate(); err != nil {
			t.Fatalf("%s after %v: %v", s, m, err)
		}
		if back, err := ParseMove(s, m.String()); err != nil || back != m {
			t.Fatalf("ParseMove(%s, %q) = %v, %v; want %v", s, m.String(), back, err, m)
		}
	})
}

// FuzzApply builds a position from bytes (each byte a slot count for the
// player on roll or the other, mod 16), dice and up to four steps, and
// applies the play: no panic, and an accepted play is one of LegalMoves'
// results.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0}, []byte{0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0}, uint8(3), uint8(1), []byte{8, 5, 6, 5})
	f.Add([]byte{2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, []byte{3, 3, 3, 3, 3}, uint8(6), uint8(6), []byte{25, 19, 19, 13, 6, 0, 6, 0})
	f.Add([]byte{1, 0, 0, 0, 1}, []byte{15}, uint8(4), uint8(2), []byte{5, 3, 3, 0})
	f.Fuzz(func(t *testing.T, mine, theirs []byte, d1, d2 uint8, steps []byte) {
		var b Board
		for i := 0; i < 25 && i < len(mine); i++ {
			b[0][i] = int(mine[i] & 15)
		}
		for i := 0; i < 25 && i < len(theirs); i++ {
			b[1][i] = int(theirs[i] & 15)
		}
		s, err := FromBoard(b, White, PhaseMove, int(d1%7), int(d2%7))
		if err != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("FromBoard = %v; not ErrInvalidState", err)
			}
			return
		}
		legal := map[State]bool{}
		for _, m := range s.LegalMoves() {
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("%s: Apply(%v) of a legal move = %v", s, m, err)
			}
			legal[next] = true
		}
		var st []Step
		for i := 0; i+1 < len(steps) && len(st) < 5; i += 2 {
			st = append(st, Step{From: int(steps[i]), To: int(steps[i+1])})
		}
		m, err := PlayMove(st...)
		if err != nil {
			return
		}
		next, err := s.Apply(m)
		if err != nil {
			if !errors.Is(err, game.ErrIllegalMove) {
				t.Fatalf("%s: Apply(%v) = %v; not ErrIllegalMove", s, st, err)
			}
			return
		}
		if !legal[next] {
			t.Fatalf("%s: Apply(%v) = %s, not the result of a legal move", s, st, next)
		}
	})
}
