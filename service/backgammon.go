package service

import (
	"fmt"
	"math/rand/v2"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/game"
)

// backgammonEngine adapts rules/backgammon to the API (game id
// "backgammon"). The text form is gnubg's "<Position ID>:<Match ID>"; the
// typed state carries the board as counts or as a bare Position ID. Dice are
// chance moves: "roll" (or a typed roll without dice) has the server draw
// them with the request's seed.
type backgammonEngine struct{}

func init() { register(backgammonEngine{}) }

func (backgammonEngine) Info() *gamerulesv1.GameInfo {
	return &gamerulesv1.GameInfo{
		Id:          "backgammon",
		DisplayName: "Backgammon",
		MinPlayers:  2,
		MaxPlayers:  2,
		HasChance:   true,
		Variants: []string{
			"money game with the cube at 1 (no options yet; the doubling cube and match play are planned)",
		},
		MoveNotation:  `gnubg's: "24/18 13/11", "bar/22", "6/off", "13/9(4)", "24/23*/20"; "pass" when no number can be played; dice as "roll 6-5" (opening: "roll <white>-<black>"), or "roll" to have the server draw them`,
		StateNotation: `gnubg ID "<Position ID>:<Match ID>" from the side of the player on turn, e.g. "4HPwATDgc/ABMA:MIEFAAAAAAAE" (the start, white to play 3-1)`,
	}
}

func (backgammonEngine) NewGame(*gamerulesv1.NewGameRequest, uint64) (Position, error) {
	s, err := backgammon.New(backgammon.Options{})
	if err != nil {
		return nil, err
	}
	return backgammonPos{s}, nil
}

func (backgammonEngine) Decode(st *gamerulesv1.GameState) (Position, error) {
	typed := st.GetBackgammon()
	s, err := decodeState(st, typed != nil, backgammon.ParseState, func() (backgammon.State, error) { return backgammonStateFromProto(typed) })
	if err != nil {
		return nil, err
	}
	return backgammonPos{s}, nil
}

// backgammonStateFromProto builds a state from the typed fields: the board
// as counts, as a Position ID, or both (then they must agree); an
// unspecified turn is white; an unspecified phase is over on a finished
// board, move with dice, roll without.
func backgammonStateFromProto(pb *gamerulesv1.BackgammonState) (backgammon.State, error) {
	invalid := func(format string, args ...any) (backgammon.State, error) {
		return backgammon.State{}, fmt.Errorf("backgammon: %w: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))
	}
	turn := backgammon.White
	switch pb.GetTurn() {
	case gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_UNSPECIFIED, gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE:
	case gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK:
		turn = backgammon.Black
	default:
		return invalid("turn %v is not a player", pb.GetTurn())
	}
	var d1, d2 int
	switch dice := pb.GetDice(); len(dice) {
	case 0:
	case 2:
		if dice[0] > 6 || dice[1] > 6 {
			return invalid("dice %d-%d: each die is 1..6", dice[0], dice[1])
		}
		d1, d2 = int(dice[0]), int(dice[1])
	default:
		return invalid("dice: give two dice or none, not %d", len(dice))
	}

	var b backgammon.Board
	white, black := pb.GetWhite(), pb.GetBlack()
	hasCounts := len(white) > 0 || len(black) > 0
	switch {
	case hasCounts:
		if len(white) != 25 || len(black) != 25 {
			return invalid("white and black have 25 counts each (points 1..24, then the bar), not %d and %d", len(white), len(black))
		}
		for i := 0; i < 25; i++ {
			if white[i] > backgammon.Checkers || black[i] > backgammon.Checkers {
				return invalid("more than 15 checkers on slot %d", i+1)
			}
			b[backgammon.White][i], b[backgammon.Black][i] = int(white[i]), int(black[i])
		}
	case pb.GetPositionId() != "":
		// Read the ID into a board; the phase is settled below.
		s, err := backgammon.FromPositionID(pb.GetPositionId(), turn, backgammon.PhaseOver, 0, 0)
		if err != nil {
			if s, err = backgammon.FromPositionID(pb.GetPositionId(), turn, backgammon.PhaseRoll, 0, 0); err != nil {
				return backgammon.State{}, err
			}
		}
		b = s.Board()
	default:
		return invalid("the typed state needs a board: white and black counts, or position_id")
	}

	var phase backgammon.Phase
	switch pb.GetPhase() {
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_UNSPECIFIED:
		switch {
		case b.Finished():
			phase = backgammon.PhaseOver
		case d1 != 0:
			phase = backgammon.PhaseMove
		default:
			phase = backgammon.PhaseRoll
		}
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING:
		phase = backgammon.PhaseOpening
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_ROLL:
		phase = backgammon.PhaseRoll
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE:
		phase = backgammon.PhaseMove
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OVER:
		phase = backgammon.PhaseOver
	default:
		return invalid("phase %v is not a phase", pb.GetPhase())
	}
	s, err := backgammon.FromBoard(b, turn, phase, d1, d2)
	if err != nil {
		return backgammon.State{}, err
	}
	if id := pb.GetPositionId(); hasCounts && id != "" && id != s.PositionID() {
		return invalid("position_id %s and the white/black counts (%s) describe different boards", game.Quote(id), s.PositionID())
	}
	if ws, bs := pb.GetWhiteScore(), pb.GetBlackScore(); ws >= 1<<15 || bs >= 1<<15 {
		return invalid("white_score %d, black_score %d: each is 0..32767 (15 bits of the Match ID)", ws, bs)
	}
	return s.WithScore(int(pb.GetWhiteScore()), int(pb.GetBlackScore()))
}

// backgammonPos is a decoded, valid backgammon state.
type backgammonPos struct{ s backgammon.State }

var backgammonPhases = map[backgammon.Phase]gamerulesv1.BackgammonPhase{
	backgammon.PhaseOpening: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING,
	backgammon.PhaseRoll:    gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_ROLL,
	backgammon.PhaseMove:    gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE,
	backgammon.PhaseOver:    gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OVER,
}

func (p backgammonPos) Encode() *gamerulesv1.GameState {
	s := p.s
	b := s.Board()
	typed := &gamerulesv1.BackgammonState{
		White:      make([]uint32, 25),
		Black:      make([]uint32, 25),
		Turn:       gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE,
		Phase:      backgammonPhases[s.Phase()],
		PositionId: s.PositionID(),
		MatchId:    s.MatchID(),
		WhitePips:  uint32(s.Pips(backgammon.White)),
		BlackPips:  uint32(s.Pips(backgammon.Black)),
		WhiteOff:   uint32(s.Checkers(backgammon.White, backgammon.Off)),
		BlackOff:   uint32(s.Checkers(backgammon.Black, backgammon.Off)),
	}
	for i := 0; i < 25; i++ {
		typed.White[i], typed.Black[i] = uint32(b[backgammon.White][i]), uint32(b[backgammon.Black][i])
	}
	if s.Turn() == backgammon.Black {
		typed.Turn = gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK
	}
	if d1, d2 := s.Dice(); d1 != 0 {
		typed.Dice = []uint32{uint32(d1), uint32(d2)}
	}
	ws, bs := s.Score()
	typed.WhiteScore, typed.BlackScore = uint32(ws), uint32(bs)
	return &gamerulesv1.GameState{Text: s.String(), State: &gamerulesv1.GameState_Backgammon{Backgammon: typed}}
}

// backgammonMoveToProto returns m with notation, typed form and, for a
// chance outcome, its probability.
func backgammonMoveToProto(m backgammon.Move) *gamerulesv1.Move {
	typed := &gamerulesv1.BackgammonMove{}
	out := &gamerulesv1.Move{Notation: m.String(), Move: &gamerulesv1.Move_Backgammon{Backgammon: typed}}
	switch m.Kind() {
	case backgammon.KindPlay:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY
		for i := 0; i < m.Len(); i++ {
			st := m.Step(i)
			typed.Steps = append(typed.Steps, &gamerulesv1.BackgammonStep{From: uint32(st.From), To: uint32(st.To), Hit: st.Hit})
		}
	case backgammon.KindPass:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PASS
	case backgammon.KindRoll, backgammon.KindOpeningRoll:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
		a, b := m.Dice()
		typed.Dice = []uint32{uint32(a), uint32(b)}
		prob := m.Probability()
		out.Probability = &prob
	}
	return out
}

// backgammonMoveFromProto converts a typed move (not a draw request) into
// the canonical move of s; an illegal play is refused with the reason.
func backgammonMoveFromProto(s backgammon.State, pb *gamerulesv1.BackgammonMove) (backgammon.Move, error) {
	kind := pb.GetKind()
	if kind == gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_UNSPECIFIED {
		switch {
		case len(pb.GetSteps()) > 0:
			kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY
		case len(pb.GetDice()) > 0:
			kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
		}
	}
	var m backgammon.Move
	switch kind {
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY:
		if len(pb.GetDice()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a play has steps, not dice", game.ErrIllegalMove)
		}
		if len(pb.GetSteps()) > 4 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a play has 1 to 4 steps, not %d", game.ErrIllegalMove, len(pb.GetSteps()))
		}
		steps := make([]backgammon.Step, 0, len(pb.GetSteps()))
		for i, st := range pb.GetSteps() {
			if st.GetFrom() > backgammon.Bar || st.GetTo() > 24 {
				return backgammon.Move{}, fmt.Errorf("backgammon: %w: steps[%d] %d/%d: from must be 1..25 (25 = bar), to 0..24 (0 = off)", game.ErrIllegalMove, i, st.GetFrom(), st.GetTo())
			}
			steps = append(steps, backgammon.Step{From: int(st.GetFrom()), To: int(st.GetTo())})
		}
		var err error
		if m, err = backgammon.PlayMove(steps...); err != nil {
			return backgammon.Move{}, err
		}
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PASS:
		if len(pb.GetSteps()) > 0 || len(pb.GetDice()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a pass has no steps or dice", game.ErrIllegalMove)
		}
		m = backgammon.PassMove()
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL:
		dice := pb.GetDice()
		if len(dice) != 2 || len(pb.GetSteps()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a roll has two dice (or none, to have them drawn) and no steps", game.ErrIllegalMove)
		}
		if dice[0] < 1 || dice[0] > 6 || dice[1] < 1 || dice[1] > 6 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: dice %d-%d: each die is 1..6", game.ErrIllegalMove, dice[0], dice[1])
		}
		a, b := int(dice[0]), int(dice[1])
		if s.Phase() == backgammon.PhaseOpening {
			m = backgammon.OpeningRollMove(a, b)
		} else {
			m = backgammon.RollMove(a, b)
		}
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_UNSPECIFIED:
		return backgammon.Move{}, fmt.Errorf("backgammon: %w: the typed move needs a kind, steps or dice", game.ErrIllegalMove)
	default:
		return backgammon.Move{}, fmt.Errorf("backgammon: %w: kind %d is not a move kind (play, pass or roll)", game.ErrIllegalMove, kind)
	}
	return s.Canonical(m)
}

func (p backgammonPos) LegalMoves(includeResults bool) ([]*gamerulesv1.Move, bool, error) {
	var moves []backgammon.Move
	var results []backgammon.State
	if includeResults {
		moves, results = p.s.LegalMovesWithResults()
	} else {
		moves = p.s.LegalMoves()
	}
	out := make([]*gamerulesv1.Move, len(moves))
	for i, m := range moves {
		out[i] = backgammonMoveToProto(m)
		if includeResults {
			out[i].Result = backgammonPos{results[i]}.Encode()
		}
	}
	chance := p.s.Phase() == backgammon.PhaseOpening || p.s.Phase() == backgammon.PhaseRoll
	return out, chance, nil
}

func (p backgammonPos) Apply(mv *gamerulesv1.Move, rng *rand.Rand) (Position, *gamerulesv1.Move, bool, error) {
	typed := mv.GetBackgammon()
	notationDraw := mv.GetNotation() != "" && backgammon.IsRollRequest(mv.GetNotation())
	typedDraw := typed != nil && len(typed.GetDice()) == 0 && len(typed.GetSteps()) == 0 &&
		typed.GetKind() == gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
	if notationDraw || typedDraw {
		if (mv.GetNotation() != "" && !notationDraw) || (typed != nil && !typedDraw) {
			return nil, nil, false, fmt.Errorf("backgammon: %w: notation %s and the typed move disagree: only one asks for the dice to be drawn", game.ErrIllegalMove, game.Quote(mv.GetNotation()))
		}
		m, err := backgammon.RollDice(p.s, rng)
		if err != nil {
			return nil, nil, false, err
		}
		next, err := p.s.Apply(m)
		if err != nil {
			return nil, nil, false, fmt.Errorf("backgammon: drawn roll %v does not apply: %v", m, err) // a bug: Internal
		}
		return backgammonPos{next}, backgammonMoveToProto(m), true, nil
	}
	m, err := decodeMove(mv, typed != nil,
		func(text string) (backgammon.Move, error) { return backgammon.ParseMove(p.s, text) },
		func() (backgammon.Move, error) { return backgammonMoveFromProto(p.s, typed) })
	if err != nil {
		return nil, nil, false, err
	}
	next, err := p.s.Apply(m)
	if err != nil {
		return nil, nil, false, err
	}
	return backgammonPos{next}, backgammonMoveToProto(m), false, nil
}

func (p backgammonPos) Outcome() game.Outcome { return p.s.Outcome() }
