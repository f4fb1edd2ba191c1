package backgammon

import (
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

const (
	startID   = "4HPwATDgc/ABMA"
	white31   = "4HPwATDgc/ABMA:MIEFAAAAAAAE" // the example: start, white to play 3-1
	openingID = "4HPwATDgc/ABMA:MAAAAAAAAAAE" // New: game state 0
)

// midWith returns a Match ID made of the given fields (offset, width, value)
// on top of a money game's defaults (cube centred, bit 66 set).
func midWith(fields ...[3]int) string {
	var k matchKey
	k.put(midCubeOwner, 2, 3)
	k.put(midNoJacoby, 1, 1)
	for _, f := range fields {
		k.put(f[0], f[1], uint32(f[2]))
	}
	return encode64(k[:])
}

func TestNew(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != openingID {
		t.Errorf("New().String() = %q; want %q", got, openingID)
	}
	if s.Phase() != PhaseOpening || s.Turn() != White || s.Pips(White) != 167 || s.Pips(Black) != 167 {
		t.Errorf("New() = phase %s turn %d pips %d/%d; want opening, 0, 167/167", s.Phase(), s.Turn(), s.Pips(0), s.Pips(1))
	}
	for p := 0; p < 2; p++ {
		for slot, want := range map[int]int{24: 2, 13: 5, 8: 3, 6: 5, 1: 0, Bar: 0, Off: 0} {
			if got := s.Checkers(p, slot); got != want {
				t.Errorf("New().Checkers(%d, %d) = %d; want %d", p, slot, got, want)
			}
		}
	}
	if o := s.Outcome(); o.Finished || o.Winner != game.NoWinner || len(o.Points) != 2 {
		t.Errorf("New().Outcome() = %+v; want unfinished", o)
	}
}

func TestParseStateExample(t *testing.T) {
	// Bit 66 either way: kept as read (gnubg keeps it), no effect in the
	// leaflet's game.
	for _, text := range []string{white31, "4HPwATDgc/ABMA:MIEFAAAAAAAA", " " + white31 + "\n"} {
		s, err := ParseState(text)
		if err != nil {
			t.Fatalf("ParseState(%q) = %v", text, err)
		}
		d1, d2 := s.Dice()
		if s.Phase() != PhaseMove || s.Turn() != White || d1 != 3 || d2 != 1 || s.PositionID() != startID {
			t.Errorf("ParseState(%q) = phase %s turn %d dice %d-%d id %s; want move, white, 3-1, %s", text, s.Phase(), s.Turn(), d1, d2, s.PositionID(), startID)
		}
		if got := s.String(); got != strings.TrimSpace(text) {
			t.Errorf("ParseState(%q).String() = %q; want %q", text, got, strings.TrimSpace(text))
		}
		if s.JacobyBit() != strings.HasSuffix(text, "A") || s.Jacoby() || s.CubeInUse() {
			t.Errorf("ParseState(%q): Jacoby flag %v, rule %v, cube %v; want the flag as read, no rule, no cube", text, s.JacobyBit(), s.Jacoby(), s.CubeInUse())
		}
	}
}

func TestParseStatePhases(t *testing.T) {
	tests := []struct {
		mid   string
		phase Phase
		turn  int
		dice  [2]int
		out   string // String's Match ID when it differs from mid
	}{
		{midWith(), PhaseOpening, 0, [2]int{}, ""},
		{midWith([3]int{midGameState, 3, 0}, [3]int{midDie1, 3, 4}, [3]int{midDie2, 3, 2}), PhaseMove, 0, [2]int{4, 2}, midWith([3]int{midGameState, 3, 1}, [3]int{midDie1, 3, 4}, [3]int{midDie2, 3, 2})},
		{midWith([3]int{midGameState, 3, 1}), PhaseRoll, 0, [2]int{}, ""},
		{midWith([3]int{midGameState, 3, 1}, [3]int{midTurn, 1, 1}, [3]int{midDiceOwner, 1, 1}), PhaseRoll, 1, [2]int{}, ""},
		{midWith([3]int{midGameState, 3, 1}, [3]int{midTurn, 1, 1}, [3]int{midDiceOwner, 1, 1}, [3]int{midDie1, 3, 6}, [3]int{midDie2, 3, 6}), PhaseMove, 1, [2]int{6, 6}, ""},
		{midWith([3]int{midGameState, 3, 1}, [3]int{midScore0, 15, 7}, [3]int{midScore1, 15, 12}), PhaseRoll, 0, [2]int{}, ""},
	}
	for _, tt := range tests {
		text := startID + ":" + tt.mid
		s, err := ParseState(text)
		if err != nil {
			t.Errorf("ParseState(%q) = %v", text, err)
			continue
		}
		d1, d2 := s.Dice()
		if s.Phase() != tt.phase || s.Turn() != tt.turn || [2]int{d1, d2} != tt.dice {
			t.Errorf("ParseState(%q) = %s turn %d dice %d-%d; want %s turn %d dice %v", text, s.Phase(), s.Turn(), d1, d2, tt.phase, tt.turn, tt.dice)
		}
		want := text
		if tt.out != "" {
			want = startID + ":" + tt.out
		}
		if got := s.String(); got != want {
			t.Errorf("ParseState(%q).String() = %q; want %q", text, got, want)
		}
	}
	s, _ := ParseState(startID + ":" + midWith([3]int{midGameState, 3, 1}, [3]int{midScore0, 15, 7}, [3]int{midScore1, 15, 12}))
	if a, b := s.Score(); a != 7 || b != 12 {
		t.Errorf("Score() = %d, %d; want 7, 12", a, b)
	}
}

func TestParseStateErrors(t *testing.T) {
	playing := [3]int{midGameState, 3, 1}
	tests := []struct {
		text, want string
	}{
		{"", "14"},
		{startID, ""}, // bare Position ID: fine (white to roll)
		{startID + ":MIEFAAAAAAA", "has 11 characters"},
		{startID + ":MIEFAAAAAA!E", "not base64"},
		{"4HPwATDgc/AB!A:MIEFAAAAAAAE", "not base64"},
		{"4HPwATDgc/ABMB:MIEFAAAAAAAE", "stray bits"},
		{"/////////////w:MIEFAAAAAAAE", "more than 15"},
		{"AAAAAAAAAAAAAA:MIEFAAAAAAAE", "borne off all"},
		// Issue 12: the cube, a match, a double or a resignation are states now.
		{startID + ":" + midWith(playing, [3]int{midCube, 4, 1}), ""},
		{startID + ":" + midWith(playing, [3]int{midCubeOwner, 2, 0}), ""},
		{startID + ":" + midWith(playing, [3]int{midCrawford, 1, 1}), "Crawford flag set but no player is at match length - 1"},
		{startID + ":" + midWith(playing, [3]int{midDouble, 1, 1}), ""}, // turn = dice owner: a beaver awaits the doubler's answer
		{startID + ":" + midWith(playing, [3]int{midResign, 2, 1}), "who is not on roll"},
		{startID + ":" + midWith(playing, [3]int{midMatchLen, 15, 7}), ""},
		{startID + ":" + midWith(playing, [3]int{midGameState, 3, 3}), "game state 3 (resigned) needs the resignation level"},
		{startID + ":" + midWith(playing, [3]int{midDie1, 3, 7}, [3]int{midDie2, 3, 1}), "dice 7-1"},
		{startID + ":" + midWith(playing, [3]int{midDie1, 3, 3}), "dice 3-0"},
		{startID + ":" + midWith(playing, [3]int{midTurn, 1, 1}), "differs"},
		{startID + ":" + midWith(playing, [3]int{67, 5, 1}), "bits 67"},
		{startID + ":" + midWith([3]int{midGameState, 3, 2}), "both players have checkers"},
	}
	for _, tt := range tests {
		_, err := ParseState(tt.text)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParseState(%q) = %v; want nil", tt.text, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseState(%q) = %v; want an invalid-state error with %q", tt.text, err, tt.want)
		}
	}
}

// board builds a Board from "point:count" lists for each player, each from
// his own side (25 = bar).
func board(white, black map[int]int) Board {
	var b Board
	for i, side := range []map[int]int{white, black} {
		for p, n := range side {
			b[i][p-1] = n
		}
	}
	return b
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		b     Board
		turn  int
		phase Phase
		d1    int
		d2    int
		want  string
	}{
		{"start", board(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{24: 2, 13: 5, 8: 3, 6: 5}), 0, PhaseRoll, 0, 0, ""},
		{"16 checkers", board(map[int]int{24: 3, 13: 5, 8: 3, 6: 5}, map[int]int{1: 1}), 0, PhaseRoll, 0, 0, "16 checkers"},
		{"mixed point", board(map[int]int{6: 1}, map[int]int{19: 1}), 0, PhaseRoll, 0, 0, "both colours"},
		{"no dice in move phase", board(map[int]int{6: 1}, map[int]int{6: 1}), 0, PhaseMove, 0, 0, "two dice"},
		{"dice in roll phase", board(map[int]int{6: 1}, map[int]int{6: 1}), 0, PhaseRoll, 3, 1, "dice belong"},
		{"over without winner", board(map[int]int{6: 1}, map[int]int{6: 1}), 0, PhaseOver, 0, 0, "both players have checkers"},
		{"winner still playing", board(nil, map[int]int{6: 1}), 1, PhaseRoll, 0, 0, "not over"},
		{"over", board(nil, map[int]int{6: 1}), 1, PhaseOver, 0, 0, ""},
		{"bad turn", board(map[int]int{6: 1}, map[int]int{6: 1}), 2, PhaseRoll, 0, 0, "turn 2"},
		{"bad die", board(map[int]int{6: 1}, map[int]int{6: 1}), 0, PhaseMove, 7, 1, "out of range"},
		{"both on the bar against closed boards",
			board(map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 2, 25: 1}, map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 2, 25: 1}), 0, PhaseRoll, 0, 0, "closed home boards"},
		{"closed boards, one on the bar",
			board(map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 2, 25: 1}), 0, PhaseRoll, 0, 0, ""},
		{"both on the bar, one board open",
			board(map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 13: 3, 25: 1}, map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 2, 25: 1}), 0, PhaseRoll, 0, 0, ""},
	}
	for _, tt := range tests {
		_, err := FromBoard(tt.b, tt.turn, tt.phase, tt.d1, tt.d2)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: FromBoard = %v; want nil", tt.name, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: FromBoard = %v; want an invalid-state error with %q", tt.name, err, tt.want)
		}
	}
	if err := (State{}).Validate(); err == nil {
		t.Error("State{}.Validate() = nil; want an error (no checkers)")
	}
}

// TestOutcome checks gnubg's scoring: the loser's borne-off checkers, bar and
// checkers in the winner's home board decide single, gammon or backgammon.
func TestOutcome(t *testing.T) {
	tests := []struct {
		name   string
		loser  map[int]int // black's checkers from his side; white has borne off all
		points int
		detail string
	}{
		{"loser bore off one", map[int]int{6: 14}, 1, "single"},
		{"loser bore off one, one on the bar", map[int]int{6: 13, 25: 1}, 1, "single"},
		{"none off, all home", map[int]int{6: 15}, 2, "gammon"},
		{"none off, one on the winner's 7-point", map[int]int{6: 14, 18: 1}, 2, "gammon"},
		{"none off, one in the winner's home", map[int]int{6: 14, 19: 1}, 3, "backgammon"},
		{"none off, one on the winner's 1-point", map[int]int{6: 14, 24: 1}, 3, "backgammon"},
		{"none off, one on the bar", map[int]int{6: 14, 25: 1}, 3, "backgammon"},
	}
	for _, tt := range tests {
		for winner := 0; winner < 2; winner++ {
			var b Board
			for p, n := range tt.loser {
				b[1-winner][p-1] = n
			}
			s, err := FromBoard(b, 1-winner, PhaseOver, 0, 0)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			o := s.Outcome()
			want := []int{0, 0}
			want[winner] = tt.points
			if !o.Finished || o.Winner != winner || o.Points[0] != want[0] || o.Points[1] != want[1] || o.Detail != tt.detail {
				t.Errorf("%s (winner %d): Outcome() = %+v; want winner %d points %v %s", tt.name, winner, o, winner, want, tt.detail)
			}
		}
	}
}

// TestWinningPlay: bearing off the last checker ends the game; the finished
// state is written from the loser's side, as gnubg shows it.
func TestWinningPlay(t *testing.T) {
	s, err := FromBoard(board(map[int]int{1: 2}, map[int]int{6: 13, 19: 1, 25: 1}), White, PhaseMove, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	moves := s.LegalMoves()
	if len(moves) != 1 || moves[0].String() != "1/off(2)" {
		t.Fatalf("LegalMoves() = %v; want [1/off(2)]", moves)
	}
	next, err := s.Apply(moves[0])
	if err != nil {
		t.Fatal(err)
	}
	if next.Phase() != PhaseOver || next.Turn() != Black || next.PositionID()[:4] != "AAAA" {
		t.Errorf("after the last checker: %s phase %s turn %d; want over, black's side", next, next.Phase(), next.Turn())
	}
	if o := next.Outcome(); o.Winner != White || o.Points[White] != 3 || o.Detail != "backgammon" {
		t.Errorf("Outcome() = %+v; want white wins a backgammon", o)
	}
	if got := next.LegalMoves(); len(got) != 0 {
		t.Errorf("LegalMoves() after the end = %v; want none", got)
	}
	if _, err := next.Apply(PassMove()); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("Apply after the end = %v; want ErrGameOver", err)
	}
	if _, err := ParseMove(next, "pass"); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("ParseMove after the end = %v; want ErrGameOver", err)
	}
	back, err := ParseState(next.String())
	if err != nil || back != next {
		t.Errorf("ParseState(%q) = %v, %v; want the same state", next, back, err)
	}
}

func TestPositionIDRoundTrip(t *testing.T) {
	for id, phase := range map[string]Phase{startID: PhaseRoll, "lK/gADScXsEBSA": PhaseRoll, "AAAAfr8CCAAAAA": PhaseOver, "AAAABgAAAAAAAA": PhaseOver} {
		s, err := FromPositionID(id, Black, phase, 0, 0)
		if err != nil {
			t.Fatalf("FromPositionID(%q) = %v", id, err)
		}
		if got := s.PositionID(); got != id {
			t.Errorf("FromPositionID(%q).PositionID() = %q", id, got)
		}
	}
	s, err := ParseState("AAAABgAAAAAAAA")
	if err != nil || s.Phase() != PhaseOver {
		t.Errorf("ParseState(bare finished ID) = %v phase %s; want PhaseOver", err, s.Phase())
	}
	if _, err := FromPositionID("AAAABgAAAAAAAA", White, PhaseRoll, 0, 0); err == nil {
		t.Errorf("FromPositionID(finished, PhaseRoll) = nil error; want the phase refused")
	}
	if b := s.Board(); !b.Finished() {
		t.Errorf("Board(%s).Finished() = false", s)
	}
	if b := mustState(t, white31).Board(); b.Finished() {
		t.Errorf("Board(start).Finished() = true")
	}
}

// TestWinningPlayScore: the winning play adds the stake to the winner's
// money-session score in the Match ID (1 single, 2 gammon, 3 backgammon);
// the incoming score is kept. The IDs on the right are what gnubg 1.07
// itself shows ("set gnubgid <before>", then "move 1/off 1/off" in gnubg -t):
// white (gnubg's player 0) or black bears off his last two checkers with
// 5-4 while the loser has one checker off (single), none off and one on the
// winner's 7-point (gammon), or one on the winner's 6-point (backgammon).
func TestWinningPlayScore(t *testing.T) {
	tests := []struct {
		before, after string
		winner, stake int
		score         [2]int
	}{
		{"4P8HAIABAAAAAA:MIESAAAAAAAE", "AAAAwP8PAAAAAA:cAoAABAAAAAE", White, 1, [2]int{1, 0}},
		{"4P8HAIABAAAAAA:cIkSAAAAAAAE", "AAAAwP8PAAAAAA:MAIAAAAACAAE", Black, 1, [2]int{0, 1}},
		{"4P8HgAADAAAAAA:MIESAAAAAAAE", "AAAAwP8PAAEAAA:cAoAACAAAAAE", White, 2, [2]int{2, 0}},
		{"4P8HgAADAAAAAA:cIkSAAAAAAAE", "AAAAwP8PAAEAAA:MAIAAAAAEAAE", Black, 2, [2]int{0, 2}},
		{"4P8HAAEDAAAAAA:MIESAAAAAAAE", "AAAAwP8PAAIAAA:cAoAADAAAAAE", White, 3, [2]int{3, 0}},
		{"4P8HAAEDAAAAAA:cIkSAAAAAAAE", "AAAAwP8PAAIAAA:MAIAAAAAGAAE", Black, 3, [2]int{0, 3}},
		// The same with the session at 3-5 before the game.
		{"4P8HAIABAAAAAA:MIESADAAKAAE", "AAAAwP8PAAAAAA:cAoAAEAAKAAE", White, 1, [2]int{4, 5}},
		{"4P8HAIABAAAAAA:cIkSADAAKAAE", "AAAAwP8PAAAAAA:MAIAADAAMAAE", Black, 1, [2]int{3, 6}},
		{"4P8HgAADAAAAAA:MIESADAAKAAE", "AAAAwP8PAAEAAA:cAoAAFAAKAAE", White, 2, [2]int{5, 5}},
		{"4P8HgAADAAAAAA:cIkSADAAKAAE", "AAAAwP8PAAEAAA:MAIAADAAOAAE", Black, 2, [2]int{3, 7}},
		{"4P8HAAEDAAAAAA:MIESADAAKAAE", "AAAAwP8PAAIAAA:cAoAAGAAKAAE", White, 3, [2]int{6, 5}},
		{"4P8HAAEDAAAAAA:cIkSADAAKAAE", "AAAAwP8PAAIAAA:MAIAADAAQAAE", Black, 3, [2]int{3, 8}},
	}
	for _, tt := range tests {
		s := mustState(t, tt.before)
		m, err := ParseMove(s, "1/off 1/off")
		if err != nil {
			t.Fatalf("ParseMove(%s, 1/off 1/off) = %v", tt.before, err)
		}
		next, err := s.Apply(m)
		if err != nil {
			t.Fatalf("Apply(%s, %s) = %v", tt.before, m, err)
		}
		if got := next.String(); got != tt.after {
			t.Errorf("%s after %s = %s; want gnubg's %s", tt.before, m, got, tt.after)
		}
		if a, b := next.Score(); [2]int{a, b} != tt.score {
			t.Errorf("%s after %s: Score() = %d, %d; want %v", tt.before, m, a, b, tt.score)
		}
		if o := next.Outcome(); o.Winner != tt.winner || o.Points[tt.winner] != tt.stake {
			t.Errorf("%s after %s: Outcome() = %+v; want winner %d, %d points", tt.before, m, o, tt.winner, tt.stake)
		}
		moves, results := s.LegalMovesWithResults()
		if len(moves) != 1 || results[0] != next {
			t.Errorf("LegalMovesWithResults(%s) = %v, %v; want [%s] leading to %s", tt.before, moves, results, m, tt.after)
		}
		// Reading the finished state back does not add the stake again.
		if back := mustState(t, tt.after); back != next {
			t.Errorf("ParseState(%s) = %s; want the same state", tt.after, back)
		}
	}
}

// TestWinningPlayScoreSaturates: the Match ID holds a score of at most
// 32767; a win that would pass it leaves the winner at 32767.
func TestWinningPlayScoreSaturates(t *testing.T) {
	s := mustState(t, "4P8HAAEDAAAAAA:MIESAAAAAAAE")
	s, err := s.WithScore(32766, 9)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMove(s, "1/off(2)")
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := next.Score(); a != 32767 || b != 9 {
		t.Errorf("32766-9, white wins a backgammon: Score() = %d, %d; want 32767, 9", a, b)
	}
	if err := next.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}

// TestOpeningOnlyAtStart: game state 0 without dice is the opening, which
// can only hold the start position; with dice it is the move phase on any
// board (spec "How the API represents a turn").
func TestOpeningOnlyAtStart(t *testing.T) {
	moved := "4HPiASjgc/ABMA" // the start after white's 24/23 13/10, black on turn
	for _, text := range []string{moved + ":" + midWith(), moved + ":" + midWith([3]int{midTurn, 1, 1}, [3]int{midDiceOwner, 1, 1})} {
		_, err := ParseState(text)
		if !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), "start position") {
			t.Errorf("ParseState(%q) = %v; want an invalid-state error naming the start position", text, err)
		}
	}
	b := board(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{24: 1, 23: 1, 13: 4, 10: 1, 8: 3, 6: 5})
	_, err := FromBoard(b, White, PhaseOpening, 0, 0)
	if !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), "black has 1 on point 24 where the start has 2") {
		t.Errorf("FromBoard(moved board, opening) = %v; want an invalid-state error naming black's point 24", err)
	}
	// Game state 0 with dice: the move phase, on any board.
	withDice := moved + ":" + midWith([3]int{midTurn, 1, 1}, [3]int{midDiceOwner, 1, 1}, [3]int{midDie1, 3, 6}, [3]int{midDie2, 3, 2})
	s, err := ParseState(withDice)
	if err != nil || s.Phase() != PhaseMove || s.Turn() != Black {
		t.Errorf("ParseState(%q) = %v phase %s; want black to move", withDice, err, s.Phase())
	}
	// The start position itself, either player named.
	for _, text := range []string{openingID, startID + ":" + midWith([3]int{midTurn, 1, 1}, [3]int{midDiceOwner, 1, 1})} {
		if s, err := ParseState(text); err != nil || s.Phase() != PhaseOpening {
			t.Errorf("ParseState(%q) = %v phase %s; want the opening", text, err, s.Phase())
		}
	}
}

// TestBothOnBarAgainstClosedBoards: GNU Backgammon 1.07's `set gnubgid`
// answers "Illegal position." for exactly the first of these IDs (both
// players on the bar, both home boards closed) and loads the other three
// (checked by hand with /usr/games/gnubg -t -q).
func TestBothOnBarAgainstClosedBoards(t *testing.T) {
	for id, legal := range map[string]bool{
		"27YBA0DbtgEDQA:MAEXAAAAAAAE": false, // both on the bar, both boards closed
		"27YBBwDbtgEDQA:MAEXAAAAAAAE": true,  // both boards closed, one on the bar
		"27aAA0DbtgEDQA:MAEXAAAAAAAE": true,  // both on the bar, one 6-point with a blot
		"27YBA0Bt24ADQA:MAEXAAAAAAAE": true,  // both on the bar, the other's 1-point with a blot
	} {
		_, err := ParseState(id)
		if legal && err != nil {
			t.Errorf("ParseState(%q) = %v; gnubg loads it", id, err)
		}
		if !legal && (!errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), "closed home boards")) {
			t.Errorf("ParseState(%q) = %v; want ErrInvalidState naming the closed home boards (gnubg: Illegal position)", id, err)
		}
	}
}
