package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
)

// The tools beyond playing a game: a picture, replaying a game or a record,
// and the bounded searches.

// Bounds of the search tools, below the service's own (MaxPlayoutGames,
// MaxExpandNodes) where an answer a model reads must stay small.
const (
	// MaxRecordedPlayouts is the most games playout lists with
	// include_moves (a game's moves may run to thousands).
	MaxRecordedPlayouts = 10
	// DefaultExpandNodes and MaxExpandNodes bound expand's tree.
	DefaultExpandNodes = 200
	MaxExpandNodes     = 2000
)

// renderIn is render's arguments.
type renderIn struct {
	Game  string `json:"game" jsonschema:"the game id"`
	State string `json:"state" jsonschema:"the state string, or a view observe answered"`
	Side  *int32 `json:"side,omitempty" jsonschema:"the player (0-based) from whose side to draw"`
	SVG   *bool  `json:"svg,omitempty" jsonschema:"include the SVG picture as an embedded resource (default true)"`
}

type renderOut struct {
	Board    string `json:"board" jsonschema:"the board as text"`
	SVGBytes int    `json:"svg_bytes,omitempty" jsonschema:"the size of the SVG picture in the embedded resource"`
}

func (t *tools) render(ctx context.Context, _ *sdkmcp.CallToolRequest, in renderIn) (*sdkmcp.CallToolResult, *renderOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	// RenderState checks the state (and the side) as the API does, and
	// draws the SVG.
	body, err := t.api.RenderState(ctx, &gamerulesv1.RenderStateRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: in.State}, Side: in.Side})
	if err != nil {
		return t.refusal("render", err), nil, nil
	}
	var side *int
	if in.Side != nil {
		s := int(*in.Side)
		side = &s
	}
	out := &renderOut{Board: t.textBoard(ctx, in.Game, in.State, side)}
	res := text(out.Board)
	if out.Board == "" {
		res = text("(no text board for this state; the SVG picture is attached)")
	}
	if in.SVG == nil || *in.SVG {
		out.SVGBytes = len(body.GetData())
		res.Content = append(res.Content, &sdkmcp.EmbeddedResource{Resource: &sdkmcp.ResourceContents{
			URI: "gamerules://board/" + in.Game + ".svg", MIMEType: body.GetContentType(), Text: string(body.GetData()),
		}})
	}
	return res, out, nil
}

// replayIn is replay's arguments.
type replayIn struct {
	Game          string         `json:"game" jsonschema:"the game id"`
	Moves         []string       `json:"moves,omitempty" jsonschema:"the moves in notation, in order"`
	Actions       []int32        `json:"actions,omitempty" jsonschema:"the moves as action ids, in order (instead of moves)"`
	State         string         `json:"state,omitempty" jsonschema:"the state to start from (default: the game's start with options)"`
	Seed          string         `json:"seed,omitempty" jsonschema:"a seed (decimal digits) for the start's set-up and the dice the server rolls"`
	Options       map[string]any `json:"options,omitempty" jsonschema:"the game's options for the start, as in new_game"`
	IncludeStates bool           `json:"include_states,omitempty" jsonschema:"also answer the state after every move"`
}

// gameOverOut is the answer of replay and import_record.
type gameOverOut struct {
	Start    string            `json:"start" jsonschema:"the state the game started from"`
	State    string            `json:"state" jsonschema:"the final state: continue from it with apply_move"`
	Moves    []string          `json:"moves" jsonschema:"the moves in canonical notation"`
	States   []string          `json:"states,omitempty" jsonschema:"with include_states: the state after each move"`
	Finished bool              `json:"finished"`
	Winner   *int32            `json:"winner,omitempty"`
	Points   []int32           `json:"points,omitempty"`
	Detail   string            `json:"detail,omitempty"`
	Seed     string            `json:"seed,omitempty" jsonschema:"the seed used, when the replay used one"`
	Tags     map[string]string `json:"tags,omitempty" jsonschema:"import_record: the record's tags"`
	Format   string            `json:"format,omitempty" jsonschema:"import_record: the record's format"`
	Board    string            `json:"board,omitempty" jsonschema:"the final state as text"`
}

func (t *tools) replayOut(ctx context.Context, game string, r *gamerulesv1.ReplayGameResponse) *gameOverOut {
	o := &gameOverOut{
		Start: r.GetStart().GetText(), State: r.GetState().GetText(), Moves: r.GetMoves(),
		Finished: r.GetFinished(), Winner: r.Winner, Points: r.GetPoints(), Detail: r.GetDetail(),
	}
	if o.Moves == nil {
		o.Moves = []string{}
	}
	for _, s := range r.GetStates() {
		o.States = append(o.States, s.GetText())
	}
	if r.Seed != nil {
		o.Seed = strconv.FormatUint(r.GetSeed(), 10)
	}
	o.Board = t.textBoard(ctx, game, o.State, nil)
	return o
}

func gameOverText(o *gameOverOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d moves: %s\n", len(o.Moves), strings.Join(o.Moves, "; "))
	b.WriteString(o.Board)
	fmt.Fprintf(&b, "state: %s\nfinished: %v", o.State, o.Finished)
	if o.Winner != nil {
		fmt.Fprintf(&b, ", winner: player %d", *o.Winner)
	}
	if o.Detail != "" {
		b.WriteString(" (" + o.Detail + ")")
	}
	return b.String()
}

func (t *tools) replay(ctx context.Context, _ *sdkmcp.CallToolRequest, in replayIn) (*sdkmcp.CallToolResult, *gameOverOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	seed, bad := parseSeed("replay", in.Seed)
	if bad != nil {
		return bad, nil, nil
	}
	req := &gamerulesv1.ReplayGameRequest{}
	if len(in.Options) > 0 && isGame(t.svc, in.Game) {
		if bad := optionsInto("replay", in.Game, in.Options, req); bad != nil {
			return bad, nil, nil
		}
	}
	req.Game, req.Moves, req.Actions, req.Seed, req.IncludeStates = in.Game, in.Moves, in.Actions, seed, in.IncludeStates
	if in.State != "" {
		req.State = &gamerulesv1.GameState{Text: in.State}
	}
	resp, err := t.api.ReplayGame(ctx, req)
	if err != nil {
		if reasonOf(err) == service.ReasonIllegalMove {
			if before, i, ok := badMove(err); ok {
				tried := ""
				if i < len(in.Moves) {
					tried = in.Moves[i]
				}
				return t.illegal(ctx, err, in.Game, before, tried, fmt.Sprintf("Replace moves[%d] with one of these and replay again.", i)), nil, nil
			}
		}
		return t.refusal("replay", err), nil, nil
	}
	out := t.replayOut(ctx, in.Game, resp)
	return text(gameOverText(out)), out, nil
}

// badMove reads a replay's refusal of a move: the state before it and its
// index (ErrorInfo metadata stateBefore and moveIndex).
func badMove(err error) (before string, index int, ok bool) {
	md := metadataOf(err)
	before = md["stateBefore"]
	i, cerr := strconv.Atoi(md["moveIndex"])
	return before, i, before != "" && cerr == nil
}

func isGame(svc *service.Server, id string) bool {
	for _, g := range svc.Games() {
		if g == id {
			return true
		}
	}
	return false
}

// importIn is import_record's arguments.
type importIn struct {
	Game   string `json:"game" jsonschema:"the game id"`
	Text   string `json:"text" jsonschema:"the record's text"`
	Format string `json:"format,omitempty" jsonschema:"the record's format: json (every game, the default), mat (backgammon, gnubg), apgn (abalone)"`
}

func (t *tools) importRecord(ctx context.Context, _ *sdkmcp.CallToolRequest, in importIn) (*sdkmcp.CallToolResult, *gameOverOut, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	resp, err := t.api.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: in.Game, Format: in.Format, Text: in.Text})
	if err != nil {
		return t.refusal("import_record", err), nil, nil
	}
	out := t.replayOut(ctx, in.Game, resp.GetResult())
	out.Tags, out.Format = resp.GetTags(), in.Format
	return text(gameOverText(out)), out, nil
}

// playoutIn is playout's arguments.
type playoutIn struct {
	Game              string `json:"game" jsonschema:"the game id"`
	State             string `json:"state" jsonschema:"the state every game starts from"`
	Games             int32  `json:"games,omitempty" jsonschema:"how many games, 1..10000 (default 100; at most 10 with include_moves)"`
	Policy            string `json:"policy,omitempty" jsonschema:"how the players choose: random (default) or greedy"`
	MaxPlies          int32  `json:"max_plies,omitempty" jsonschema:"the most plies one game may take (default 10000)"`
	Seed              string `json:"seed,omitempty" jsonschema:"a seed (decimal digits): the same call with the same seed answers the same"`
	IncludeMoves      bool   `json:"include_moves,omitempty" jsonschema:"list each game's moves"`
	FirstMoveByPolicy bool   `json:"first_move_by_policy,omitempty" jsonschema:"the first move is the policy's too (default: dealt round robin over the legal moves)"`
}

var protoOut = protojson.MarshalOptions{UseProtoNames: true}

// rawOf is m as the REST API's JSON (field names as in the proto).
func rawOf(m proto.Message) (json.RawMessage, error) {
	b, err := protoOut.Marshal(m)
	return json.RawMessage(b), err
}

func (t *tools) playout(ctx context.Context, _ *sdkmcp.CallToolRequest, in playoutIn) (*sdkmcp.CallToolResult, any, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	seed, bad := parseSeed("playout", in.Seed)
	if bad != nil {
		return bad, nil, nil
	}
	games := in.Games
	if games == 0 {
		games = 100
	}
	if in.IncludeMoves && games > MaxRecordedPlayouts {
		return argError("playout", fmt.Sprintf("games: %d with include_moves; at most %d games list their moves", games, MaxRecordedPlayouts)), nil, nil
	}
	req := &gamerulesv1.PlayoutRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: in.State}, Games: games, Seed: seed,
		MaxPlies: in.MaxPlies, IncludeMoves: in.IncludeMoves, FirstMoveByPolicy: in.FirstMoveByPolicy}
	switch strings.ToLower(in.Policy) {
	case "", "random":
	case "greedy":
		p := gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY
		req.Policy = &p
	default:
		return argError("playout", fmt.Sprintf("policy: %q is not a policy; want random or greedy", in.Policy)), nil, nil
	}
	resp, err := t.api.Playout(ctx, req)
	if err != nil {
		return t.refusal("playout", err), nil, nil
	}
	raw, err := rawOf(resp)
	if err != nil {
		return nil, nil, err
	}
	return nil, raw, nil
}

// expandIn is expand's arguments.
type expandIn struct {
	Game     string `json:"game" jsonschema:"the game id"`
	State    string `json:"state" jsonschema:"the root state"`
	Depth    int32  `json:"depth" jsonschema:"how many plies below the root, 1..8 (a dice roll is a ply)"`
	MaxNodes int32  `json:"max_nodes,omitempty" jsonschema:"the most nodes the tree may have, root included (default 200, at most 2000)"`
}

func (t *tools) expand(ctx context.Context, _ *sdkmcp.CallToolRequest, in expandIn) (*sdkmcp.CallToolResult, any, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	n := in.MaxNodes
	switch {
	case n == 0:
		n = DefaultExpandNodes
	case n < 0 || n > MaxExpandNodes:
		return argError("expand", fmt.Sprintf("max_nodes: %d is out of range; want 1..%d", n, MaxExpandNodes)), nil, nil
	}
	resp, err := t.api.Expand(ctx, &gamerulesv1.ExpandRequest{Game: in.Game, State: &gamerulesv1.GameState{Text: in.State}, Depth: in.Depth, MaxNodes: n})
	if err != nil {
		return t.refusal("expand", err), nil, nil
	}
	raw, err := rawOf(resp)
	if err != nil {
		return nil, nil, err
	}
	return nil, raw, nil
}
