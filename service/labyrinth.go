package service

import (
	"google.golang.org/protobuf/proto"

	"fmt"
	"math/rand/v2"
	"strings"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// labyrinthEngine adapts rules/labyrinth to the API (game id "labyrinth").
// The card stacks are secret: ObserveState gives a player's view (Observe),
// and a view is refused as input (Decode validates).
type labyrinthEngine struct{}

func init() { register(labyrinthEngine{}) }

func (labyrinthEngine) Info() *gamerulesv1.GameInfo {
	info := gameInfo(labyrinth.Info())
	info.Variants = []string{
		"players: 2..4 (default 4), seated red, yellow, green, blue; colors: the players' colours in turn order instead, e.g. [\"blue\", \"red\"]; first_player: the 0-based index of the player who begins",
		"vader: Darth Vader moves for the cards with the Vader symbol (targets U..X)",
		"open_cards: a player sees all his cards and may find any unfound one",
		"no_return: the game ends when a player has found all his cards",
		"layout: an explicit set-up (board, spare, stacks; typed or as text) instead of a random one from the seed",
	}
	info.MoveNotation = `shift: insertion point and quarter turns clockwise of the spare, e.g. "N2", "W4:1"; then the figure's destination, "r3c5" (own ship) or "V:r3c5" (Darth Vader); staying is the figure's own square`
	info.StateNotation = `<board> <spare> <figures> <last> <turn> <cards> <variants>, e.g. "6aeAaeB5*c/9c6ceOa7Q/7C97D6eEadF/5cT5aaa9U/7G6SbH5dI7PdJ/dM6V9936Xa/3eRbK3WbL59 7N R11,Y17 - Rs :MAGBULCXIWPE,:HKNTQRJDSFOV -" (see LabyrinthState)`
	info.ActionSpaceSize = labyrinth.ActionSpace
	return info
}

func (labyrinthEngine) NewGame(req *gamerulesv1.NewGameRequest, seed uint64) (Position, error) {
	opts := req.GetLabyrinth()
	o := labyrinth.Options{
		Players: int(opts.GetPlayers()),
		First:   int(opts.GetFirstPlayer()),
		Seed:    seed,
		Variants: labyrinth.Variants{
			Vader:     opts.GetVader(),
			OpenCards: opts.GetOpenCards(),
			NoReturn:  opts.GetNoReturn(),
		},
	}
	if len(opts.GetColors()) > labyrinth.MaxPlayers {
		return nil, fmt.Errorf("labyrinth: %w: %d colours; at most 4 players", game.ErrInvalidOptions, len(opts.GetColors()))
	}
	for i, name := range opts.GetColors() {
		c, ok := labyrinthColorNames[strings.ToLower(name)]
		if !ok {
			return nil, fmt.Errorf("labyrinth: %w: colors[%d] = %s; want red, yellow, green or blue", game.ErrInvalidOptions, i, game.Quote(name))
		}
		col, err := labyrinthColorFromProto(c, game.ErrInvalidOptions)
		if err != nil {
			return nil, err
		}
		o.Colors = append(o.Colors, col)
	}
	if l := opts.GetLayout(); l != nil {
		layout, err := labyrinthLayoutFromProto(l)
		if err != nil {
			return nil, err
		}
		o.Layout = &layout
	}
	s, err := labyrinth.New(o)
	if err != nil {
		return nil, err
	}
	return labyrinthPos{s}, nil
}

func labyrinthLayoutFromProto(l *gamerulesv1.LabyrinthLayout) (labyrinth.Layout, error) {
	typed := len(l.GetBoard()) > 0 || l.GetSpare() != nil || len(l.GetStacks()) > 0
	if l.GetText() != "" {
		if typed {
			return labyrinth.Layout{}, fmt.Errorf("labyrinth: %w: layout: give text or typed board, spare and stacks, not both", game.ErrInvalidOptions)
		}
		return labyrinth.ParseLayout(l.GetText())
	}
	var out labyrinth.Layout
	if err := labyrinthBoardFromProto(l.GetBoard(), l.GetSpare(), &out.Board, &out.Spare, game.ErrInvalidOptions); err != nil {
		return labyrinth.Layout{}, err
	}
	if len(l.GetStacks()) > labyrinth.MaxPlayers {
		return labyrinth.Layout{}, fmt.Errorf("labyrinth: %w: layout: %d stacks; at most 4 players", game.ErrInvalidOptions, len(l.GetStacks()))
	}
	for p, st := range l.GetStacks() {
		cards, err := labyrinthCards(st.GetCards(), false, fmt.Sprintf("layout stack %d", p), game.ErrInvalidOptions)
		if err != nil {
			return labyrinth.Layout{}, err
		}
		out.Stacks = append(out.Stacks, cards)
	}
	return out, nil
}

// Decode reads the text, the typed state, or both, and refuses a state
// that does not Validate, a per-player view among them.
func (labyrinthEngine) Decode(st *gamerulesv1.GameState) (Position, error) {
	typed := st.GetLabyrinth()
	s, err := decodeState(st, typed != nil, labyrinth.ParseState,
		func() (labyrinth.State, error) { return labyrinthStateFromProto(typed) })
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return labyrinthPos{s}, nil
}

// DecodeView reads a per-player view (Observe's answer, whose hidden cards
// Validate refuses) for RenderState, which draws it; ok is false when st
// does not read as a view.
func (labyrinthEngine) DecodeView(st *gamerulesv1.GameState) (Position, bool) {
	typed := st.GetLabyrinth()
	v, err := decodeState(st, typed != nil, labyrinth.ParseState,
		func() (labyrinth.State, error) { return labyrinthStateFromProto(typed) })
	if err != nil || !v.IsView() {
		return nil, false
	}
	return labyrinthPos{v}, true
}

// NewGameOptions passes a replay's Labyrinth options on to NewGame.
func (labyrinthEngine) NewGameOptions(r *gamerulesv1.ReplayGameRequest, ng *gamerulesv1.NewGameRequest) {
	if o, ok := r.GetOptions().(*gamerulesv1.ReplayGameRequest_Labyrinth); ok {
		ng.Options = &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: o.Labyrinth}
	}
}

// labyrinthColorNames maps the colour names NewGame accepts (lower case) to
// the typed colour.
var labyrinthColorNames = map[string]gamerulesv1.LabyrinthColor{
	"red": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_RED, "r": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_RED,
	"yellow": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_YELLOW, "y": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_YELLOW,
	"green": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_GREEN, "g": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_GREEN,
	"blue": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_BLUE, "b": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_BLUE,
	"labyrinth_color_red": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_RED, "labyrinth_color_yellow": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_YELLOW,
	"labyrinth_color_green": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_GREEN, "labyrinth_color_blue": gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_BLUE,
}

func labyrinthColorFromProto(c gamerulesv1.LabyrinthColor, kind error) (labyrinth.Color, error) {
	if c < gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_RED || c > gamerulesv1.LabyrinthColor_LABYRINTH_COLOR_BLUE {
		return 0, fmt.Errorf("labyrinth: %w: color %s; want LABYRINTH_COLOR_RED, _YELLOW, _GREEN or _BLUE", kind, enumText(c))
	}
	return labyrinth.Color(c - 1), nil
}

func labyrinthSquareFromProto(q *gamerulesv1.LabyrinthSquare) labyrinth.Square {
	if q == nil || q.GetRow() > 7 || q.GetCol() > 7 {
		return labyrinth.NoSquare
	}
	return labyrinth.Sq(int(q.GetRow()), int(q.GetCol()))
}

func labyrinthTileFromProto(t *gamerulesv1.LabyrinthTile, where string, kind error) (labyrinth.Tile, error) {
	if t == nil {
		return labyrinth.Tile{}, fmt.Errorf("labyrinth: %w: %s: tile missing", kind, where)
	}
	if t.GetSides() > 15 || t.GetTarget() > labyrinth.NumTargets {
		return labyrinth.Tile{}, fmt.Errorf("labyrinth: %w: %s: sides %d (want 0..15) or target %d (want 0..24) out of range", kind, where, t.GetSides(), t.GetTarget())
	}
	return labyrinth.Tile{Sides: uint8(t.GetSides()), Target: uint8(t.GetTarget()), Vader: t.GetVader()}, nil
}

func labyrinthBoardFromProto(board []*gamerulesv1.LabyrinthTile, spare *gamerulesv1.LabyrinthTile, outBoard *[labyrinth.NumSquares]labyrinth.Tile, outSpare *labyrinth.Tile, kind error) error {
	if len(board) != labyrinth.NumSquares {
		return fmt.Errorf("labyrinth: %w: board has %d tiles; want 49", kind, len(board))
	}
	for q, t := range board {
		tile, err := labyrinthTileFromProto(t, labyrinth.Square(q).String(), kind)
		if err != nil {
			return err
		}
		outBoard[q] = tile
	}
	tile, err := labyrinthTileFromProto(spare, "spare", kind)
	if err != nil {
		return err
	}
	*outSpare = tile
	return nil
}

// labyrinthCards converts cards 1..24 (0 = hidden, when allowed).
func labyrinthCards(cards []uint32, allowHidden bool, where string, kind error) ([]uint8, error) {
	if len(cards) > labyrinth.NumTargets {
		return nil, fmt.Errorf("labyrinth: %w: %s: %d cards; there are %d", kind, where, len(cards), labyrinth.NumTargets)
	}
	out := make([]uint8, len(cards))
	for i, c := range cards {
		if c > labyrinth.NumTargets || (c == 0 && !allowHidden) {
			return nil, fmt.Errorf("labyrinth: %w: %s: card %d is not a target 1..24", kind, where, c)
		}
		out[i] = uint8(c)
	}
	return out, nil
}

func labyrinthStateFromProto(pb *gamerulesv1.LabyrinthState) (labyrinth.State, error) {
	bad := game.ErrInvalidState
	// Counts first, before anything is converted.
	if n := len(pb.GetPlayers()); n < labyrinth.MinPlayers || n > labyrinth.MaxPlayers {
		return labyrinth.State{}, fmt.Errorf("labyrinth: %w: %d players; want 2..4", bad, n)
	}
	var sn labyrinth.Position
	if err := labyrinthBoardFromProto(pb.GetBoard(), pb.GetSpare(), &sn.Board, &sn.Spare, bad); err != nil {
		return labyrinth.State{}, err
	}
	for p, pl := range pb.GetPlayers() {
		c, err := labyrinthColorFromProto(pl.GetColor(), bad)
		if err != nil {
			return labyrinth.State{}, err
		}
		ship := labyrinthSquareFromProto(pl.GetShip())
		if !ship.Valid() {
			return labyrinth.State{}, fmt.Errorf("labyrinth: %w: player %d: ship square missing or off the board", bad, p)
		}
		found, err := labyrinthCards(pl.GetFound(), false, fmt.Sprintf("player %d found", p), bad)
		if err != nil {
			return labyrinth.State{}, err
		}
		stack, err := labyrinthCards(pl.GetStack(), true, fmt.Sprintf("player %d stack", p), bad)
		if err != nil {
			return labyrinth.State{}, err
		}
		sn.Colors = append(sn.Colors, c)
		sn.Ships = append(sn.Ships, ship)
		sn.Found = append(sn.Found, found)
		sn.Stacks = append(sn.Stacks, stack)
	}
	sn.Vader = labyrinth.NoSquare
	if v := pb.GetVader(); v != nil {
		if sn.Vader = labyrinthSquareFromProto(v); !sn.Vader.Valid() {
			return labyrinth.State{}, fmt.Errorf("labyrinth: %w: Darth Vader's square is off the board", bad)
		}
	}
	if l := pb.GetLast(); (pb.Last != nil && l == gamerulesv1.LabyrinthInsertionPoint_LABYRINTH_INSERTION_POINT_UNSPECIFIED) || l < 0 || l > gamerulesv1.LabyrinthInsertionPoint_LABYRINTH_INSERTION_POINT_W6 {
		return labyrinth.State{}, fmt.Errorf("labyrinth: %w: last %s; want N2..W6 (LABYRINTH_INSERTION_POINT_N2 …), or leave it out before the first shift", bad, enumText(l))
	}
	sn.Last = labyrinth.Point(pb.GetLast())
	sn.Turn = int(pb.GetTurn())
	if ph := pb.GetPhase(); ph < gamerulesv1.LabyrinthPhase_LABYRINTH_PHASE_SHIFT || ph > gamerulesv1.LabyrinthPhase_LABYRINTH_PHASE_OVER {
		return labyrinth.State{}, fmt.Errorf("labyrinth: %w: phase %s; want LABYRINTH_PHASE_SHIFT, _MOVE or _OVER", bad, enumText(ph))
	}
	sn.Phase = labyrinth.Phase(pb.GetPhase())
	sn.Variants = labyrinth.Variants{Vader: pb.GetVaderVariant(), OpenCards: pb.GetOpenCards(), NoReturn: pb.GetNoReturn()}
	return labyrinth.FromPosition(sn)
}

// labyrinthStateToProto is the typed form of s.
func labyrinthStateToProto(s labyrinth.State) *gamerulesv1.LabyrinthState {
	return newLabyrinthEncoder(1, s.Players()).typedState(s)
}

// labyrinthEncoder builds typed states from slabs (see slab): the 50 tiles
// of a state, its players, squares and cards each come from one backing
// slice per answer instead of one allocation each, and the texts of more
// than one state are written into one buffer (see texts). One encoder
// serves one answer: encode each state, then finish.
type labyrinthEncoder struct {
	states   slab[gamerulesv1.GameState]
	wrapper  slab[gamerulesv1.GameState_Labyrinth]
	typed    slab[gamerulesv1.LabyrinthState]
	tiles    slab[gamerulesv1.LabyrinthTile]
	tilePtrs slab[*gamerulesv1.LabyrinthTile]
	players  slab[gamerulesv1.LabyrinthPlayer]
	plPtrs   slab[*gamerulesv1.LabyrinthPlayer]
	squares  slab[gamerulesv1.LabyrinthSquare]
	cards    slab[uint32]
	lasts    slab[gamerulesv1.LabyrinthInsertionPoint] // LabyrinthState.last, one a state
	text     *texts                                    // nil: one state, its text set by encode
	noText   bool                                      // leave the text out (omitText)
	// made holds the tile messages made so far by labyrinthTileKey, for an
	// encoder of more than one state: the states of one answer share one
	// message per distinct tile (a LegalMoves answer with results holds 22
	// boards of 49 tiles, of which about 60 differ), which marshals as if
	// each had its own. nil: every tile its own message.
	made []*gamerulesv1.LabyrinthTile
}

// labyrinthTileKeys is the number of distinct tiles labyrinthTileKey tells
// apart: 16 sides × 25 targets (none, A..X) × the Vader symbol or not.
const labyrinthTileKeys = 16 * (labyrinth.NumTargets + 1) * 2

// labyrinthTileKey is t's index in labyrinthEncoder.made, or -1 for a tile
// out of the ranges (which has its own message).
func labyrinthTileKey(t labyrinth.Tile) int {
	if t.Sides > 15 || t.Target > labyrinth.NumTargets {
		return -1
	}
	k := (int(t.Target)*16 + int(t.Sides)) * 2
	if t.Vader {
		k++
	}
	return k
}

// omitText makes encode leave the states' texts out (a read mask).
func (e *labyrinthEncoder) omitText() { e.noText = true }

// newLabyrinthEncoder returns an encoder sized for n states of the given
// number of players.
func newLabyrinthEncoder(n, players int) *labyrinthEncoder {
	e := &labyrinthEncoder{
		states:  makeSlab[gamerulesv1.GameState](n),
		wrapper: makeSlab[gamerulesv1.GameState_Labyrinth](n),
		typed:   makeSlab[gamerulesv1.LabyrinthState](n),
		players: makeSlab[gamerulesv1.LabyrinthPlayer](players * n),
		plPtrs:  makeSlab[*gamerulesv1.LabyrinthPlayer](players * n),
		squares: makeSlab[gamerulesv1.LabyrinthSquare]((players + 1) * n),
		cards:   makeSlab[uint32](2 * labyrinth.NumTargets * n), // found and stacks, and the tiles' targets
		lasts:   makeSlab[gamerulesv1.LabyrinthInsertionPoint](n),
	}
	if n > 1 {
		t := makeTexts(n, 160)
		e.text = &t
		// The board's 50 tiles, and the tiles the moves bring: 4 rotations
		// of the spare and the tiles that change rows, about 80.
		e.tiles = makeChunkedSlab[gamerulesv1.LabyrinthTile](2 * (labyrinth.NumSquares + 1))
		// made comes from the boards' slab, one allocation for both.
		e.tilePtrs = makeSlab[*gamerulesv1.LabyrinthTile](labyrinthTileKeys + labyrinth.NumSquares*n)
		e.made = e.tilePtrs.take(labyrinthTileKeys)
	} else {
		e.tiles = makeSlab[gamerulesv1.LabyrinthTile](labyrinth.NumSquares + 1)
		e.tilePtrs = makeSlab[*gamerulesv1.LabyrinthTile](labyrinth.NumSquares)
	}
	return e
}

// finish sets the texts of the states encode returned.
func (e *labyrinthEncoder) finish() {
	if e.text != nil {
		e.text.finish()
	}
}

// encode returns s with both text and the typed case filled.
func (e *labyrinthEncoder) encode(s labyrinth.State) *gamerulesv1.GameState {
	w := e.wrapper.next()
	w.Labyrinth = e.typedState(s)
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

// typedState is the typed form of s (labyrinth.State.Position spelled out).
func (e *labyrinthEncoder) typedState(s labyrinth.State) *gamerulesv1.LabyrinthState {
	v := s.Variants()
	pb := e.typed.next()
	pb.Board = e.tilePtrs.take(labyrinth.NumSquares)
	pb.Spare = e.tile(s.Spare())
	pb.Vader = e.square(s.Vader())
	if l := s.Last(); l != labyrinth.NoPoint {
		pb.Last = e.lasts.next()
		*pb.Last = gamerulesv1.LabyrinthInsertionPoint(l)
	}
	pb.Turn = int32(s.Turn())
	pb.Phase = gamerulesv1.LabyrinthPhase(s.Phase())
	pb.VaderVariant, pb.OpenCards, pb.NoReturn = v.Vader, v.OpenCards, v.NoReturn
	board := s.Board()
	for q, t := range board {
		pb.Board[q] = e.tile(t)
	}
	if n := s.Players(); n > 0 {
		pb.Players = e.plPtrs.take(n)
		for p := range n {
			pl := e.players.next()
			pl.Color = gamerulesv1.LabyrinthColor(s.Color(p) + 1)
			pl.Ship = e.square(s.Ship(p))
			var buf [labyrinth.NumTargets]uint8
			pl.Found = e.uint32s(s.AppendFound(buf[:0], p))
			pl.Stack = e.uint32s(s.AppendStack(buf[:0], p))
			pb.Players[p] = pl
		}
	}
	return pb
}

func (e *labyrinthEncoder) tile(t labyrinth.Tile) *gamerulesv1.LabyrinthTile {
	if e.made != nil {
		if k := labyrinthTileKey(t); k >= 0 {
			if pb := e.made[k]; pb != nil {
				return pb
			}
			pb := e.newTile(t)
			e.made[k] = pb
			return pb
		}
	}
	return e.newTile(t)
}

// newTile is t's typed form, a message of its own.
func (e *labyrinthEncoder) newTile(t labyrinth.Tile) *gamerulesv1.LabyrinthTile {
	pb := e.tiles.next()
	pb.Sides, pb.Vader = uint32(t.Sides), t.Vader
	if t.Target != 0 {
		target := &e.cards.take(1)[0]
		*target = uint32(t.Target)
		pb.Target = target
	}
	return pb
}

// square is labyrinthSquareToProto from the slab: nil off the board.
func (e *labyrinthEncoder) square(q labyrinth.Square) *gamerulesv1.LabyrinthSquare {
	if !q.Valid() {
		return nil
	}
	pb := e.squares.next()
	pb.Row, pb.Col = uint32(q.Row()), uint32(q.Col())
	return pb
}

// uint32s is labyrinthUint32s from the slab: nil for no cards.
func (e *labyrinthEncoder) uint32s(cards []uint8) []uint32 {
	out := e.cards.take(len(cards))
	for i, c := range cards {
		out[i] = uint32(c)
	}
	return out
}

func labyrinthMoveToProto(m labyrinth.Move) *gamerulesv1.Move {
	return newLabyrinthMoveBuilder([]labyrinth.Move{m}, noResults).move(0, m)
}

// labyrinthMoveBuilder builds the typed moves of one answer from slabs, the
// notation of all in one string (labyrinth.Notations), each with the
// parts want asks for.
type labyrinthMoveBuilder struct {
	want    moveParts
	notes   []string // by index in the list
	moves   slab[gamerulesv1.Move]
	wrapper slab[gamerulesv1.Move_Labyrinth]
	typed   slab[gamerulesv1.LabyrinthMove]
	shiftW  slab[gamerulesv1.LabyrinthMove_Shift]
	shifts  slab[gamerulesv1.LabyrinthShift]
	figureW slab[gamerulesv1.LabyrinthMove_Figure]
	figures slab[gamerulesv1.LabyrinthFigureMove]
	squares slab[gamerulesv1.LabyrinthSquare]
}

// newLabyrinthMoveBuilder returns a builder for moves. A list holds
// shifts or figure moves, not both, so the slabs of each kind are made at
// its first move, sized for the moves still to come. want says which
// parts (notation, typed move) are built.
func newLabyrinthMoveBuilder(moves []labyrinth.Move, want moveParts) *labyrinthMoveBuilder {
	n := len(moves)
	b := &labyrinthMoveBuilder{want: want, moves: makeSlab[gamerulesv1.Move](n)}
	if want.Notation {
		b.notes = labyrinth.Notations(moves)
	}
	if want.Typed {
		b.wrapper, b.typed = makeSlab[gamerulesv1.Move_Labyrinth](n), makeSlab[gamerulesv1.LabyrinthMove](n)
	}
	return b
}

// move returns m, the i-th move of the builder's list, with notation and
// typed form (those of them the builder wants).
func (b *labyrinthMoveBuilder) move(i int, m labyrinth.Move) *gamerulesv1.Move {
	out := b.moves.next()
	if b.want.Notation {
		out.Notation = b.notes[i]
	}
	if !b.want.Typed {
		return out
	}
	typed := b.typed.next()
	if m.IsShift() {
		if len(b.shifts.buf) == 0 {
			b.shiftW, b.shifts = makeSlab[gamerulesv1.LabyrinthMove_Shift](len(b.moves.buf)+1), makeSlab[gamerulesv1.LabyrinthShift](len(b.moves.buf)+1)
		}
		sh := b.shifts.next()
		sh.Point, sh.Rotation = gamerulesv1.LabyrinthInsertionPoint(m.Point), uint32(m.Rotation)
		w := b.shiftW.next()
		w.Shift = sh
		typed.Kind = w
	} else {
		if len(b.figures.buf) == 0 {
			n := len(b.moves.buf) + 1
			b.figureW, b.figures, b.squares = makeSlab[gamerulesv1.LabyrinthMove_Figure](n), makeSlab[gamerulesv1.LabyrinthFigureMove](n), makeSlab[gamerulesv1.LabyrinthSquare](n)
		}
		f := b.figures.next()
		if m.To.Valid() {
			f.To = b.squares.next()
			f.To.Row, f.To.Col = uint32(m.To.Row()), uint32(m.To.Col())
		}
		f.Vader = m.Vader
		w := b.figureW.next()
		w.Figure = f
		typed.Kind = w
	}
	w := b.wrapper.next()
	w.Labyrinth = typed
	out.Move = w
	return out
}

// labyrinthMoveFromProto converts a typed move, with the rotation reduced as
// ParseMove reduces it (so it equals the listed move).
func labyrinthMoveFromProto(s labyrinth.State, pb *gamerulesv1.LabyrinthMove) (labyrinth.Move, error) {
	switch {
	case pb.GetShift() != nil:
		sh := pb.GetShift()
		p := labyrinth.Point(sh.GetPoint())
		if sh.GetPoint() < 0 || !p.Valid() || int32(p) != int32(sh.GetPoint()) {
			return labyrinth.Move{}, fmt.Errorf("labyrinth: %w: shift.point %s; want LABYRINTH_INSERTION_POINT_N2..W6", game.ErrIllegalMove, enumText(sh.GetPoint()))
		}
		if sh.GetRotation() > 3 {
			return labyrinth.Move{}, fmt.Errorf("labyrinth: %w: shift: rotation %d; want 0..3", game.ErrIllegalMove, sh.GetRotation())
		}
		return labyrinth.ParseMove(s, labyrinth.ShiftMove(p, int(sh.GetRotation())).String())
	case pb.GetFigure() != nil:
		f := pb.GetFigure()
		to := labyrinthSquareFromProto(f.GetTo())
		if !to.Valid() {
			return labyrinth.Move{}, fmt.Errorf("labyrinth: %w: figure move: destination missing or off the board", game.ErrIllegalMove)
		}
		return labyrinth.Move{Vader: f.GetVader(), To: to}, nil
	}
	return labyrinth.Move{}, fmt.Errorf("labyrinth: %w: typed move has neither shift nor figure", game.ErrIllegalMove)
}

// labyrinthPos is a decoded, valid Labyrinth state (never a view, but in
// RenderState: DecodeView).
type labyrinthPos struct{ s labyrinth.State }

func (p labyrinthPos) Encode() *gamerulesv1.GameState {
	return labyrinthEncode(p.s)
}

func labyrinthEncode(s labyrinth.State) *gamerulesv1.GameState {
	return newLabyrinthEncoder(1, s.Players()).encode(s)
}

func (p labyrinthPos) LegalMoves(want moveParts) ([]*gamerulesv1.Move, bool, error) {
	moves := p.s.LegalMoves()
	b := newLabyrinthMoveBuilder(moves, want)
	enc := resultEncoder(want, len(moves), 160, func() typedEncoder[labyrinth.State] { return newLabyrinthEncoder(len(moves), p.s.Players()) })
	// The moves are the list's own, of a state that Validates (Decode's):
	// ApplyListed gives what Apply would, without validating p.s again and
	// flooding the labyrinth again for every figure move.
	out, chance, err := listMoves("labyrinth", moves, b.move, func(m labyrinth.Move) (labyrinth.State, error) { return p.s.ApplyListed(m), nil }, enc)
	if err == nil && want.Action {
		setActions(out, func(i int) int { return moves[i].Action() })
	}
	return out, chance, err
}

func (p labyrinthPos) Apply(mv *gamerulesv1.Move, _ *rand.Rand) (Position, *gamerulesv1.Move, bool, error) {
	typed := mv.GetLabyrinth()
	m, err := decodeMove(mv, typed != nil,
		func(text string) (labyrinth.Move, error) { return labyrinth.ParseMove(p.s, text) },
		func() (labyrinth.Move, error) { return labyrinthMoveFromProto(p.s, typed) })
	if err != nil {
		return nil, nil, false, err
	}
	next, err := p.s.Apply(m)
	if err != nil {
		return nil, nil, false, err
	}
	applied := labyrinthMoveToProto(m)
	applied.Action = proto.Int32(int32(m.Action()))
	return labyrinthPos{next}, applied, false, nil
}

func (p labyrinthPos) Outcome() game.Outcome { return p.s.Outcome() }

// Observe returns what player (0-based) may see: the other players' stacks
// hidden (0 in the typed state, '?' in the text), and his own below the top
// card unless the open-cards variant is on. Player −1 gets a spectator's
// view, every stack hidden. Other players are ErrInvalidState.
func (p labyrinthPos) Observe(player int) (*gamerulesv1.GameState, error) {
	if player < -1 || player >= p.s.Players() {
		return nil, fmt.Errorf("labyrinth: %w: no player %d (players 0..%d, or -1 for a spectator)", game.ErrInvalidState, player, p.s.Players()-1)
	}
	return labyrinthEncode(p.s.View(player)), nil
}

// Render draws the state (render.Labyrinth).
func (p labyrinthPos) Render(o render.Options) ([]byte, error) { return render.Labyrinth(p.s, o) }

// RenderText writes the 7x7 tiles with figures, targets and the spare
// (render.LabyrinthText).
func (p labyrinthPos) RenderText(o render.Options) (string, error) {
	return render.LabyrinthText(p.s, o)
}

func (p labyrinthPos) children() ([]Position, error) {
	return childrenOf("labyrinth", p.s, func(s labyrinth.State) Position { return labyrinthPos{s} })
}

// playout plays by the policy; a ply generates its moves once: the pick is
// applied with labyrinth.State.ApplyListed, without Apply's validation of
// the state and second flood of the labyrinth.
func (p labyrinthPos) playout(rng *rand.Rand, pol policy, first, maxPlies int, record bool) (playedGame, error) {
	return playRandom(playoutRules[labyrinth.State, labyrinth.Move]{name: "labyrinth", greedy: labyrinth.State.GreedyMove, applyListed: labyrinth.State.ApplyListed}, p.s, rng, pol, first, maxPlies, record)
}

func (p labyrinthPos) turn() int { return p.s.Turn() }
