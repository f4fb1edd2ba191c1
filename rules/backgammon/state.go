package backgammon

import (
	"fmt"

	"github.com/gamerules/gamerules/rules/game"
)

// Players. Player 0 is white, player 1 is black (spec "Equipment and naming").
const (
	White = 0
	Black = 1
)

// Board slots. A player's points are numbered 1..24 from his own side (he
// bears off past his 1-point); the bar is 25 and borne-off checkers are 0
// (spec "Equipment and naming"). The same numbers are used in move notation.
const (
	Off = 0  // borne off; "off" in notation
	Bar = 25 // the bar; "bar" in notation
)

// Checkers is the number of checkers each player has.
const Checkers = 15

// Phase is the part of a turn a State is in (spec "How the API represents a turn").
type Phase uint8

const (
	// PhaseOpening: nobody has rolled yet; the chance outcomes are the 30
	// opening rolls. Match ID game state 0. New returns this phase; only
	// the start position can be in it (Validate).
	PhaseOpening Phase = iota
	// PhaseRoll: the player on turn must roll; the chance outcomes are the
	// 21 rolls. Match ID game state 1, no dice.
	PhaseRoll
	// PhaseMove: the player on turn has dice and plays them (or passes).
	// Match ID game state 1 with dice.
	PhaseMove
	// PhaseOver: the game is over: a player has borne off all 15 checkers
	// (Match ID game state 2), or, with the cube, a resignation was accepted
	// (3) or a double dropped (4); see State.End.
	PhaseOver
	// PhaseDouble: a double (or a beaver) awaits an answer; the player on
	// turn takes, drops, beavers or resigns (spec "Doubling cube, match play,
	// resignation"). Match ID game state 1 with the double offered.
	PhaseDouble
	// PhaseResign: a resignation awaits an answer; the player on turn
	// accepts or declines. Match ID game state 1 with the resignation set.
	PhaseResign
)

var phaseNames = [...]string{"opening", "roll", "move", "over", "double", "resign"}

// String returns "opening", "roll", "move", "over", "double" or "resign".
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Options are the variants of New (spec "Doubling cube, match play,
// resignation", "Options of NewGame"). The zero Options is the leaflet's
// game: a money game without the cube, exactly as before the cube existed.
type Options struct {
	// Cube puts the doubling cube in use in a money game (a match always
	// uses it). Resignations are offered only where the cube is in use.
	Cube bool
	// NoJacoby turns the Jacoby rule off in a money game with the cube (it
	// is on by default there, as in gnubg). Ignored without the cube and
	// in a match, where gammons always count.
	NoJacoby bool
	// Beavers allows beavers in a money game with the cube, up to
	// MaxBeavers in a row (gnubg's default). An error in a match or without
	// the cube.
	Beavers bool
	// MatchLength is the match's length in points, 1..MaxMatchLength; 0 is
	// a money game.
	MatchLength int
	// Score is the score to start from (white's, black's): in a match
	// each below MatchLength; in a money game the session score, 0..32767.
	Score [2]int
	// Crawford says the game to start is the Crawford game: valid only in
	// a match where exactly one player is at MatchLength-1. Post-Crawford is
	// not an option: it is a player at MatchLength-1 and Crawford false.
	Crawford bool
}

// MaxMatchLength is the longest match: the Match ID's 15-bit field.
const MaxMatchLength = 1<<15 - 1

// MaxBeavers is how many beavers in a row one doubling allows (a beaver, a
// raccoon and one more): gnubg 1.07's default, "set beavers 3". A fourth
// is refused; the count starts again at the next double (spec "Doubling
// cube, match play, resignation", Beavers).
const MaxBeavers = 3

// MaxCube is the highest cube value, gnubg 1.07's limit: no double is
// offered at it.
const MaxCube = 4096

// State is a whole backgammon position: both players' checkers, the player
// whose turn it is, the phase and the dice. It is a small comparable value;
// Apply returns a new State and never changes its receiver, so States may be
// shared freely between goroutines.
//
// The zero State is not a valid position (no checkers): use New, ParseState
// or FromBoard.
type State struct {
	// board[p][i]: player p's checkers on his own point i+1 (i = 0..23) or
	// on the bar (i = 24). Borne off = 15 - sum.
	board [2][25]uint8
	turn  uint8     // player to roll or to move; after the end, the loser
	phase Phase     // see Phase
	dice  [2]uint8  // PhaseMove: the two dice (1..6), higher first; otherwise 0
	score [2]uint16 // money-session score from the Match ID; the winning play adds its stake

	// The cube, match and resignation fields (spec "Doubling cube, match
	// play, resignation"). The zero values are the leaflet's game. While
	// a decision is pending, phase is the phase it was offered in (roll, or
	// move for a resignation after the roll) and turn stays the dice owner;
	// actor is then the player who answers. Otherwise actor == turn.
	actor    uint8  // Match ID bit 11: the player to act
	cubeLog  uint8  // log2 of the cube value, 0..12
	owner    uint8  // cube owner: 0, 1, or ownerCentre
	doubled  bool   // a double (or beaver) is offered
	resign   uint8  // resignation offered (or accepted, in PhaseOver): 0 none, 1 single, 2 gammon, 3 backgammon
	end      uint8  // PhaseOver: Match ID game state 2 (borne off), 3 (resigned), 4 (dropped)
	crawford bool   // Match ID bit 7
	matchLen uint16 // 0 money game
	cubeUse  bool   // the cube is in use (always in a match)
	jacoby   bool   // Match ID bit 66 clear, kept as read; the Jacoby rule only in a money game with the cube (Jacoby)
	beavers  bool   // beavers allowed (money game with the cube only)
	beavered uint8  // beavers in a row in the doubling now offered, 0..MaxBeavers (0 without a double offered)
}

const ownerCentre = 3

// Board is the typed form of a position, the layout of the oracle data:
// Board[p][i] is the number of player p's checkers on his own point i+1
// (i = 0..23, counted from p's side) or on his bar (i = 24). A player's
// borne-off checkers are 15 minus the sum of his row.
type Board [2][25]int

// startRow is each player's start position from his own side
// (spec "Start position"): 2 on 24, 5 on 13, 3 on 8, 5 on 6.
var startRow = [25]uint8{5: 5, 7: 3, 12: 5, 23: 2}

// New returns a fresh game in PhaseOpening: the start position with nobody
// on roll yet (Turn reports White). Its text form is
// "4HPwATDgc/ABMA:MAAAAAAAAAAE". The only error is none: Options has no
// fields yet, and the error result is there for the variants to come.
//
// With options (see Options) the cube, the match and the settings are set;
// an impossible combination is an error wrapping game.ErrInvalidOptions.
func New(o Options) (State, error) {
	var s State
	s.board[0] = startRow
	s.board[1] = startRow
	s.phase = PhaseOpening
	s.owner = ownerCentre
	bad := func(format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("backgammon: %w: %s", game.ErrInvalidOptions, fmt.Sprintf(format, args...))
	}
	if o.MatchLength < 0 || o.MatchLength > MaxMatchLength {
		return bad("match_length %d: 0 (a money game) or 1..%d", o.MatchLength, MaxMatchLength)
	}
	for p, v := range o.Score {
		if v < 0 || v >= 1<<15 {
			return bad("%s's score %d: 0..32767", playerNames[p], v)
		}
		if o.MatchLength > 0 && v >= o.MatchLength {
			return bad("%s's score %d: in a match to %d each score is below the length (the match would be over)", playerNames[p], v, o.MatchLength)
		}
	}
	s.score = [2]uint16{uint16(o.Score[0]), uint16(o.Score[1])}
	if o.MatchLength > 0 {
		if o.Beavers {
			return bad("beavers are not allowed in a match (gnubg: money play only)")
		}
		s.matchLen = uint16(o.MatchLength)
		s.cubeUse = true
	} else {
		if o.Crawford {
			return bad("crawford: the Crawford game exists only in a match (give match_length)")
		}
		if o.Beavers && !o.Cube {
			return bad("beavers need the cube (cube: true)")
		}
		s.cubeUse = o.Cube
		s.jacoby = o.Cube && !o.NoJacoby
		s.beavers = o.Beavers
	}
	if o.Crawford {
		l := o.MatchLength - 1
		if (o.Score[0] == l) == (o.Score[1] == l) {
			return bad("crawford: the Crawford game needs exactly one player at %d (match length - 1); the score is %d-%d", l, o.Score[0], o.Score[1])
		}
		s.crawford = true
	}
	return s, nil
}

// FromBoard builds a State from typed fields: the board (see Board), the
// player whose turn it is (0 or 1), the phase, and for PhaseMove the two dice
// (1..6 each, in either order: the State keeps them higher first; 0
// otherwise). The result is validated: an impossible position or a
// phase/dice mismatch is an error wrapping game.ErrInvalidState.
func FromBoard(b Board, turn int, phase Phase, d1, d2 int) (State, error) {
	var s State
	for p := 0; p < 2; p++ {
		for i, n := range b[p] {
			if n < 0 || n > Checkers {
				return State{}, fmt.Errorf("backgammon: %w: player %d has %d checkers on %s", game.ErrInvalidState, p, n, slotName(i+1))
			}
			s.board[p][i] = uint8(n)
		}
	}
	if turn != 0 && turn != 1 {
		return State{}, fmt.Errorf("backgammon: %w: turn %d is not a player (0 or 1)", game.ErrInvalidState, turn)
	}
	if d1 < 0 || d1 > 6 || d2 < 0 || d2 > 6 {
		return State{}, fmt.Errorf("backgammon: %w: dice %d-%d out of range 1..6", game.ErrInvalidState, d1, d2)
	}
	if d1 != 0 && d1 < d2 {
		d1, d2 = d2, d1 // kept higher first, as gnubg shows them
	}
	s.turn = uint8(turn)
	s.actor = uint8(turn)
	s.phase = phase
	s.owner = ownerCentre
	if phase == PhaseOver {
		s.end = endBorneOff
	}
	s.dice = [2]uint8{uint8(d1), uint8(d2)}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}

// slotName names board slot i (1..24 points, 25 bar) for messages.
func slotName(i int) string {
	if i == Bar {
		return "the bar"
	}
	return fmt.Sprintf("point %d", i)
}

// Board returns the position in the typed layout (see Board).
func (s State) Board() Board {
	var b Board
	for p := 0; p < 2; p++ {
		for i, n := range s.board[p] {
			b[p][i] = int(n)
		}
	}
	return b
}

// Turn returns the player (0 white, 1 black) whose turn it is: the player to
// roll (PhaseRoll), to move (PhaseMove), to answer a double or resignation
// (PhaseDouble, PhaseResign), or after the end the player the Match ID
// names: the loser of a game borne off, the dropper of a double, the
// acceptor of a resignation. In PhaseOpening it is the player the Match ID
// names (White for New), which the opening roll replaces.
func (s State) Turn() int { return int(s.actor) }

// OnRoll returns the dice owner (Match ID bit 6), from whose side the
// Position ID is written: Turn, except while a double or resignation awaits
// an answer, when it is the player whose roll it was.
func (s State) OnRoll() int { return int(s.turn) }

// Phase returns the phase of the turn: PhaseDouble or PhaseResign while a
// decision awaits an answer, otherwise the phase of the dice.
func (s State) Phase() Phase {
	switch {
	case s.phase == PhaseOver:
		return PhaseOver
	case s.resign != 0:
		return PhaseResign
	case s.doubled:
		return PhaseDouble
	}
	return s.phase
}

// Dice returns the two dice (1..6) in PhaseMove, higher first, and 0, 0
// otherwise. gnubg keeps them so (its "set gnubgid" and "set dice" sort
// them), also after an opening roll, where the player on turn is the one who
// rolled the higher die.
func (s State) Dice() (int, int) { return int(s.dice[0]), int(s.dice[1]) }

// Score returns the score carried by the Match ID (white's, black's; 0, 0
// for New without a start score): in a money game the points won in the
// session so far, in a match the match score. The winning
// play adds the game's stake (Outcome) to the winner's score, as gnubg 1.07
// writes it in the finished state's Match ID; otherwise the score passes
// through every move unchanged.
func (s State) Score() (int, int) { return int(s.score[0]), int(s.score[1]) }

// Checkers returns the number of player's checkers on slot, counted from
// player's own side: points 1..24, Bar (25) or Off (0). It panics if player
// is not 0 or 1 or slot is outside 0..25 (a programmer error).
func (s State) Checkers(player, slot int) int {
	if slot == Off {
		return s.off(player)
	}
	return int(s.board[player][slot-1])
}

// off is the number of player's checkers borne off (may be negative in an
// invalid State with too many checkers).
func (s State) off(player int) int {
	n := Checkers
	for _, c := range s.board[player] {
		n -= int(c)
	}
	return n
}

// Pips returns player's pip count: the sum over his checkers of the distance
// still to go (a checker on his point p counts p, on the bar 25). It panics
// if player is not 0 or 1.
func (s State) Pips(player int) int {
	n := 0
	for i, c := range s.board[player] {
		n += int(c) * (i + 1)
	}
	return n
}

// Validate reports whether s could arise in a money game: each player has at
// most 15 checkers on the board and bar (the rest are borne off), no point is
// held by both colours, the turn is 0 or 1, and the phase agrees with the
// dice and the board (dice 1..6 exactly in PhaseMove; PhaseOver exactly when
// one player has borne off all 15; PhaseOpening only on the start position,
// since nobody has moved yet). Errors wrap game.ErrInvalidState and name the
// field at fault.
func (s State) Validate() error {
	if s.turn > 1 {
		return fmt.Errorf("backgammon: %w: turn %d is not a player (0 or 1)", game.ErrInvalidState, s.turn)
	}
	var left [2]int
	for p := 0; p < 2; p++ {
		for i, c := range s.board[p] {
			if c > Checkers {
				return fmt.Errorf("backgammon: %w: player %d has %d checkers on %s", game.ErrInvalidState, p, c, slotName(i+1))
			}
			left[p] += int(c)
		}
		if left[p] > Checkers {
			return fmt.Errorf("backgammon: %w: player %d has %d checkers on the board and bar; at most 15", game.ErrInvalidState, p, left[p])
		}
	}
	for i := 0; i < 24; i++ {
		// White's point i+1 is black's point 24-i (index 23-i).
		if s.board[0][i] > 0 && s.board[1][23-i] > 0 {
			return fmt.Errorf("backgammon: %w: white's point %d (black's %d) holds checkers of both colours", game.ErrInvalidState, i+1, 24-i)
		}
	}
	// Both players on the bar, each facing the other's closed home board: no
	// play is possible for either, so the game could never go on. GNU
	// Backgammon refuses such a position as illegal (CheckPosition).
	if s.board[0][24] > 0 && s.board[1][24] > 0 && homeClosed(s.board[0]) && homeClosed(s.board[1]) {
		return fmt.Errorf("backgammon: %w: both players have checkers on the bar against closed home boards; no play is possible for either, so the position cannot arise", game.ErrInvalidState)
	}
	if left[0] == 0 && left[1] == 0 {
		return fmt.Errorf("backgammon: %w: both players have borne off all checkers", game.ErrInvalidState)
	}
	over := left[0] == 0 || left[1] == 0
	switch s.phase {
	case PhaseOpening, PhaseRoll, PhaseMove:
		if over {
			return fmt.Errorf("backgammon: %w: a player has borne off all checkers but the game state is %q, not over", game.ErrInvalidState, s.phase)
		}
	case PhaseOver:
		if !over && s.end == endBorneOff {
			return fmt.Errorf("backgammon: %w: game state is over but both players have checkers left", game.ErrInvalidState)
		}
		if over && s.end != endBorneOff {
			return fmt.Errorf("backgammon: %w: a player has borne off all checkers, so the game did not end by a resignation or a drop", game.ErrInvalidState)
		}
	default:
		return fmt.Errorf("backgammon: %w: unknown phase %d", game.ErrInvalidState, s.phase)
	}
	if s.phase == PhaseOpening && s.board != [2][25]uint8{startRow, startRow} {
		return notAtStart(s.board)
	}
	if s.phase == PhaseMove {
		if s.dice[0] < 1 || s.dice[0] > 6 || s.dice[1] < 1 || s.dice[1] > 6 {
			return fmt.Errorf("backgammon: %w: dice %d-%d: the move phase needs two dice 1..6", game.ErrInvalidState, s.dice[0], s.dice[1])
		}
	} else if s.dice != [2]uint8{} && !(s.phase == PhaseOver && s.end == endResigned) {
		return fmt.Errorf("backgammon: %w: dice %d-%d set in the %s phase; dice belong to the move phase only", game.ErrInvalidState, s.dice[0], s.dice[1], s.phase)
	}
	if s.score[0] >= 1<<15 || s.score[1] >= 1<<15 {
		return fmt.Errorf("backgammon: %w: score %d-%d does not fit the Match ID (15 bits)", game.ErrInvalidState, s.score[0], s.score[1])
	}
	return s.validateCube()
}

// homeClosed reports whether a player's home board (his points 1..6) holds
// two or more of his checkers on every point.
func homeClosed(row [25]uint8) bool {
	for _, c := range row[:6] {
		if c < 2 {
			return false
		}
	}
	return true
}

// notAtStart is the error for an opening state whose board is not the start
// position: it names the first slot that differs.
func notAtStart(b [2][25]uint8) error {
	for p := 0; p < 2; p++ {
		for i := 24; i >= 0; i-- {
			if b[p][i] != startRow[i] {
				return fmt.Errorf("backgammon: %w: the opening phase (Match ID game state 0, no dice) cannot arise away from the start position: %s has %d on %s where the start has %d",
					game.ErrInvalidState, playerNames[p], b[p][i], slotName(i+1), startRow[i])
			}
		}
	}
	return nil
}

var playerNames = [2]string{"white", "black"}

// Outcome reports the result: while the game goes on, Finished is false,
// Winner is game.NoWinner and Points is [0 0]. In PhaseOver the winner is the
// player with no checkers left and Points[winner] is the stake, as gnubg
// scores a money game with the cube at 1 (spec "End of the game and score"):
// 1 "single" if the loser has borne off a checker; otherwise 3 "backgammon"
// if the loser still has a checker on the bar or in the winner's home board
// (the loser's points 19..24); otherwise 2 "gammon".
//
// With the cube (spec "Doubling cube, match play, resignation") the points
// are the game's points for the winner: the stake × the cube value (under
// the Jacoby rule a game borne off with the cube in the middle counts 1 ×
// the cube, Detail still naming the result); a resignation accepted scores
// its level × the cube (Detail "resigned single", "resigned gammon",
// "resigned backgammon"); a dropped double the cube value (Detail
// "dropped"). The match (MatchOver, MatchWinner, Score) is reported apart.
func (s State) Outcome() game.Outcome {
	if s.phase != PhaseOver {
		return game.Outcome{Winner: game.NoWinner, Points: []int{0, 0}}
	}
	w := s.winner()
	var detail string
	switch s.end {
	case endResigned:
		detail = "resigned " + resignNames[s.resign]
	case endDropped:
		detail = "dropped"
	default:
		_, _, detail = s.result()
	}
	pts := []int{0, 0}
	pts[w] = s.points()
	return game.Outcome{Finished: true, Winner: w, Points: pts, Detail: detail}
}

var resignNames = [4]string{"", "single", "gammon", "backgammon"}

// result is the winner, stake and its name ("single", "gammon",
// "backgammon") of a board where a player has borne off all his checkers
// (see Outcome).
func (s State) result() (winner, stake int, detail string) {
	w := 0
	if s.off(1) == Checkers {
		w = 1
	}
	l := 1 - w
	if s.off(l) > 0 {
		return w, 1, "single"
	}
	for i := 18; i < 25; i++ { // loser's points 19..24 and his bar
		if s.board[l][i] > 0 {
			return w, 3, "backgammon"
		}
	}
	return w, 2, "gammon"
}

// Info returns the description of backgammon (white and black, dice as
// chance moves).
func Info() game.Info {
	return game.Info{
		ID:           "backgammon",
		Name:         "Backgammon",
		Players:      []string{"white", "black"},
		MinPlayers:   2,
		MaxPlayers:   2,
		HasChance:    true,
		RulesVersion: "1.0.0",
	}
}
