package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
	"github.com/gamerules/gamerules/service/rpcs"
)

// DefaultMoveLimit is how many legal moves an answer lists when the call
// gives no limit; MaxMoveLimit is the most it may ask for. The total is
// always given, so a truncated list says so.
const (
	DefaultMoveLimit = 60
	MaxMoveLimit     = 1000
)

// refusalMoves is how many legal moves a refused move's error lists,
// nearest to the text that was refused first.
const refusalMoves = 40

// tools holds what every tool handler needs: the service (svc, for its
// games), the API its calls go through (api: Options.API, else svc) and
// the deadline of one call.
type tools struct {
	svc     *service.Server
	api     rpcs.Service
	timeout time.Duration
	logger  *slog.Logger // nil: panics are not logged
}

// guard answers a handler's panic (a bug) as a tool error, "internal
// error", as the API's recovery answers INTERNAL, instead of letting it end
// the process: the SDK runs handlers on its own goroutines, where
// net/http's recovery does not reach.
func guard[In, Out any](logger *slog.Logger, h sdkmcp.ToolHandlerFor[In, Out]) sdkmcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *sdkmcp.CallToolRequest, in In) (res *sdkmcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				if logger != nil {
					logger.Error("mcp: tool panicked", "tool", req.Params.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				}
				var zero Out
				res, out, err = toolError("internal error"), zero, nil
			}
		}()
		return h(ctx, req, in)
	}
}

// usage is each tool's arguments in one line, appended to every error about
// an argument so that a model sees the expected shape beside what was wrong.
var usage = map[string]string{
	"list_games":    `no arguments`,
	"new_game":      `game (string, required: a game id from list_games); seed (string of decimal digits, optional); options (object, optional: the game's options, e.g. {"layout":"belgian_daisy"} for abalone); limit (integer, optional: how many legal moves to list)`,
	"legal_moves":   `game (string, required); state (string, required: the state text the last answer gave); limit (integer, optional, 1..1000, default 60)`,
	"apply_move":    `game (string, required); state (string, required: the state text the last answer gave); move (string: a move's notation as legal_moves lists it) or action (integer: its action id); seed (string of decimal digits, optional: for a dice roll); limit (integer, optional)`,
	"score":         `game (string, required); state (string, required)`,
	"observe":       `game (string, required); state (string, required); player (integer, required: 0-based player index, or -1 for a spectator)`,
	"render":        `game (string, required); state (string, required); side (integer, optional: the player whose side to draw from); svg (boolean, optional, default true)`,
	"replay":        `game (string, required); moves (array of strings) or actions (array of integers); state (string, optional: the start; default the game's start); seed (string, optional); options (object, optional); include_states (boolean, optional)`,
	"import_record": `game (string, required); text (string, required: the record); format (string, optional: json, mat for backgammon, apgn for abalone; default json)`,
	"playout":       `game (string, required); state (string, required); games (integer, 1..10000, default 100; at most 10 with include_moves); policy ("random" or "greedy", optional); max_plies (integer, optional); seed (string, optional); include_moves (boolean); first_move_by_policy (boolean)`,
	"expand":        `game (string, required); state (string, required); depth (integer, required, 1..8); max_nodes (integer, optional, default 200, at most 2000)`,
}

// argError is the tool error about an argument: msg (which names it) and
// the tool's arguments.
func argError(tool, msg string) *sdkmcp.CallToolResult {
	return toolError(msg + "\nArguments of " + tool + ": " + usage[tool] + ".")
}

// argumentShapes is a receiving middleware that appends the tool's
// arguments to the SDK's own refusal of arguments that do not fit the
// tool's input schema (`validating "arguments": …`), which names the
// argument but not the shape expected.
func argumentShapes(next sdkmcp.MethodHandler) sdkmcp.MethodHandler {
	return func(ctx context.Context, method string, req sdkmcp.Request) (sdkmcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		r, ok := res.(*sdkmcp.CallToolResult)
		p, ok2 := req.GetParams().(*sdkmcp.CallToolParamsRaw)
		if !ok || !ok2 || !r.IsError || len(r.Content) != 1 {
			return res, err
		}
		if tc, ok := r.Content[0].(*sdkmcp.TextContent); ok && strings.HasPrefix(tc.Text, `validating "arguments"`) {
			if u, ok := usage[p.Name]; ok {
				tc.Text += "\nArguments of " + p.Name + ": " + u + "."
			}
		}
		return res, err
	}
}

// Answer parts shared by the tools.

// moveOut is one legal move as the tools list it.
type moveOut struct {
	Notation    string   `json:"notation" jsonschema:"the move in the game's notation; pass it as move to apply_move"`
	Action      *int32   `json:"action,omitempty" jsonschema:"the move's action id; pass it as action to apply_move"`
	Probability *float64 `json:"probability,omitempty" jsonschema:"a chance outcome's probability"`
}

// playOut is the answer of new_game and apply_move: the state and outcome
// after the call, the next legal moves and a text board.
type playOut struct {
	Game            string    `json:"game" jsonschema:"the game id"`
	Move            string    `json:"move,omitempty" jsonschema:"apply_move: the move applied, in canonical notation (a dice roll: the roll drawn)"`
	State           string    `json:"state" jsonschema:"the state's text form: pass it unchanged as state to the next call"`
	Finished        bool      `json:"finished" jsonschema:"true when the game is over"`
	Winner          *int32    `json:"winner,omitempty" jsonschema:"the winner's 0-based player index, when the game is over and not drawn"`
	Points          []int32   `json:"points,omitempty" jsonschema:"points by player index"`
	Detail          string    `json:"detail,omitempty" jsonschema:"how the game ended, in words"`
	Seed            string    `json:"seed,omitempty" jsonschema:"the seed used (new_game; apply_move when the server rolled)"`
	LegalMoves      []moveOut `json:"legal_moves" jsonschema:"the next legal moves (the first limit of them)"`
	LegalMovesTotal int       `json:"legal_moves_total" jsonschema:"how many legal moves there are in all"`
	Chance          bool      `json:"chance,omitempty" jsonschema:"true when the next move is a chance outcome (backgammon: roll the dice with move roll)"`
	Board           string    `json:"board,omitempty" jsonschema:"the board as text"`
}

// add registers every tool on srv.
func (t *tools) add(srv *sdkmcp.Server) {
	ro := &sdkmcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "list_games", Annotations: ro, Description: "List the games this server plays: each game's id (the game argument of every other tool), " +
		"its name, how many players, whether it has dice or hidden information, the notations of its moves and states, its variants, and the URI of its full rules " +
		"(a resource). Call it first to learn the ids."}, guard(t.logger, t.listGames))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "new_game", Annotations: ro, Description: "Start a game: answers its starting state (a string you must pass " +
		"unchanged as state to every later call), whether it is finished (false), the legal moves of the first turn and the board as text. The server keeps nothing: " +
		"the state string is the whole game. seed makes a random set-up repeatable; options chooses a variant (see list_games)."}, guard(t.logger, t.newGame))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "legal_moves", Annotations: ro, Description: "List the legal moves of a state: each move's notation (pass it as move to apply_move) " +
		"and its action id (or pass that as action). The first limit moves are listed (default 60) and the total is given. At a dice roll (chance true) the moves are the " +
		"possible rolls with their probabilities: apply the move \"roll\" to have the server roll. A finished game has none."}, guard(t.logger, t.legalMoves))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "apply_move", Annotations: ro, Description: "Play one move: give the state and either move (the notation, as legal_moves lists it) " +
		"or action (the action id). Answers the move played, the new state (pass it to the next call), whether the game is finished with the winner and points, the next " +
		"legal moves and the board as text. A move that is not legal is refused with an error that says why and lists the legal moves nearest to what you wrote: choose " +
		"one of them and call again with the same state. In backgammon, when it is time to roll, apply the move \"roll\"."}, guard(t.logger, t.applyMove))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "score", Annotations: ro, Description: "The outcome of a state: finished (true when the game is over), winner (the " +
		"winning player's 0-based index, or null while playing and after a draw) and points by player, with a word on how it ended."}, guard(t.logger, t.score))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "observe", Annotations: ro, Description: "What one player may see of a state: in Labyrinth the other players' " +
		"treasure cards are hidden (give player, 0-based, or -1 for a spectator); in the other games every player sees the whole state. Answers the view as a state string " +
		"and its board. A view can be drawn (render) but not played."}, guard(t.logger, t.observe))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "render", Annotations: ro, Description: "Draw a state: the board as text (always) and, unless svg is false, the " +
		"same board as an SVG image in an embedded resource. side turns the board to a player's side. Takes a state or an observe view."}, guard(t.logger, t.render))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "replay", Annotations: ro, Description: "Play a list of moves (notations, or action ids) from a state (default: the " +
		"game's start) and answer the final state, the outcome and the moves in canonical notation (with include_states, every state on the way). The first bad move " +
		"stops the replay with an error naming its index (moves[i]) and listing the legal moves of the state before it."}, guard(t.logger, t.replay))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "import_record", Annotations: ro, Description: "Read a game record (the JSON record every game has; backgammon also " +
		"gnubg's .mat, Abalone also APGN), replay it, and answer its moves in canonical notation, its tags, its start and final state and the outcome. Continue the game " +
		"from the final state with apply_move."}, guard(t.logger, t.importRecord))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "playout", Annotations: ro, Description: "Play games to the end from a state, quickly and by a fixed policy (random " +
		"moves, or the game's greedy rule of thumb), and answer how often each player won, draws, the mean length and, per first move, its wins: a cheap estimate of " +
		"who stands better and which move is promising. A computer opponent's move: games 1, policy greedy, max_plies 1, include_moves and first_move_by_policy. Bounded: " +
		"at most 10000 games (10 with include_moves) within the call's deadline."}, guard(t.logger, t.playout))
	sdkmcp.AddTool(srv, &sdkmcp.Tool{Name: "expand", Annotations: ro, Description: "The game tree below a state to a depth (plies; a dice roll is a ply): " +
		"every node's move, state, whether it is finished and its winner, for an agent that wants to look ahead. Bounded by max_nodes (default 200, at most 2000): a " +
		"deeper tree is refused saying how many nodes it would need."}, guard(t.logger, t.expand))
}

// ctx bounds a call by the tool deadline.
func (t *tools) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, t.timeout)
}

// parseSeed reads the seed argument: "" is none.
func parseSeed(tool, s string) (*uint64, *sdkmcp.CallToolResult) {
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return nil, argError(tool, fmt.Sprintf("seed: %q is not a seed; want a string of decimal digits, 0..18446744073709551615", s))
	}
	return &v, nil
}

// limitOf reads the limit argument (0: DefaultMoveLimit).
func limitOf(tool string, n int) (int, *sdkmcp.CallToolResult) {
	switch {
	case n == 0:
		return DefaultMoveLimit, nil
	case n < 0 || n > MaxMoveLimit:
		return 0, argError(tool, fmt.Sprintf("limit: %d is out of range; want 1..%d", n, MaxMoveLimit))
	}
	return n, nil
}

// compact lists moves as the tools do: the first limit, notation and
// action id (and a chance outcome's probability).
func compact(moves []*gamerulesv1.Move, limit int) []moveOut {
	out := make([]moveOut, 0, min(limit, len(moves)))
	for i, m := range moves {
		if i == limit {
			break
		}
		out = append(out, moveOut{Notation: m.GetNotation(), Action: m.Action, Probability: m.Probability})
	}
	return out
}

// movesText writes a list of moves for a model: "N legal moves: a; b; …".
func movesText(moves []moveOut, total int, chance bool) string {
	if total == 0 {
		return "No legal moves (the game is over)."
	}
	var b strings.Builder
	if chance {
		fmt.Fprintf(&b, "Chance: the next move is a dice roll (%d outcomes); apply the move \"roll\" to have the server roll. Outcomes: ", total)
	} else {
		plural := "s"
		if total == 1 {
			plural = ""
		}
		fmt.Fprintf(&b, "%d legal move%s", total, plural)
		if len(moves) < total {
			fmt.Fprintf(&b, " (the first %d listed; legal_moves with a larger limit lists more)", len(moves))
		}
		b.WriteString(": ")
	}
	for i, m := range moves {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(m.Notation)
		if m.Action != nil && !chance {
			fmt.Fprintf(&b, " [%d]", *m.Action)
		}
	}
	b.WriteString(".")
	return b.String()
}

// text is a result whose content is s (the structured answer goes beside
// it).
func text(s string) *sdkmcp.CallToolResult {
	return &sdkmcp.CallToolResult{Content: []sdkmcp.Content{&sdkmcp.TextContent{Text: s}}}
}

// playText is the content of new_game and apply_move: what a model reads.
func playText(o *playOut) string {
	var b strings.Builder
	if o.Move != "" {
		fmt.Fprintf(&b, "Played %s.\n", o.Move)
	}
	if o.Board != "" {
		b.WriteString(o.Board)
		if !strings.HasSuffix(o.Board, "\n") {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "state: %s\n", o.State)
	if o.Finished {
		b.WriteString("The game is over: ")
		if o.Winner != nil {
			fmt.Fprintf(&b, "player %d won", *o.Winner)
		} else {
			b.WriteString("a draw")
		}
		if o.Detail != "" {
			b.WriteString(" (" + o.Detail + ")")
		}
		fmt.Fprintf(&b, "; points %v.\n", o.Points)
		return b.String()
	}
	b.WriteString("finished: false\n")
	b.WriteString(movesText(o.LegalMoves, o.LegalMovesTotal, o.Chance))
	return b.String()
}

// listGames answers list_games.
type listGamesIn struct{}

type gameOut struct {
	ID                   string   `json:"id" jsonschema:"the game id: the game argument of the other tools"`
	Name                 string   `json:"name"`
	MinPlayers           int32    `json:"min_players"`
	MaxPlayers           int32    `json:"max_players"`
	HasChance            bool     `json:"has_chance" jsonschema:"the game has dice"`
	HasHiddenInformation bool     `json:"has_hidden_information" jsonschema:"players do not see the whole state (observe)"`
	Variants             []string `json:"variants,omitempty" jsonschema:"the variants new_game's options choose"`
	MoveNotation         string   `json:"move_notation" jsonschema:"how moves are written"`
	StateNotation        string   `json:"state_notation" jsonschema:"how states are written"`
	ActionSpaceSize      int32    `json:"action_space_size,omitempty" jsonschema:"action ids are 0..action_space_size-1"`
	RulesURI             string   `json:"rules_uri" jsonschema:"the resource holding the game's full rules"`
}

type listGamesOut struct {
	Games []gameOut `json:"games"`
}

func (t *tools) listGames(ctx context.Context, _ *sdkmcp.CallToolRequest, _ listGamesIn) (*sdkmcp.CallToolResult, listGamesOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	resp, err := t.api.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil {
		return toolError(serviceText(err, t.timeout)), listGamesOut{}, nil
	}
	var out listGamesOut
	var b strings.Builder
	for _, g := range resp.GetGames() {
		out.Games = append(out.Games, gameOut{
			ID: g.GetId(), Name: g.GetDisplayName(), MinPlayers: g.GetMinPlayers(), MaxPlayers: g.GetMaxPlayers(),
			HasChance: g.GetHasChance(), HasHiddenInformation: g.GetHasHiddenInformation(), Variants: g.GetVariants(),
			MoveNotation: g.GetMoveNotation(), StateNotation: g.GetStateNotation(), ActionSpaceSize: g.GetActionSpaceSize(),
			RulesURI: rulesURI(g.GetId()),
		})
		fmt.Fprintf(&b, "%s: %s, %d-%d players", g.GetId(), g.GetDisplayName(), g.GetMinPlayers(), g.GetMaxPlayers())
		if g.GetHasChance() {
			b.WriteString(", dice")
		}
		if g.GetHasHiddenInformation() {
			b.WriteString(", hidden information")
		}
		fmt.Fprintf(&b, ". Moves: %s. Rules: %s\n", g.GetMoveNotation(), rulesURI(g.GetId()))
	}
	return text(b.String()), out, nil
}

// newGame answers new_game.
type newGameIn struct {
	Game    string         `json:"game" jsonschema:"the game id, as list_games lists it (e.g. backgammon)"`
	Seed    string         `json:"seed,omitempty" jsonschema:"a seed (decimal digits) for a random set-up, to make it repeatable"`
	Options map[string]any `json:"options,omitempty" jsonschema:"the game's options as the REST API's NewGameRequest has them under the game's id, e.g. {\"layout\":\"belgian_daisy\"} for abalone or {\"players\":2} for labyrinth"`
	Limit   int            `json:"limit,omitempty" jsonschema:"how many legal moves to list (default 60, at most 1000)"`
}

func (t *tools) newGame(ctx context.Context, _ *sdkmcp.CallToolRequest, in newGameIn) (*sdkmcp.CallToolResult, *playOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	seed, bad := parseSeed("new_game", in.Seed)
	if bad != nil {
		return bad, nil, nil
	}
	limit, bad := limitOf("new_game", in.Limit)
	if bad != nil {
		return bad, nil, nil
	}
	req := &gamerulesv1.NewGameRequest{}
	if len(in.Options) > 0 && slices.Contains(t.svc.Games(), in.Game) {
		if bad := optionsInto("new_game", in.Game, in.Options, req); bad != nil {
			return bad, nil, nil
		}
	}
	req.Game, req.Seed = in.Game, seed
	ng, err := t.api.NewGame(ctx, req)
	if err != nil {
		return toolError(serviceText(err, t.timeout) + "\nArguments of new_game: " + usage["new_game"] + "."), nil, nil
	}
	// The tools pass states as text: a start the text does not hold whole
	// (a Gravity Trap custom board) could not be played on through them.
	rp, err := t.api.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: ng.GetState().GetText()}})
	switch status.Code(err) {
	case codes.ResourceExhausted, codes.DeadlineExceeded, codes.Canceled: // busy, or late: not the start's fault
		return toolError(serviceText(err, t.timeout)), nil, nil
	}
	if err != nil || !proto.Equal(rp.GetStart(), ng.GetState()) {
		return argError("new_game", "options: this start cannot travel as a state string (its text form does not hold it whole, e.g. a custom board), and the tools pass states as strings; use the REST or gRPC API for it"), nil, nil
	}
	out := &playOut{Game: in.Game, State: ng.GetState().GetText(), Seed: strconv.FormatUint(ng.GetSeed(), 10)}
	if err := t.fill(ctx, out, limit); err != nil {
		return toolError(serviceText(err, t.timeout)), nil, nil
	}
	return text(playText(out)), out, nil
}

// fill completes a play answer from its state: outcome, legal moves, board.
func (t *tools) fill(ctx context.Context, o *playOut, limit int) error {
	st := &gamerulesv1.GameState{Text: o.State}
	sc, err := t.api.Score(ctx, &gamerulesv1.ScoreRequest{Game: o.Game, State: st})
	if err != nil {
		return err
	}
	o.Finished, o.Winner, o.Points, o.Detail = sc.GetFinished(), sc.Winner, sc.GetPoints(), sc.GetDetail()
	lm, err := t.api.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: o.Game, State: st})
	if err != nil {
		return err
	}
	o.LegalMoves, o.LegalMovesTotal, o.Chance = compact(lm.GetMoves(), limit), len(lm.GetMoves()), lm.GetChance()
	o.Board = t.textBoard(ctx, o.Game, o.State, nil)
	return nil
}

// optionsInto sets m's options oneof (NewGameRequest or
// ReplayGameRequest: its cases are named by game id) from options, the
// game's options message as JSON, read as the REST API reads it.
func optionsInto(tool, game string, options map[string]any, m proto.Message) *sdkmcp.CallToolResult {
	b, err := json.Marshal(map[string]any{game: options})
	if err == nil {
		err = protojson.Unmarshal(b, m)
	}
	if err != nil {
		return argError(tool, fmt.Sprintf("options: %v (the options of %s as the REST API's request has them under %q)", err, game, game))
	}
	return nil
}

// legalMoves answers legal_moves.
type stateIn struct {
	Game  string `json:"game" jsonschema:"the game id"`
	State string `json:"state" jsonschema:"the state string the last answer gave"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many moves to list (default 60, at most 1000)"`
}

type legalMovesOut struct {
	Moves  []moveOut `json:"moves" jsonschema:"the legal moves (the first limit of them)"`
	Total  int       `json:"total" jsonschema:"how many legal moves there are in all"`
	Chance bool      `json:"chance,omitempty" jsonschema:"true when the moves are dice rolls (apply the move roll)"`
}

func (t *tools) legalMoves(ctx context.Context, _ *sdkmcp.CallToolRequest, in stateIn) (*sdkmcp.CallToolResult, *legalMovesOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	limit, bad := limitOf("legal_moves", in.Limit)
	if bad != nil {
		return bad, nil, nil
	}
	lm, err := t.api.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: in.State}})
	if err != nil {
		return t.refusal("legal_moves", err), nil, nil
	}
	out := &legalMovesOut{Moves: compact(lm.GetMoves(), limit), Total: len(lm.GetMoves()), Chance: lm.GetChance()}
	return text(movesText(out.Moves, out.Total, out.Chance)), out, nil
}

// refusal is the tool error of a service error, with what helps a model
// recover: the arguments for a bad argument, a word on what to do for a
// finished game or a bad state.
func (t *tools) refusal(tool string, err error) *sdkmcp.CallToolResult {
	msg := serviceText(err, t.timeout)
	switch reasonOf(err) {
	case service.ReasonGameOver:
		msg += "\nThe game is over: call score with this state for the result, or new_game to start another."
	case service.ReasonInvalidState:
		msg += "\nstate must be the exact string the last new_game or apply_move answer gave as state."
		msg += "\nArguments of " + tool + ": " + usage[tool] + "."
	case service.ReasonUnknownGame, service.ReasonInvalidRequest, service.ReasonInvalidOptions:
		msg += "\nArguments of " + tool + ": " + usage[tool] + "."
	}
	return toolError(msg)
}

// applyMove answers apply_move.
type applyIn struct {
	Game   string `json:"game" jsonschema:"the game id"`
	State  string `json:"state" jsonschema:"the state string the last answer gave"`
	Move   string `json:"move,omitempty" jsonschema:"the move's notation, as legal_moves lists it (e.g. 8/5 6/5, a1b2, N2:3, place 7, roll)"`
	Action *int32 `json:"action,omitempty" jsonschema:"the move's action id, as legal_moves lists it (instead of move)"`
	Seed   string `json:"seed,omitempty" jsonschema:"a seed (decimal digits) for a dice roll the server makes"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many next legal moves to list (default 60, at most 1000)"`
}

func (t *tools) applyMove(ctx context.Context, _ *sdkmcp.CallToolRequest, in applyIn) (*sdkmcp.CallToolResult, *playOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	seed, bad := parseSeed("apply_move", in.Seed)
	if bad != nil {
		return bad, nil, nil
	}
	limit, bad := limitOf("apply_move", in.Limit)
	if bad != nil {
		return bad, nil, nil
	}
	if strings.TrimSpace(in.Move) == "" && in.Action == nil {
		return argError("apply_move", "move or action is required: move is a move's notation (a string), action its integer id, as legal_moves lists them"), nil, nil
	}
	st := &gamerulesv1.GameState{Text: in.State}
	resp, err := t.api.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{
		Game: in.Game, State: st, Move: &gamerulesv1.Move{Notation: in.Move, Action: in.Action}, Seed: seed, IncludeLegalMoves: true,
	})
	if err != nil {
		if reasonOf(err) == service.ReasonIllegalMove {
			return t.illegal(ctx, err, in.Game, in.State, in.Move, "Call apply_move again with the same state and one of these as move."), nil, nil
		}
		return t.refusal("apply_move", err), nil, nil
	}
	out := &playOut{
		Game: in.Game, Move: resp.GetMove().GetNotation(), State: resp.GetState().GetText(),
		Finished: resp.GetFinished(), Winner: resp.Winner, Points: resp.GetPoints(), Detail: resp.GetDetail(),
		LegalMoves: compact(resp.GetNext().GetMoves(), limit), LegalMovesTotal: len(resp.GetNext().GetMoves()), Chance: resp.GetNext().GetChance(),
	}
	if resp.Seed != nil {
		out.Seed = strconv.FormatUint(resp.GetSeed(), 10)
	}
	out.Board = t.textBoard(ctx, in.Game, out.State, nil)
	return text(playText(out)), out, nil
}

// illegal is the tool error of a refused move: the service's reason, then
// the legal moves of the state, nearest to the text refused first, so that
// a model can pick one and call again, and again, what to do then.
func (t *tools) illegal(ctx context.Context, err error, game, state, tried, again string) *sdkmcp.CallToolResult {
	msg := serviceText(err, t.timeout)
	lm, lerr := t.api.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: game, State: &gamerulesv1.GameState{Text: state}})
	if lerr != nil {
		return toolError(msg)
	}
	moves := lm.GetMoves()
	if len(moves) == 0 {
		return toolError(msg + "\nThe state has no legal moves: the game is over (call score).")
	}
	type ranked struct {
		m *gamerulesv1.Move
		d int
	}
	rs := make([]ranked, len(moves))
	for i, m := range moves {
		rs[i] = ranked{m, distance(strings.ToLower(tried), strings.ToLower(m.GetNotation()))}
	}
	if tried != "" {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].d < rs[j].d })
	}
	list := make([]*gamerulesv1.Move, len(rs))
	for i := range rs {
		list[i] = rs[i].m
	}
	shown := compact(list, refusalMoves)
	var b strings.Builder
	b.WriteString(msg)
	fmt.Fprintf(&b, "\nLegal moves in the state you sent (%d", len(moves))
	if len(shown) < len(moves) {
		fmt.Fprintf(&b, "; the %d nearest to what you wrote", len(shown))
	} else if tried != "" {
		b.WriteString("; nearest to what you wrote first")
	}
	b.WriteString("): ")
	for i, m := range shown {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(m.Notation)
	}
	b.WriteString(".\n" + again)
	return toolError(b.String())
}

// distance is the Levenshtein distance of a and b, in bytes: how the
// legal moves are ordered nearest first in a refusal.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// score answers score.
type scoreIn struct {
	Game  string `json:"game" jsonschema:"the game id"`
	State string `json:"state" jsonschema:"the state string"`
}

type scoreOut struct {
	Finished bool    `json:"finished" jsonschema:"true when the game is over"`
	Winner   *int32  `json:"winner" jsonschema:"the winner's 0-based player index; null while playing and after a draw"`
	Points   []int32 `json:"points" jsonschema:"points by player index"`
	Detail   string  `json:"detail,omitempty" jsonschema:"how the game ended, in words"`
}

func (t *tools) score(ctx context.Context, _ *sdkmcp.CallToolRequest, in scoreIn) (*sdkmcp.CallToolResult, *scoreOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	sc, err := t.api.Score(ctx, &gamerulesv1.ScoreRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: in.State}})
	if err != nil {
		return t.refusal("score", err), nil, nil
	}
	out := &scoreOut{Finished: sc.GetFinished(), Winner: sc.Winner, Points: sc.GetPoints(), Detail: sc.GetDetail()}
	if out.Points == nil {
		out.Points = []int32{}
	}
	s := "The game is not finished."
	if out.Finished {
		if out.Winner != nil {
			s = fmt.Sprintf("The game is over: player %d won", *out.Winner)
		} else {
			s = "The game is over: a draw"
		}
		if out.Detail != "" {
			s += " (" + out.Detail + ")"
		}
		s += "."
	}
	s += fmt.Sprintf(" Points by player: %v.", out.Points)
	return text(s), out, nil
}

// observe answers observe.
type observeIn struct {
	Game   string `json:"game" jsonschema:"the game id"`
	State  string `json:"state" jsonschema:"the state string"`
	Player int32  `json:"player" jsonschema:"the player whose view to answer, 0-based; -1 for a spectator"`
}

type observeOut struct {
	State string `json:"state" jsonschema:"the player's view as a state string (render draws it; it cannot be played)"`
	Board string `json:"board,omitempty" jsonschema:"the view as text"`
}

func (t *tools) observe(ctx context.Context, _ *sdkmcp.CallToolRequest, in observeIn) (*sdkmcp.CallToolResult, *observeOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	p := in.Player
	resp, err := t.api.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: in.State}, Player: &p})
	if err != nil {
		return t.refusal("observe", err), nil, nil
	}
	out := &observeOut{State: resp.GetState().GetText()}
	side := int(p)
	out.Board = t.textBoard(ctx, in.Game, out.State, &side)
	return text(out.Board + "view: " + out.State), out, nil
}
