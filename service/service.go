// Package service implements the gamerules.v1.GameRules gRPC API on top of
// the rules engines. It converts protobuf messages to rules states and back
// and maps rule errors to gRPC statuses; it holds no game logic and keeps no
// state between calls, so a Server is safe for concurrent use and any number
// of copies can serve behind a load balancer.
//
// # One file per game
//
// Each game is one file, service/<game>.go, the only file of the package
// that imports its rules package (rules/<game> and its sub-packages). Its
// init function registers the game's Engine (register, engine.go), and the
// Engine and its Position are the game's whole adapter: ListGames' info,
// NewGame's options, decoding a state (text and typed) and encoding one,
// the legal moves and applying one (notation and typed), and the outcome;
// and, when the game has them, the optional parts engine.go lists: a
// picture (renderer) and a text board (textRenderer), text forms besides
// the canonical one (stateConverter, ConvertState in convert.go),
// per-player views (Observer, viewDecoder), named
// boards (boardProvider), record formats of its own (recordFormatter),
// options a replay passes on (newGameOptioner), a score detail
// (scoreDetailer). The oneof cases of GameState, Move and NewGameRequest
// are named by game id, so the shared files find a game's case from its id
// (oneof.go) and hold no per-game switch.
//
// Adding a game is therefore: its rules package, its file here, its
// drawing in render/ (render/<game>.go), and its proto file
// (proto/gamerules/v1/<game>.proto, with its cases added to the common
// oneofs).
package service

import (
	"context"
	"fmt"
	"math/rand/v2"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// Server has a method for every RPC of gamerules.v1.GameRules, with the
// generated request and answer types, for every registered game; it is not
// itself a gRPC server (server.NewGRPCService makes it one), so that this
// package links no gRPC server or transport code. The zero value is not
// usable; use New.
//
// An answer is read-only: to save the memory and the collector's work of
// thousands of equal small messages, the result states of one answer share
// the sub-messages that are equal (a Labyrinth board's tiles, an Abalone
// colour's cells that did not move, a backgammon colour's unchanged point
// counts, a repeated step), so changing one in place would change it in
// every move that holds it. proto.Clone an answer before changing it. It
// encodes as if every move had its own (answers are byte-identical).
type Server struct {
	engines map[string]Engine
}

// New returns a Server for every game registered in this package.
func New() *Server {
	return &Server{engines: engines}
}

// Games returns the ids of the games the server serves, sorted.
func (s *Server) Games() []string { return gameIDs() }

// ListGames lists the registered games, sorted by id.
func (s *Server) ListGames(context.Context, *gamerulesv1.ListGamesRequest) (*gamerulesv1.ListGamesResponse, error) {
	resp := &gamerulesv1.ListGamesResponse{}
	for _, id := range gameIDs() {
		resp.Games = append(resp.Games, s.engines[id].Info())
	}
	return resp, nil
}

// NewGame returns a game's starting state and the seed it was made from.
func (s *Server) NewGame(_ context.Context, req *gamerulesv1.NewGameRequest) (*gamerulesv1.NewGameResponse, error) {
	eng, err := s.engine(req.GetGame())
	if err != nil {
		return nil, err
	}
	if c := oneofCase(req, "options"); c != "" && c != req.GetGame() {
		return nil, toStatus("options", fmt.Errorf("%w: options are for game %q, not %q", game.ErrInvalidOptions, c, req.GetGame()))
	}
	seed := seedOrRandom(req.Seed)
	pos, err := eng.NewGame(req, seed)
	if err != nil {
		return nil, toStatus("options", err)
	}
	return &gamerulesv1.NewGameResponse{State: pos.Encode(), Seed: seed}, nil
}

// LegalMoves lists the legal moves of the request's state.
func (s *Server) LegalMoves(_ context.Context, req *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	parts, err := parseReadMask(req.GetReadMask(), req.GetIncludeResults())
	if err != nil {
		return nil, toStatus("read_mask", err)
	}
	resp, err := legalMovesAnswer(pos, parts)
	if err != nil {
		return nil, toStatus("state", err)
	}
	return resp, nil
}

// ApplyMove applies the request's move to its state.
func (s *Server) ApplyMove(_ context.Context, req *gamerulesv1.ApplyMoveRequest) (*gamerulesv1.ApplyMoveResponse, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	mv := req.GetMove()
	if mv == nil || (mv.GetNotation() == "" && oneofCase(mv, "move") == "" && mv.Action == nil) {
		return nil, toStatus("move", fmt.Errorf("%w: move is required (notation, typed or action)", game.ErrIllegalMove))
	}
	if c := oneofCase(mv, "move"); c != "" && c != req.GetGame() {
		return nil, toStatus("move", fmt.Errorf("%w: typed move is for game %q, not %q", game.ErrIllegalMove, c, req.GetGame()))
	}
	field := "move"
	if mv.GetNotation() != "" {
		field = "move.notation"
	}
	// A finished game refuses every move, well-formed or not, with one answer.
	if c, ok := pos.(continuer); ok && c.Continues() {
		// finished, but the next game of a match may start
	} else if out := pos.Outcome(); out.Finished {
		return nil, toStatus(field, fmt.Errorf("%w: the game is finished (%s); no move can be applied", game.ErrGameOver, describeOutcome(out)))
	}
	var byAction *gamerulesv1.Move
	if mv.Action != nil {
		if byAction, err = actionMove(pos, mv.GetAction(), s.actionSpace(req.GetGame())); err != nil {
			return nil, toStatus("move.action", err)
		}
		if mv.GetNotation() == "" && oneofCase(mv, "move") == "" {
			mv = &gamerulesv1.Move{Notation: byAction.GetNotation()}
		}
	}
	seed := seedOrRandom(req.Seed)
	next, applied, drew, err := pos.Apply(mv, newSeededRand(seed, seed^0x5851f42d4c957f2d))
	if err != nil {
		return nil, toStatus(field, err)
	}
	if byAction != nil {
		if applied.GetNotation() != byAction.GetNotation() {
			return nil, toStatus("move.action", fmt.Errorf("%w: action %d is %s; the move also names %s", game.ErrIllegalMove, mv.GetAction(), game.Quote(byAction.GetNotation()), game.Quote(applied.GetNotation())))
		}
		applied.Action = byAction.Action
	}
	resp := &gamerulesv1.ApplyMoveResponse{State: next.Encode(), Move: applied}
	if drew {
		resp.Seed = &seed
	}
	sc := scoreOf(next)
	resp.Finished, resp.Winner, resp.Points, resp.Detail, resp.Backgammon = sc.Finished, sc.Winner, sc.Points, sc.Detail, sc.Backgammon
	if req.GetIncludeLegalMoves() {
		w := noResults
		if req.GetIncludeResults() {
			w = allParts
		}
		moves, chance, err := next.LegalMoves(w)
		if err != nil {
			return nil, toStatus("state", err)
		}
		resp.Next = &gamerulesv1.NextMoves{Moves: moves, Chance: chance}
	}
	return resp, nil
}

// Score reports the outcome so far of the request's state.
func (s *Server) Score(_ context.Context, req *gamerulesv1.ScoreRequest) (*gamerulesv1.ScoreResponse, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	return scoreOf(pos), nil
}

// scoreOf is the API's outcome of pos: points by player index, the winner
// only when the game is over and not drawn, and a game's own part
// (backgammon: the cube and the match). Score returns it and ApplyMove
// copies its fields.
func scoreOf(pos Position) *gamerulesv1.ScoreResponse {
	out := pos.Outcome()
	resp := &gamerulesv1.ScoreResponse{Finished: out.Finished, Detail: out.Detail, Points: make([]int32, 0, len(out.Points))}
	for _, p := range out.Points {
		resp.Points = append(resp.Points, int32(p))
	}
	if out.Finished && out.Winner != game.NoWinner {
		w := int32(out.Winner)
		resp.Winner = &w
	}
	if d, ok := pos.(scoreDetailer); ok {
		d.ScoreDetail(resp)
	}
	return resp
}

// ObserveState returns one player's view of the request's state.
func (s *Server) ObserveState(_ context.Context, req *gamerulesv1.ObserveStateRequest) (*gamerulesv1.ObserveStateResponse, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	obs, ok := pos.(Observer)
	if !ok {
		// Nothing is hidden: every player sees the whole state, but the
		// player, when given, must be one of the game's.
		maxPlayers := s.engines[req.GetGame()].Info().GetMaxPlayers()
		if p := req.GetPlayer(); req.Player != nil && (p < -1 || p >= maxPlayers) {
			return nil, toStatus("player", fmt.Errorf("%w: player %d: want -1 (a spectator) or 0..%d", errInvalidRequest, p, maxPlayers-1))
		}
		return &gamerulesv1.ObserveStateResponse{State: pos.Encode()}, nil
	}
	if req.Player == nil {
		return nil, toStatus("player", fmt.Errorf("%w: player is required for a game with hidden information (0-based index, or -1 for a spectator)", errInvalidRequest))
	}
	view, err := obs.Observe(int(req.GetPlayer()))
	if err != nil {
		// The state was valid (decode checked it); what is wrong is the player.
		return nil, toStatus("player", fmt.Errorf("%w: %v", errInvalidRequest, err))
	}
	return &gamerulesv1.ObserveStateResponse{State: view}, nil
}

// engine looks up a game by id.
func (s *Server) engine(id string) (Engine, error) {
	eng, ok := s.engines[id]
	if !ok {
		if id == "" {
			return nil, toStatus("game", fmt.Errorf("%w: game is required; one of %v", errUnknownGame, gameIDs()))
		}
		return nil, toStatus("game", fmt.Errorf("%w: %s; the games are %v", errUnknownGame, game.Quote(id), gameIDs()))
	}
	return eng, nil
}

// decode finds the engine and decodes the state, checking that the state is
// present and that its typed case (if any) is the game's.
func (s *Server) decode(id string, st *gamerulesv1.GameState) (Position, error) {
	eng, err := s.engine(id)
	if err != nil {
		return nil, err
	}
	c := oneofCase(st, "state")
	if st == nil || (st.GetText() == "" && c == "") {
		return nil, toStatus("state", fmt.Errorf("%w: state is required (text or typed)", game.ErrInvalidState))
	}
	if c != "" && c != id {
		return nil, toStatus("state", fmt.Errorf("%w: typed state is for game %q, not %q", game.ErrInvalidState, c, id))
	}
	pos, err := eng.Decode(st)
	if err != nil {
		field := "state"
		if c == "" {
			field = "state.text"
		}
		return nil, toStatus(field, err)
	}
	return pos, nil
}

// describeOutcome says in a few words how a finished game ended.
func describeOutcome(out game.Outcome) string {
	s := "a draw"
	if out.Winner != game.NoWinner {
		s = fmt.Sprintf("player %d won", out.Winner)
	}
	if out.Detail != "" {
		s += ", " + out.Detail
	}
	return s
}

// seedOrRandom returns *seed, or a fresh random seed when seed is nil:
// math/rand/v2's top-level generator (ChaCha8, seeded by the runtime from
// the system's randomness; safe for concurrent use). The seed only chooses
// dice and playouts, so it needs no cryptographic strength, and
// crypto/rand would link the FIPS 140 module (AES, SHA-2/3, DRBG) and
// math/big into the WebAssembly build for it.
func seedOrRandom(seed *uint64) uint64 {
	if seed != nil {
		return *seed
	}
	return rand.Uint64()
}

// seededRand is a generator and its PCG source in one allocation.
type seededRand struct {
	pcg rand.PCG
	r   rand.Rand
}

// newSeededRand is rand.New(rand.NewPCG(seed1, seed2)), the same numbers,
// made with one allocation instead of two.
func newSeededRand(seed1, seed2 uint64) *rand.Rand {
	sr := &seededRand{}
	sr.pcg.Seed(seed1, seed2)
	sr.r = *rand.New(&sr.pcg)
	return &sr.r
}
