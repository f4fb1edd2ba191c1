package service

import (
	"google.golang.org/protobuf/proto"

	"errors"
	"fmt"
	"math/rand/v2"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/gravitytrap"
)

// gravityTrapEngine adapts rules/gravitytrap to the API (game id
// "gravity_trap"). A state's board travels in the typed state: a built-in
// board by name, a custom board as data; the text form names built-in boards
// other than "default" and nothing else.
type gravityTrapEngine struct{}

func init() { register(gravityTrapEngine{}) }

func (gravityTrapEngine) Info() *gamerulesv1.GameInfo {
	info := gameInfo(gravitytrap.Info())
	info.Variants = []string{
		`board: "default" or "rings" (built in), or custom_board: a board as data (stations, lines, opposite map)`,
		"first_player: 0 red (default) or 1 blue places first and then moves first",
		"allow_mirror_placement: let the second ship be placed opposite the first (banned by default)",
	}
	info.MoveNotation = `the destination station id, e.g. "7"; during set-up "place 7" (or "7")`
	info.StateNotation = `<stations> <turn>[ <board>][ m]: one character per station from 0 ('o' marble, '.' empty, 'R'/'B' ships), turn r/b to move or R/B to place, " rings" on that board, " m" when mirror placement is allowed; e.g. "RoooBooooooooooooooooo r"`
	info.ActionSpaceSize = gravitytrap.ActionSpace
	return info
}

func (gravityTrapEngine) NewGame(req *gamerulesv1.NewGameRequest, _ uint64) (Position, error) {
	opts := req.GetGravityTrap()
	if opts.GetBoard() != "" && opts.GetCustomBoard() != nil {
		return nil, fmt.Errorf("gravitytrap: %w: give board (a built-in board's name) or custom_board, not both", game.ErrInvalidOptions)
	}
	var b *gravitytrap.Board
	var err error
	if name := opts.GetBoard(); name != "" {
		// A bad name here is a bad option, not a bad state (a typed state's
		// unknown board name stays INVALID_STATE).
		if b, err = gravitytrap.BuiltinBoard(name); err != nil {
			return nil, fmt.Errorf("gravitytrap: %w: board %s is not a built-in board (default, rings); a custom board goes in custom_board", game.ErrInvalidOptions, game.Quote(name))
		}
	} else if b, err = gravityTrapBoardFromProto(opts.GetCustomBoard()); err != nil {
		return nil, coordinateField(err, "gravity_trap.custom_board.", true)
	}
	o := gravitytrap.Options{Board: b, AllowMirrorPlacement: opts.GetAllowMirrorPlacement()}
	switch f := opts.GetFirstPlayer(); f {
	case 0:
		o.First = gravitytrap.Red
	case 1:
		o.First = gravitytrap.Blue
	default:
		return nil, fmt.Errorf("gravitytrap: %w: first_player is 0 (red) or 1 (blue), not %d", game.ErrInvalidOptions, f)
	}
	s, err := gravitytrap.New(o)
	if err != nil {
		return nil, err
	}
	return gravityTrapPos{s}, nil
}

// Decode reads the text, the typed state, or both. With a typed state the
// text is read against the typed board (so a custom board's text works).
// A typed state that holds nothing but the board (to_act unspecified, no
// marbles, no ships, no option) next to a text is the "text plus the typed
// board" the spec allows: the text gives the position on that board.
func (gravityTrapEngine) Decode(st *gamerulesv1.GameState) (Position, error) {
	typed := st.GetGravityTrap()
	var b *gravitytrap.Board
	if typed != nil {
		var err error
		if b, err = gravityTrapBoardFromProto(typed.GetBoard()); err != nil {
			return nil, coordinateField(err, "gravity_trap.board.", false)
		}
		if st.GetText() != "" && gravityTrapBoardOnly(typed) {
			s, err := gravitytrap.ParseStateOn(b, st.GetText())
			if err != nil {
				return nil, err
			}
			return gravityTrapPos{s}, nil
		}
	}
	s, err := decodeState(st, typed != nil,
		func(text string) (gravitytrap.State, error) {
			if typed != nil {
				return gravitytrap.ParseStateOn(b, text)
			}
			return gravitytrap.ParseState(text)
		},
		func() (gravitytrap.State, error) { return gravityTrapStateFromProto(typed, b) })
	if err != nil {
		return nil, err
	}
	return gravityTrapPos{s}, nil
}

// coordinateField names, in err, the field of a board's station coordinate
// that is not a finite number (a *gravitytrap.CoordinateError), prefix
// giving the board's path: below the field toStatus is told, or the whole
// path when abs. Any other error is returned as it is.
func coordinateField(err error, prefix string, abs bool) error {
	var ce *gravitytrap.CoordinateError
	if errors.As(err, &ce) {
		return &subFieldError{path: prefix + ce.Field(), abs: abs, err: err}
	}
	return err
}

// gravityTrapBoardOnly reports whether a typed state holds a board and no
// position: no player to act, marbles, ships or option.
func gravityTrapBoardOnly(pb *gamerulesv1.GravityTrapState) bool {
	return pb.GetTurn() == gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_UNSPECIFIED &&
		len(pb.GetMarbles()) == 0 && pb.RedShip == nil && pb.BlueShip == nil && !pb.GetAllowMirrorPlacement()
}

// gravityTrapBoardFromProto returns the board a proto board names or
// describes: nil or empty → the default board; a name → that built-in
// board; data → a validated custom board.
func gravityTrapBoardFromProto(pb *gamerulesv1.GravityTrapBoard) (*gravitytrap.Board, error) {
	custom := len(pb.GetStations()) > 0 || len(pb.GetLines()) > 0 || len(pb.GetOpposite()) > 0
	if pb.GetName() != "" {
		if custom {
			return nil, fmt.Errorf("gravitytrap: %w: board: give a built-in board's name or a custom board's data, not both", game.ErrInvalidState)
		}
		return gravitytrap.BuiltinBoard(pb.GetName())
	}
	if !custom {
		return gravitytrap.DefaultBoard(), nil
	}
	// Sizes are refused before copying, so a huge request costs little; the
	// messages are NewBoard's.
	n := len(pb.GetStations())
	if n < gravitytrap.MinStations || n > gravitytrap.MaxStations {
		return nil, fmt.Errorf("gravitytrap: %w: board: a board has %d..%d stations, not %d", game.ErrInvalidState, gravitytrap.MinStations, gravitytrap.MaxStations, n)
	}
	if nl := len(pb.GetLines()); nl > gravitytrap.MaxLines {
		return nil, fmt.Errorf("gravitytrap: %w: board: a board has at most %d lines, not %d", game.ErrInvalidState, gravitytrap.MaxLines, nl)
	}
	for li, l := range pb.GetLines() {
		if k := len(l.GetStations()); k > n {
			return nil, fmt.Errorf("gravitytrap: %w: board: line %d has %d stations; the board has %d", game.ErrInvalidState, li, k, n)
		}
	}
	if k := len(pb.GetOpposite()); k > n {
		return nil, fmt.Errorf("gravitytrap: %w: board: the opposite map has %d entries for %d stations", game.ErrInvalidState, k, n)
	}
	def := gravitytrap.BoardDef{Opposite: uint32sToInts(pb.GetOpposite())}
	for _, st := range pb.GetStations() {
		def.Stations = append(def.Stations, gravitytrap.Station{ID: int(st.GetId()), X: st.GetX(), Y: st.GetY()})
	}
	for _, l := range pb.GetLines() {
		def.Lines = append(def.Lines, uint32sToInts(l.GetStations()))
	}
	return gravitytrap.NewBoard(def)
}

func gravityTrapBoardToProto(b *gravitytrap.Board) *gamerulesv1.GravityTrapBoard {
	if b.Builtin() {
		return &gamerulesv1.GravityTrapBoard{Name: b.Name()}
	}
	def := b.Def()
	pb := &gamerulesv1.GravityTrapBoard{Opposite: intsToUint32s(def.Opposite)}
	for _, st := range def.Stations {
		pb.Stations = append(pb.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(st.ID), X: st.X, Y: st.Y})
	}
	for _, l := range def.Lines {
		pb.Lines = append(pb.Lines, &gamerulesv1.GravityTrapLine{Stations: intsToUint32s(l)})
	}
	return pb
}

func gravityTrapStateFromProto(pb *gamerulesv1.GravityTrapState, b *gravitytrap.Board) (gravitytrap.State, error) {
	p := gravitytrap.Position{
		Board:                b,
		Marbles:              uint32sToInts(pb.GetMarbles()),
		Ships:                [2]int{gravitytrap.NoStation, gravitytrap.NoStation},
		AllowMirrorPlacement: pb.GetAllowMirrorPlacement(),
	}
	if pb.RedShip != nil {
		p.Ships[gravitytrap.Red] = int(pb.GetRedShip())
	}
	if pb.BlueShip != nil {
		p.Ships[gravitytrap.Blue] = int(pb.GetBlueShip())
	}
	// Set-up lasts while a ship is not placed.
	p.Placing = pb.RedShip == nil || pb.BlueShip == nil
	switch pb.GetTurn() {
	case gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_RED:
		p.ToAct = gravitytrap.Red
	case gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_BLUE:
		p.ToAct = gravitytrap.Blue
	default:
		return gravitytrap.State{}, fmt.Errorf("gravitytrap: %w: turn %s; want GRAVITY_TRAP_PLAYER_RED or _BLUE (a typed state holding only the board needs the text)", game.ErrInvalidState, enumText(pb.GetTurn()))
	}
	return gravitytrap.FromPosition(p)
}

func uint32sToInts(xs []uint32) []int {
	if len(xs) == 0 {
		return nil
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

func intsToUint32s(xs []int) []uint32 {
	if len(xs) == 0 {
		return nil
	}
	out := make([]uint32, len(xs))
	for i, x := range xs {
		out[i] = uint32(x)
	}
	return out
}

// gravityTrapPos is a decoded, valid Gravity Trap state.
type gravityTrapPos struct{ s gravitytrap.State }

func (p gravityTrapPos) Encode() *gamerulesv1.GameState {
	return newGravityTrapEncoder(1).encode(p.s)
}

// gravityTrapEncoder builds typed states from slabs (see slab), and encodes
// a board once for all the states of one answer: the result states of a
// LegalMoves answer are on the same board, and they share one
// *GravityTrapBoard (protobuf marshals a shared message as it marshals
// copies, so the answer's bytes do not change; a 64-station, 256-line
// custom board is some 600 messages and slices to build). The texts of
// more than one state are written into one buffer (see texts). One encoder
// serves one answer: encode each state, then finish.
type gravityTrapEncoder struct {
	states  slab[gamerulesv1.GameState]
	wrapper slab[gamerulesv1.GameState_GravityTrap]
	typed   slab[gamerulesv1.GravityTrapState]
	ints    slab[uint32] // marbles and ships
	board   *gravitytrap.Board
	boardPB *gamerulesv1.GravityTrapBoard
	text    *texts // nil: one state, its text set by encode
	noText  bool   // leave the text out (omitText)
}

// omitText makes encode leave the states' texts out (a read mask).
func (e *gravityTrapEncoder) omitText() { e.noText = true }

// newGravityTrapEncoder returns an encoder sized for n states.
func newGravityTrapEncoder(n int) *gravityTrapEncoder {
	e := &gravityTrapEncoder{
		states:  makeSlab[gamerulesv1.GameState](n),
		wrapper: makeSlab[gamerulesv1.GameState_GravityTrap](n),
		typed:   makeSlab[gamerulesv1.GravityTrapState](n),
	}
	if n > 1 {
		t := makeTexts(n, 32)
		e.text = &t
	}
	return e
}

// finish sets the texts of the states encode returned.
func (e *gravityTrapEncoder) finish() {
	if e.text != nil {
		e.text.finish()
	}
}

// encode returns s with both text and the typed case filled.
func (e *gravityTrapEncoder) encode(s gravitytrap.State) *gamerulesv1.GameState {
	if b := s.Board(); e.boardPB == nil || b != e.board {
		e.board, e.boardPB = b, gravityTrapBoardToProto(b)
	}
	typed := e.typed.next()
	typed.Board = e.boardPB
	typed.AllowMirrorPlacement = s.AllowMirrorPlacement()
	typed.Turn = gravityTrapPlayer(s.ToAct())
	// Marbles and ships of this state and, at a refill, of the states
	// still to come (their count is what is left of the states slab).
	if len(e.ints.buf) < s.Marbles()+2 {
		e.ints = makeSlab[uint32](max(s.Marbles()+2, cap(e.states.buf)*(s.Marbles()+2)))
	}
	typed.Marbles = e.ints.take(s.Marbles())
	k := 0
	for i := 0; k < len(typed.Marbles); i++ {
		if s.HasMarble(i) {
			typed.Marbles[k] = uint32(i)
			k++
		}
	}
	if r := s.Ship(gravitytrap.Red); r != gravitytrap.NoStation {
		typed.RedShip = e.ints.next()
		*typed.RedShip = uint32(r)
	}
	if b := s.Ship(gravitytrap.Blue); b != gravitytrap.NoStation {
		typed.BlueShip = e.ints.next()
		*typed.BlueShip = uint32(b)
	}
	w := e.wrapper.next()
	w.GravityTrap = typed
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

func gravityTrapPlayer(p int) gamerulesv1.GravityTrapPlayer {
	if p == gravitytrap.Blue {
		return gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_BLUE
	}
	return gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_RED
}

func gravityTrapMoveToProto(m gravitytrap.Move) *gamerulesv1.Move {
	return newGravityTrapMoveBuilder([]gravitytrap.Move{m}, noResults).move(0, m)
}

// gravityTrapMoveBuilder builds the typed moves of one answer from slabs,
// the notation of all in one string (gravitytrap.Notations), each with the
// parts want asks for.
type gravityTrapMoveBuilder struct {
	want    moveParts
	notes   []string // by index in the list
	moves   slab[gamerulesv1.Move]
	wrapper slab[gamerulesv1.Move_GravityTrap]
	typed   slab[gamerulesv1.GravityTrapMove]
}

// newGravityTrapMoveBuilder returns a builder for moves with the parts
// want asks for (notation, typed move).
func newGravityTrapMoveBuilder(moves []gravitytrap.Move, want moveParts) *gravityTrapMoveBuilder {
	n := len(moves)
	b := &gravityTrapMoveBuilder{want: want, moves: makeSlab[gamerulesv1.Move](n)}
	if want.Notation {
		b.notes = gravitytrap.Notations(moves)
	}
	if want.Typed {
		b.wrapper, b.typed = makeSlab[gamerulesv1.Move_GravityTrap](n), makeSlab[gamerulesv1.GravityTrapMove](n)
	}
	return b
}

// move returns m, the i-th move of the builder's list, with notation and
// typed form (those of them the builder wants).
func (b *gravityTrapMoveBuilder) move(i int, m gravitytrap.Move) *gamerulesv1.Move {
	out := b.moves.next()
	if b.want.Notation {
		out.Notation = b.notes[i]
	}
	if b.want.Typed {
		typed := b.typed.next()
		typed.Place, typed.Station = m.Place, uint32(m.Station)
		w := b.wrapper.next()
		w.GravityTrap = typed
		out.Move = w
	}
	return out
}

func (p gravityTrapPos) LegalMoves(want moveParts) ([]*gamerulesv1.Move, bool, error) {
	moves := p.s.LegalMoves()
	b := newGravityTrapMoveBuilder(moves, want)
	enc := resultEncoder(want, len(moves), 32, func() typedEncoder[gravitytrap.State] { return newGravityTrapEncoder(len(moves)) })
	out, chance, err := listMoves("gravitytrap", moves, b.move, p.s.Apply, enc)
	if err == nil && want.Action {
		setActions(out, func(i int) int { return moves[i].Action() })
	}
	return out, chance, err
}

func (p gravityTrapPos) Apply(mv *gamerulesv1.Move, _ *rand.Rand) (Position, *gamerulesv1.Move, bool, error) {
	typed := mv.GetGravityTrap()
	m, err := decodeMove(mv, typed != nil,
		func(text string) (gravitytrap.Move, error) { return gravitytrap.ParseMove(p.s, text) },
		func() (gravitytrap.Move, error) {
			// During set-up every move is a placement, as in the notation.
			st := typed.GetStation()
			if st >= gravitytrap.MaxStations {
				return gravitytrap.Move{}, fmt.Errorf("gravitytrap: %w: no station %d on this board (0..%d)", game.ErrIllegalMove, st, p.s.Board().NumStations()-1)
			}
			return gravitytrap.Move{Place: typed.GetPlace() || p.s.Placing(), Station: int(st)}, nil
		})
	if err != nil {
		return nil, nil, false, err
	}
	next, err := p.s.Apply(m)
	if err != nil {
		return nil, nil, false, err
	}
	applied := gravityTrapMoveToProto(m)
	applied.Action = proto.Int32(int32(m.Action()))
	return gravityTrapPos{next}, applied, false, nil
}

func (p gravityTrapPos) Outcome() game.Outcome { return p.s.Outcome() }

// Render draws the state (render.GravityTrap).
func (p gravityTrapPos) Render(o render.Options) ([]byte, error) { return render.GravityTrap(p.s, o) }

// RenderText writes the stations with marbles and ships
// (render.GravityTrapText).
func (p gravityTrapPos) RenderText(o render.Options) (string, error) {
	return render.GravityTrapText(p.s, o)
}

// NewGameOptions passes a replay's Gravity Trap options on to NewGame.
func (gravityTrapEngine) NewGameOptions(r *gamerulesv1.ReplayGameRequest, ng *gamerulesv1.NewGameRequest) {
	if o, ok := r.GetOptions().(*gamerulesv1.ReplayGameRequest_GravityTrap); ok {
		ng.Options = &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: o.GravityTrap}
	}
}

// RecordsOptions reports whether start is on a custom board: the text form
// does not carry it, so the game's JSON record is written with its options
// (which hold the board) and seed.
func (gravityTrapEngine) RecordsOptions(start *gamerulesv1.GameState) bool {
	return len(start.GetGravityTrap().GetBoard().GetStations()) > 0
}

// BoardNames lists the built-in boards.
func (gravityTrapEngine) BoardNames() []string {
	return []string{gravitytrap.DefaultBoardName, gravitytrap.RingsBoardName}
}

// Board returns a built-in board as data (GetBoard): its name, its stations
// with their coordinates, lines and opposite map (the board file the rules
// ship), and its note. An empty or unknown name wraps errInvalidRequest.
func (gravityTrapEngine) Board(name string) (*gamerulesv1.GetBoardResponse, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: name is required: default or rings", errInvalidRequest)
	}
	b, err := gravitytrap.BuiltinBoard(name)
	if err != nil {
		return nil, fmt.Errorf("%w: board %s is not built in; the boards are default and rings", errInvalidRequest, game.Quote(name))
	}
	def := b.Def()
	pb := &gamerulesv1.GravityTrapBoard{Name: b.Name(), Opposite: intsToUint32s(def.Opposite)}
	for _, st := range def.Stations {
		pb.Stations = append(pb.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(st.ID), X: st.X, Y: st.Y})
	}
	for _, l := range def.Lines {
		pb.Lines = append(pb.Lines, &gamerulesv1.GravityTrapLine{Stations: intsToUint32s(l)})
	}
	return &gamerulesv1.GetBoardResponse{Board: &gamerulesv1.GetBoardResponse_GravityTrap{GravityTrap: pb}, Note: b.Note()}, nil
}

func (p gravityTrapPos) children() ([]Position, error) {
	return childrenOf("gravity_trap", p.s, func(s gravitytrap.State) Position { return gravityTrapPos{s} })
}

func (p gravityTrapPos) playout(rng *rand.Rand, pol policy, first, maxPlies int, record bool) (playedGame, error) {
	return playRandom(playoutRules[gravitytrap.State, gravitytrap.Move]{name: "gravity_trap", greedy: gravitytrap.State.GreedyMove}, p.s, rng, pol, first, maxPlies, record)
}

func (p gravityTrapPos) turn() int { return p.s.ToAct() }
