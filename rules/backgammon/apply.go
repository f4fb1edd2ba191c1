package backgammon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// Apply returns the state after m; s itself never changes. It validates s
// (Validate) and m, then makes the transition (spec "How the API represents
// a turn"):
//
//   - an opening roll "roll w-b" (PhaseOpening): the player with the higher
//     die is on turn in PhaseMove with the dice w and b (higher first, as
//     every State keeps them);
//   - a roll (PhaseRoll): the player on turn is in PhaseMove with the dice;
//   - a play or "pass" (PhaseMove): the opponent is to roll (PhaseRoll), or,
//     if the mover has borne off his last checker, PhaseOver with the loser
//     on turn and the stake (1, 2 or 3, see State.Outcome) added to the
//     winner's score, as gnubg writes the Match ID (at most 32767). The next
//     State's text form is written from the opponent's side.
//
// A play need not be canonical: any order of its steps that is a legal
// sequence is accepted and gives the same State as the canonical move.
// Errors: game.ErrInvalidState if s is invalid; game.ErrGameOver in
// PhaseOver; game.ErrIllegalMove when m is not legal now, with the reason
// (wrong phase, steps the dice cannot make, a blocked point, a must-play
// rule).
func (s State) Apply(m Move) (State, error) {
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	if s.phase == PhaseOver && m.kind != KindNextGame {
		if s.matchLen > 0 && !s.MatchOver() {
			return State{}, fmt.Errorf("backgammon: %w: the game is over; the match goes on with \"next game\", not %q", game.ErrIllegalMove, m)
		}
		return State{}, fmt.Errorf("backgammon: %w: the game is over; no move %q", game.ErrGameOver, m)
	}
	if m.kind >= KindDouble {
		return s.applyDecision(m)
	}
	if ph := s.Phase(); ph == PhaseDouble || ph == PhaseResign {
		return State{}, fmt.Errorf("backgammon: %w: %s: a %s awaits an answer first (%s)", game.ErrIllegalMove, m, map[Phase]string{PhaseDouble: "double", PhaseResign: "resignation"}[ph], s.answers())
	}
	switch m.kind {
	case KindOpeningRoll:
		if s.phase != PhaseOpening {
			return State{}, fmt.Errorf("backgammon: %w: %s is an opening roll, but the game is in the %s phase", game.ErrIllegalMove, m, s.phase)
		}
		w, b := m.dice[0], m.dice[1]
		if w < 1 || w > 6 || b < 1 || b > 6 || w == b {
			return State{}, fmt.Errorf("backgammon: %w: opening roll %d-%d: each die 1..6 and different (a tie is rolled again)", game.ErrIllegalMove, w, b)
		}
		return s.rolled(m), nil
	case KindRoll:
		if s.phase != PhaseRoll {
			return State{}, fmt.Errorf("backgammon: %w: %s: the game is in the %s phase, not waiting for a roll", game.ErrIllegalMove, m, s.phase)
		}
		a, b := m.dice[0], m.dice[1]
		if a < 1 || a > 6 || b < 1 || b > 6 {
			return State{}, fmt.Errorf("backgammon: %w: roll %d-%d: each die is 1..6", game.ErrIllegalMove, a, b)
		}
		return s.rolled(m), nil
	case KindPass, KindPlay:
		if s.phase != PhaseMove {
			return State{}, fmt.Errorf("backgammon: %w: %s: the dice have not been rolled (phase %s)", game.ErrIllegalMove, m, s.phase)
		}
	default:
		return State{}, fmt.Errorf("backgammon: %w: not a move (kind %s)", game.ErrIllegalMove, m.kind)
	}

	c, err := s.canonical(m)
	if err != nil {
		return State{}, err
	}
	if c.kind == KindPass {
		return s.endTurn(s), nil
	}
	return s.play(c), nil
}

// Canonical returns the move LegalMoves lists that m stands for: for a play
// given in another order of steps, or with combined steps (as PlayMove
// allows), the canonical play with the same result; other moves unchanged.
// It checks m as Apply does and returns the same errors; s does not change.
func (s State) Canonical(m Move) (Move, error) {
	if _, err := s.Apply(m); err != nil {
		return Move{}, err
	}
	if m.kind != KindPlay {
		return m, nil
	}
	return s.canonical(m)
}

// canonical resolves a pass or play in PhaseMove against the legal plays.
func (s State) canonical(m Move) (Move, error) {
	g := genPool.Get().(*gen)
	defer genPool.Put(g)
	g.generate(&s)
	if m.kind == KindPass {
		if len(g.ents) > 0 {
			return Move{}, fmt.Errorf("backgammon: %w: pass with %d-%d: a play is possible (%d legal, e.g. %s)", game.ErrIllegalMove, s.dice[0], s.dice[1], len(g.ents), g.ents[0].m)
		}
		return m, nil
	}
	for i := range g.ents {
		if g.ents[i].m == m {
			return m, nil
		}
	}
	// Not canonical: search for a legal play made of these steps.
	var q search
	q.init(g, &s)
	for i := 0; i < int(m.n); i++ {
		q.addHop(int(m.steps[i][0]), int(m.steps[i][1]), false)
	}
	j, err := q.run(m.String())
	if err != nil {
		return Move{}, err
	}
	return g.ents[j].m, nil
}

// LegalMovesWithResults returns LegalMoves and, at the same index, the
// State after each move: what Apply would return, computed without checking
// each move again. s does not change.
func (s State) LegalMovesWithResults() ([]Move, []State) {
	moves := s.LegalMoves()
	next := make([]State, len(moves))
	for i, m := range moves {
		next[i] = s.resultOf(m)
	}
	return moves, next
}

// AppendLegalMovesWithResults appends LegalMovesWithResults' moves to
// moves and their States to next and returns the extended slices; with
// reused slices (e.g. an earlier call's, cut to [:0]) it does not allocate.
// The moves appended are moves[len(moves):] of the result, their States
// next[len(next):].
func (s State) AppendLegalMovesWithResults(moves []Move, next []State) ([]Move, []State) {
	base := len(moves)
	moves = s.AppendLegalMoves(moves)
	next = slices.Grow(next, len(moves)-base)
	for _, m := range moves[base:] {
		if m.kind == KindPlay {
			// A play, the most of a list, is applied in place, without
			// resultOf's copies of the State.
			next = append(next, s)
			s.playInto(&next[len(next)-1], m)
			continue
		}
		next = append(next, s.resultOf(m))
	}
	return moves, next
}

// ApplyListed is Apply for a move known to be legal, without Apply's
// checks: m must be a move of s.LegalMoves() (a roll RollDice draws for s
// is one), and s a State that Validates (one from New, ParseState,
// FromPosition or Apply, or ApplyListed's own results). It returns what
// Apply returns for m, without validating s again nor generating the legal
// plays again to check m, so a caller that chose m from the list (a
// playout: one move generation per ply) pays for the generation once. For
// any other m or s the result is unspecified: use Apply on moves that come
// from outside. s does not change.
func (s State) ApplyListed(m Move) State { return s.resultOf(m) }

// resultOf is the State after m, a listed move of s (LegalMovesWithResults,
// ApplyListed).
func (s State) resultOf(m Move) State {
	switch m.kind {
	case KindPlay:
		return s.play(m)
	case KindPass:
		return s.endTurn(s)
	case KindOpeningRoll, KindRoll:
		return s.rolled(m)
	}
	// A decision (or "next game"): Apply's checks before applyDecision
	// pass for a listed move of a valid s, and applyDecision's own cannot
	// fail for one.
	next, _ := s.applyDecision(m)
	return next
}

// rolled is the State after a roll m of s, an opening roll in PhaseOpening
// or a roll in PhaseRoll, its dice checked: the player on roll (the opening
// roll's higher die's) is in PhaseMove with the dice, higher first, as
// gnubg writes the Match ID.
func (s State) rolled(m Move) State {
	a, b := m.dice[0], m.dice[1]
	next := s
	next.phase = PhaseMove
	if m.kind == KindOpeningRoll {
		next.turn, next.actor = White, White
		if b > a {
			next.turn, next.actor = Black, Black
		}
	}
	if a < b {
		a, b = b, a
	}
	next.dice = [2]uint8{a, b}
	return next
}

// IsRollRequest reports whether text is a bare "roll" (any case, spaces
// around): a request to have the dice drawn, which ParseMove refuses and a
// server serves with RollDice.
func IsRollRequest(text string) bool {
	return strings.EqualFold(strings.TrimSpace(text), "roll")
}

// play applies the steps of a legal play and ends the turn.
func (s State) play(m Move) State {
	next := s
	s.playInto(&next, m)
	return next
}

// playInto makes *next, a copy of s, the State after m, a legal play of
// s: play without copying the State back and forth.
func (s *State) playInto(next *State, m Move) {
	me, op := &next.board[s.turn], &next.board[1-s.turn]
	bore := false
	for i := 0; i < int(m.n); i++ {
		from, to := m.steps[i][0], m.steps[i][1]
		me[from-1]--
		if to == Off {
			bore = true
			continue
		}
		if o := &op[24-to]; *o == 1 { // the mover's point t is the opponent's 25-t
			*o = 0
			op[24]++
		}
		me[to-1]++
	}
	if !bore {
		// No checker borne off: the mover has as many on the board as
		// before, so the game goes on.
		s.handOverInto(next)
		return
	}
	*next = s.endTurn(*next)
}

// handOver hands next (s after the mover's play, which leaves him
// checkers on the board) to the opponent to roll.
func (s State) handOver(next State) State {
	s.handOverInto(&next)
	return next
}

// handOverInto is handOver in place: *next, s after the mover's play, is
// handed to the opponent to roll.
func (s *State) handOverInto(next *State) {
	next.dice = [2]uint8{}
	next.turn = 1 - s.turn
	next.actor = next.turn
	next.phase = PhaseRoll
}

// endTurn hands next (s after the mover's play) to the opponent, or ends
// the game when the mover has borne off his last checker.
func (s State) endTurn(next State) State {
	next = s.handOver(next)
	if next.off(int(s.turn)) == Checkers {
		next.phase = PhaseOver
		next.end = endBorneOff
		// gnubg 1.07 adds the points won to the winner's score in the Match
		// ID on the winning play (its money-session score; checked in
		// TestWinningPlayScore). The field holds 15 bits: where the spec is
		// silent, a score that would pass 32767 stays at 32767, so every
		// finished State is valid and round-trips through its text form.
		return next.finish(int(s.turn))
	}
	return next
}

// RollDice draws the chance outcome of s with r: in PhaseOpening each player
// rolls one die until they differ (each of the 30 opening rolls has
// probability 1/30); in PhaseRoll two dice (each of the 21 rolls with its
// Probability). It draws exactly the numbers it needs from r, so a seeded r
// gives reproducible games. The engine keeps no generator: the caller owns r,
// which is not safe for concurrent use. Errors: game.ErrGameOver in
// PhaseOver, game.ErrIllegalMove in PhaseMove (the dice are already rolled).
func RollDice(s State, r *rand.Rand) (Move, error) {
	switch s.Phase() {
	case PhaseDouble, PhaseResign:
		return Move{}, fmt.Errorf("backgammon: %w: a decision awaits an answer (%s); nothing to roll", game.ErrIllegalMove, s.answers())
	case PhaseOpening:
		for {
			w, b := 1+r.IntN(6), 1+r.IntN(6)
			if w != b {
				return OpeningRollMove(w, b), nil
			}
		}
	case PhaseRoll:
		return RollMove(1+r.IntN(6), 1+r.IntN(6)), nil
	case PhaseOver:
		if s.matchLen > 0 && !s.MatchOver() {
			return Move{}, fmt.Errorf("backgammon: %w: the game is over; the match goes on with \"next game\"", game.ErrIllegalMove)
		}
		return Move{}, fmt.Errorf("backgammon: %w: the game is over; nothing to roll", game.ErrGameOver)
	}
	return Move{}, fmt.Errorf("backgammon: %w: the dice are already rolled (%d-%d); play or pass", game.ErrIllegalMove, s.dice[0], s.dice[1])
}

// answers names the moves that answer the pending decision of s.
func (s State) answers() string {
	if s.Phase() == PhaseResign {
		return "accept or decline"
	}
	if s.canBeaver() == "" {
		return "take, drop, beaver or resign"
	}
	return "take, drop or resign"
}

// ApplyText is ParseMove followed by Apply, checking the move once: the
// state after the move written as text, and the move as ParseMove reads it
// (canonical). A bare "roll" is refused as ParseMove refuses it (draw with
// RollDice). Errors are ParseMove's and Apply's. It is the fast path of a
// whole game replayed from notation (ReplayGame); s does not change.
func (s State) ApplyText(text string) (State, Move, error) {
	m, err := ParseMove(s, text)
	if err != nil {
		return State{}, Move{}, err
	}
	// ParseMove has validated s and, in PhaseMove, resolved a pass or play
	// against the legal plays, so it need not be checked again.
	if s.phase == PhaseMove && s.Phase() == PhaseMove {
		switch m.kind {
		case KindPass:
			return s.endTurn(s), m, nil
		case KindPlay:
			return s.play(m), m, nil
		}
	}
	next, err := s.Apply(m)
	if err != nil {
		return State{}, Move{}, err
	}
	return next, m, nil
}
