package backgammon

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// apply plays the moves (in notation) from s and fails the test on a refusal.
func apply(t *testing.T, s State, moves ...string) State {
	t.Helper()
	for _, text := range moves {
		next, _, err := s.ApplyText(text)
		if err != nil {
			t.Fatalf("%s in %s: %v", text, s, err)
		}
		s = next
	}
	return s
}

// hasMove reports whether LegalMoves(s) lists the move written text.
func hasMove(s State, text string) bool {
	for _, m := range s.LegalMoves() {
		if m.String() == text {
			return true
		}
	}
	return false
}

// TestBeaversInARow: gnubg's default limit of 3 beavers in a row (measured
// on gnubg 1.07, testdata/backgammon/cube scenarios 100-102): a beaver, a
// raccoon and a third are allowed, a fourth refused (and not listed); a
// resignation offered and declined in between keeps the count; a take
// ends the run, and the next double starts again at 0. The count is in the
// text form only where the Match ID cannot show it (the third), and in the
// typed form always.
func TestBeaversInARow(t *testing.T) {
	s, err := New(Options{Cube: true, Beavers: true})
	if err != nil {
		t.Fatal(err)
	}
	s = apply(t, s, "roll 3-1", "8/5 6/5")
	wantCount := func(s State, n int, word bool) {
		t.Helper()
		if s.BeaverCount() != n || s.Position().BeaverCount != n {
			t.Fatalf("%s: %d (typed %d) beavers in a row; want %d", s, s.BeaverCount(), s.Position().BeaverCount, n)
		}
		if got := strings.HasSuffix(s.String(), " beaver_count=3"); got != word {
			t.Fatalf("%s: the count word written %v; want %v", s, got, word)
		}
		back, err := ParseState(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseState(%s) = %v, %v; want the same state", s, back, err)
		}
		typed, err := FromPosition(s.Position())
		if err != nil || typed != s {
			t.Fatalf("FromPosition(%s.Position()) = %v, %v; want the same state", s, typed, err)
		}
	}
	s = apply(t, s, "double")
	wantCount(s, 0, false)
	for n := 1; n <= MaxBeavers; n++ {
		if !hasMove(s, "beaver") {
			t.Fatalf("beaver %d not listed in %s", n, s)
		}
		s = apply(t, s, "beaver")
		wantCount(s, n, n == 3)
		if n == 2 {
			// A resignation offered and declined keeps the count.
			s = apply(t, s, "resign single")
			wantCount(s, 2, false)
			s = apply(t, s, "decline")
			wantCount(s, 2, false)
		}
	}
	if s.CubeValue() != 8 || s.Phase() != PhaseDouble {
		t.Fatalf("after 3 beavers: %s, cube %d, phase %s; want 8, double", s, s.CubeValue(), s.Phase())
	}
	if hasMove(s, "beaver") {
		t.Fatalf("a fourth beaver is listed in %s", s)
	}
	_, _, err = s.ApplyText("beaver")
	if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "3 beavers in a row") {
		t.Fatalf("a fourth beaver in %s: %v; want ILLEGAL_MOVE naming the limit", s, err)
	}
	// The resigned game keeps the count it ended with, as gnubg does.
	if over := apply(t, s, "resign gammon", "accept"); over.BeaverCount() != 3 || over.Phase() != PhaseOver {
		t.Fatalf("resigned in the third beaver: %s, count %d", over, over.BeaverCount())
	}
	s = apply(t, s, "take")
	wantCount(s, 0, false)
	if s.CubeValue() != 16 || s.CubeOwner() != White {
		t.Fatalf("after the take: cube %d owned by %d; want 16, white (black doubled; white beavered first)", s.CubeValue(), s.CubeOwner())
	}
	s = apply(t, s, "roll 6-5", "24/13", "double", "beaver", "beaver", "beaver")
	wantCount(s, 3, true)
}

// TestBeaverCountText: the word "beaver_count=N" of the text form: read
// where it fits the Match ID (N = what the ID shows, or 3 where it shows 1),
// refused otherwise, and never needed for the counts the ID shows.
func TestBeaverCountText(t *testing.T) {
	const third = "sGfwATDgc/ABMA:ExEAAAAAAAAA" // gnubg's ID after double, beaver, beaver, beaver
	one, err := ParseState(third + " cube beavers")
	if err != nil {
		t.Fatal(err)
	}
	if one.BeaverCount() != 1 || !hasMove(one, "beaver") {
		t.Fatalf("%s: count %d; want 1 (a beaver from 4 to 8), a further beaver allowed", one, one.BeaverCount())
	}
	three, err := ParseState(third + " cube beavers beaver_count=3")
	if err != nil {
		t.Fatal(err)
	}
	if three.BeaverCount() != 3 || hasMove(three, "beaver") || !hasMove(three, "take") || three == one {
		t.Fatalf("%s: count %d; want 3, no further beaver", three, three.BeaverCount())
	}
	if redundant, err := ParseState(third + " cube beavers beaver_count=1"); err != nil || redundant != one || redundant.String() != third+" cube beavers" {
		t.Fatalf("the count the ID shows, given: %v, %v", redundant, err)
	}
	for _, text := range []string{
		third + " cube beavers beaver_count=2", // the ID shows an odd count
		third + " cube beavers beaver_count=0",
		third + " cube beavers beaver_count=4", // past gnubg's limit
		third + " cube beavers beaver_count=x",
		third + " cube beaver_count=3", // beavers not allowed
		third + " cube beaver_count=3 beavers",
		third + " cube beavers beaver_count=3 beaver_count=3",
		"sGfwATDgc/ABMA:MBkAAAAAAAAA cube beavers beaver_count=3", // a double, no beaver yet
		"sGfwATDgc/ABMA:MAEAAAAAAAAA cube beavers beaver_count=1", // nothing offered
		"sGfwATDgc/ABMA beaver_count=3",
	} {
		if s, err := ParseState(text); !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("ParseState(%q) = %v, %v; want INVALID_STATE", text, s, err)
		}
	}
	// The typed form: 0 is what the ID shows; a count that does not fit is
	// refused.
	f := one.Position()
	f.BeaverCount = 0
	if s, err := FromPosition(f); err != nil || s != one {
		t.Fatalf("FromPosition with no count: %v, %v; want %s", s, err, one)
	}
	f.BeaverCount = 3
	if s, err := FromPosition(f); err != nil || s != three {
		t.Fatalf("FromPosition with count 3: %v, %v; want %s", s, err, three)
	}
	for _, n := range []int{2, 4, -1} {
		f.BeaverCount = n
		if _, err := FromPosition(f); !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("FromPosition with count %d: %v; want INVALID_STATE", n, err)
		}
	}
}

// TestJacobyBitKept: Match ID bit 66 is kept as read through a game, as
// gnubg 1.07 keeps it (testdata/backgammon/cube scenarios 103-106): clear
// in a match or in the leaflet's game it changes no score (gammons count),
// set in a money game with the cube it is the rule off; a match's next game
// is written with it set again, as gnubg writes every new game of a match.
func TestJacobyBitKept(t *testing.T) {
	// A 7-point match, black to bear off his last checker with 1-1 for a
	// gammon; bit 66 clear (gnubg writes the ID with it set).
	s, err := ParseState("wP8fAAABAAAAAA:cInkAAAAAAAA")
	if err != nil {
		t.Fatal(err)
	}
	if !s.JacobyBit() || s.Jacoby() || s.MatchLength() != 7 || s.Position().Jacoby != true {
		t.Fatalf("%s: flag %v, rule %v, match %d; want the flag, no rule, a 7-point match", s, s.JacobyBit(), s.Jacoby(), s.MatchLength())
	}
	if typed, err := FromPosition(s.Position()); err != nil || typed != s {
		t.Fatalf("FromPosition(%s.Position()) = %v, %v", s, typed, err)
	}
	over := apply(t, s, "1/off")
	if over.String() != "AAAAgP8/AAAAAA:MALgAAAAEAAA" || over.Outcome().Points[Black] != 2 {
		t.Fatalf("after the gammon: %s, %v; want gnubg's AAAAgP8/AAAAAA:MALgAAAAEAAA, 2 points", over, over.Outcome())
	}
	next := apply(t, over, "next game")
	if next.JacobyBit() || !strings.HasSuffix(next.String(), "E") {
		t.Fatalf("the next game of the match: %s; want bit 66 set", next)
	}
	// The leaflet's game (no cube), bit 66 clear: kept, no Jacoby rule.
	plain, err := ParseState("wP8fAAABAAAAAA:cAkbAAAAAAAA")
	if err != nil {
		t.Fatal(err)
	}
	if plain.CubeInUse() || plain.Jacoby() || !plain.JacobyBit() {
		t.Fatalf("%s: cube %v, rule %v, flag %v", plain, plain.CubeInUse(), plain.Jacoby(), plain.JacobyBit())
	}
	end := apply(t, plain, "1/off")
	if !strings.HasSuffix(end.String(), "A") || end.Outcome().Points[Black] != 2 {
		t.Fatalf("leaflet game, bit 66 clear: %s scores %v; want the bit kept and a gammon (2)", end, end.Outcome())
	}
	// With the cube, the same ID is the Jacoby rule: the gammon counts 1.
	cube, err := ParseState("wP8fAAABAAAAAA:cAkbAAAAAAAA cube")
	if err != nil {
		t.Fatal(err)
	}
	if !cube.Jacoby() || apply(t, cube, "1/off").Outcome().Points[Black] != 1 {
		t.Fatalf("%s: rule %v; want on, the gammon single", cube, cube.Jacoby())
	}
	// New writes the flag as before: set in a match and in the leaflet's
	// game, clear in a money game with the cube and the rule.
	for _, c := range []struct {
		o    Options
		flag bool
	}{{Options{}, false}, {Options{MatchLength: 5}, false}, {Options{Cube: true}, true}, {Options{Cube: true, NoJacoby: true}, false}} {
		n, err := New(c.o)
		if err != nil || n.JacobyBit() != c.flag {
			t.Errorf("New(%+v): flag %v, %v; want %v", c.o, n.JacobyBit(), err, c.flag)
		}
	}
}
