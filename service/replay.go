package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// MaxReplayMoves is the most moves one ReplayGame call takes. Each move is
// one string, so a request of this many moves stays inside the transport's
// element budget (10,000 sub-messages and strings, server/limit
// MaxElements) with room for the largest typed state (about 600), and inside
// the 512 KiB receive limit (the longest notations are about 20 bytes).
const MaxReplayMoves = 9_000

// MaxReplayStates is the most moves a ReplayGame call with include_states
// takes, which bounds the answer: a state is at most a few KiB (a Labyrinth
// state as JSON), so the answer stays within a few MiB.
const MaxReplayStates = 1_000

// MaxReplayStateBytes bounds the states of one ReplayGame answer with
// include_states (their protobuf size; JSON is about three times that): a
// call whose states would pass it fails (INVALID_REQUEST on include_states)
// rather than answer tens of MiB (1,000 states on the largest custom
// Gravity Trap board, which every state carries).
// (The largest real answers are far below it: a Labyrinth state is about
// 0.5 KiB, and a game on the largest custom board ends within about 64
// moves of 18.5 KiB states.)
const MaxReplayStateBytes = 4 << 20

// replayStateBytes is MaxReplayStateBytes, lowered by tests.
var replayStateBytes = MaxReplayStateBytes

// replayCheckEvery is how many moves ReplayGame applies between two looks at
// the request's context, so that a cancelled or late call stops early.
const replayCheckEvery = 64

// ReplayGame plays the request's moves from its start and returns the final
// state and outcome (with include_states, every state after a move). The
// first bad move fails the call with the field "moves[i]" and ErrorInfo
// metadata moveIndex (i) and stateBefore (the text of the state before it).
func (s *Server) ReplayGame(ctx context.Context, req *gamerulesv1.ReplayGameRequest) (*gamerulesv1.ReplayGameResponse, error) {
	if len(req.GetActions()) > 0 {
		r, err := actionsReplay(req)
		if err != nil {
			return nil, err
		}
		return s.replayGameOf(ctx, r, applyActionIn(s.actionSpace(req.GetGame())), "actions")
	}
	return s.replayGame(ctx, req, applyNotation)
}

// moveApplier applies move i of a replay, given in notation, to pos: the
// next position, the move's canonical notation, whether rng was used, or
// the move's error. ReplayGame's is applyNotation; a record format's
// import answers from the replay its reading made, and its export keeps
// the typed moves it writes from (record.go), each in the one pass of
// replayGame.
type moveApplier func(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error)

// replayGame is ReplayGame, each move applied by apply.
func (s *Server) replayGame(ctx context.Context, req *gamerulesv1.ReplayGameRequest, apply moveApplier) (*gamerulesv1.ReplayGameResponse, error) {
	return s.replayGameOf(ctx, req, apply, "moves")
}

// replayGameOf is replayGame with its errors on the request's list named
// list ("moves", or "actions" when the moves came as action ids).
func (s *Server) replayGameOf(ctx context.Context, req *gamerulesv1.ReplayGameRequest, apply moveApplier, list string) (*gamerulesv1.ReplayGameResponse, error) {
	eng, err := s.engine(req.GetGame())
	if err != nil {
		return nil, err
	}
	n := len(req.GetMoves())
	switch {
	case n > MaxReplayMoves:
		return nil, toStatus(list, fmt.Errorf("%w: %d moves; at most %d per call", errInvalidRequest, n, MaxReplayMoves))
	case req.GetIncludeStates() && n > MaxReplayStates:
		return nil, toStatus(list, fmt.Errorf("%w: %d moves with include_states; at most %d", errInvalidRequest, n, MaxReplayStates))
	}
	c := oneofCase(req, "options")
	if c != "" && c != req.GetGame() {
		return nil, toStatus("options", fmt.Errorf("%w: options are for game %q, not %q", game.ErrInvalidOptions, c, req.GetGame()))
	}
	seed := seedOrRandom(req.Seed)
	seedUsed := false
	var pos Position
	if st := req.GetState(); st != nil {
		if c != "" {
			return nil, toStatus("options", fmt.Errorf("%w: options are for a new game; the replay starts from the given state", game.ErrInvalidOptions))
		}
		if pos, err = s.decode(req.GetGame(), st); err != nil {
			return nil, err
		}
	} else {
		if pos, err = eng.NewGame(newGameRequest(eng, req), seed); err != nil {
			return nil, toStatus("options", err)
		}
		seedUsed = true
	}
	resp := &gamerulesv1.ReplayGameResponse{Start: pos.Encode(), Moves: make([]string, 0, n)}
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	stateBytes := 0
	for i, notation := range req.GetMoves() {
		if i%replayCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, toStatus(list, err)
			}
		}
		next, applied, drew, err := apply(pos, i, notation, rng)
		if err != nil {
			return nil, toStatusMeta(list+"["+strconv.Itoa(i)+"]", err, map[string]string{"moveIndex": strconv.Itoa(i), "stateBefore": pos.Encode().GetText()})
		}
		seedUsed = seedUsed || drew
		resp.Moves = append(resp.Moves, applied)
		pos = next
		if req.GetIncludeStates() {
			st := pos.Encode()
			if stateBytes += proto.Size(st); stateBytes > replayStateBytes {
				return nil, toStatus("include_states", fmt.Errorf("%w: the states after %d moves take more than %d bytes; replay fewer moves per call, or without include_states", errInvalidRequest, i+1, replayStateBytes))
			}
			resp.States = append(resp.States, st)
		}
	}
	resp.State = pos.Encode()
	if seedUsed {
		resp.Seed = &seed
	}
	sc := scoreOf(pos)
	resp.Finished, resp.Winner, resp.Points, resp.Detail, resp.Backgammon = sc.Finished, sc.Winner, sc.Points, sc.Detail, sc.Backgammon
	return resp, nil
}

// applyNotation applies one move given in notation (a moveApplier; i is
// not used), refusing what refuseNotation refuses, as ApplyMove does.
func applyNotation(pos Position, _ int, notation string, rng *rand.Rand) (Position, string, bool, error) {
	if err := refuseNotation(pos, notation); err != nil {
		return nil, "", false, err
	}
	if a, ok := pos.(notationApplier); ok {
		return a.ApplyNotation(notation, rng)
	}
	next, applied, drew, err := pos.Apply(&gamerulesv1.Move{Notation: notation}, rng)
	return next, applied.GetNotation(), drew, err
}

// refuseNotation refuses an empty move and any move after the end of the
// game (but a backgammon match's "next game").
func refuseNotation(pos Position, notation string) error {
	if notation == "" {
		return fmt.Errorf("%w: move is required (notation)", game.ErrIllegalMove)
	}
	if c, ok := pos.(continuer); ok && c.Continues() {
		// finished, but the next game of a match may start
	} else if out := pos.Outcome(); out.Finished {
		return fmt.Errorf("%w: the game is finished (%s); no move can be applied", game.ErrGameOver, describeOutcome(out))
	}
	return nil
}

// notationApplier is implemented by Positions with a faster way to apply a
// move given in notation than Apply (which also builds the typed move):
// the next position, the move's canonical notation and whether rng was
// used. Errors as Apply's.
type notationApplier interface {
	ApplyNotation(notation string, rng *rand.Rand) (Position, string, bool, error)
}

// newGameRequest is the NewGame request of a replay that starts from a new
// game: the replay's game and options (passed on by the game's Engine, a
// newGameOptioner when the game has options).
func newGameRequest(eng Engine, req *gamerulesv1.ReplayGameRequest) *gamerulesv1.NewGameRequest {
	ng := &gamerulesv1.NewGameRequest{Game: req.GetGame(), Seed: req.Seed}
	if o, ok := eng.(newGameOptioner); ok {
		o.NewGameOptions(req, ng)
	}
	return ng
}
