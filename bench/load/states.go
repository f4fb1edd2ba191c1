// Package load makes the requests of the load benchmark (bench/run.sh):
// mid-game states of every game reached by seeded, deterministic play
// against a running server, the calls measured on them (LegalMoves with and
// without results, ApplyMove, Score, and a 200-ply ReplayGame against 10
// single ApplyMove calls), and the files the load tools read (request JSON
// for ghz and hey, a protoset for ghz).
//
// Every loop here is bounded (plies per game, games per search); only the
// server given is contacted.
package load

import (
	"context"
	"fmt"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// Call kinds of a Case (the report's targets are keyed by them).
const (
	CallNoop              = "noop"              // grpc.health.v1.Health/Check, GET /healthz
	CallLegalMoves        = "LegalMoves"        // without include_results
	CallLegalMovesResults = "LegalMovesResults" // with include_results
	CallApplyMove         = "ApplyMove"
	CallScore             = "Score"
	CallReplay200         = "ReplayGame200"  // one ReplayGame of a 200-ply backgammon game
	CallApplyMove10       = "ApplyMove10Ply" // plies 100..109 of that game, one ApplyMove each
)

// Case is one call measured by the benchmark: a gRPC method with its
// request messages (ghz sends them round-robin) and, when REST is set, the
// REST path the first request is POSTed to.
type Case struct {
	// ID is unique, e.g. "backgammon/LegalMovesResults".
	ID string `json:"id"`
	// Label is the table's row name, e.g. "LegalMoves backgammon (25 plays)".
	Label string `json:"label"`
	// Game is the game id ("backgammon", "abalone", "labyrinth",
	// "gravity_trap"); Variant tells two states of one game apart
	// ("", "double", "large").
	Game    string `json:"game"`
	Variant string `json:"variant,omitempty"`
	// Call is one of the Call* constants.
	Call string `json:"call"`
	// Group is the set of cases measured together between the same no-op
	// runs of a round (one state: "backgammon", "backgammon-double", ...).
	Group string `json:"group"`
	// Moves is the number of moves the LegalMoves answer lists (0 for
	// other calls).
	Moves int `json:"moves,omitempty"`
	// Method is the full gRPC method, e.g. "gamerules.v1.GameRules/LegalMoves".
	Method string `json:"method"`
	// Path is the REST path (POST, JSON body), empty when the case is
	// measured over gRPC only.
	Path string `json:"path,omitempty"`
	// Concurrency, when not 0, replaces the load tools' concurrency for
	// this case: 4 for the large custom board, whose answers (up to 1.1 MB
	// of protobuf with results) ghz decodes slower than the server makes
	// them, and whose REST bodies and answers at 50 at once pass the
	// server's byte budget ((--max-in-flight + --max-waiting) ×
	// --max-recv-bytes), which then answers 429.
	Concurrency int `json:"concurrency,omitempty"`
	// Requests are the request messages, at least one.
	Requests []proto.Message `json:"-"`
}

// State is a mid-game state found by seeded play, with its legal moves.
type State struct {
	Group   string
	Game    string
	Variant string
	// Describe names the state in a row label, e.g. "25 plays".
	Describe string
	Ply      int
	State    *gamerulesv1.GameState
	Moves    []*gamerulesv1.Move
}

// search plays seeded games of one game from req and returns the first
// state, at ply minPly or later, whose legal moves are not chance outcomes,
// that accept admits and whose number of moves is within tol of target;
// failing that, the admitted state closest to target. Moves are picked by
// a PCG stream seeded with the game number, so the search is repeatable.
// At most games games of maxPly plies each are played.
func search(ctx context.Context, c gamerulesv1grpc.GameRulesClient, req *gamerulesv1.NewGameRequest, games, minPly, maxPly, target, tol int, accept func(*gamerulesv1.GameState) bool) (State, error) {
	var best State
	bestDist := -1
	for g := 1; g <= games; g++ {
		req := proto.Clone(req).(*gamerulesv1.NewGameRequest)
		seed := uint64(g)
		req.Seed = &seed
		ng, err := c.NewGame(ctx, req)
		if err != nil {
			return State{}, fmt.Errorf("NewGame %s: %w", req.GetGame(), err)
		}
		r := rand.New(rand.NewPCG(seed, 2026))
		st := ng.GetState()
		for ply := 0; ply < maxPly; ply++ {
			lm, err := c.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: req.GetGame(), State: st})
			if err != nil {
				return State{}, fmt.Errorf("LegalMoves %s ply %d: %w", req.GetGame(), ply, err)
			}
			n := len(lm.GetMoves())
			if n == 0 {
				break // game over
			}
			if ply >= minPly && !lm.GetChance() && accept(st) {
				d := n - target
				if d < 0 {
					d = -d
				}
				if bestDist < 0 || d < bestDist {
					best, bestDist = State{Game: req.GetGame(), Ply: ply, State: st, Moves: lm.GetMoves()}, d
				}
				if d <= tol {
					return best, nil
				}
			}
			mv := lm.GetMoves()[r.IntN(n)]
			am, err := c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: req.GetGame(), State: st, Move: &gamerulesv1.Move{Notation: mv.GetNotation()}})
			if err != nil {
				return State{}, fmt.Errorf("ApplyMove %s ply %d %q: %w", req.GetGame(), ply, mv.GetNotation(), err)
			}
			st = am.GetState()
		}
	}
	if bestDist < 0 {
		return State{}, fmt.Errorf("%s: no state found", req.GetGame())
	}
	return best, nil
}

// States finds the benchmark's mid-game states: backgammon with about 25
// plays (non-double roll) and a double with 40 or more, Abalone with about
// 68 moves, Labyrinth in its shift phase with 22 shifts, Gravity Trap on
// the default board after set-up, and on the largest custom board
// (LargestBoard) after set-up.
func States(ctx context.Context, c gamerulesv1grpc.GameRulesClient) ([]State, error) {
	bgPhase := func(double bool) func(*gamerulesv1.GameState) bool {
		return func(s *gamerulesv1.GameState) bool {
			b := s.GetBackgammon()
			d := b.GetDice()
			return b.GetPhase() == gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE && len(d) == 2 && (d[0] == d[1]) == double
		}
	}
	any := func(*gamerulesv1.GameState) bool { return true }
	gtMoving := func(s *gamerulesv1.GameState) bool {
		g := s.GetGravityTrap()
		return g.RedShip != nil && g.BlueShip != nil
	}
	specs := []struct {
		group, variant, describe string
		req                      *gamerulesv1.NewGameRequest
		games, minPly, maxPly    int
		target, tol              int
		accept                   func(*gamerulesv1.GameState) bool
	}{
		{"backgammon", "", "%d plays", &gamerulesv1.NewGameRequest{Game: "backgammon"}, 20, 10, 120, 25, 1, bgPhase(false)},
		{"backgammon-double", "double", "%d plays", &gamerulesv1.NewGameRequest{Game: "backgammon"}, 20, 10, 120, 60, 10, bgPhase(true)},
		{"abalone", "", "%d moves", &gamerulesv1.NewGameRequest{Game: "abalone"}, 10, 20, 80, 68, 1, any},
		{"labyrinth", "", "%d shifts", &gamerulesv1.NewGameRequest{Game: "labyrinth"}, 10, 6, 60, 22, 0, func(s *gamerulesv1.GameState) bool {
			return s.GetLabyrinth().GetPhase() == gamerulesv1.LabyrinthPhase_LABYRINTH_PHASE_SHIFT
		}},
		{"gravity_trap", "", "default board, %d moves", &gamerulesv1.NewGameRequest{Game: "gravity_trap"}, 5, 6, 30, 8, 100, gtMoving},
		{"gravity_trap-large", "large", "%d moves", &gamerulesv1.NewGameRequest{Game: "gravity_trap",
			Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: LargestBoard()}}}, 3, 4, 20, 8, 100, gtMoving},
	}
	var out []State
	for _, s := range specs {
		st, err := search(ctx, c, s.req, s.games, s.minPly, s.maxPly, s.target, s.tol, s.accept)
		if err != nil {
			return nil, err
		}
		st.Group, st.Variant, st.Describe = s.group, s.variant, fmt.Sprintf(s.describe, len(st.Moves))
		out = append(out, st)
	}
	return out, nil
}

// LargestBoard is the largest custom Gravity Trap board the server accepts:
// 64 stations (with coordinates and an opposite map) and 256 lines of 62 or
// 63 stations (the board of TestLargestLegitimateRequest in server/).
func LargestBoard() *gamerulesv1.GravityTrapBoard {
	board := &gamerulesv1.GravityTrapBoard{}
	for i := 0; i < 64; i++ {
		board.Stations = append(board.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: -2.598076211353316 + float64(i)/7, Y: 1.4999999999999996 - float64(i)/9})
		board.Opposite = append(board.Opposite, uint32(i^1))
	}
	for l := 0; l < 256; l++ {
		skip1, skip2 := l%64, (l/64*17+l)%64 // 64 lines leave out one station, the rest two
		var line []uint32
		for s := 0; s < 64; s++ {
			if s != skip1 && (l < 64 || s != skip2) {
				line = append(line, uint32(s))
			}
		}
		board.Lines = append(board.Lines, &gamerulesv1.GravityTrapLine{Stations: line})
	}
	return board
}

// restName is the REST verb of a method: LegalMoves -> legalMoves.
func restPath(game, method string) string {
	return "/v1/games/" + game + ":" + string(method[0]+'a'-'A') + method[1:]
}

// Cases turns the states into the measured calls: for every state
// LegalMoves with and without include_results, and (except the backgammon
// double, which only adds a longer move list) ApplyMove of its middle
// listed move and Score. All are measured over gRPC and REST.
func Cases(states []State) []Case {
	var out []Case
	for _, s := range states {
		id := s.Game
		if s.Variant != "" {
			id += "-" + s.Variant
		}
		name := map[string]string{"backgammon": "backgammon", "abalone": "Abalone", "labyrinth": "Labyrinth", "gravity_trap": "Gravity Trap"}[s.Game]
		switch s.Variant {
		case "double":
			name += " double"
		case "large":
			name += " 64×256 board"
		}
		add := func(call, method, label string, req proto.Message, moves int) {
			out = append(out, Case{ID: id + "/" + call, Label: label, Game: s.Game, Variant: s.Variant, Call: call, Group: s.Group,
				Moves: moves, Method: "gamerules.v1.GameRules/" + method, Path: restPath(s.Game, method), Requests: []proto.Message{req}})
		}
		add(CallLegalMoves, "LegalMoves", fmt.Sprintf("LegalMoves %s (%s)", name, s.Describe),
			&gamerulesv1.LegalMovesRequest{Game: s.Game, State: s.State}, len(s.Moves))
		add(CallLegalMovesResults, "LegalMoves", fmt.Sprintf("… %s with `include_results`", name),
			&gamerulesv1.LegalMovesRequest{Game: s.Game, State: s.State, IncludeResults: true}, len(s.Moves))
		if s.Variant == "double" {
			continue
		}
		mv := s.Moves[len(s.Moves)/2].GetNotation()
		add(CallApplyMove, "ApplyMove", fmt.Sprintf("ApplyMove %s (%s)", name, mv),
			&gamerulesv1.ApplyMoveRequest{Game: s.Game, State: s.State, Move: &gamerulesv1.Move{Notation: mv}}, 0)
		add(CallScore, "Score", fmt.Sprintf("Score %s", name),
			&gamerulesv1.ScoreRequest{Game: s.Game, State: s.State}, 0)
	}
	for i := range out {
		if out[i].Variant == "large" {
			out[i].Concurrency = 4
			out[i].Label += " (4 concurrent)"
		}
	}
	return out
}

// ReplayCases are issue 13's item 4: one ReplayGame of a 200-ply
// backgammon game (all its moves, from the new game) against single
// ApplyMove calls of its plies 100..109 (each state sent as text only;
// ghz sends the 10 round-robin, so 10 × the per-request CPU is the cost of
// 10 calls). The game is the one BenchmarkServerCPUReplayVsApplyMove in
// server/ plays: the first pick p = 1, 2, ... whose game, playing
// move (ply × p) mod n at each ply, lasts 200 plies. gRPC only.
func ReplayCases(ctx context.Context, c gamerulesv1grpc.GameRulesClient) ([]Case, error) {
	var moves []string
	var before []*gamerulesv1.GameState
	for pick := 1; len(moves) < 200; pick++ {
		if pick > 50 {
			return nil, fmt.Errorf("no backgammon game of 200 plies")
		}
		moves, before = nil, nil
		ng, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon"})
		if err != nil {
			return nil, err
		}
		st := ng.GetState()
		for ply := 0; ply < 200; ply++ {
			lm, err := c.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
			if err != nil {
				return nil, err
			}
			if len(lm.GetMoves()) == 0 {
				break
			}
			mv := lm.GetMoves()[(ply*pick)%len(lm.GetMoves())].GetNotation()
			am, err := c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: mv}})
			if err != nil {
				return nil, err
			}
			moves, before = append(moves, mv), append(before, st)
			st = am.GetState()
		}
	}
	var applies []proto.Message
	for i := 100; i < 110; i++ {
		applies = append(applies, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: before[i].GetText()}, Move: &gamerulesv1.Move{Notation: moves[i]}})
	}
	return []Case{
		{ID: "backgammon/" + CallReplay200, Label: "ReplayGame backgammon, 200 plies", Game: "backgammon", Call: CallReplay200, Group: "replay",
			Method: "gamerules.v1.GameRules/ReplayGame", Requests: []proto.Message{&gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: moves}}},
		{ID: "backgammon/" + CallApplyMove10, Label: "ApplyMove backgammon, plies 100..109 round-robin", Game: "backgammon", Call: CallApplyMove10, Group: "replay",
			Method: "gamerules.v1.GameRules/ApplyMove", Requests: applies},
	}, nil
}
