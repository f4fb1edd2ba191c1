package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/game"
)

// Engine adapts one rules package (rules/<game>) to the API. One value per
// game, registered with register from an init function in service/<game>.go.
// Implementations must be safe for concurrent use (they hold no mutable state).
type Engine interface {
	// Info describes the game for ListGames; Info().Id is the game id used in
	// paths and in the oneof cases of GameState, Move and NewGameRequest.
	Info() *gamerulesv1.GameInfo

	// NewGame returns the starting state for req. The game's options
	// (req.GetAbalone(), …) are nil when the request gave none: use the
	// defaults. The service has already checked that the options case, if
	// any, is this game's. seed is the seed to use for a random set-up
	// (labyrinth; the other games ignore it). Errors wrap
	// game.ErrInvalidOptions, except a Gravity Trap custom_board the rules
	// refuse, which wraps game.ErrInvalidState as it does in a state.
	NewGame(req *gamerulesv1.NewGameRequest, seed uint64) (Position, error)

	// Decode reads and validates a request state given as text, typed, or
	// both (then both must describe the same state); decodeState does the
	// common part. The service has already checked that st is non-empty and
	// that its typed case, if any, is this game's. Errors wrap
	// game.ErrInvalidState.
	Decode(st *gamerulesv1.GameState) (Position, error)
}

// Position is one decoded, valid game state of some Engine.
type Position interface {
	// Encode returns the state with both text and the typed case filled.
	Encode() *gamerulesv1.GameState

	// LegalMoves lists the legal moves in the engine's documented order,
	// each with the parts w asks for (noResults: notation and the typed move
	// filled, and chance outcomes' Probability; allParts: also each move's
	// Result, the state after it, text and typed). The bool is true when the
	// moves are chance outcomes. A finished game has none.
	LegalMoves(w moveParts) ([]*gamerulesv1.Move, bool, error)

	// Apply applies mv (notation, typed, or both: then they must agree; the
	// service has checked the typed case). rng serves a chance outcome the
	// server must draw (backgammon "roll"); drew reports whether it was used.
	// applied is the move in canonical form (notation and typed). Errors wrap
	// game.ErrIllegalMove or game.ErrGameOver.
	Apply(mv *gamerulesv1.Move, rng *rand.Rand) (next Position, applied *gamerulesv1.Move, drew bool, err error)

	// Outcome is the result so far, for Score.
	Outcome() game.Outcome
}

// continuer is implemented by the Positions of games where a finished game
// may still have a move (backgammon's "next game" inside a match): ApplyMove
// then lets the move through to the engine instead of refusing it as over.
type continuer interface {
	Continues() bool
}

// scoreDetailer is implemented by Positions that add a game-specific part to
// Score (backgammon: the cube and the match).
type scoreDetailer interface {
	ScoreDetail(resp *gamerulesv1.ScoreResponse)
}

// Observer is implemented by the Positions of games with hidden information:
// Observe returns what the given player (0-based) may see. Errors wrap
// game.ErrInvalidState (e.g. no such player).
type Observer interface {
	Observe(player int) (*gamerulesv1.GameState, error)
}

// The optional parts of an adapter follow: an Engine or a Position
// implements one when its game has the feature, and the RPCs look for it
// with a type assertion, so that the shared files name no game.

// renderer is implemented by the Positions RenderState can draw: Render
// draws the state with package render. Errors are render's
// (*render.OptionError for a bad option).
type renderer interface {
	Render(o render.Options) ([]byte, error)
}

// textRenderer is implemented by the Positions RenderState can write as
// text (RENDER_FORMAT_TEXT): RenderText writes the board with package
// render's text functions. Errors are render's (*render.OptionError for a
// bad option).
type textRenderer interface {
	RenderText(o render.Options) (string, error)
}

// stateConverter is implemented by the Engines of games with text forms
// of a state besides the canonical one (backgammon: XGID and the FIBS
// board), for ConvertState. A game without it has the canonical form
// only (GameState.text).
type stateConverter interface {
	// StateFormats lists the game's forms, STATE_FORMAT_CANONICAL first;
	// the same slice on every call.
	StateFormats() []gamerulesv1.StateFormat
	// ConvertState writes pos (a Position of this Engine) in format f,
	// one of StateFormats, and says whether the text holds the whole
	// state (reading it back gives pos).
	ConvertState(pos Position, f gamerulesv1.StateFormat) (text string, lossless bool)
}

// viewDecoder is implemented by the Engines of games with hidden
// information whose per-player views (which Decode refuses: a view cannot
// be played) RenderState still draws (Labyrinth). DecodeView decodes st as
// a view, text or typed as Decode does; ok is false when st is not a valid
// view (RenderState then answers with Decode's error).
type viewDecoder interface {
	DecodeView(st *gamerulesv1.GameState) (pos Position, ok bool)
}

// boardProvider is implemented by the Engines of games with named built-in
// boards, which GetBoard returns (Gravity Trap).
type boardProvider interface {
	// BoardNames lists the built-in boards' names, for messages.
	BoardNames() []string
	// Board returns the named board as data. Errors (no name, an unknown
	// name) wrap errInvalidRequest; GetBoard puts them on the field name.
	Board(name string) (*gamerulesv1.GetBoardResponse, error)
}

// recordFormatter is implemented by the Engines of games with record
// formats of their own besides the JSON record every game has (gnubg's .mat
// for backgammon, APGN for Abalone). RecordFormats returns the same slice
// on every call.
type recordFormatter interface {
	RecordFormats() []recordCodec
}

// recordCodec reads and writes one record format of a game for
// ImportRecord and ExportRecord.
type recordCodec struct {
	// Name is the format's name in the requests' format field ("mat").
	Name string
	// Import reads a record's text into the replay that plays it (with
	// includeStates as the request has it), the record's tags, and how the
	// replay applies its moves (applyNotation, or answers from the
	// record's own replay, so that an import plays each move once).
	// Errors are statuses (recordError for a text that cannot be read).
	// It stops at ctx's end and refuses a record over the replay's caps
	// (MaxReplayMoves) while reading, before replaying it.
	Import func(ctx context.Context, text string, includeStates bool) (*gamerulesv1.ReplayGameRequest, map[string]string, moveApplier, error)
	// Export prepares the export of replay, the request ReplayGame will
	// run: it returns how that replay applies its moves (nil:
	// applyNotation; an applier may keep the typed moves it plays) and the
	// writer of the replayed game, called with the replay's answer and the
	// request's tags.
	Export func(replay *gamerulesv1.ReplayGameRequest) (moveApplier, recordWriter)
	// Tags, when set, checks an export's tags before the replay: an error
	// (wrapping errInvalidRequest; ExportRecord makes it INVALID_REQUEST
	// on tags) for tags the format cannot write so that they read back.
	Tags func(tags map[string]string) error
}

// recordWriter writes a replayed game as a record: resp is the replay's
// answer, tags the request's. Errors are statuses.
type recordWriter func(resp *gamerulesv1.ReplayGameResponse, tags map[string]string) ([]byte, error)

// newGameOptioner is implemented by the Engines of games with options:
// NewGameOptions sets ng's options to r's when r's are this game's (the
// two oneofs wrap the same options message in different Go types), and
// leaves ng as it is otherwise.
type newGameOptioner interface {
	NewGameOptions(r *gamerulesv1.ReplayGameRequest, ng *gamerulesv1.NewGameRequest)
}

// optionsRecorder is implemented by the Engines of games whose text form
// does not always carry the whole state (a Gravity Trap custom board).
// RecordsOptions reports whether the JSON record of a game that started at
// start must be written with its options and seed instead of the start's
// text.
type optionsRecorder interface {
	RecordsOptions(start *gamerulesv1.GameState) bool
}

// engines holds the registered games by id. It is filled by init functions
// and only read afterwards.
var engines = map[string]Engine{}

// register adds e to the games the service serves. It panics on a duplicate
// id: that is a programming error found at start-up.
func register(e Engine) {
	id := e.Info().GetId()
	if _, dup := engines[id]; dup {
		panic("service: game registered twice: " + id)
	}
	engines[id] = e
	addOneofCases(id)
}

// gameIDs returns the registered ids, sorted.
func gameIDs() []string {
	ids := make([]string, 0, len(engines))
	for id := range engines {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// textual is what decodeState and decodeMove need of a rules value: its
// canonical text form.
type textual interface{ String() string }

// decodeState implements Engine.Decode's common part for a rules State type S:
// it parses st.Text with parseText when given, converts the typed state with
// fromTyped when given (hasTyped), and when both are given checks that they
// agree by comparing canonical text forms. The result still needs Validate
// when the parsers do not validate. Errors wrap game.ErrInvalidState.
func decodeState[S textual](st *gamerulesv1.GameState, hasTyped bool, parseText func(string) (S, error), fromTyped func() (S, error)) (S, error) {
	return decodeBoth(st.GetText(), hasTyped, parseText, fromTyped, game.ErrInvalidState,
		"state has neither text nor typed fields", "text %s and typed fields (%s) describe different states")
}

// decodeMove is decodeState for moves: notation through parseNotation, the
// typed move through fromTyped (when hasTyped), and both must agree. Errors
// wrap game.ErrIllegalMove.
func decodeMove[M textual](mv *gamerulesv1.Move, hasTyped bool, parseNotation func(string) (M, error), fromTyped func() (M, error)) (M, error) {
	return decodeBoth(mv.GetNotation(), hasTyped, parseNotation, fromTyped, game.ErrIllegalMove,
		"move has neither notation nor typed fields", "notation %s and typed fields (%s) are different moves")
}

// decodeBoth reads a value given as text, typed, or both (then their
// canonical texts must agree); kind is the error kind for "neither" and for
// a disagreement, whose message is disagree (two %s: the text given and the
// typed value's canonical text).
func decodeBoth[T textual](text string, hasTyped bool, parse func(string) (T, error), fromTyped func() (T, error), kind error, neither, disagree string) (T, error) {
	var zero T
	var fromText T
	if text != "" {
		var err error
		if fromText, err = parse(text); err != nil {
			return zero, err
		}
		if !hasTyped {
			return fromText, nil
		}
	}
	if !hasTyped {
		return zero, fmt.Errorf("%w: %s", kind, neither)
	}
	typed, err := fromTyped()
	if err != nil {
		return zero, err
	}
	if text != "" && fromText.String() != typed.String() {
		return zero, fmt.Errorf("%w: "+disagree, kind, game.Quote(text), game.Quote(typed.String()))
	}
	return typed, nil
}

// listMoves implements Position.LegalMoves for a game without chance moves:
// moves in the engine's order, each converted by toProto (given its index)
// and, when enc is not nil, given the state after it (apply, then
// enc.encode; enc.finish completes the encoded states once all are made,
// e.g. sets their texts). A listed move that does not apply is an engine
// bug, reported as an error that wraps no rules kind (so INTERNAL) and
// starts with name.
func listMoves[M, S any](name string, moves []M, toProto func(int, M) *gamerulesv1.Move, apply func(M) (S, error), enc stateEncoder[S]) ([]*gamerulesv1.Move, bool, error) {
	out := make([]*gamerulesv1.Move, 0, len(moves))
	for i, m := range moves {
		pm := toProto(i, m)
		if enc != nil {
			next, err := apply(m)
			if err != nil {
				return nil, false, fmt.Errorf("%s: listed move %v does not apply: %v", name, m, err)
			}
			pm.Result = enc.encode(next)
		}
		out = append(out, pm)
	}
	if enc != nil {
		enc.finish()
	}
	return out, false, nil
}
