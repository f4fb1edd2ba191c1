package service

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// actionMove returns the legal move of pos whose action id is action
// (Move.action), with its notation and id. space is the game's action
// space size (GameInfo.action_space_size; 0: not known): an id outside
// 0..space-1 is refused saying the range. Errors wrap
// game.ErrIllegalMove.
func actionMove(pos Position, action, space int32) (*gamerulesv1.Move, error) {
	if space > 0 && (action < 0 || action >= space) {
		return nil, fmt.Errorf("%w: action %d is out of range: the game's action ids are 0..%d (actionSpaceSize %d in ListGames)", game.ErrIllegalMove, action, space-1, space)
	}
	moves, _, err := pos.LegalMoves(moveParts{Notation: true, Action: true})
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		if m.GetAction() == action {
			return m, nil
		}
	}
	plural := "s"
	if len(moves) == 1 {
		plural = ""
	}
	return nil, fmt.Errorf("%w: action %d is no legal move here (the state has %d legal move%s)", game.ErrIllegalMove, action, len(moves), plural)
}

// actionSpace is the action space size of game id, 0 when it is not
// served (the call then fails on its game).
func (s *Server) actionSpace(id string) int32 {
	if e, ok := s.engines[id]; ok {
		return e.Info().GetActionSpaceSize()
	}
	return 0
}

// applyActionIn is ReplayGame's moveApplier for a replay given as actions
// of a game of action space size space: notation is the action id in
// decimal (ReplayGame writes it so).
func applyActionIn(space int32) moveApplier {
	return func(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
		if err := refuseNotation(pos, notation); err != nil {
			return nil, "", false, err
		}
		a, err := strconv.ParseInt(notation, 10, 32)
		if err != nil {
			return nil, "", false, fmt.Errorf("%w: action %s", game.ErrIllegalMove, game.Quote(notation)) // not reached: ReplayGame writes it
		}
		m, err := actionMove(pos, int32(a), space)
		if err != nil {
			return nil, "", false, err
		}
		return applyNotation(pos, i, m.GetNotation(), rng)
	}
}

// actionsReplay is the replay of req with its actions written as the
// decimal ids applyActionIn reads, in moves; an error status when req gives
// both moves and actions.
func actionsReplay(req *gamerulesv1.ReplayGameRequest) (*gamerulesv1.ReplayGameRequest, error) {
	if len(req.GetMoves()) > 0 {
		return nil, toStatus("actions", fmt.Errorf("%w: give moves or actions, not both", errInvalidRequest))
	}
	r := &gamerulesv1.ReplayGameRequest{}
	*r = gamerulesv1.ReplayGameRequest{Game: req.GetGame(), State: req.GetState(), Seed: req.Seed, IncludeStates: req.GetIncludeStates(), Options: req.Options}
	r.Moves = make([]string, len(req.GetActions()))
	for i, a := range req.GetActions() {
		r.Moves[i] = strconv.Itoa(int(a))
	}
	return r, nil
}
