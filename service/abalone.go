package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/abalone/apgn"
	"github.com/gamerules/gamerules/rules/game"
	"google.golang.org/protobuf/proto"
)

// abaloneEngine adapts rules/abalone to the API (game id "abalone"). The
// text form carries the whole state; the typed state lists the cells of
// each colour by name.
type abaloneEngine struct{}

func init() { register(abaloneEngine{}) }

func (abaloneEngine) Info() *gamerulesv1.GameInfo {
	info := gameInfo(abalone.Info())
	info.Variants = []string{
		"layout: classic (default), belgian_daisy, german_daisy, or custom (cells of each colour and the side to move)",
		"max_plies: end the game after that many plies; more marbles pushed off wins, equal is a draw (default: no limit)",
	}
	info.MoveNotation = `Aba-Pro: in line "a1b2" (trailing marble a1 moves to b2 with the marbles ahead of it, pushing what they push); broadside "c3c5d3" (the group c3..c5 moves sideways, c3 to d3; either end first on input)`
	info.StateNotation = `rows I to A separated by '/', 'b'/'w' marbles and digits for runs of empty cells, then the side to move and, with a ply limit, "<played>/<limit>"; e.g. "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"`
	info.ActionSpaceSize = abalone.ActionSpace
	return info
}

func (abaloneEngine) NewGame(req *gamerulesv1.NewGameRequest, _ uint64) (Position, error) {
	opts := req.GetAbalone()
	// Checked here, before the conversion to int, so that the message quotes
	// the value given.
	if mp := opts.GetMaxPlies(); mp > abalone.MaxPliesLimit {
		return nil, fmt.Errorf("abalone: %w: max_plies %d out of range 0..%d (0 = no limit)", game.ErrInvalidOptions, mp, abalone.MaxPliesLimit)
	}
	o := abalone.Options{MaxPlies: int(opts.GetMaxPlies())}
	switch l := strings.ToLower(opts.GetLayout()); l {
	case "", "classic":
		o.Layout = abalone.Classic
	case "belgian_daisy", "belgian":
		o.Layout = abalone.BelgianDaisy
	case "german_daisy", "german":
		o.Layout = abalone.GermanDaisy
	case "custom":
		o.Layout = abalone.Custom
	default:
		return nil, fmt.Errorf("abalone: %w: unknown layout %s; want classic, belgian_daisy, german_daisy or custom", game.ErrInvalidOptions, game.Quote(opts.GetLayout()))
	}
	var err error
	if o.Black, err = abaloneCells(opts.GetBlack(), "black", game.ErrInvalidOptions); err != nil {
		return nil, err
	}
	if o.White, err = abaloneCells(opts.GetWhite(), "white", game.ErrInvalidOptions); err != nil {
		return nil, err
	}
	// The side to move matters only in a custom layout, and there it must be
	// given: a client whose library turns an unknown enum name into 0 must
	// not get black to move without a word.
	// Absent is the layout's default; UNSPECIFIED given is refused.
	switch p := opts.GetTurn(); {
	case p == gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK:
		o.ToMove = abalone.Black
	case p == gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE:
		o.ToMove = abalone.White
	case opts != nil && opts.Turn != nil && p == gamerulesv1.AbalonePlayer_ABALONE_PLAYER_UNSPECIFIED:
		return nil, fmt.Errorf("abalone: %w: turn ABALONE_PLAYER_UNSPECIFIED is not a side; want ABALONE_PLAYER_BLACK or ABALONE_PLAYER_WHITE (or leave it out with a standard layout)", game.ErrInvalidOptions)
	case p == gamerulesv1.AbalonePlayer_ABALONE_PLAYER_UNSPECIFIED && o.Layout != abalone.Custom:
		o.ToMove = abalone.Black // a standard layout: black moves first
	case p == gamerulesv1.AbalonePlayer_ABALONE_PLAYER_UNSPECIFIED:
		return nil, fmt.Errorf("abalone: %w: turn is required with the custom layout: ABALONE_PLAYER_BLACK or ABALONE_PLAYER_WHITE", game.ErrInvalidOptions)
	default:
		return nil, fmt.Errorf("abalone: %w: turn %d is not a side; want ABALONE_PLAYER_BLACK or ABALONE_PLAYER_WHITE", game.ErrInvalidOptions, int32(p))
	}
	s, err := abalone.New(o)
	if err != nil {
		return nil, err
	}
	return abalonePos{s}, nil
}

// abaloneCells parses cell names; errors wrap kind and name the field.
func abaloneCells(names []string, field string, kind error) ([]abalone.Cell, error) {
	if len(names) > abalone.NumCells {
		return nil, fmt.Errorf("abalone: %w: %s: %d cells; the board has %d", kind, field, len(names), abalone.NumCells)
	}
	out := make([]abalone.Cell, 0, len(names))
	for i, n := range names {
		c, err := abalone.ParseCell(n)
		if err != nil {
			return nil, fmt.Errorf("abalone: %w: %s[%d]: %s is not a cell (A1..I9)", kind, field, i, game.Quote(n))
		}
		out = append(out, c)
	}
	return out, nil
}

func (abaloneEngine) Decode(st *gamerulesv1.GameState) (Position, error) {
	typed := st.GetAbalone()
	s, err := decodeState(st, typed != nil, abalone.ParseState, func() (abalone.State, error) { return abaloneStateFromProto(typed) })
	if err != nil {
		return nil, err
	}
	return abalonePos{s}, nil
}

func abaloneStateFromProto(pb *gamerulesv1.AbaloneState) (abalone.State, error) {
	var p abalone.Position
	var err error
	if p.Black, err = abaloneCells(pb.GetBlack(), "black", game.ErrInvalidState); err != nil {
		return abalone.State{}, err
	}
	if p.White, err = abaloneCells(pb.GetWhite(), "white", game.ErrInvalidState); err != nil {
		return abalone.State{}, err
	}
	switch pb.GetTurn() {
	case gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK:
		p.ToMove = abalone.Black
	case gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE:
		p.ToMove = abalone.White
	default:
		return abalone.State{}, fmt.Errorf("abalone: %w: turn %s; want ABALONE_PLAYER_BLACK or ABALONE_PLAYER_WHITE", game.ErrInvalidState, enumText(pb.GetTurn()))
	}
	// Checked here, before the conversion to int, so that the message quotes
	// the value given.
	if v := pb.GetMaxPlies(); v > abalone.MaxPliesLimit {
		return abalone.State{}, fmt.Errorf("abalone: %w: max_plies %d out of range 1..%d (leave it out for no limit; 0 is read as none)", game.ErrInvalidState, v, abalone.MaxPliesLimit)
	}
	if v := pb.GetPlies(); v > abalone.MaxPliesLimit {
		return abalone.State{}, fmt.Errorf("abalone: %w: plies %d out of range 0..%d", game.ErrInvalidState, v, abalone.MaxPliesLimit)
	}
	p.Plies, p.MaxPlies = int(pb.GetPlies()), int(pb.GetMaxPlies())
	return abalone.FromPosition(p)
}

// abalonePos is a decoded, valid Abalone state.
type abalonePos struct{ s abalone.State }

func (p abalonePos) Encode() *gamerulesv1.GameState {
	return newAbaloneEncoder(1).encode(p.s)
}

// abaloneEncoder builds typed states from slabs (see slab), so that the
// result states of a LegalMoves answer cost a few allocations in all; the
// texts of more than one state are written into one buffer (see texts).
// One encoder serves one answer: encode each state, then finish.
type abaloneEncoder struct {
	states  slab[gamerulesv1.GameState]
	wrapper slab[gamerulesv1.GameState_Abalone]
	typed   slab[gamerulesv1.AbaloneState]
	names   slab[string]
	text    *texts // nil: one state, its text set by encode
	noText  bool   // leave the text out (omitText)
	// lists are the cell lists made last, one a colour, with their sets
	// (abalone.State.Cells): a state whose marbles of a colour stand where
	// the last one's did shares its list. Most results of one answer leave
	// the opponent's marbles where they were, so that answer holds about
	// one list a state instead of two.
	lists [2]struct {
		set   uint64
		names []string
	}
}

// omitText makes encode leave the states' texts out (a read mask).
func (e *abaloneEncoder) omitText() { e.noText = true }

// newAbaloneEncoder returns an encoder sized for n states.
func newAbaloneEncoder(n int) *abaloneEncoder {
	e := &abaloneEncoder{
		states:  makeSlab[gamerulesv1.GameState](n),
		wrapper: makeSlab[gamerulesv1.GameState_Abalone](n),
		typed:   makeSlab[gamerulesv1.AbaloneState](n),
		// Both lists of the first state, and one list a state after it
		// (cells); a result that pushes a marble needs one more, which
		// the slab's later chunks give.
		names: slab[string]{buf: make([]string, abalone.MarblesEach*(n+1)), chunk: abalone.MarblesEach * (n/8 + 1)},
	}
	if n > 1 {
		t := makeTexts(n, 64)
		e.text = &t
	}
	return e
}

// finish sets the texts of the states encode returned.
func (e *abaloneEncoder) finish() {
	if e.text != nil {
		e.text.finish()
	}
}

// encode returns s with both text and the typed case filled: the cells of
// each colour in the order of abalone.State.Position (ascending cells).
func (e *abaloneEncoder) encode(s abalone.State) *gamerulesv1.GameState {
	typed := e.typed.next()
	typed.Black, typed.White = e.cells(s, abalone.Black), e.cells(s, abalone.White)
	typed.Turn = gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK
	typed.Plies = uint32(s.Plies())
	if mp := s.MaxPlies(); mp > 0 {
		typed.MaxPlies = proto.Uint32(uint32(mp))
	}
	typed.BlackLost, typed.WhiteLost = uint32(s.Lost(abalone.Black)), uint32(s.Lost(abalone.White))
	if s.ToMove() == abalone.White {
		typed.Turn = gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE
	}
	w := e.wrapper.next()
	w.Abalone = typed
	st := e.states.next()
	st.State = w
	switch {
	case e.noText:
	case e.text == nil:
		st.Text = s.String()
	default:
		var buf [textScratch]byte
		text, _ := s.AppendText(buf[:0])
		e.text.add(st, text)
	}
	return st
}

// cells lists the cells of player's marbles in s, ascending ("a1", …),
// an empty list (not nil) when there are none: the last list made for
// player when the set is the same.
func (e *abaloneEncoder) cells(s abalone.State, player int) []string {
	set := s.Cells(player)
	last := &e.lists[player]
	if last.names != nil && last.set == set {
		return last.names
	}
	out := e.names.take(bits.OnesCount64(set))
	for i, rest := 0, set; rest != 0; i, rest = i+1, rest&(rest-1) {
		out[i] = abalone.Cell(bits.TrailingZeros64(rest) + 1).String()
	}
	if out == nil {
		out = []string{} // as before: an empty list, not nil
	}
	last.set, last.names = set, out
	return out
}

func abaloneMoveToProto(m abalone.Move) *gamerulesv1.Move {
	return newAbaloneMoveBuilder([]abalone.Move{m}, noResults).move(0, m)
}

// abaloneMoveBuilder builds the typed moves of one answer from slabs, the
// notation of all in one string (abalone.Notations), each with the parts
// want asks for.
type abaloneMoveBuilder struct {
	want    moveParts
	notes   []string // by index in the list
	moves   slab[gamerulesv1.Move]
	wrapper slab[gamerulesv1.Move_Abalone]
	typed   slab[gamerulesv1.AbaloneMove]
}

// newAbaloneMoveBuilder returns a builder for moves with the parts want
// asks for (notation, typed move).
func newAbaloneMoveBuilder(moves []abalone.Move, want moveParts) *abaloneMoveBuilder {
	n := len(moves)
	b := &abaloneMoveBuilder{want: want, moves: makeSlab[gamerulesv1.Move](n)}
	if want.Notation {
		b.notes = abalone.Notations(moves)
	}
	if want.Typed {
		b.wrapper, b.typed = makeSlab[gamerulesv1.Move_Abalone](n), makeSlab[gamerulesv1.AbaloneMove](n)
	}
	return b
}

// move returns m, the i-th move of the builder's list, with notation and
// typed form (those of them the builder wants).
func (b *abaloneMoveBuilder) move(i int, m abalone.Move) *gamerulesv1.Move {
	out := b.moves.next()
	if b.want.Notation {
		out.Notation = b.notes[i]
	}
	if !b.want.Typed {
		return out
	}
	typed := b.typed.next()
	typed.From, typed.To = m.From.String(), m.To.String()
	if m.Broadside() {
		typed.End = m.End.String()
	}
	w := b.wrapper.next()
	w.Abalone = typed
	out.Move = w
	return out
}

func (p abalonePos) LegalMoves(want moveParts) ([]*gamerulesv1.Move, bool, error) {
	moves := p.s.LegalMoves()
	b := newAbaloneMoveBuilder(moves, want)
	enc := resultEncoder(want, len(moves), 64, func() typedEncoder[abalone.State] { return newAbaloneEncoder(len(moves)) })
	out, chance, err := listMoves("abalone", moves, b.move, p.s.Apply, enc)
	if err == nil && want.Action {
		setActions(out, func(i int) int { return moves[i].Action() })
	}
	return out, chance, err
}

func (p abalonePos) Apply(mv *gamerulesv1.Move, _ *rand.Rand) (Position, *gamerulesv1.Move, bool, error) {
	typed := mv.GetAbalone()
	m, err := decodeMove(mv, typed != nil,
		func(text string) (abalone.Move, error) { return abalone.ReadMove(p.s, text) },
		func() (abalone.Move, error) { return abaloneMoveFromProto(typed) })
	if err != nil {
		return nil, nil, false, err
	}
	next, err := p.s.Apply(m)
	if err != nil {
		return nil, nil, false, err
	}
	applied := abaloneMoveToProto(m)
	applied.Action = proto.Int32(int32(m.Action()))
	return abalonePos{next}, applied, false, nil
}

// abaloneMoveFromProto reads the cells of a typed move and puts broadside
// ends in order; legality is left to Apply.
func abaloneMoveFromProto(pb *gamerulesv1.AbaloneMove) (abalone.Move, error) {
	var cells [3]abalone.Cell
	for i, name := range []string{pb.GetFrom(), pb.GetTo(), pb.GetEnd()} {
		if i == 2 && name == "" {
			break
		}
		c, err := abalone.ParseCell(name)
		if err != nil {
			return abalone.Move{}, fmt.Errorf("abalone: %w: %s: %s is not a cell (A1..I9)", game.ErrIllegalMove, [3]string{"from", "to", "end"}[i], game.Quote(name))
		}
		cells[i] = c
	}
	return abalone.MoveOf(cells[0], cells[1], cells[2])
}

func (p abalonePos) Outcome() game.Outcome { return p.s.Outcome() }

// Render draws the state (render.Abalone).
func (p abalonePos) Render(o render.Options) ([]byte, error) { return render.Abalone(p.s, o) }

// RenderText writes the board as its hexagon of rows (render.AbaloneText).
func (p abalonePos) RenderText(o render.Options) (string, error) { return render.AbaloneText(p.s, o) }

// NewGameOptions passes a replay's Abalone options on to NewGame.
func (abaloneEngine) NewGameOptions(r *gamerulesv1.ReplayGameRequest, ng *gamerulesv1.NewGameRequest) {
	if o, ok := r.GetOptions().(*gamerulesv1.ReplayGameRequest_Abalone); ok {
		ng.Options = &gamerulesv1.NewGameRequest_Abalone{Abalone: o.Abalone}
	}
}

// RecordFormats returns Abalone's own record format: "apgn", the Abalone
// archives' Aba-Pro records.
func (abaloneEngine) RecordFormats() []recordCodec { return abaloneRecordFormats }

// abaloneRecordFormats are Abalone's own record formats.
var abaloneRecordFormats = []recordCodec{{
	Name:   "apgn",
	Import: importAPGN,
	Tags:   checkAPGNTags,
	Export: func(replay *gamerulesv1.ReplayGameRequest) (moveApplier, recordWriter) {
		return nil, func(resp *gamerulesv1.ReplayGameResponse, tags map[string]string) ([]byte, error) {
			if n := exportAtLeast(resp, tags); n > MaxExportBytes {
				return nil, exportSizeError(n, true)
			}
			return exportAPGN(replay, resp, tags), nil
		}
	},
}}

// apgnLayouts maps an APGN Variant tag to the Abalone layout option and
// back (the archives write "german" for the German daisy).
var apgnLayouts = map[string]string{"german": "german_daisy", "belgian": "belgian_daisy"}

// importAPGN reads one APGN game into a replay: the Position tag's state,
// or the Variant tag's layout (absent: the default), and the moves; the
// tags come back as tags.
//
// Reading stops at ctx's end, at a second game or tag maxRecordTags+1
// (INVALID_REQUEST on text) and at move MaxReplayMoves+1 (INVALID_REQUEST on moves, as ReplayGame
// refuses as many), before the rest is read.
func importAPGN(ctx context.Context, text string, includeStates bool) (*gamerulesv1.ReplayGameRequest, map[string]string, moveApplier, error) {
	games, err := apgn.ReadContext(ctx, []byte(text), apgn.Limits{MaxGames: 1, MaxMoves: MaxReplayMoves, MaxTags: maxRecordTags})
	var le *apgn.LimitError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return nil, nil, nil, toStatus("text", err)
	case errors.As(err, &le) && le.What == "games":
		return nil, nil, nil, toStatusMeta("text", fmt.Errorf("%w: more than one game in the record (the next starts at line %d); import one at a time", errInvalidRequest, le.Line),
			map[string]string{"line": strconv.Itoa(le.Line), "column": strconv.Itoa(le.Column)})
	case errors.As(err, &le) && le.What == "tags":
		return nil, nil, nil, toStatusMeta("text", fmt.Errorf("%w: more than %d tags (line %d)", errInvalidRequest, le.Max, le.Line),
			map[string]string{"line": strconv.Itoa(le.Line), "column": strconv.Itoa(le.Column)})
	case errors.As(err, &le):
		return nil, nil, nil, toStatusMeta("moves", fmt.Errorf("%w: more than %d moves (line %d); at most %d per call", errInvalidRequest, le.Max, le.Line, MaxReplayMoves),
			map[string]string{"line": strconv.Itoa(le.Line), "column": strconv.Itoa(le.Column)})
	case err != nil:
		return nil, nil, nil, recordError(err)
	}
	if len(games) != 1 {
		return nil, nil, nil, toStatus("text", fmt.Errorf("%w: %d games in the record; import one at a time", errInvalidRequest, len(games)))
	}
	g := games[0]
	replay := &gamerulesv1.ReplayGameRequest{Game: "abalone", Moves: g.Moves, IncludeStates: includeStates}
	if pos := g.Tag("Position"); pos != "" {
		replay.State = &gamerulesv1.GameState{Text: pos}
	} else if v := g.Tag("Variant"); v != "" {
		layout := v
		if l, ok := apgnLayouts[v]; ok {
			layout = l
		}
		replay.Options = &gamerulesv1.ReplayGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: layout}}
	}
	tags := map[string]string{}
	for _, t := range g.Tags {
		tags[t.Name] = t.Value
	}
	return replay, tags, applyNotation, nil
}

// maxRecordTags is the most tags an imported APGN game may hold (the
// archives' have about ten): each is a string of the answer that the
// transport's element budget did not count (they were one text).
const maxRecordTags = 1_000

// checkAPGNTags refuses an APGN export's tags that would not read back as
// written: more than an import reads (maxRecordTags, with the three the
// export adds), and (apgn.CheckTag) a name that is not
// [A-Za-z][A-Za-z0-9_]*, a control character in a name or value,
// errInvalidRequest naming the first (in sorted order). The tags written from the game (Variant,
// Position, Result, Notation) replace the request's, which are not
// checked.
func checkAPGNTags(tags map[string]string) error {
	// The tags written: the request's but those four, and Variant or
	// Position, Result and Notation. An import reads maxRecordTags.
	written := 3
	for k := range tags {
		switch k {
		case "Variant", "Position", "Result", "Notation":
		default:
			written++
		}
	}
	if written > maxRecordTags {
		return fmt.Errorf("%w: the record would hold %d tags (Variant or Position, Result and Notation with the request's) and an import reads at most %d", errInvalidRequest, written, maxRecordTags)
	}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		switch k {
		case "Variant", "Position", "Result", "Notation":
			continue // written from the game
		}
		if err := apgn.CheckTag(k, tags[k]); err != nil {
			return fmt.Errorf("%w: %v", errInvalidRequest, err)
		}
	}
	return nil
}

// exportAPGN writes a replayed Abalone game as APGN: the request's tags
// (sorted), then Variant (the layout, when the game started from options)
// or Position (the start state's text), Result and Notation, then the moves.
func exportAPGN(replay *gamerulesv1.ReplayGameRequest, resp *gamerulesv1.ReplayGameResponse, tags map[string]string) []byte {
	var g apgn.Game
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		switch k {
		case "Variant", "Position", "Result", "Notation":
			continue // written from the game
		}
		g.Tags = append(g.Tags, apgn.Tag{Name: k, Value: tags[k]})
	}
	if replay.GetState() == nil {
		layout := replay.GetAbalone().GetLayout()
		for k, v := range apgnLayouts {
			if v == layout {
				layout = k
			}
		}
		if layout == "" {
			layout = "classic"
		}
		g.Tags = append(g.Tags, apgn.Tag{Name: "Variant", Value: layout})
	} else {
		g.Tags = append(g.Tags, apgn.Tag{Name: "Position", Value: resp.GetStart().GetText()})
	}
	g.Result = "*"
	if resp.GetFinished() && resp.Winner != nil {
		g.Result = []string{"1-0", "0-1"}[resp.GetWinner()]
	}
	g.Tags = append(g.Tags, apgn.Tag{Name: "Result", Value: g.Result}, apgn.Tag{Name: "Notation", Value: "Aba-Pro"})
	g.Moves = resp.GetMoves()
	return apgn.Write(g)
}

func (p abalonePos) children() ([]Position, error) {
	return childrenOf("abalone", p.s, func(s abalone.State) Position { return abalonePos{s} })
}

func (p abalonePos) playout(rng *rand.Rand, pol policy, first, maxPlies int, record bool) (playedGame, error) {
	return playRandom(playoutRules[abalone.State, abalone.Move]{name: "abalone", greedy: abalone.State.GreedyMove, appendMoves: abalone.State.AppendLegalMoves}, p.s, rng, pol, first, maxPlies, record)
}

func (p abalonePos) turn() int { return p.s.ToMove() }
