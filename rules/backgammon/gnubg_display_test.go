package backgammon

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// The IDs below are what gnubg 1.07 itself displays (checked with "set
// gnubgid", "set dice" and new sessions in gnubg -t): gnubg keeps the dice
// higher first, also after an opening roll won by player 1.

// TestOpeningRollDiceHigherFirst: after the opening roll the state is written
// as gnubg writes it, the higher die first, whoever won the roll.
func TestOpeningRollDiceHigherFirst(t *testing.T) {
	s, _ := New(Options{})
	for _, tt := range []struct {
		w, b int
		want string
	}{
		{3, 6, "4HPwATDgc/ABMA:cAkPAAAAAAAE"}, // black wins with 6-3 (gnubg new session, seed 1)
		{1, 2, "4HPwATDgc/ABMA:cAkFAAAAAAAE"}, // black wins with 2-1
		{4, 2, "4HPwATDgc/ABMA:MAEKAAAAAAAE"}, // white wins with 4-2
	} {
		next, err := s.Apply(OpeningRollMove(tt.w, tt.b))
		if err != nil {
			t.Fatal(err)
		}
		if got := next.String(); got != tt.want {
			t.Errorf("opening roll %d-%d: %s; want gnubg's %s", tt.w, tt.b, got, tt.want)
		}
		if d1, d2 := next.Dice(); d1 < d2 {
			t.Errorf("opening roll %d-%d: Dice() = %d, %d; want the higher first", tt.w, tt.b, d1, d2)
		}
	}
}

// TestDiceReadHigherFirst: a Match ID or typed dice with the lower die first
// read as the same State as with the higher first (gnubg's "set gnubgid
// 4HPwATDgc/ABMA:cIkIAAAAAAAE" shows cAkFAAAAAAAE).
func TestDiceReadHigherFirst(t *testing.T) {
	low, err := ParseState("4HPwATDgc/ABMA:cIkIAAAAAAAE")
	if err != nil {
		t.Fatal(err)
	}
	high, err := ParseState("4HPwATDgc/ABMA:cAkFAAAAAAAE")
	if err != nil {
		t.Fatal(err)
	}
	if low != high || low.String() != "4HPwATDgc/ABMA:cAkFAAAAAAAE" {
		t.Errorf("ParseState(dice 1-2) = %s; want %s", low, high)
	}
	b := low.Board()
	typed, err := FromBoard(b, Black, PhaseMove, 1, 2)
	if err != nil || typed != high {
		t.Errorf("FromBoard(dice 1, 2) = %s, %v; want %s", typed, err, high)
	}
	rolled, err := ParseState("4HPwATDgc/ABMA:cAkAAAAAAAAE")
	if err != nil {
		t.Fatal(err)
	}
	if next, err := rolled.Apply(RollMove(1, 2)); err != nil || next != high {
		t.Errorf("Apply(roll 2-1) = %s, %v; want %s", next, err, high)
	}
}

// TestIDErrorMessages: refused IDs say what is wrong in the user's terms.
func TestIDErrorMessages(t *testing.T) {
	playing := [3]int{midGameState, 3, 1}
	for _, tt := range []struct{ text, want string }{
		// 16 white checkers and 15 black: 31 one-bits do not leave room for the 50 separators.
		{"4HPwATDg5+ADYA:MIEFAAAAAAAE", "more than 30 checkers in all (at most 15 a side)"},
		{startID + ":" + midWith(playing, [3]int{midCubeOwner, 2, 2}), "cube owner field is 2, which gnubg does not use"},
		{startID + ":" + midWith([3]int{midGameState, 3, 5}), "game state 5 is not one gnubg defines"},
		{startID + ":" + midWith([3]int{midGameState, 3, 7}), "game state 7 is not one gnubg defines"},
		{startID + ":" + midWith([3]int{midGameState, 3, 4}, [3]int{midCube, 4, 13}), "cube at 8192; gnubg's limit is 4096"}, // issue 12: game state 4 is a drop now
	} {
		_, err := ParseState(tt.text)
		if err == nil || !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseState(%q) = %v; want an invalid-state error with %q", tt.text, err, tt.want)
		}
	}
}
