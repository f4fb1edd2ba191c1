package backgammon

import (
	"fmt"

	"github.com/gamerules/gamerules/rules/game"
)

// The cube, match play and resignations (spec "Doubling cube, match play,
// resignation"), as GNU Backgammon 1.07 plays them.

// Match ID game states of a finished game (State.End).
const (
	endBorneOff = 2 // a player bore off his last checker
	endResigned = 3 // a resignation was accepted
	endDropped  = 4 // a double was dropped
)

// End reports how a finished game ended: "borne off", "resigned" or
// "dropped" (Match ID game state 2, 3, 4), and "" while it goes on.
func (s State) End() string {
	if s.phase != PhaseOver {
		return ""
	}
	switch s.end {
	case endResigned:
		return "resigned"
	case endDropped:
		return "dropped"
	}
	return "borne off"
}

// CubeInUse reports whether the doubling cube is in use: always in a
// match, and in a money game given the cube option (or a turned cube).
func (s State) CubeInUse() bool { return s.cubeUse }

// CubeValue returns the cube's value: 1, 2, 4, … 4096. While a double is
// offered it is still the value before the double (as the Match ID has it);
// while a beaver awaits an answer, the beavered value.
func (s State) CubeValue() int { return 1 << s.cubeLog }

// CubeOwner returns the player who owns the cube (0 or 1), or -1 when it is
// in the middle.
func (s State) CubeOwner() int {
	if s.owner == ownerCentre {
		return -1
	}
	return int(s.owner)
}

// DoubleOffered reports whether a double (or beaver) has been offered and
// not yet answered (also in a finished game where the taker resigned
// instead, as gnubg keeps the bit).
func (s State) DoubleOffered() bool { return s.doubled }

// Resignation returns the level of the resignation offered, or accepted in
// a finished game: 0 none, 1 single, 2 gammon, 3 backgammon.
func (s State) Resignation() int { return int(s.resign) }

// MatchLength returns the match's length in points, 0 in a money game.
func (s State) MatchLength() int { return int(s.matchLen) }

// Crawford reports the Match ID's Crawford flag: set throughout the
// Crawford game and in the finished game in which a player first reached
// match length - 1 (so that the next game is the Crawford game).
func (s State) Crawford() bool { return s.crawford }

// PostCrawford reports whether the game is after the Crawford game: in a
// match, a player at match length - 1 and the Crawford flag clear.
func (s State) PostCrawford() bool {
	if s.matchLen == 0 || s.crawford || s.phase == PhaseOver {
		return false
	}
	l := s.matchLen - 1
	return s.score[0] == l || s.score[1] == l
}

// Jacoby reports whether the Jacoby rule is in force: a money game with
// the cube and the rule on (Match ID bit 66 clear).
func (s State) Jacoby() bool { return s.jacoby && s.cubeUse && s.matchLen == 0 }

// JacobyBit reports the Match ID's Jacoby flag: true when bit 66 is clear.
// It is kept as it was read (or set by New: on in a money game with the
// cube unless Options.NoJacoby, off elsewhere) through every move of a
// game, as gnubg 1.07 keeps it; a match's next game has it off, as gnubg
// writes every game of a match. It is the Jacoby rule (Jacoby) only in a
// money game with the cube: in a match gammons always count, and the
// leaflet's game has no Jacoby rule (spec "Doubling cube, match play,
// resignation", Jacoby and bit 66).
func (s State) JacobyBit() bool { return s.jacoby }

// BeaverCount returns how many beavers in a row the doubling now offered
// has had: 0 after the double itself, 1 after a beaver, 2 after a raccoon,
// at most MaxBeavers; 0 when no double is offered. It is the memory gnubg
// keeps beside the Match ID to refuse a fourth beaver (spec "Doubling
// cube, match play, resignation", Beavers).
func (s State) BeaverCount() int { return int(s.beavered) }

// WithoutJacoby returns s as it stands when the same moves are played
// without the Jacoby rule: the same position with the rule off, and in a
// finished game the winner's score carrying what the game is worth without
// the rule instead of what it was worth with it (a gammon or backgammon
// borne off with the cube in the middle scores in full, not single; still
// at most 32767). The rule changes nothing else (no move depends on it), so
// a money session played under it can be re-scored without it, state by
// state, without playing it again (package mat, when a record's points
// prove the rule off). A state without the rule (a match, no cube, or the
// rule off already) is returned as it is. Spec: "Doubling cube, match
// play, resignation", Money play options (the Jacoby rule) and Match-ID
// bit 66.
func (s State) WithoutJacoby() State {
	if !s.Jacoby() {
		return s
	}
	next := s
	next.jacoby = false
	if s.phase == PhaseOver {
		// finish added s.points() (clamped): take it off, add the points
		// without the rule. min(min(x+a, M)-a+b, M) is min(x+b, M) for
		// b >= a, which holds: the rule only lowers a stake.
		w := s.winner()
		next.score[w] = uint16(min(max(int(s.score[w])-s.points()+next.points(), 0), 1<<15-1))
	}
	return next
}

// Beavers reports whether beavers are allowed (money game with the cube).
func (s State) Beavers() bool { return s.beavers }

// MatchOver reports whether the match is over: a match whose game is
// finished and where a player has reached the match length.
func (s State) MatchOver() bool {
	return s.matchLen > 0 && (s.score[0] >= s.matchLen || s.score[1] >= s.matchLen)
}

// SessionGoesOn reports whether a finished game has a next game ("next
// game"): only inside a match that is not over (spec "Phases": a finished
// game has no legal moves and every move is GAME_OVER, except inside an
// unfinished match). A money game is one game; the games of a money
// session in a record are chained by NextSessionGame, which is not a move.
func (s State) SessionGoesOn() bool {
	return s.phase == PhaseOver && s.matchLen > 0 && !s.MatchOver()
}

// NextSessionGame returns the state that starts the next game of a money
// session after s, a finished money game with the cube: the running score
// (Score, as gnubg 1.07 keeps a session's totals in the Match ID), Jacoby
// and beavers carry on, the cube is back at 1 in the middle, the opening
// roll is next. It is not a move: the spec ("Phases") gives a finished
// money game no legal moves (it is one game); record import (package mat)
// uses it to check every game of a gnubg money session. Errors wrap
// game.ErrGameOver: s is not finished, is a match, or has no cube.
func (s State) NextSessionGame() (State, error) {
	if s.phase != PhaseOver || s.matchLen > 0 || !s.cubeUse {
		return State{}, fmt.Errorf("backgammon: %w: a next money-session game follows a finished money game with the cube only", game.ErrGameOver)
	}
	return State{
		board: [2][25]uint8{startRow, startRow}, phase: PhaseOpening, score: s.score,
		owner: ownerCentre, cubeUse: true, jacoby: s.jacoby, beavers: s.beavers,
	}, nil
}

// MatchWinner returns the player who won the match, or game.NoWinner.
func (s State) MatchWinner() int {
	switch {
	case s.matchLen == 0:
	case s.score[0] >= s.matchLen:
		return 0
	case s.score[1] >= s.matchLen:
		return 1
	}
	return game.NoWinner
}

// canDouble says why the player on roll may not double now ("" when he may):
// the cube must be in use, the game in the roll phase with nothing pending,
// the cube in the middle or his, not the Crawford game, below MaxCube, and
// in a match not dead (cube < what he still needs: gnubg's rule).
func (s State) canDouble() string {
	switch {
	case !s.cubeUse:
		return "the cube is not in use (NewGame option cube)"
	case s.Phase() != PhaseRoll:
		return fmt.Sprintf("a double is offered before rolling, in the roll phase; the game is in the %s phase", s.Phase())
	case s.owner != ownerCentre && s.owner != s.turn:
		return fmt.Sprintf("%s owns the cube", playerNames[s.owner])
	case s.crawford:
		return "this is the Crawford game: no doubles"
	case s.cubeLog >= 12:
		return fmt.Sprintf("the cube is at %d, gnubg's limit", MaxCube)
	case s.matchLen > 0 && int(s.matchLen)-int(s.score[s.turn]) <= 1<<s.cubeLog:
		return fmt.Sprintf("the cube is dead: at %d it already covers the %d points %s needs", 1<<s.cubeLog, int(s.matchLen)-int(s.score[s.turn]), playerNames[s.turn])
	}
	return ""
}

// canBeaver says why a beaver is not allowed now ("" when it is).
func (s State) canBeaver() string {
	switch {
	case s.Phase() != PhaseDouble:
		return "a beaver answers a double, and no double is offered"
	case s.matchLen > 0:
		return "beavers are not allowed in match play"
	case !s.beavers:
		return "beavers are not allowed (NewGame option beavers)"
	case s.cubeLog+2 > 12:
		return fmt.Sprintf("the cube would pass %d, gnubg's limit", MaxCube)
	case s.beavered >= MaxBeavers:
		return fmt.Sprintf("%d beavers in a row is gnubg's limit (a beaver, a raccoon and one more); take, drop or resign", MaxBeavers)
	}
	return ""
}

// impliedBeavers is the count of beavers in a row that the Match ID and
// the beavers setting show by themselves (spec "Text form with the cube"):
// none without a double offered, beavers allowed and the cube on the
// taker's side (a double is offered only with the cube in the middle or the
// doubler's, so only a beaver puts it there); then the parity, from the
// player to act (the doubler answers after an odd count, the taker after an
// even one; a resignation offered meanwhile swaps them): 1 (or 3, which the
// ID cannot tell from 1) or 2.
func (s State) impliedBeavers() uint8 {
	if !s.doubled || !s.beavers || s.owner != 1-s.turn {
		return 0
	}
	if (s.actor == s.turn) != (s.resign != 0) {
		return 1
	}
	return 2
}

// beaverShown says what impliedBeavers found, for errors.
var beaverShown = [...]string{
	0: "no beaver (no double offered, no beavers allowed, or the cube not on the taker's side)",
	1: "an odd number of beavers (1, or 3 with beaver_count=3)",
	2: "a raccoon (2 beavers)",
}

// decisionMoves appends the decisions legal in s (after the chance
// outcomes or plays of its phase), in the order double, take, drop, beaver,
// resign single/gammon/backgammon, accept, decline, next game.
func (s State) decisionMoves(dst []Move) []Move {
	switch s.Phase() {
	case PhaseRoll:
		if s.canDouble() == "" {
			dst = append(dst, DoubleMove())
		}
	case PhaseMove:
	case PhaseDouble:
		dst = append(dst, TakeMove(), DropMove())
		if s.canBeaver() == "" {
			dst = append(dst, BeaverMove())
		}
	case PhaseResign:
		return append(dst, AcceptMove(), DeclineMove())
	case PhaseOver:
		if s.SessionGoesOn() {
			dst = append(dst, NextGameMove())
		}
		return dst
	default:
		return dst
	}
	if s.cubeUse {
		dst = append(dst, ResignMove(1), ResignMove(2), ResignMove(3))
	}
	return dst
}

// applyDecision makes a decision move (spec "As moves"). s is valid.
func (s State) applyDecision(m Move) (State, error) {
	refuse := func(format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("backgammon: %w: %s: %s", game.ErrIllegalMove, m, fmt.Sprintf(format, args...))
	}
	next := s
	ph := s.Phase()
	switch m.kind {
	case KindDouble:
		if why := s.canDouble(); why != "" {
			return refuse("%s", why)
		}
		next.doubled = true
		next.actor = 1 - s.turn
	case KindTake, KindDrop:
		if ph != PhaseDouble {
			return refuse("no double awaits an answer (phase %s)", ph)
		}
		next.doubled, next.beavered = false, 0
		if m.kind == KindDrop {
			next.phase = PhaseOver
			next.end = endDropped
			return next.finish(int(1 - s.actor)), nil
		}
		// The taker owns the cube; after beavers the cube stays with the
		// first beaverer, who is the taker too (gnubg 1.07).
		next.cubeLog++
		next.owner = 1 - s.turn
		next.actor = s.turn
	case KindBeaver:
		if why := s.canBeaver(); why != "" {
			return refuse("%s", why)
		}
		// gnubg 1.07: the cube goes to the first beaverer (the taker) and
		// stays with him through raccoons.
		next.cubeLog++
		next.owner = 1 - s.turn
		next.actor = 1 - s.actor
		next.beavered++
	case KindResign:
		if !s.cubeUse {
			return refuse("resignations are offered only where the cube is in use (NewGame option cube, or a match)")
		}
		if ph != PhaseRoll && ph != PhaseMove && ph != PhaseDouble {
			return refuse("a resignation is offered by the player on turn while the game goes on (phase %s)", ph)
		}
		if m.dice[0] < 1 || m.dice[0] > 3 {
			return refuse("the level is single, gammon or backgammon")
		}
		next.resign = m.dice[0]
		next.actor = 1 - s.actor
	case KindAccept, KindDecline:
		if ph != PhaseResign {
			return refuse("no resignation awaits an answer (phase %s)", ph)
		}
		if m.kind == KindAccept {
			next.phase = PhaseOver
			next.end = endResigned
			return next.finish(int(s.actor)), nil
		}
		next.resign = 0
		next.actor = 1 - s.actor
	case KindNextGame:
		if ph != PhaseOver {
			return refuse("the game is not over")
		}
		if s.matchLen == 0 {
			return State{}, fmt.Errorf("backgammon: %w: a money game is one game; start a new one with NewGame", game.ErrGameOver)
		}
		if s.MatchOver() {
			return State{}, fmt.Errorf("backgammon: %w: the match is over (%d-%d in a match to %d)", game.ErrGameOver, s.score[0], s.score[1], s.matchLen)
		}
		// A match's next game: the score and the settings carry on; the
		// cube is back at 1 in the middle. The Jacoby flag is off (Match ID
		// bit 66 set), as gnubg writes every new game of a match, whatever
		// the game before had read.
		next = State{
			board: [2][25]uint8{startRow, startRow}, phase: PhaseOpening, score: s.score,
			owner: ownerCentre, crawford: s.crawford, matchLen: s.matchLen, cubeUse: true,
		}
	default:
		return refuse("not a decision")
	}
	return next, nil
}

// finish completes a state that has just become PhaseOver (next.end set)
// with winner w: the points (Points) go to the winner's score (at most
// 32767), and in a match the Crawford flag is updated as gnubg does: set
// when a player first reaches match length - 1, cleared when the Crawford
// game ends.
func (next State) finish(w int) State {
	pts := next.points()
	l := int(next.matchLen) - 1
	atLeader := func() bool { return int(next.score[0]) == l || int(next.score[1]) == l }
	wasCrawford, wasAt := next.crawford, atLeader()
	next.score[w] = uint16(min(int(next.score[w])+pts, 1<<15-1))
	if next.matchLen > 0 {
		next.crawford = !wasCrawford && !wasAt && atLeader() && !next.MatchOver()
	}
	return next
}

// winner returns the winner of a finished game.
func (s State) winner() int {
	switch s.end {
	case endResigned:
		return int(s.actor)
	case endDropped:
		return int(1 - s.actor)
	}
	w, _, _ := s.result()
	return w
}

// points is what a finished game is worth to its winner: a game borne off
// scores its stake (1, 2, 3) × the cube, except that under the Jacoby rule
// a game with the cube still in the middle counts single; a resignation
// scores its level × the cube (no Jacoby); a drop the cube's value.
func (s State) points() int {
	c := 1 << s.cubeLog
	switch s.end {
	case endResigned:
		return int(s.resign) * c
	case endDropped:
		return c
	}
	_, stake, _ := s.result()
	if s.Jacoby() && s.owner == ownerCentre {
		stake = 1
	}
	return stake * c
}

// validateCube checks the cube, match and decision fields (see Validate).
func (s State) validateCube() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("backgammon: %w: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))
	}
	if s.actor > 1 {
		return bad("player to act %d is not a player", s.actor)
	}
	if s.cubeLog > 12 {
		return bad("cube at %d; gnubg's limit is %d", 1<<s.cubeLog, MaxCube)
	}
	switch s.owner {
	case 0, 1, ownerCentre:
	default:
		return bad("cube owner field is %d, which gnubg does not use (0 or 1 = a player, 3 = centred)", s.owner)
	}
	if s.resign > 3 {
		return bad("resignation level %d", s.resign)
	}
	if s.crawford {
		l := s.matchLen - 1
		if s.matchLen == 0 || (s.score[0] != l && s.score[1] != l) {
			return bad("Crawford flag set but no player is at match length - 1 (score %d-%d, match to %d)", s.score[0], s.score[1], s.matchLen)
		}
	}
	// The Jacoby flag (bit 66) may be anything: outside a money game with
	// the cube it is kept as read and changes nothing.
	if !s.cubeUse && (s.cubeLog != 0 || s.owner != ownerCentre || s.doubled || s.resign != 0 || s.matchLen != 0 || s.beavers || s.crawford) {
		return bad("cube, match or resignation fields set in a game without the cube")
	}
	if n := s.impliedBeavers(); s.beavered != n && (s.beavered != MaxBeavers || n != 1) {
		if s.beavered > MaxBeavers {
			return bad("%d beavers in a row; gnubg allows %d", s.beavered, MaxBeavers)
		}
		return bad("%d beavers in a row do not fit the Match ID, which shows %s", s.beavered, beaverShown[n])
	}
	if s.matchLen > 0 {
		if s.beavers {
			return bad("beavers belong to money play, not a match")
		}
		if s.phase != PhaseOver && (s.score[0] >= s.matchLen || s.score[1] >= s.matchLen) {
			return bad("score %d-%d in a match to %d: the match is over, so no game is played", s.score[0], s.score[1], s.matchLen)
		}
	}
	switch s.phase {
	case PhaseOpening:
		if s.cubeLog != 0 || s.owner != ownerCentre || s.doubled || s.resign != 0 || s.actor != s.turn {
			return bad("the opening (game state 0) has the cube at 1 in the middle and nothing offered")
		}
	case PhaseOver:
		switch s.end {
		case endBorneOff:
			if s.resign != 0 || s.doubled {
				return bad("a game borne off (game state 2) has no double or resignation offered")
			}
		case endResigned:
			if s.resign == 0 {
				return bad("game state 3 (resigned) needs the resignation level")
			}
		case endDropped:
			if s.resign != 0 || s.doubled {
				return bad("game state 4 (dropped) has no double or resignation offered")
			}
		default:
			return bad("finished game state %d", s.end)
		}
	default:
		if s.doubled && s.phase != PhaseRoll {
			return bad("a double is offered before the roll; dice %d-%d are rolled", s.dice[0], s.dice[1])
		}
		if s.doubled && s.resign == 0 && s.cubeLog >= 12 {
			return bad("a double offered with the cube at %d, gnubg's limit", MaxCube)
		}
		if s.resign != 0 && !s.doubled && s.actor == s.turn {
			return bad("a resignation offered by %s, who is not on roll (only the player on turn offers one)", playerNames[1-s.actor])
		}
		if !s.doubled && s.resign == 0 && s.actor != s.turn {
			return bad("player on roll %d differs from player on turn %d, but no double or resignation is offered", s.turn, s.actor)
		}
	}
	return nil
}

// Position is the typed form of a State: the board, the players, the
// phase, the dice, the score, and the cube, match and decision fields (spec
// "Doubling cube, match play, resignation"). State.Position and
// FromPosition convert, FromPosition(s.Position()) == s; the starting Board
// with every other field zero is the default game.
type Position struct {
	// Board: the checkers of each player (see Board).
	Board Board
	// Turn is the player to act (State.Turn); OnRoll the dice owner
	// (State.OnRoll), from whose side the Position ID is written. They
	// differ only while a decision is offered and in some finished games.
	Turn, OnRoll int
	// Phase as State.Phase reports it: PhaseDouble and PhaseResign for a
	// pending decision (the dice, if any, are those of the turn a
	// resignation was offered in).
	Phase Phase
	// Dice: two dice 1..6 in PhaseMove (and for a resignation offered or
	// accepted after the roll), otherwise 0, 0.
	Dice [2]int
	// Score: white's and black's (State.Score).
	Score [2]int
	// Cube: the cube is in use (always in a match).
	Cube bool
	// CubeValue: 1, 2, 4, … 4096 (0 reads as 1).
	CubeValue int
	// CubeOwner: 0, 1, or -1 for the middle.
	CubeOwner int
	// DoubleOffered: a double (or beaver) is offered.
	DoubleOffered bool
	// Resignation offered or accepted: 0 none, 1 single, 2 gammon, 3 backgammon.
	Resignation int
	// MatchLength: 0 for a money game.
	MatchLength int
	// Crawford: the Match ID's Crawford flag.
	Crawford bool
	// Jacoby is the Match ID's Jacoby flag (bit 66 clear; State.JacobyBit):
	// the Jacoby rule in a money game with the cube, kept as read and
	// without effect elsewhere.
	Jacoby bool
	// Beavers: beavers are allowed (money game with the cube only).
	Beavers bool
	// BeaverCount: beavers in a row in the doubling now offered
	// (State.BeaverCount), 0..MaxBeavers. 0 on input means what the Match
	// ID shows by itself (1 while a beaver awaits an answer, 2 after a
	// raccoon), so only a third beaver needs to be given.
	BeaverCount int
	// End: in PhaseOver, the Match ID game state: 2 borne off, 3 resigned,
	// 4 dropped (0 reads as 2).
	End int
}

// Position returns the typed form of s.
func (s State) Position() Position {
	f := Position{
		Board: s.Board(),
		Turn:  int(s.actor), OnRoll: int(s.turn), Phase: s.Phase(),
		Dice: [2]int{int(s.dice[0]), int(s.dice[1])}, Score: [2]int{int(s.score[0]), int(s.score[1])},
		Cube: s.cubeUse, CubeValue: 1 << s.cubeLog, CubeOwner: s.CubeOwner(), DoubleOffered: s.doubled,
		Resignation: int(s.resign), MatchLength: int(s.matchLen), Crawford: s.crawford,
		Jacoby: s.jacoby, Beavers: s.beavers, BeaverCount: int(s.beavered),
	}
	if s.phase == PhaseOver {
		f.End = int(s.end)
	}
	return f
}

// FromPosition builds a State from its typed form and validates it as
// ParseState would the same gnubg ID. Errors wrap game.ErrInvalidState.
func FromPosition(f Position) (State, error) {
	bad := func(format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("backgammon: %w: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))
	}
	var s State
	for p := 0; p < 2; p++ {
		for i, n := range f.Board[p] {
			if n < 0 || n > Checkers {
				return bad("player %d has %d checkers on %s", p, n, slotName(i+1))
			}
			s.board[p][i] = uint8(n)
		}
	}
	if f.Turn != 0 && f.Turn != 1 || f.OnRoll != 0 && f.OnRoll != 1 {
		return bad("turn %d, on roll %d: each is a player, 0 or 1", f.Turn, f.OnRoll)
	}
	s.actor, s.turn = uint8(f.Turn), uint8(f.OnRoll)
	d1, d2 := f.Dice[0], f.Dice[1]
	if d1 < 0 || d1 > 6 || d2 < 0 || d2 > 6 || (d1 == 0) != (d2 == 0) {
		return bad("dice %d-%d: two dice 1..6, or none", d1, d2)
	}
	if d1 < d2 {
		d1, d2 = d2, d1
	}
	s.dice = [2]uint8{uint8(d1), uint8(d2)}
	for p, v := range f.Score {
		if v < 0 || v >= 1<<15 {
			return bad("%s's score %d: 0..32767 (15 bits of the Match ID)", playerNames[p], v)
		}
	}
	s.score = [2]uint16{uint16(f.Score[0]), uint16(f.Score[1])}
	v := f.CubeValue
	if v == 0 {
		v = 1
	}
	for v > 1 && v%2 == 0 && s.cubeLog < 13 {
		v /= 2
		s.cubeLog++
	}
	if v != 1 || s.cubeLog > 12 {
		return bad("cube value %d: a power of 2 from 1 to %d", f.CubeValue, MaxCube)
	}
	switch f.CubeOwner {
	case -1:
		s.owner = ownerCentre
	case 0, 1:
		s.owner = uint8(f.CubeOwner)
	default:
		return bad("cube owner %d: 0, 1 or -1 (the middle)", f.CubeOwner)
	}
	if f.Resignation < 0 || f.Resignation > 3 {
		return bad("resignation %d: 0 none, 1 single, 2 gammon, 3 backgammon", f.Resignation)
	}
	if f.MatchLength < 0 || f.MatchLength > MaxMatchLength {
		return bad("match length %d: 0..%d", f.MatchLength, MaxMatchLength)
	}
	s.doubled, s.resign, s.matchLen, s.crawford = f.DoubleOffered, uint8(f.Resignation), uint16(f.MatchLength), f.Crawford
	s.cubeUse = f.Cube || s.matchLen > 0
	s.jacoby, s.beavers = f.Jacoby, f.Beavers
	if f.BeaverCount < 0 || f.BeaverCount > MaxBeavers {
		return bad("beaver count %d: 0..%d beavers in a row", f.BeaverCount, MaxBeavers)
	}
	switch f.Phase {
	case PhaseOpening, PhaseRoll, PhaseMove:
		s.phase = f.Phase
		if f.DoubleOffered || f.Resignation != 0 {
			return bad("a %s is offered, so the phase is %s, not %s", map[bool]string{true: "double", false: "resignation"}[f.Resignation == 0], map[bool]Phase{true: PhaseDouble, false: PhaseResign}[f.Resignation == 0], f.Phase)
		}
	case PhaseDouble:
		if !f.DoubleOffered || f.Resignation != 0 {
			return bad("phase double needs the double offered and no resignation")
		}
		s.phase = PhaseRoll
	case PhaseResign:
		if f.Resignation == 0 {
			return bad("phase resign needs the resignation's level")
		}
		s.phase = PhaseRoll
		if d1 != 0 {
			s.phase = PhaseMove
		}
	case PhaseOver:
		s.phase = PhaseOver
		s.end = uint8(f.End)
		if f.End == 0 {
			s.end = endBorneOff
		}
		if s.end < endBorneOff || s.end > endDropped {
			return bad("end %d: the finished game states are 2 (borne off), 3 (resigned), 4 (dropped)", f.End)
		}
	default:
		return bad("unknown phase %d", f.Phase)
	}
	s.beavered = uint8(f.BeaverCount)
	if s.beavered == 0 {
		s.beavered = s.impliedBeavers()
	}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}
