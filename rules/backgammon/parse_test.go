package backgammon

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

func mustState(t testing.TB, text string) State {
	t.Helper()
	s, err := ParseState(text)
	if err != nil {
		t.Fatalf("ParseState(%q) = %v", text, err)
	}
	return s
}

func moveStrings(ms []Move) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return strings.Join(out, ", ")
}

// TestOpening: from the start, 3-1 has 16 legal plays, 2-1 15 and 6-5 7
// (the counts); the 30 opening rolls are each 1/30 and the one with
// the higher die moves.
func TestOpening(t *testing.T) {
	s0, _ := New(Options{})
	rolls := s0.LegalMoves()
	if len(rolls) != 30 {
		t.Fatalf("opening LegalMoves = %d; want 30", len(rolls))
	}
	sum := 0.0
	for _, m := range rolls {
		w, b := m.Dice()
		if m.Kind() != KindOpeningRoll || w == b || m.Probability() != 1.0/30 {
			t.Errorf("opening outcome %v: kind %s dice %d-%d p %v", m, m.Kind(), w, b, m.Probability())
		}
		sum += m.Probability()
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("opening probabilities sum to %v", sum)
	}
	tests := []struct {
		roll  string
		turn  int
		count int
		first string
	}{
		{"roll 3-1", White, 16, "24/23 24/21"},
		{"roll 1-3", Black, 16, "24/23 24/21"},
		{"roll 2-1", White, 15, "24/23 24/22"},
		{"roll 6-5", White, 7, "24/13"},
		{"roll 5-6", Black, 7, "24/13"},
	}
	for _, tt := range tests {
		m, err := ParseMove(s0, tt.roll)
		if err != nil {
			t.Fatalf("ParseMove(%q) = %v", tt.roll, err)
		}
		s, err := s0.Apply(m)
		if err != nil {
			t.Fatalf("Apply(%v) = %v", m, err)
		}
		plays := s.LegalMoves()
		if s.Turn() != tt.turn || len(plays) != tt.count || plays[0].String() != tt.first {
			t.Errorf("%s: turn %d, %d plays [%s]; want turn %d, %d plays starting %s", tt.roll, s.Turn(), len(plays), moveStrings(plays), tt.turn, tt.count, tt.first)
		}
	}
	if _, err := ParseMove(s0, "roll 4-4"); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("ParseMove(opening, roll 4-4) = %v; want ErrIllegalMove (a tie is rolled again)", err)
	}
}

func TestRolls(t *testing.T) {
	s := mustState(t, "4HPwATDgc/ABMA:cAkAAAAAAAAE") // black to roll
	rolls := s.LegalMoves()
	if len(rolls) != 21 || rolls[0].String() != "roll 1-1" || rolls[20].String() != "roll 6-6" {
		t.Fatalf("LegalMoves = %s; want the 21 rolls from 1-1 to 6-6", moveStrings(rolls))
	}
	sum := 0.0
	for _, m := range rolls {
		sum += m.Probability()
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("roll probabilities sum to %v", sum)
	}
	for text, want := range map[string]string{"roll 6-5": "roll 6-5", "roll 5-6": "roll 6-5", "ROLL 3-3": "roll 3-3", "roll 42": "roll 4-2"} {
		m, err := ParseMove(s, text)
		if err != nil || m.String() != want {
			t.Errorf("ParseMove(%q) = %v, %v; want %s", text, m, err, want)
		}
	}
	next, err := s.Apply(RollMove(5, 6))
	if d1, d2 := next.Dice(); err != nil || next.Phase() != PhaseMove || next.Turn() != Black || d1 != 6 || d2 != 5 {
		t.Errorf("Apply(roll 6-5) = %v %s turn %d dice %d-%d", err, next.Phase(), next.Turn(), d1, d2)
	}
	for _, text := range []string{"roll", "roll 7-1", "roll 6-", "13/7 13/8", "pass"} {
		if _, err := ParseMove(s, text); !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("ParseMove(roll phase, %q) = %v; want ErrIllegalMove", text, err)
		}
	}
	if _, err := s.Apply(OpeningRollMove(3, 1)); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Apply(opening roll) in the roll phase = %v; want ErrIllegalMove", err)
	}
}

// parseTests are hand-checked readings of move text. want is the canonical
// move, or an error message fragment after "!".
var parseTests = []struct {
	state string
	text  string
	want  string
}{
	// Start, white to play 3-1.
	{white31, "8/5 6/5", "8/5 6/5"},
	{white31, "6/5 8/5", "8/5 6/5"},
	{white31, "  8/5,6/5 ", "8/5 6/5"},
	{white31, "13/10 24/23", "24/23 13/10"},
	{white31, "24/20", "24/20"},
	{white31, "24/21/20", "24/20"},
	{white31, "24/23/20", "24/20"},
	{white31, "8/4", "8/4"},
	{white31, "6/3 6/5", "6/5 6/3"},
	{white31, "8/5(2)", `!"8/5(2)" needs dice 3 and 3; the roll is 3-1`},
	{white31, "8/5", "!uses 1 die but 2 can be played"},
	{white31, "8/5* 6/5", "!point 5 is marked as a hit"},
	{white31, "bar/22 6/5", "!no checker of yours on the bar"},
	{white31, "b/22", "!no checker of yours on the bar"},
	{white31, "6/off 8/7", "!needs a 6 or higher (6/off) and a 1; the roll is 3-1"},
	// Steps whose pips the dice cannot make are refused for that first,
	// before any blocked point on the way (12 is black's 13-point).
	{white31, "13/10 13/10", `!"13/10 13/10" needs dice 3 and 3; the roll is 3-1`},
	{white31, "13/10(2)", `!needs dice 3 and 3; the roll is 3-1`},
	{fromID(startID, White, 6, 5), "6/off 13/8", "!outside the home board"},
	{white31, "8/2", `!"8/2" needs a 6; the roll is 3-1`},
	{white31, "13/7 6/5", "!needs dice 6 and 1; the roll is 3-1"},
	{white31, "24/20/17", "!needs dice 4 and 3; the roll is 3-1"},
	{white31, "6/2 6/5", "!needs dice 4 and 1; the roll is 3-1"},
	{white31, "24/13", "!needs 11 pips (24/13); the roll is 3-1"},
	{white31, "24/13 8/off", "!needs 11 pips (24/13) and 8 pips or more (8/off); the roll is 3-1"},
	{white31, "6/2 6/5 8/7", "!has 3 steps but 3-1 gives 2"},
	{white31, "pass", "!a play is possible"},
	{white31, "roll 3-1", "!already rolled"},
	{white31, "", "!empty move"},
	{white31, "x/y", "!expected a point"},
	{white31, "8/5(9)", "!a count (n) is 1..4"},
	{white31, "5/8", "!moves backwards"},
	{white31, "8/5 6", "!a path is"},
	{white31, "8/5 6/5x", "!unexpected"},
	{white31, "8/5*/4", "!point 5 is marked"},
	{white31, "off/5", "!borne off cannot move"},
	// Black 6-2 after white's 24/23 13/10: 8/2* hits white's blot on his 23.
	{fromID("4HPiASjgc/ABMA", Black, 6, 2), "8/2* 6/4", "8/2* 6/4"},
	{fromID("4HPiASjgc/ABMA", Black, 6, 2), "8/2 6/4", "8/2* 6/4"},
	{fromID("4HPiASjgc/ABMA", Black, 6, 2), "13/11 8/2", "13/11 8/2*"},
	{fromID("4HPiASjgc/ABMA", Black, 6, 2), "13/5", "13/5"},
	{fromID("4HPiASjgc/ABMA", Black, 6, 2), "13/11* 8/2", "!point 11 is marked"},
	// Spec example: checkers on 5 and 2, 4-2: two plays, 5/1 2/off and 5/3/off.
	{fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2), "5/3/off", "5/off"},
	{fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2), "5/off", "5/off"},
	{fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2), "2/off 5/1", "5/1 2/off"},
	{fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2), "0/2 5/1", "!borne off cannot move"},
	{fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2), "2/off 5/3", "!higher"},
	{fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2), "5/1 1/off", "!a checker on 2 is higher"},
	// A bear-off with the higher die from the highest point.
	{fromBoard(map[int]int{3: 1, 1: 1}, map[int]int{6: 15}, 6, 5), "3/off 1/off", "3/off 1/off"},
	// 6-2 where 7/1 leaves the 2 unplayable: only 10/4/2 plays both.
	{"6wQQ00G/B48AAA:MAELAAAAAAAE", "10/2", "10/2"},
	{"6wQQ00G/B48AAA:MAELAAAAAAAE", "10/8/2", "!point 8 is blocked by 2"},
	{"6wQQ00G/B48AAA:MAELAAAAAAAE", "7/1", "!uses 1 die but 2 can be played"},
	// Higher die (oracle row 321): 24/18 or 24/19, but not both (13 is
	// blocked): the 6 must be played.
	{fromBoard(map[int]int{1: 7, 2: 7, 24: 1}, map[int]int{12: 15}, 6, 5), "24/18", "24/18"},
	{fromBoard(map[int]int{1: 7, 2: 7, 24: 1}, map[int]int{12: 15}, 6, 5), "24/19", "!it must be the higher (6)"},
	{fromBoard(map[int]int{1: 7, 2: 7, 24: 1}, map[int]int{12: 15}, 6, 5), "24/13", "!point 13 is blocked by 15"},
	// Bar: white has a checker on the bar; black holds points 19..23 of white's.
	{fromBoard(map[int]int{25: 1, 6: 14}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5}, 6, 5), "pass", "pass"},
	{fromBoard(map[int]int{25: 1, 6: 14}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5}, 6, 5), "6/1", "!no number of 6-5 can be played"},
	{fromBoard(map[int]int{25: 1, 13: 1, 6: 13}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, 6, 5), "13/7 6/1", "!a checker on the bar must enter first"},
	{fromBoard(map[int]int{25: 1, 13: 1, 6: 13}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, 6, 5), "13/7 bar/19", "!needs dice 6 and 6; the roll is 6-5"},
	{fromBoard(map[int]int{25: 1, 13: 1, 6: 13}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, 6, 5), "bar/19 13/8", "bar/19 13/8"},
	{fromBoard(map[int]int{25: 1, 13: 1, 6: 13}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, 6, 5), "bar/20 13/7", "!point 20 is blocked"},
	// Hits: white 3-1 with black blots on white's 23 and 21 (black's 2 and 4).
	{fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1), "24/20", "!ambiguous"},
	{fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1), "24/23*/20", "24/23*/20"},
	{fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1), "24/21*/20", "24/21*/20"},
	{fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1), "24/23 24/21", "24/23* 24/21*"},
	{fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1), "24/21*/20*", "!point 20 is marked"},
	// Doubles: 4-4 from the start.
	{fromID(startID, White, 4, 4), "13/9(4)", "13/9(4)"},
	{fromID(startID, White, 4, 4), "13/5(2)", "13/5(2)"},
	{fromID(startID, White, 4, 4), "13/9 13/9 9/5 9/5", "13/5(2)"},
	{fromID(startID, White, 4, 4), "13/5 24/16", "24/16 13/5"},
	{fromID(startID, White, 4, 4), "24/8", "!point 12 is blocked by 5"},
	{fromID(startID, White, 4, 4), "24/20(2) 13/9(2)", "24/20(2) 13/9(2)"},
	{fromID(startID, White, 4, 4), "13/9(5)", "!a count (n) is 1..4"},
	{fromID(startID, White, 4, 4), "13/9(3)", "!uses 3 dice but 4 can be played"},
	{fromID(startID, White, 4, 4), "13/9(2) 6/2(2) 8/4", "!more steps than the dice"},
}

// fromID returns the text of a state: Position ID id with turn to play d1-d2.
func fromID(id string, turn, d1, d2 int) string {
	s, err := FromPositionID(id, turn, PhaseMove, d1, d2)
	if err != nil {
		panic(err)
	}
	return s.String()
}

// fromBoard returns the text of a state with white to play d1-d2 on a board
// given as point:count maps from each player's side.
func fromBoard(white, black map[int]int, d1, d2 int) string {
	s, err := FromBoard(board(white, black), White, PhaseMove, d1, d2)
	if err != nil {
		panic(fmt.Sprint(white, black, err))
	}
	return s.String()
}

func TestParseMove(t *testing.T) {
	for _, tt := range parseTests {
		s := mustState(t, tt.state)
		m, err := ParseMove(s, tt.text)
		if strings.HasPrefix(tt.want, "!") {
			if err == nil || !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tt.want[1:]) {
				t.Errorf("ParseMove(%s, %q) = %v, %v; want an illegal-move error with %q", tt.state, tt.text, m, err, tt.want[1:])
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseMove(%s, %q) = %v; want %s", tt.state, tt.text, err, tt.want)
			continue
		}
		if m.String() != tt.want {
			t.Errorf("ParseMove(%s, %q) = %s; want %s", tt.state, tt.text, m, tt.want)
		}
		found := false
		for _, l := range s.LegalMoves() {
			found = found || l == m
		}
		if !found {
			t.Errorf("ParseMove(%s, %q) = %s, not one of LegalMoves %s", tt.state, tt.text, m, moveStrings(s.LegalMoves()))
		}
	}
}

// TestSpecBearOffExample: the spec's example has exactly two plays.
func TestSpecBearOffExample(t *testing.T) {
	s := mustState(t, fromBoard(map[int]int{5: 1, 2: 1}, map[int]int{6: 15}, 4, 2))
	if got := moveStrings(s.LegalMoves()); got != "5/off, 5/1 2/off" {
		t.Errorf("LegalMoves = %s; want 5/off, 5/1 2/off", got)
	}
}

// TestApplyNonCanonical: a typed play in another order, or with combined
// steps, gives the same state as the canonical move; illegal ones say why.
func TestApplyNonCanonical(t *testing.T) {
	s := mustState(t, white31)
	canon, _ := ParseMove(s, "8/5 6/5")
	want, _ := s.Apply(canon)
	for _, steps := range [][]Step{{{6, 5, false}, {8, 5, false}}, {{8, 5, true}, {6, 5, false}}} {
		m, err := PlayMove(steps...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Apply(m)
		if err != nil || got != want {
			t.Errorf("Apply(%v) = %v, %v; want %v", steps, got, err, want)
		}
	}
	m, _ := PlayMove(Step{From: 24, To: 20})
	if got, err := s.Apply(m); err != nil || got.PositionID() != "4HPgASjgc/ABMA" && got.Checkers(White, 20) != 1 {
		t.Errorf("Apply(24/20 as one step) = %v, %v", got, err)
	}
	for _, tt := range []struct {
		steps []Step
		want  string
	}{
		{[]Step{{8, 5, false}}, "uses 1 die but 2"},
		{[]Step{{8, 2, false}}, `"8/2" needs a 6; the roll is 3-1`},
		{[]Step{{8, 5, false}, {8, 5, false}}, `"8/5(2)" needs dice 3 and 3; the roll is 3-1`},
	} {
		m, _ := PlayMove(tt.steps...)
		if _, err := s.Apply(m); err == nil || !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Apply(%v) = %v; want an illegal-move error with %q", tt.steps, err, tt.want)
		}
	}
	for _, steps := range [][]Step{nil, {{26, 3, false}}, {{3, 5, false}}, {{1, 0, false}, {1, 0, false}, {1, 0, false}, {1, 0, false}, {1, 0, false}}} {
		if _, err := PlayMove(steps...); !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("PlayMove(%v) = %v; want ErrIllegalMove", steps, err)
		}
	}
	if _, err := s.Apply(Move{}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Apply(Move{}) = %v; want ErrIllegalMove", err)
	}
	if _, err := s.Apply(RollMove(6, 5)); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Apply(roll) in the move phase = %v; want ErrIllegalMove", err)
	}
	if _, err := s.Apply(PassMove()); err == nil || !strings.Contains(err.Error(), "a play is possible") {
		t.Errorf("Apply(pass) with plays = %v; want an error", err)
	}
	if _, err := (State{}).Apply(canon); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("State{}.Apply = %v; want ErrInvalidState", err)
	}
}

func TestCanonicalAndResults(t *testing.T) {
	s := mustState(t, white31)
	m, _ := PlayMove(Step{From: 6, To: 5}, Step{From: 8, To: 5})
	c, err := s.Canonical(m)
	if err != nil || c.String() != "8/5 6/5" || c == m {
		t.Errorf("Canonical(6/5 8/5) = %v, %v; want the listed 8/5 6/5", c, err)
	}
	if _, err := s.Canonical(PassMove()); err == nil {
		t.Error("Canonical(pass) with plays = nil error")
	}
	if c, err := mustState(t, openingID).Canonical(OpeningRollMove(1, 2)); err != nil || c != OpeningRollMove(1, 2) {
		t.Errorf("Canonical(opening roll) = %v, %v", c, err)
	}
	// The Append form into reused slices that already hold entries: the
	// same moves and States after them.
	keptMoves, keptNext := []Move{PassMove()}, []State{s}
	for _, text := range []string{openingID, white31, "4HPwATDgc/ABMA:cAkAAAAAAAAE", fromBoard(map[int]int{25: 1, 6: 14}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5}, 6, 5)} {
		s := mustState(t, text)
		moves, results := s.LegalMovesWithResults()
		if len(moves) != len(results) || len(moves) == 0 {
			t.Fatalf("%s: LegalMovesWithResults = %d moves, %d results", s, len(moves), len(results))
		}
		for i, m := range moves {
			if next, err := s.Apply(m); err != nil || next != results[i] {
				t.Errorf("%s: result of %s = %s; Apply gives %s, %v", s, m, results[i], next, err)
			}
		}
		am, an := s.AppendLegalMovesWithResults(keptMoves[:1], keptNext[:1])
		if am[0] != PassMove() || an[0] != keptNext[0] || !slices.Equal(am[1:], moves) || !slices.Equal(an[1:], results) {
			t.Errorf("%s: AppendLegalMovesWithResults = %v %v; want %v %v after the kept entry", s, am[1:], an[1:], moves, results)
		}
		keptMoves, keptNext = am, an
	}
	for text, want := range map[string]bool{"roll": true, " ROLL ": true, "roll 6-5": false, "": false} {
		if IsRollRequest(text) != want {
			t.Errorf("IsRollRequest(%q) = %v", text, !want)
		}
	}
	if _, err := s.WithScore(-1, 0); err == nil {
		t.Error("WithScore(-1, 0) = nil error")
	}
	if w, err := s.WithScore(3, 4); err != nil || w.MatchID() == s.MatchID() {
		t.Errorf("WithScore(3, 4) = %v, %v", w, err)
	}
}

func TestMoveAccessors(t *testing.T) {
	s := mustState(t, fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1))
	m, err := ParseMove(s, "24/23*/20")
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind() != KindPlay || m.Len() != 2 || fmt.Sprint(m.Steps()) != "[24/23* 23/20]" || m.Probability() != 0 {
		t.Errorf("24/23*/20: kind %s len %d steps %v p %v", m.Kind(), m.Len(), m.Steps(), m.Probability())
	}
	if d1, d2 := m.Dice(); d1 != 0 || d2 != 0 {
		t.Errorf("Dice() of a play = %d, %d", d1, d2)
	}
	if (Move{}).String() != "none" || PassMove().Steps() != nil || KindOpeningRoll.String() != "opening roll" || Kind(9).String() != "Kind(9)" || PhaseOver.String() != "over" || Phase(9).String() != "Phase(9)" {
		t.Error("names of the zero Move, kinds or phases are wrong")
	}
	defer func() {
		if recover() == nil {
			t.Error("Step(2) of a 2-step move did not panic")
		}
	}()
	m.Step(2)
}

// TestParseShuffledSteps: every legal play of random games, written as its
// single-die steps in a shuffled order, parses back to the same Move, so
// the check that the steps fit the dice never refuses a legal play.
func TestParseShuffledSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 0
	playGames(t, 40, 21, func(s State) {
		for _, m := range s.LegalMoves() {
			if m.Kind() != KindPlay {
				continue
			}
			var parts []string
			for _, st := range m.Steps() {
				parts = append(parts, pointName(st.From)+"/"+pointName(st.To))
			}
			r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
			text := strings.Join(parts, " ")
			if got, err := ParseMove(s, text); err != nil || got != m {
				t.Fatalf("ParseMove(%s, %q) = %v, %v; want %s", s, text, got, err, m)
			}
			n++
		}
	})
	if n < 10000 {
		t.Errorf("only %d plays checked", n)
	}
}

// TestHugeInputShortError: an error quotes at most the first 80 bytes of the
// input (game.Quote), so a megabyte of notation or state text does not make
// a megabyte-long error; each case reaches a different error path.
func TestHugeInputShortError(t *testing.T) {
	const mb = 1 << 20
	pad := strings.Repeat(" ", mb)
	over, err := FromBoard(board(nil, map[int]int{6: 14}), Black, PhaseOver, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    State
		text string
		kind error
		want string
	}{
		{"game over", over, "24/23" + pad, game.ErrGameOver, "the game is over"},
		{"rolled already", mustState(t, white31), "roll 6-5" + pad, game.ErrIllegalMove, "already rolled"},
		{"needs a roll", mustState(t, startID), "24/23" + pad, game.ErrIllegalMove, "needs a roll first"},
		{"too many steps", mustState(t, white31), strings.Repeat("24/23 ", mb/6), game.ErrIllegalMove, "more steps than the dice"},
		{"too many hops for dice", mustState(t, white31), "24/23 24/23 24/23" + pad, game.ErrIllegalMove, "has 3 steps"},
		{"dice do not fit", mustState(t, white31), "13/10 13/10" + strings.Repeat(",", mb), game.ErrIllegalMove, "needs dice 3 and 3"},
		{"blocked", mustState(t, fromID(startID, White, 4, 4)), "24/8" + pad, game.ErrIllegalMove, "point 12 is blocked"},
		{"not notation", mustState(t, white31), "24/23 x" + strings.Repeat("x", mb), game.ErrIllegalMove, "expected a point"},
	}
	for _, tt := range tests {
		_, err := ParseMove(tt.s, tt.text)
		if err == nil || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ParseMove = %.200v; want %v with %q", tt.name, err, tt.kind, tt.want)
			continue
		}
		if n := len(err.Error()); n > 400 {
			t.Errorf("%s: ParseMove error is %d bytes (%.120q...); want the input quoted to 80 bytes", tt.name, n, err.Error())
		}
	}
	for _, text := range []string{startID + strings.Repeat("A", mb), startID + ":" + strings.Repeat("A", mb), pad + "x" + pad} {
		if _, err := ParseState(text); err == nil || !errors.Is(err, game.ErrInvalidState) || len(err.Error()) > 400 {
			t.Errorf("ParseState(%d bytes) = %.200v (%d bytes); want a short invalid-state error", len(text), err, len(fmt.Sprint(err)))
		}
	}
}

// TestApplyListed: over random games of every setting (the leaflet's
// game, money with the cube and beavers, a match, which ends in "next
// game"s), ApplyListed of every listed move at every state is what Apply
// gives, in every phase (opening, roll, move, the cube's and the
// resignations' decisions, a finished game of a match), and RollDice's
// draw is one of the listed moves.
func TestApplyListed(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 5
	}
	rng := rand.New(rand.NewPCG(5, 6))
	phases := map[Phase]int{}
	kinds := map[Kind]int{}
	for _, o := range []Options{{}, {Cube: true, Beavers: true}, {MatchLength: 3}} {
		for range games {
			s, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 2000; ply++ {
				moves := s.LegalMoves()
				if len(moves) == 0 {
					break
				}
				phases[s.Phase()]++
				for _, m := range moves {
					kinds[m.Kind()]++
					want, err := s.Apply(m)
					if err != nil {
						t.Fatalf("%s: Apply(%s): %v", s, m, err)
					}
					if got := s.ApplyListed(m); got != want {
						t.Fatalf("%s: ApplyListed(%s) = %s; Apply gives %s", s, m, got, want)
					}
				}
				if ph := s.Phase(); ph == PhaseOpening || ph == PhaseRoll {
					if d, err := RollDice(s, rng); err != nil || !slices.Contains(moves, d) {
						t.Fatalf("%s: RollDice = %s, %v; not listed", s, d, err)
					}
				}
				s = s.ApplyListed(moves[rng.IntN(len(moves))])
			}
		}
	}
	for _, ph := range []Phase{PhaseOpening, PhaseRoll, PhaseMove, PhaseDouble, PhaseResign, PhaseOver} {
		if phases[ph] == 0 {
			t.Errorf("no state of phase %s met", ph)
		}
	}
	for _, k := range []Kind{KindOpeningRoll, KindRoll, KindPlay, KindPass, KindDouble, KindTake, KindDrop, KindBeaver, KindResign, KindAccept, KindDecline, KindNextGame} {
		if kinds[k] == 0 {
			t.Errorf("no listed move of kind %s met", k)
		}
	}
}
