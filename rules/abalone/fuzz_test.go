package abalone

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

func FuzzParseState(f *testing.F) {
	for _, seed := range []string{
		"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b",
		"ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww w 12/200",
		"bbbbb/wwwwww/7/8/9/8/7/wwwwww/bbbbb b",
		"5/6/7/8/9/8/7/6/5 b",
		"wwwww/wwwwww/2www2/44/9/8/2bbb2/bbbbbb/bbbbb b",
		"WWWWW/WWWWWW/2WWW2/8/9/8/2BBB2/BBBBBB/BBBBB W 0/1",
		"", "/", "b", "9/9/9/9/9/9/9/9/9 b 1/0",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseState(text)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("ParseState(%q) = %v; want ErrInvalidState", text, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseState(%q) gave an invalid state: %v", text, err)
		}
		back, err := ParseState(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseState(%q).String() = %q does not round-trip: %v, %v", text, s.String(), back, err)
		}
		if len(s.LegalMoves()) == 0 != s.Outcome().Finished {
			t.Fatalf("%s: LegalMoves and Outcome disagree", s)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	classic := "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"
	for _, seed := range [][2]string{
		{classic, "a1b2"}, {classic, "A1B2"}, {classic, "c3c5d3"}, {classic, "c5c3d4"},
		{classic, "a1a3a2"}, {classic, "i9h9"}, {classic, " b6c7 "}, {classic, "z9z9"},
		{"ww3/6/7/8/4bbbw1/8/bb3ww/bbbwww/bbbww b", "e5e6"},
		{"ww3/6/7/8/4bbbw1/8/bb3ww/bbbwww/bbbww b", "a1a2"},
		{"wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w", "i5h5"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, stateText, text string) {
		s, err := ParseState(stateText)
		if err != nil {
			s, _ = New(Options{})
		}
		m, err := ParseMove(s, text)
		if err != nil {
			if !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrGameOver) {
				t.Fatalf("ParseMove(%s, %q) = %v; want ErrIllegalMove or ErrGameOver", s, text, err)
			}
			return
		}
		if !containsMove(s.LegalMoves(), m) {
			t.Fatalf("ParseMove(%s, %q) = %v, not a legal move", s, text, m)
		}
		if back, err := ParseMove(s, m.String()); err != nil || back != m {
			t.Fatalf("ParseMove(%s, %q) = %v, %v; want %v", s, m.String(), back, err, m)
		}
		if up, err := ParseMove(s, strings.ToUpper(text)); err != nil || up != m {
			t.Fatalf("ParseMove(%s, upper %q) = %v, %v; want %v", s, text, up, err, m)
		}
	})
}

// FuzzApply builds arbitrary boards (most are invalid) and moves, and
// checks that Apply never panics, refuses invalid states, and succeeds
// exactly on the listed moves.
func FuzzApply(f *testing.F) {
	classic, _ := New(Options{})
	f.Add(classic.board[0], classic.board[1], uint8(0), uint8(1), uint8(8), uint8(0), uint32(0), uint32(0))
	f.Add(classic.board[0], classic.board[1], uint8(1), uint8(57), uint8(51), uint8(0), uint32(3), uint32(10))
	f.Add(uint64(0x1fffffffffffffff), uint64(0), uint8(0), uint8(1), uint8(2), uint8(3), uint32(0), uint32(0))
	f.Add(uint64(0x3fff), uint64(0x3fff)<<40, uint8(0), uint8(12), uint8(13), uint8(14), uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, b0, b1 uint64, toMove, from, to, end uint8, plies, limit uint32) {
		s := State{board: [2]uint64{b0, b1}, toMove: toMove, plies: plies, maxPlies: limit}
		m := Move{From: Cell(from), To: Cell(to), End: Cell(end)}
		before := s
		next, err := s.Apply(m)
		if s != before {
			t.Fatalf("Apply changed its receiver")
		}
		_ = s.String()
		_ = m.String()
		if s.Validate() != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("Apply on invalid %#v = %v; want ErrInvalidState", s, err)
			}
			return
		}
		legal := containsMove(s.LegalMoves(), m)
		if (err == nil) != legal {
			t.Fatalf("%s: Apply(%#v) = %v; listed: %v", s, m, err, legal)
		}
		if err != nil {
			if !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrGameOver) {
				t.Fatalf("%s: Apply(%s) = %v", s, m, err)
			}
			return
		}
		if err := next.Validate(); err != nil {
			t.Fatalf("%s: Apply(%s) = %s, which is invalid: %v", s, m, next, err)
		}
		if back, err := ParseState(next.String()); err != nil || back != next {
			t.Fatalf("%s: text form of %s does not round-trip", s, next)
		}
	})
}
