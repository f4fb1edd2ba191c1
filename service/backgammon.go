package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/backgammon/mat"
	"github.com/gamerules/gamerules/rules/game"
)

// backgammonEngine adapts rules/backgammon to the API (game id
// "backgammon"). The text form is gnubg's "<Position ID>:<Match ID>"; the
// typed state carries the board as counts or as a bare Position ID. Dice are
// chance moves: "roll" (or a typed roll without dice) has the server draw
// them with the request's seed.
type backgammonEngine struct{}

func init() { register(backgammonEngine{}) }

func (backgammonEngine) Info() *gamerulesv1.GameInfo {
	info := gameInfo(backgammon.Info())
	info.Variants = []string{
		"money game without the cube (the default, the leaflet's game)",
		"money game with the doubling cube (option cube), the Jacoby rule (on by default; option jacoby) and beavers (option beavers)",
		"match play to match_length points with the Crawford rule (options match_length, white_score, black_score, crawford)",
	}
	info.MoveNotation = `gnubg's: "24/18 13/11", "bar/22", "6/off", "13/9(4)", "24/23*/20"; "pass" when no number can be played; dice as "roll 6-5" (opening: "roll <white>-<black>"), or "roll" to have the server draw them; with the cube "double", "take", "drop", "beaver", "resign single|gammon|backgammon", "accept", "decline", and "next game" between the games of a match; other programs' notations are read too (FIBS "8-5 6-5", XG, OpenSpiel "Bar/24*", "2/Off", a missing or extra "*", "Cannot Move"; docs/rules/backgammon.md "Dialects") and answered in gnubg's`
	info.StateNotation = `gnubg ID "<Position ID>:<Match ID>" from the side of the player on roll, e.g. "4HPwATDgc/ABMA:MIEFAAAAAAAE" (the start, white to play 3-1); a money game with the cube adds " cube", and " beavers" when they are allowed; an XGID ("XGID=…") or a FIBS board ("board:…") is read too (ConvertState writes them), a Position ID alone is refused`
	info.ActionSpaceSize = backgammon.ActionSpace
	return info
}

func (backgammonEngine) NewGame(req *gamerulesv1.NewGameRequest, _ uint64) (Position, error) {
	o := req.GetBackgammon()
	opts := backgammon.Options{
		Cube:     o.GetCube(),
		NoJacoby: o != nil && o.Jacoby != nil && !o.GetJacoby(),
		Beavers:  o.GetBeavers(),
		Crawford: o.GetCrawford(),
	}
	if o.GetMatchLength() > backgammon.MaxMatchLength || o.GetWhiteScore() >= 1<<15 || o.GetBlackScore() >= 1<<15 {
		return nil, fmt.Errorf("backgammon: %w: match_length is 0..%d and each score 0..32767", game.ErrInvalidOptions, backgammon.MaxMatchLength)
	}
	opts.MatchLength = int(o.GetMatchLength())
	opts.Score = [2]int{int(o.GetWhiteScore()), int(o.GetBlackScore())}
	s, err := backgammon.New(opts)
	if err != nil {
		return nil, err
	}
	return backgammonPos{s}, nil
}

func (backgammonEngine) Decode(st *gamerulesv1.GameState) (Position, error) {
	typed := st.GetBackgammon()
	fromTyped := func() (backgammon.State, error) {
		s, err := backgammonStateFromProto(typed)
		if err != nil || st.GetText() == "" {
			return s, err
		}
		return backgammonTextOnly(s, st.GetText()), nil
	}
	s, err := decodeState(st, typed != nil, backgammon.ParseAnyState, fromTyped)
	if err != nil {
		return nil, err
	}
	return backgammonPos{s}, nil
}

// backgammonTextOnly completes s, read from the typed fields of a request
// that gives the text too, with what the text can say and the typed fields
// leave unsaid, so that a state sent back as it was answered (text and
// typed) is the state answered, not two different ones:
//   - the count of beavers in a row: cube.beaver_count absent (0) reads as
//     what the Match ID shows, 1 where the text may say 3
//     (" beaver_count=3");
//   - Match ID bit 66 in a game without the cube, where it changes nothing
//     and a typed state without the cube need not carry it.
//
// Anything else the two disagree on is left for decodeState to refuse.
func backgammonTextOnly(s backgammon.State, text string) backgammon.State {
	if s.BeaverCount() != 1 && (s.CubeInUse() || s.JacobyBit()) {
		return s // nothing the typed fields may have left unsaid
	}
	t, err := backgammon.ParseAnyState(text)
	if err != nil {
		return s
	}
	f, g := s.Position(), t.Position()
	if f.BeaverCount == 1 && g.BeaverCount == backgammon.MaxBeavers {
		f.BeaverCount = g.BeaverCount
	}
	if !s.CubeInUse() {
		f.Jacoby = g.Jacoby
	}
	if u, err := backgammon.FromPosition(f); err == nil {
		return u
	}
	return s
}

// backgammonStateFromProto builds a state from the typed fields: the board
// as counts, as a Position ID, or both (then they must agree). Turn and
// phase must be given: UNSPECIFIED or an unknown number is INVALID_STATE
// naming the field, as is UNSPECIFIED given for an optional enum (on_roll,
// end, resignation) or as the cube's owner: absent is not the same as
// UNSPECIFIED. The cube is in use exactly when `cube` or `match` is given.
func backgammonStateFromProto(pb *gamerulesv1.BackgammonState) (backgammon.State, error) {
	invalid := func(format string, args ...any) (backgammon.State, error) {
		return backgammon.State{}, fmt.Errorf("backgammon: %w: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))
	}
	// unspecified refuses an enum field given as its UNSPECIFIED value,
	// naming the field (state.backgammon.<path>).
	unspecified := func(path string, v protoreflect.Enum, want string) (backgammon.State, error) {
		if path != "cube.owner" { // the cube's owner is required in a cube; the others are optional
			want += ", or leave it out"
		}
		return backgammon.State{}, &subFieldError{path: "backgammon." + path,
			err: fmt.Errorf("backgammon: %w: %s %s is not a value; want %s", game.ErrInvalidState, path, v.Descriptor().Values().ByNumber(0).Name(), want)}
	}
	player := func(field string, p gamerulesv1.BackgammonPlayer, unset int) (int, error) {
		switch p {
		case gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_UNSPECIFIED:
			return unset, nil
		case gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE:
			return backgammon.White, nil
		case gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK:
			return backgammon.Black, nil
		}
		return 0, fmt.Errorf("backgammon: %w: %s %s; want BACKGAMMON_PLAYER_WHITE or BACKGAMMON_PLAYER_BLACK", game.ErrInvalidState, field, enumText(p))
	}
	// invalidAt is invalid on the field state.backgammon.<path>.
	invalidAt := func(path, format string, args ...any) (backgammon.State, error) {
		return backgammon.State{}, &subFieldError{path: "backgammon." + path,
			err: fmt.Errorf("backgammon: %w: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))}
	}
	if pb.GetTurn() == gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_UNSPECIFIED {
		return invalidAt("turn", "turn %s; want BACKGAMMON_PLAYER_WHITE or BACKGAMMON_PLAYER_BLACK (required)", enumText(pb.GetTurn()))
	}
	turn, err := player("turn", pb.GetTurn(), backgammon.White)
	if err != nil {
		return backgammon.State{}, err
	}
	var d1, d2 int
	switch dice := pb.GetDice(); len(dice) {
	case 0:
	case 2:
		if dice[0] > 6 || dice[1] > 6 {
			return invalid("dice %d-%d: each die is 1..6", dice[0], dice[1])
		}
		d1, d2 = int(dice[0]), int(dice[1])
	default:
		return invalid("dice: give two dice or none, not %d", len(dice))
	}
	if pb.Resignation != nil && pb.GetResignation() == gamerulesv1.BackgammonResignation_BACKGAMMON_RESIGNATION_UNSPECIFIED {
		return unspecified("resignation", pb.GetResignation(), "BACKGAMMON_RESIGNATION_SINGLE, _GAMMON or _BACKGAMMON")
	}
	resign := int(pb.GetResignation())
	if resign < 0 || resign > 3 {
		return invalid("resignation %v is not a level", pb.GetResignation())
	}
	end := 0
	switch pb.GetEnd() {
	case gamerulesv1.BackgammonEnd_BACKGAMMON_END_UNSPECIFIED:
		if pb.End != nil {
			return unspecified("end", pb.GetEnd(), "BACKGAMMON_END_BORNE_OFF, _RESIGNED or _DROPPED")
		}
	case gamerulesv1.BackgammonEnd_BACKGAMMON_END_BORNE_OFF:
		end = 2
	case gamerulesv1.BackgammonEnd_BACKGAMMON_END_RESIGNED:
		end = 3
	case gamerulesv1.BackgammonEnd_BACKGAMMON_END_DROPPED:
		end = 4
	default:
		return invalid("end %v is not a way a game ends", pb.GetEnd())
	}
	cube, match := pb.GetCube(), pb.GetMatch()
	if cube.GetBeaverCount() > backgammon.MaxBeavers {
		return invalid("cube.beaver_count %d: 0..%d beavers in a row (gnubg's limit)", cube.GetBeaverCount(), backgammon.MaxBeavers)
	}
	doubled := cube.GetDoubleOffered()

	var phase backgammon.Phase
	switch pb.GetPhase() {
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING:
		phase = backgammon.PhaseOpening
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_ROLL:
		phase = backgammon.PhaseRoll
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE:
		phase = backgammon.PhaseMove
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OVER:
		phase = backgammon.PhaseOver
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_DOUBLE:
		phase = backgammon.PhaseDouble
	case gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_RESIGN:
		phase = backgammon.PhaseResign
	default:
		return invalidAt("phase", "phase %s; want BACKGAMMON_PHASE_OPENING, _ROLL, _MOVE, _OVER, _DOUBLE or _RESIGN (required)", enumText(pb.GetPhase()))
	}
	// The dice owner: given, or as gnubg's Match ID has it for the state.
	defRoll := turn
	switch {
	case end == 4 || (phase != backgammon.PhaseOver && end == 0 && doubled && resign == 0):
		defRoll = 1 - turn // the doubler; turn is the taker (or the dropper)
	case resign != 0 && !doubled:
		defRoll = 1 - turn // the resigner was on roll
	}
	if pb.OnRoll != nil && pb.GetOnRoll() == gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_UNSPECIFIED {
		return unspecified("on_roll", pb.GetOnRoll(), "BACKGAMMON_PLAYER_WHITE or BACKGAMMON_PLAYER_BLACK")
	}
	onRoll, err := player("on_roll", pb.GetOnRoll(), defRoll)
	if err != nil {
		return backgammon.State{}, err
	}

	var b backgammon.Board
	white, black := pb.GetWhite(), pb.GetBlack()
	hasCounts := len(white) > 0 || len(black) > 0
	switch {
	case hasCounts:
		if len(white) != 25 || len(black) != 25 {
			return invalid("white and black have 25 counts each (points 1..24, then the bar), not %d and %d", len(white), len(black))
		}
		for i := 0; i < 25; i++ {
			if white[i] > backgammon.Checkers || black[i] > backgammon.Checkers {
				return invalid("more than 15 checkers on slot %d", i+1)
			}
			b[backgammon.White][i], b[backgammon.Black][i] = int(white[i]), int(black[i])
		}
	case pb.GetPositionId() != "":
		// Read the ID into a board, from the dice owner's side.
		s, err := backgammon.FromPositionID(pb.GetPositionId(), onRoll, backgammon.PhaseOver, 0, 0)
		if err != nil {
			if s, err = backgammon.FromPositionID(pb.GetPositionId(), onRoll, backgammon.PhaseRoll, 0, 0); err != nil {
				return backgammon.State{}, err
			}
		}
		b = s.Board()
	default:
		return invalid("the typed state needs a board: white and black counts, or position_id")
	}
	if phase == backgammon.PhaseOver && end == 0 && !b.Finished() {
		end = 4
		if resign != 0 {
			end = 3
		}
	}
	if ws, bs := pb.GetWhiteScore(), pb.GetBlackScore(); ws >= 1<<15 || bs >= 1<<15 {
		return invalid("white_score %d, black_score %d: each is 0..32767 (15 bits of the Match ID)", ws, bs)
	}
	if cube.GetValue() > backgammon.MaxCube {
		return invalid("cube.value %d: 1..%d", cube.GetValue(), backgammon.MaxCube)
	}
	if match != nil && (match.GetLength() < 1 || match.GetLength() > backgammon.MaxMatchLength) {
		return invalid("match.length %d: 1..%d (leave match out for a money game)", match.GetLength(), backgammon.MaxMatchLength)
	}
	owner := -1
	if cube != nil {
		switch cube.GetOwner() {
		case gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_UNSPECIFIED:
			return unspecified("cube.owner", cube.GetOwner(), "BACKGAMMON_CUBE_OWNER_CENTERED, _WHITE or _BLACK")
		case gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_CENTERED:
		case gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_WHITE:
			owner = backgammon.White
		case gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_BLACK:
			owner = backgammon.Black
		default:
			return invalid("cube.owner %s; want BACKGAMMON_CUBE_OWNER_CENTERED, _WHITE or _BLACK", enumText(cube.GetOwner()))
		}
	}
	f := backgammon.Position{
		Board: b,
		Turn:  turn, OnRoll: onRoll, Phase: phase, Dice: [2]int{d1, d2},
		Score:         [2]int{int(pb.GetWhiteScore()), int(pb.GetBlackScore())},
		Cube:          cube != nil || match != nil,
		CubeValue:     int(cube.GetValue()),
		CubeOwner:     owner,
		DoubleOffered: doubled,
		Resignation:   resign,
		MatchLength:   int(match.GetLength()),
		Crawford:      match.GetCrawford(),
		Jacoby:        cube.GetJacoby(),
		Beavers:       cube.GetBeavers(),
		BeaverCount:   int(cube.GetBeaverCount()),
		End:           end,
	}
	// A resignation or a drop needs the cube: the text form has it in use
	// then, so the typed form must say so too.
	if !f.Cube && (resign != 0 || end > 2) {
		return invalid("a resignation or a dropped double needs the cube: give cube")
	}
	s, err := backgammon.FromPosition(f)
	if err != nil {
		return backgammon.State{}, err
	}
	if id := pb.GetPositionId(); hasCounts && id != "" && id != s.PositionID() {
		return invalid("position_id %s and the white/black counts (%s) describe different boards", game.Quote(id), s.PositionID())
	}
	return s, nil
}

// backgammonPos is a decoded, valid backgammon state.
type backgammonPos struct{ s backgammon.State }

var backgammonPhases = map[backgammon.Phase]gamerulesv1.BackgammonPhase{
	backgammon.PhaseOpening: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING,
	backgammon.PhaseRoll:    gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_ROLL,
	backgammon.PhaseMove:    gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE,
	backgammon.PhaseOver:    gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OVER,
	backgammon.PhaseDouble:  gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_DOUBLE,
	backgammon.PhaseResign:  gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_RESIGN,
}

// backgammonPlayer is the proto form of player p (0 or 1), or unspecified for -1.
func backgammonPlayer(p int) gamerulesv1.BackgammonPlayer {
	switch p {
	case backgammon.White:
		return gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE
	case backgammon.Black:
		return gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK
	}
	return gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_UNSPECIFIED
}

// backgammonCubeOwner is the cube's owner as the API names it (-1 centred).
func backgammonCubeOwner(p int) gamerulesv1.BackgammonCubeOwner {
	switch p {
	case backgammon.White:
		return gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_WHITE
	case backgammon.Black:
		return gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_BLACK
	}
	return gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_CENTERED
}

// backgammonMatch fills m with the match of s (a state in match play).
func backgammonMatch(m *gamerulesv1.BackgammonMatch, s backgammon.State) *gamerulesv1.BackgammonMatch {
	m.Length = uint32(s.MatchLength())
	m.Crawford = s.Crawford()
	m.PostCrawford = s.PostCrawford()
	m.Over = s.MatchOver()
	if w := s.MatchWinner(); w != game.NoWinner {
		m.Winner = proto.Int32(int32(w))
	}
	return m
}

var backgammonEnds = map[string]gamerulesv1.BackgammonEnd{
	"borne off": gamerulesv1.BackgammonEnd_BACKGAMMON_END_BORNE_OFF,
	"resigned":  gamerulesv1.BackgammonEnd_BACKGAMMON_END_RESIGNED,
	"dropped":   gamerulesv1.BackgammonEnd_BACKGAMMON_END_DROPPED,
}

func (p backgammonPos) Encode() *gamerulesv1.GameState {
	return newBackgammonEncoder(1).encode(p.s)
}

// backgammonEncoder builds typed states from slabs, so that the result
// states of a LegalMoves answer cost a few allocations in all rather than
// about ten each; the texts of more than one state are written into one
// buffer (see texts), the Position and Match IDs being parts of each text.
// One encoder serves one answer: encode each state, then finish.
type backgammonEncoder struct {
	states  slab[gamerulesv1.GameState]
	wrapper slab[gamerulesv1.GameState_Backgammon]
	typed   slab[gamerulesv1.BackgammonState]
	players slab[gamerulesv1.BackgammonPlayer] // on_roll, one a state
	cubes   slab[gamerulesv1.BackgammonCube]   // grown when a state has the cube
	matches slab[gamerulesv1.BackgammonMatch]  // grown when a state is in a match
	counts  slab[uint32]                       // the white and black counts, 50 a state, and dice
	text    *texts                             // nil: one state, its text set by encode
	noText  bool                               // leave the text out (omitText)
	// last are the count lists made last, white's and black's: a state
	// whose checkers of a colour stand as the last one's did shares its
	// list. Most results of one answer hit nothing, so the opponent's
	// list is its parent's.
	last [2][]uint32
	many *backgammonMany // nil: one state
}

// backgammonMany is what an encoder of more than one state has besides,
// in one allocation.
type backgammonMany struct {
	text      texts
	lastBoard [2][25]int // the counts of backgammonEncoder.last, as Board has them
}

// omitText makes the encoder leave the states' texts out (a read mask).
// The texts are still written, in the one buffer, since the Position and
// Match IDs of the typed states are parts of them; finish then clears
// them.
func (e *backgammonEncoder) omitText() { e.noText = true }

// newBackgammonEncoder returns an encoder sized for n states.
func newBackgammonEncoder(n int) *backgammonEncoder {
	e := &backgammonEncoder{
		states:  makeSlab[gamerulesv1.GameState](n),
		wrapper: makeSlab[gamerulesv1.GameState_Backgammon](n),
		typed:   makeSlab[gamerulesv1.BackgammonState](n),
		players: makeSlab[gamerulesv1.BackgammonPlayer](n),
		counts:  makeSlab[uint32](52 * n),
	}
	if n > 1 {
		e.many = &backgammonMany{text: makeTexts(n, 40)}
		e.text = &e.many.text
	}
	return e
}

// encode returns s with both text and the typed case filled; with more
// than one state the texts (and the IDs) are set by finish.
func (e *backgammonEncoder) encode(s backgammon.State) *gamerulesv1.GameState {
	b := s.Board()
	typed := e.typed.next()
	typed.White, typed.Black = e.checkers(&b, backgammon.White), e.checkers(&b, backgammon.Black)
	typed.Turn = gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE
	typed.Phase = backgammonPhases[s.Phase()]
	typed.WhitePips, typed.BlackPips = uint32(s.Pips(backgammon.White)), uint32(s.Pips(backgammon.Black))
	typed.WhiteOff = uint32(s.Checkers(backgammon.White, backgammon.Off))
	typed.BlackOff = uint32(s.Checkers(backgammon.Black, backgammon.Off))
	if s.Turn() == backgammon.Black {
		typed.Turn = gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK
	}
	if d1, d2 := s.Dice(); d1 != 0 {
		typed.Dice = e.counts.take(2)
		typed.Dice[0], typed.Dice[1] = uint32(d1), uint32(d2)
	}
	ws, bs := s.Score()
	typed.WhiteScore, typed.BlackScore = uint32(ws), uint32(bs)
	onRoll := e.players.next()
	*onRoll = backgammonPlayer(s.OnRoll())
	typed.OnRoll = onRoll
	if end, ok := backgammonEnds[s.End()]; ok {
		typed.End = end.Enum()
	}
	if r := s.Resignation(); r != 0 {
		typed.Resignation = gamerulesv1.BackgammonResignation(r).Enum()
	}
	if s.CubeInUse() {
		c := e.cubes.next()
		c.Value = uint32(s.CubeValue())
		c.Owner = backgammonCubeOwner(s.CubeOwner())
		c.DoubleOffered = s.DoubleOffered()
		c.Jacoby = s.JacobyBit() // bit 66 as read: the rule only in a money game
		c.Beavers = s.Beavers()
		c.BeaverCount = uint32(s.BeaverCount())
		typed.Cube = c
		if s.MatchLength() > 0 {
			typed.Match = backgammonMatch(e.matches.next(), s)
		}
	}
	w := e.wrapper.next()
	w.Backgammon = typed
	st := e.states.next()
	st.State = w
	if e.text == nil {
		st.Text = s.String()
		typed.PositionId, typed.MatchId = backgammonIDs(s, st.Text)
		if e.noText {
			st.Text = ""
		}
		return st
	}
	var buf [textScratch]byte
	text, _ := s.AppendText(buf[:0])
	if !backgammonHasIDs(text) {
		// Never (TestBuildersMatchReference); finish would take the IDs
		// from the text.
		typed.PositionId, typed.MatchId = s.PositionID(), s.MatchID()
	}
	e.text.add(st, text)
	return st
}

// checkers is color's counts in b (Board's layout); with more than one
// state, the last list made for color when the counts are the same.
func (e *backgammonEncoder) checkers(b *backgammon.Board, color int) []uint32 {
	if e.many != nil && e.last[color] != nil && b[color] == e.many.lastBoard[color] {
		return e.last[color]
	}
	out := e.counts.take(25)
	for i, c := range b[color] {
		out[i] = uint32(c)
	}
	if e.many != nil {
		e.last[color], e.many.lastBoard[color] = out, b[color]
	}
	return out
}

// finish sets the texts and IDs of the states encode returned.
func (e *backgammonEncoder) finish() {
	if e.text == nil {
		return
	}
	states := e.text.states
	e.text.finish()
	for _, st := range states {
		typed := st.GetBackgammon()
		if typed.PositionId == "" { // else set by encode
			typed.PositionId, typed.MatchId = backgammonIDsOf(st.Text)
		}
		if e.noText {
			st.Text = ""
		}
	}
}

// backgammonIDs returns the Position and Match IDs of s as parts of its
// text (backgammon.State.String is "<Position ID>:<Match ID>" and, after a
// space, settings words), or computed from s when the text has another
// shape (it never has: TestBuildersMatchReference).
func backgammonIDs(s backgammon.State, text string) (pid, mid string) {
	if strings.IndexByte(text, ':') > 0 { // backgammonHasIDs
		return backgammonIDsOf(text)
	}
	return s.PositionID(), s.MatchID()
}

// backgammonHasIDs reports whether text has the shape backgammonIDsOf
// reads: a ':' after at least one byte.
func backgammonHasIDs(text []byte) bool { return bytes.IndexByte(text, ':') > 0 }

// backgammonIDsOf returns the Position and Match IDs as parts of text, a
// text backgammonHasIDs accepts.
func backgammonIDsOf(text string) (pid, mid string) {
	i := strings.IndexByte(text, ':')
	rest := text[i+1:]
	if j := strings.IndexByte(rest, ' '); j >= 0 {
		rest = rest[:j]
	}
	return text[:i], rest
}

// backgammonMoveToProto returns m with notation, typed form and, for a
// chance outcome, its probability.
func backgammonMoveToProto(m backgammon.Move) *gamerulesv1.Move {
	b := newBackgammonMoveBuilder([]backgammon.Move{m}, noResults)
	return b.move(0, m)
}

// backgammonMoveBuilder builds the typed moves of one answer from slabs:
// the moves, their oneof wrappers, typed moves and steps each in one
// allocation, and the notation of all in one string
// (backgammon.Notations); each move has the parts want asks for.
type backgammonMoveBuilder struct {
	want     moveParts
	notes    []string // by index in the list
	moves    slab[gamerulesv1.Move]
	wrapper  slab[gamerulesv1.Move_Backgammon]
	typed    slab[gamerulesv1.BackgammonMove]
	steps    slab[gamerulesv1.BackgammonStep]
	stepPtrs slab[*gamerulesv1.BackgammonStep]
	dice     slab[uint32]
	probs    slab[float64]
	// made holds the step messages made so far by backgammonStepKey, for
	// a list of many steps: its moves share one message per distinct
	// step (the 53 plays of a 6-5 hold about 190 steps, of which a few
	// dozen differ), which marshals as if each had its own. nil: every
	// step its own message.
	made []*gamerulesv1.BackgammonStep
}

// backgammonStepKeys is the number of distinct steps backgammonStepKey
// tells apart: from 0..25, a die of 1..6 or a bear-off with a larger die,
// a hit or not.
const backgammonStepKeys = 26 * 7 * 2

// backgammonStepShare is the fewest steps of a list whose moves share
// their step messages: below it the table costs more than it saves.
const backgammonStepShare = 64

// backgammonStepKey is st's index in backgammonMoveBuilder.made, or -1
// for a step of another shape (which has its own message).
func backgammonStepKey(st backgammon.Step) int {
	if st.From < 0 || st.From > 25 {
		return -1
	}
	d := st.From - st.To
	switch {
	case d >= 1 && d <= 6:
		d--
	case st.To == backgammon.Off:
		d = 6
	default:
		return -1
	}
	k := (st.From*7 + d) * 2
	if st.Hit {
		k++
	}
	return k
}

// newBackgammonMoveBuilder returns a builder sized for moves, building the
// parts want asks for (notation, typed move, probability).
func newBackgammonMoveBuilder(moves []backgammon.Move, want moveParts) *backgammonMoveBuilder {
	steps, rolls := 0, 0
	for _, m := range moves {
		switch m.Kind() {
		case backgammon.KindPlay:
			steps += m.Len()
		case backgammon.KindRoll, backgammon.KindOpeningRoll:
			rolls++
		}
	}
	n := len(moves)
	b := &backgammonMoveBuilder{want: want, moves: makeSlab[gamerulesv1.Move](n)}
	if want.Notation {
		b.notes = backgammon.Notations(moves)
	}
	if want.Typed {
		b.wrapper, b.typed = makeSlab[gamerulesv1.Move_Backgammon](n), makeSlab[gamerulesv1.BackgammonMove](n)
		if steps >= backgammonStepShare {
			// made comes from the lists' slab, one allocation for both.
			b.steps, b.stepPtrs = makeChunkedSlab[gamerulesv1.BackgammonStep](backgammonStepShare), makeSlab[*gamerulesv1.BackgammonStep](backgammonStepKeys+steps)
			b.made = b.stepPtrs.take(backgammonStepKeys)
		} else {
			b.steps, b.stepPtrs = makeSlab[gamerulesv1.BackgammonStep](steps), makeSlab[*gamerulesv1.BackgammonStep](steps)
		}
		b.dice = makeSlab[uint32](2 * rolls)
	}
	if want.Probability {
		b.probs = makeSlab[float64](rolls)
	}
	return b
}

// move returns m, the i-th move of the builder's list, with notation, typed
// form and, for a chance outcome, its probability (those of them the
// builder wants).
func (b *backgammonMoveBuilder) move(i int, m backgammon.Move) *gamerulesv1.Move {
	out := b.moves.next()
	if b.want.Notation {
		out.Notation = b.notes[i]
	}
	isRoll := m.Kind() == backgammon.KindRoll || m.Kind() == backgammon.KindOpeningRoll
	if b.want.Probability && isRoll {
		prob := b.probs.next()
		*prob = m.Probability()
		out.Probability = prob
	}
	if !b.want.Typed {
		return out
	}
	typed := b.typed.next()
	w := b.wrapper.next()
	w.Backgammon = typed
	out.Move = w
	switch m.Kind() {
	case backgammon.KindPlay:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY
		typed.Steps = b.stepPtrs.take(m.Len())
		for k := range typed.Steps {
			typed.Steps[k] = b.step(m.Step(k))
		}
	case backgammon.KindPass:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PASS
	case backgammon.KindRoll, backgammon.KindOpeningRoll:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
		a, d := m.Dice()
		typed.Dice = b.dice.take(2)
		typed.Dice[0], typed.Dice[1] = uint32(a), uint32(d)
	default:
		if k, ok := backgammonDecisionKinds[m.Kind()]; ok {
			typed.Kind = k
			if r := m.Resignation(); r != 0 {
				typed.Resignation = gamerulesv1.BackgammonResignation(r).Enum()
			}
		}
	}
	return out
}

// step is st's typed form: the list's message for it when the builder
// shares them (made), else a message of its own.
func (b *backgammonMoveBuilder) step(st backgammon.Step) *gamerulesv1.BackgammonStep {
	k := -1
	if b.made != nil {
		if k = backgammonStepKey(st); k >= 0 && b.made[k] != nil {
			return b.made[k]
		}
	}
	pb := b.steps.next()
	pb.From, pb.To, pb.Hit = uint32(st.From), uint32(st.To), st.Hit
	if k >= 0 {
		b.made[k] = pb
	}
	return pb
}

// backgammonDecisionKinds maps the decision moves to their typed kinds.
var backgammonDecisionKinds = map[backgammon.Kind]gamerulesv1.BackgammonMoveKind{
	backgammon.KindDouble:   gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_DOUBLE,
	backgammon.KindTake:     gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_TAKE,
	backgammon.KindDrop:     gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_DROP,
	backgammon.KindBeaver:   gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_BEAVER,
	backgammon.KindResign:   gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_RESIGN,
	backgammon.KindAccept:   gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ACCEPT,
	backgammon.KindDecline:  gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_DECLINE,
	backgammon.KindNextGame: gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_NEXT_GAME,
}

// backgammonMoveFromProto converts a typed move (not a draw request) into
// the canonical move of s; an illegal play is refused with the reason.
func backgammonMoveFromProto(s backgammon.State, pb *gamerulesv1.BackgammonMove) (backgammon.Move, error) {
	kind := pb.GetKind()
	if pb.Resignation != nil && pb.GetResignation() == gamerulesv1.BackgammonResignation_BACKGAMMON_RESIGNATION_UNSPECIFIED {
		return backgammon.Move{}, fmt.Errorf("backgammon: %w: resignation %s; want BACKGAMMON_RESIGNATION_SINGLE, _GAMMON or _BACKGAMMON on a resign move, and none on another", game.ErrIllegalMove, enumText(pb.GetResignation()))
	}
	if pb.Resignation != nil && kind != gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_RESIGN {
		return backgammon.Move{}, fmt.Errorf("backgammon: %w: a resignation, and only a resignation, has a level (single, gammon or backgammon)", game.ErrIllegalMove)
	}
	var m backgammon.Move
	switch kind {
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY:
		if len(pb.GetDice()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a play has steps, not dice", game.ErrIllegalMove)
		}
		if len(pb.GetSteps()) > 4 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a play has 1 to 4 steps, not %d", game.ErrIllegalMove, len(pb.GetSteps()))
		}
		steps := make([]backgammon.Step, 0, len(pb.GetSteps()))
		for i, st := range pb.GetSteps() {
			if st.GetFrom() > backgammon.Bar || st.GetTo() > 24 {
				return backgammon.Move{}, fmt.Errorf("backgammon: %w: steps[%d] %d/%d: from must be 1..25 (25 = bar), to 0..24 (0 = off)", game.ErrIllegalMove, i, st.GetFrom(), st.GetTo())
			}
			steps = append(steps, backgammon.Step{From: int(st.GetFrom()), To: int(st.GetTo())})
		}
		var err error
		if m, err = backgammon.PlayMove(steps...); err != nil {
			return backgammon.Move{}, err
		}
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PASS:
		if len(pb.GetSteps()) > 0 || len(pb.GetDice()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a pass has no steps or dice", game.ErrIllegalMove)
		}
		m = backgammon.PassMove()
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL:
		dice := pb.GetDice()
		if len(dice) != 2 || len(pb.GetSteps()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a roll has two dice (or none, to have them drawn) and no steps", game.ErrIllegalMove)
		}
		if dice[0] < 1 || dice[0] > 6 || dice[1] < 1 || dice[1] > 6 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: dice %d-%d: each die is 1..6", game.ErrIllegalMove, dice[0], dice[1])
		}
		a, b := int(dice[0]), int(dice[1])
		if s.Phase() == backgammon.PhaseOpening {
			m = backgammon.OpeningRollMove(a, b)
		} else {
			m = backgammon.RollMove(a, b)
		}
	case gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_UNSPECIFIED:
		return backgammon.Move{}, fmt.Errorf("backgammon: %w: kind %s; want BACKGAMMON_MOVE_KIND_PLAY, _PASS, _ROLL or a decision", game.ErrIllegalMove, enumText(kind))
	default:
		if len(pb.GetSteps()) > 0 || len(pb.GetDice()) > 0 {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a decision (%v) has no steps or dice", game.ErrIllegalMove, kind)
		}
		if r := pb.GetResignation(); (r != gamerulesv1.BackgammonResignation_BACKGAMMON_RESIGNATION_UNSPECIFIED) != (kind == gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_RESIGN) {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: a resignation, and only a resignation, has a level (single, gammon or backgammon)", game.ErrIllegalMove)
		}
		found := false
		for k, pk := range backgammonDecisionKinds {
			if pk == kind {
				m, found = backgammonDecision(k, int(pb.GetResignation())), true
			}
		}
		if !found {
			return backgammon.Move{}, fmt.Errorf("backgammon: %w: kind %s; want BACKGAMMON_MOVE_KIND_PLAY, _PASS, _ROLL or a decision", game.ErrIllegalMove, enumText(kind))
		}
	}
	return s.Canonical(m)
}

func (p backgammonPos) LegalMoves(want moveParts) ([]*gamerulesv1.Move, bool, error) {
	var moves []backgammon.Move
	var results []backgammon.State
	if want.results() {
		moves, results = p.s.LegalMovesWithResults()
	} else {
		moves = p.s.LegalMoves()
	}
	out, chance := p.listMoves(want, moves, results)
	return out, chance, nil
}

// expandNodes implements expander: the children's nodes and positions
// from one generation of the moves and their results. With typed parts
// the moves are LegalMoves' (listMoves); without, each child's node, move,
// state, action id, probability and position share one allocation per
// node's list, and the texts (notation, state) go to the tree's arena:
// the same messages as LegalMoves with results builds, cheaper.
func (p backgammonPos) expandNodes(want moveParts, sc *expandScratch, leaves bool) ([]*gamerulesv1.ExpandNode, bool, []Position, error) {
	chance := p.s.Phase() == backgammon.PhaseOpening || p.s.Phase() == backgammon.PhaseRoll
	if want.Typed || want.ResultTyped {
		moves, results := p.s.LegalMovesWithResults()
		out, _ := p.listMoves(want, moves, results)
		sc.bounded = false
		kids := make([]Position, len(results))
		for i, s := range results {
			kids[i] = backgammonPos{s}
		}
		return movesToNodes(out), chance, kids, nil
	}
	if sc.bg == nil {
		sc.bg = backgammonScratches.Get().(*backgammonScratch)
	}
	moves, results := p.s.AppendLegalMovesWithResults(sc.bg.moves[:0], sc.bg.states[:0])
	sc.bg.moves, sc.bg.states = moves, results
	if len(moves) == 0 {
		return nil, chance, nil, nil
	}
	sc.bg.texts(want)
	if want.Action {
		sc.bg.actions = p.s.AppendActions(sc.bg.actions[:0], moves)
	}
	nodes := make([]*gamerulesv1.ExpandNode, len(moves))
	if leaves {
		// The tree ends below: no positions kept, the outcomes set here.
		block := make([]backgammonNode, len(moves))
		for i := range block {
			c := &block[i]
			sc.fillNode(c, want, i)
			if results[i].Phase() != backgammon.PhaseOver {
				sc.setUnfinished(&c.node)
			} else {
				sc.setFinalOutcome(&c.node, results[i].Outcome())
			}
			nodes[i] = &c.node
		}
		return nodes, chance, nil, nil
	}
	block := make([]backgammonInner, len(moves))
	kids := make([]Position, len(moves))
	for i := range block {
		c := &block[i]
		sc.fillNode(&c.backgammonNode, want, i)
		c.pos.s = results[i]
		nodes[i], kids[i] = &c.node, &c.pos
	}
	return nodes, chance, kids, nil
}

// backgammonNode is an Expand child's node with its move and state, in
// one allocation with its neighbours' (expandNodes).
type backgammonNode struct {
	node   gamerulesv1.ExpandNode
	move   gamerulesv1.Move
	state  gamerulesv1.GameState
	action int32
	prob   float64
}

// backgammonInner is a backgammonNode with the position it stands for,
// for a child that is expanded in turn.
type backgammonInner struct {
	backgammonNode
	pos backgammonPos
}

// fillNode sets c's move and state: the i-th move of sc.bg and the state
// after it, the parts want asks for (LegalMoves with results, text only),
// the texts those sc.bg.texts wrote and the action ids of sc.bg.actions.
func (sc *expandScratch) fillNode(c *backgammonNode, want moveParts, i int) {
	m := &sc.bg.moves[i]
	if want.Notation {
		c.move.Notation = sc.bg.notation(i)
	}
	if want.Probability && (m.Kind() == backgammon.KindRoll || m.Kind() == backgammon.KindOpeningRoll) {
		c.prob = m.Probability()
		c.move.Probability = &c.prob
	}
	if want.Action {
		c.action = sc.bg.actions[i]
		c.move.Action = &c.action
	}
	c.node.Move = &c.move
	if want.ResultText {
		c.state.Text = sc.bg.stateText(i)
		c.node.State = &c.state
	}
	sc.addBound(len(c.move.Notation) + len(c.state.Text))
}

// backgammonScratch is the move generator's output and the texts of one
// list, reused from node to node of an Expand (expandScratch) and, through
// backgammonScratches, from call to call: nothing of it stays in an answer
// (the states are copied into the nodes, the texts into a string).
type backgammonScratch struct {
	moves   []backgammon.Move
	states  []backgammon.State
	buf     []byte  // the list's notations, then its states' texts
	ends    []int   // where each text ends in buf: the notations', then the states'
	all     string  // buf as a string: the list's texts are substrings of it
	actions []int32 // the moves' action ids (with want.Action)
}

// texts writes the notations of the list's moves and the texts of their
// states (those want asks for) and makes them one string, of which
// notation(i) and stateText(i) are substrings: one allocation of just the
// list's texts.
func (b *backgammonScratch) texts(want moveParts) {
	b.buf, b.ends = b.buf[:0], append(b.ends[:0], 0)
	for i := range b.moves {
		if want.Notation {
			b.buf, _ = b.moves[i].AppendText(b.buf)
		}
		b.ends = append(b.ends, len(b.buf))
	}
	if want.ResultText {
		b.buf, b.ends = backgammon.AppendTexts(b.buf, b.ends, b.states)
	}
	b.all = string(b.buf)
}

// backgammonScratches are the backgammonScratch of the Expand calls, each
// made with room for a long list: 128 moves and states, their notations
// and states' texts (about 40 bytes a move; at most 32 + 55).
var backgammonScratches = sync.Pool{New: func() any {
	return &backgammonScratch{moves: make([]backgammon.Move, 0, 128), states: make([]backgammon.State, 0, 128),
		buf: make([]byte, 0, 8<<10), ends: make([]int, 0, 2*128+1), actions: make([]int32, 0, 128)}
}}

// release gives sc's backgammon buffers back to backgammonScratches.
func (sc *expandScratch) release() {
	if sc.bg != nil {
		sc.bg.all = ""
		backgammonScratches.Put(sc.bg)
		sc.bg = nil
	}
}

// notation returns the notation of move i (texts).
func (b *backgammonScratch) notation(i int) string { return b.all[b.ends[i]:b.ends[i+1]] }

// stateText returns the text of state i (texts, with ResultText).
func (b *backgammonScratch) stateText(i int) string {
	n := len(b.moves)
	return b.all[b.ends[n+i]:b.ends[n+i+1]]
}

// unfinished implements unfinisher: the game goes on until PhaseOver
// (Outcome: no winner, 0 points each).
func (p backgammonPos) unfinished() bool { return p.s.Phase() != backgammon.PhaseOver }

// listMoves is LegalMoves' answer for moves and, when want asks for
// results, their results.
func (p backgammonPos) listMoves(want moveParts, moves []backgammon.Move, results []backgammon.State) ([]*gamerulesv1.Move, bool) {
	var enc stateEncoder[backgammon.State]
	if want.results() {
		enc = resultEncoder(want, len(results), 40, func() typedEncoder[backgammon.State] { return newBackgammonEncoder(len(results)) })
	}
	b := newBackgammonMoveBuilder(moves, want)
	out := make([]*gamerulesv1.Move, len(moves))
	for i, m := range moves {
		out[i] = b.move(i, m)
		if enc != nil {
			out[i].Result = enc.encode(results[i])
		}
	}
	if enc != nil {
		enc.finish()
	}
	if want.Action {
		setActions(out, func(i int) int { return p.s.Action(moves[i]) })
	}
	chance := p.s.Phase() == backgammon.PhaseOpening || p.s.Phase() == backgammon.PhaseRoll
	return out, chance
}

func (p backgammonPos) Apply(mv *gamerulesv1.Move, rng *rand.Rand) (Position, *gamerulesv1.Move, bool, error) {
	typed := mv.GetBackgammon()
	notationDraw := mv.GetNotation() != "" && backgammon.IsRollRequest(mv.GetNotation())
	typedDraw := typed != nil && len(typed.GetDice()) == 0 && len(typed.GetSteps()) == 0 &&
		typed.GetKind() == gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
	if notationDraw || typedDraw {
		if (mv.GetNotation() != "" && !notationDraw) || (typed != nil && !typedDraw) {
			return nil, nil, false, fmt.Errorf("backgammon: %w: notation %s and the typed move disagree: only one asks for the dice to be drawn", game.ErrIllegalMove, game.Quote(mv.GetNotation()))
		}
		m, err := backgammon.RollDice(p.s, rng)
		if err != nil {
			return nil, nil, false, err
		}
		next, err := p.s.Apply(m)
		if err != nil {
			return nil, nil, false, fmt.Errorf("backgammon: drawn roll %v does not apply: %v", m, err) // a bug: Internal
		}
		return backgammonPos{next}, p.appliedMove(m), true, nil
	}
	m, err := decodeMove(mv, typed != nil,
		func(text string) (backgammon.Move, error) { return backgammon.ReadMove(p.s, text) },
		func() (backgammon.Move, error) { return backgammonMoveFromProto(p.s, typed) })
	if err != nil {
		return nil, nil, false, err
	}
	next, err := p.s.Apply(m)
	if err != nil {
		return nil, nil, false, err
	}
	return backgammonPos{next}, p.appliedMove(m), false, nil
}

// appliedMove is m, a legal move of p, as ApplyMove answers it: canonical
// notation, typed move and action id.
func (p backgammonPos) appliedMove(m backgammon.Move) *gamerulesv1.Move {
	pm := backgammonMoveToProto(m)
	pm.Action = proto.Int32(int32(p.s.Action(m)))
	return pm
}

// ApplyNotation implements notationApplier: Apply for a move in notation,
// checked once (backgammon.State.ApplyText) and answered as its canonical
// notation only, for ReplayGame.
func (p backgammonPos) ApplyNotation(notation string, rng *rand.Rand) (Position, string, bool, error) {
	next, m, drew, err := p.applyText(notation, rng)
	if err != nil {
		return nil, "", false, err
	}
	return backgammonPos{next}, m.String(), drew, nil
}

// applyText is ApplyNotation with the typed move and state, for a record
// export that writes from them (record.go).
func (p backgammonPos) applyText(notation string, rng *rand.Rand) (backgammon.State, backgammon.Move, bool, error) {
	if backgammon.IsRollRequest(notation) {
		m, err := backgammon.RollDice(p.s, rng)
		if err != nil {
			return backgammon.State{}, backgammon.Move{}, false, err
		}
		next, err := p.s.Apply(m)
		if err != nil {
			return backgammon.State{}, backgammon.Move{}, false, fmt.Errorf("backgammon: drawn roll %v does not apply: %v", m, err) // a bug: Internal
		}
		return next, m, true, nil
	}
	next, m, err := p.s.ApplyText(notation)
	if err != nil {
		// Not gnubg's notation: read it in any dialect (backgammon.ReadMove),
		// whose refusal lists the plays the text matches or the nearest.
		if m, err = backgammon.ReadMove(p.s, notation); err != nil {
			return backgammon.State{}, backgammon.Move{}, false, err
		}
		if next, err = p.s.Apply(m); err != nil {
			return backgammon.State{}, backgammon.Move{}, false, err
		}
	}
	return next, m, false, nil
}

// backgammonDecision returns the decision move of kind k (level for a
// resignation).
func backgammonDecision(k backgammon.Kind, level int) backgammon.Move {
	switch k {
	case backgammon.KindDouble:
		return backgammon.DoubleMove()
	case backgammon.KindTake:
		return backgammon.TakeMove()
	case backgammon.KindDrop:
		return backgammon.DropMove()
	case backgammon.KindBeaver:
		return backgammon.BeaverMove()
	case backgammon.KindResign:
		return backgammon.ResignMove(level)
	case backgammon.KindAccept:
		return backgammon.AcceptMove()
	case backgammon.KindDecline:
		return backgammon.DeclineMove()
	}
	return backgammon.NextGameMove()
}

func (p backgammonPos) Outcome() game.Outcome { return p.s.Outcome() }

// Continues reports whether a finished game still has a move: "next game"
// inside an unfinished match (see continuer, backgammon.State.SessionGoesOn).
func (p backgammonPos) Continues() bool { return p.s.SessionGoesOn() }

// ScoreDetail adds the cube and the match to Score (see scoreDetailer).
// The default game (no cube) answers exactly as before the cube existed.
func (p backgammonPos) ScoreDetail(resp *gamerulesv1.ScoreResponse) {
	s := p.s
	if !s.CubeInUse() {
		return
	}
	ws, bs := s.Score()
	d := &gamerulesv1.BackgammonScore{
		CubeValue:  uint32(s.CubeValue()),
		WhiteScore: uint32(ws),
		BlackScore: uint32(bs),
		Jacoby:     s.Jacoby(),
	}
	if end, ok := backgammonEnds[s.End()]; ok {
		d.End = end.Enum()
	}
	if s.MatchLength() > 0 {
		d.Match = backgammonMatch(&gamerulesv1.BackgammonMatch{}, s)
	}
	resp.Backgammon = d
}

// Render draws the state (render.Backgammon).
func (p backgammonPos) Render(o render.Options) ([]byte, error) { return render.Backgammon(p.s, o) }

// RenderText writes the board in gnubg's "show board" layout
// (render.BackgammonText).
func (p backgammonPos) RenderText(o render.Options) (string, error) {
	return render.BackgammonText(p.s, o)
}

// backgammonStateFormats are the forms ConvertState writes, in
// backgammon.Formats' order (the canonical first).
var backgammonStateFormats = []gamerulesv1.StateFormat{
	gamerulesv1.StateFormat_STATE_FORMAT_CANONICAL,
	gamerulesv1.StateFormat_STATE_FORMAT_XGID,
	gamerulesv1.StateFormat_STATE_FORMAT_FIBS,
}

// StateFormats implements stateConverter: gnubg's ID (canonical), XGID and
// the FIBS board.
func (backgammonEngine) StateFormats() []gamerulesv1.StateFormat { return backgammonStateFormats }

// ConvertState implements stateConverter: pos written by
// backgammon.State.Text in the format f names, and State.Lossless.
func (backgammonEngine) ConvertState(pos Position, f gamerulesv1.StateFormat) (string, bool) {
	s := pos.(backgammonPos).s
	bf := backgammon.FormatGnubg
	switch f {
	case gamerulesv1.StateFormat_STATE_FORMAT_XGID:
		bf = backgammon.FormatXGID
	case gamerulesv1.StateFormat_STATE_FORMAT_FIBS:
		bf = backgammon.FormatFIBS
	}
	return s.Text(bf), s.Lossless(bf)
}

// NewGameOptions passes a replay's backgammon options on to NewGame.
func (backgammonEngine) NewGameOptions(r *gamerulesv1.ReplayGameRequest, ng *gamerulesv1.NewGameRequest) {
	if o, ok := r.GetOptions().(*gamerulesv1.ReplayGameRequest_Backgammon); ok {
		ng.Options = &gamerulesv1.NewGameRequest_Backgammon{Backgammon: o.Backgammon}
	}
}

// RecordFormats returns backgammon's own record format: "mat", gnubg's
// match text.
func (backgammonEngine) RecordFormats() []recordCodec { return backgammonRecordFormats }

// backgammonRecordFormats are backgammon's own record formats.
var backgammonRecordFormats = []recordCodec{{Name: "mat", Import: importMat, Export: exportMat, Tags: checkMatTags}}

// checkMatTags refuses a .mat export's tags that would not read back as
// written: player names (the tags "white" and "black") mat.CheckPlayer
// refuses (a control character, a ':', white space at an end, a name that
// reads as a move line; an absent or empty name is written as "White" or
// "Black"), a "mat_dialect" that is not one of matDialects, and a header
// tag (any other tag, written as `; [Name "Value"]`) whose name or value
// has a '"', '[', ']' or a line break, or whose name is empty or has white
// space at an end.
func checkMatTags(tags map[string]string) error {
	for _, k := range [...]string{"white", "black"} {
		if v := tags[k]; v != "" {
			if err := mat.CheckPlayer(v); err != nil {
				return fmt.Errorf("%w: tag %s: %v", errInvalidRequest, k, err)
			}
		}
	}
	if v, ok := tags[matDialectTag]; ok {
		if _, known := matDialects[v]; !known {
			return fmt.Errorf("%w: tag %s: %s: want gnubg, jellyfish, xg or galaxy", errInvalidRequest, matDialectTag, game.Quote(v))
		}
	}
	for k, v := range tags {
		if k == "white" || k == "black" || k == matDialectTag {
			continue
		}
		if strings.ContainsAny(k, "\"[]\r\n") || strings.ContainsAny(v, "\"[]\r\n") || strings.TrimSpace(k) != k || k == "" {
			return fmt.Errorf("%w: tag %s: a header tag is written as `; [Name \"Value\"]`, which a '\"', '[', ']' or line break in it, or white space at the name's ends, would not read back", errInvalidRequest, game.Quote(k))
		}
	}
	return nil
}

// matSettingTag reports whether a header tag's name is one of the
// money-play settings (Jacoby, Beaver, in any case), which the import
// reads into the replay's options and the export writes from the state,
// not as tags.
func matSettingTag(name string) bool {
	return strings.EqualFold(name, "Jacoby") || strings.EqualFold(name, "Beaver")
}

// matDialectTag is the export tag that chooses the dialect a .mat export
// is written in (matDialects; absent: gnubg's); it is not written.
const matDialectTag = "mat_dialect"

// matDialects are the dialects a .mat export writes (mat.Dialect), by the
// mat_dialect tag's value.
var matDialects = map[string]mat.Dialect{"gnubg": mat.Gnubg, "jellyfish": mat.Jellyfish, "xg": mat.XG, "galaxy": mat.Galaxy}

// matHeaderTags are a .mat export's tags written as header tags, sorted by
// name: every tag but the player names, session_games, mat_dialect and
// the money-play settings the export writes from the state (Jacoby,
// Beaver: matSettingTag).
func matHeaderTags(tags map[string]string) []mat.Tag {
	var out []mat.Tag
	for k, v := range tags {
		if k == "white" || k == "black" || k == "session_games" || k == matDialectTag || matSettingTag(k) {
			continue
		}
		out = append(out, mat.Tag{Name: k, Value: v})
	}
	slices.SortFunc(out, func(a, b mat.Tag) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// importMat reads a gnubg .mat match or money session into a replay: the
// match's options and first game's score, its moves (what the format
// leaves out restored, see mat.Match.Replay), and the players' names as
// the tags "white" and "black". The Jacoby rule: on, as gnubg's import
// assumes, unless the record's tag or points say off (the request has no
// option for it). The moves are those of the game the engine plays as one
// (mat.Match.LastGame: a whole match; a money session's last game, from
// the running score its header gives, tagged session_games); every game
// was checked by the record's replay, whose states answer the replay
// (the moveApplier: see matReplayed).
//
// It is linear in the text and bounded before the work: reading stops at
// ctx's end, and as soon as the record is known to replay to more than
// MaxReplayMoves moves (in a money session, all of its games': every game
// is replayed to check the next one's score), INVALID_REQUEST on moves, as
// ReplayGame refuses as many; the replay stops there too.
func importMat(ctx context.Context, text string, includeStates bool) (*gamerulesv1.ReplayGameRequest, map[string]string, moveApplier, error) {
	lim := mat.Limits{MaxMoves: MaxReplayMoves, MaxTags: maxRecordTags}
	m, err := mat.ReadContext(ctx, []byte(text), lim)
	if err != nil {
		return nil, nil, nil, matReadError(err)
	}
	moves, err := m.ReplayContext(ctx, lim)
	var me *mat.MoveError
	if errors.As(err, &me) {
		return nil, nil, nil, toStatusMeta("moves["+strconv.Itoa(me.Index)+"]", me.Err, map[string]string{"moveIndex": strconv.Itoa(me.Index),
			"stateBefore": me.Before, "line": strconv.Itoa(me.Line), "column": strconv.Itoa(me.Column)})
	}
	if err != nil {
		return nil, nil, nil, matReadError(err)
	}
	start, moves, err := m.LastGame(moves)
	if err != nil {
		return nil, nil, nil, recordError(err)
	}
	// The options after Replay, which settles what the format leaves out
	// (the Jacoby rule from the points, beavers, a match-point start's
	// Crawford game).
	o := m.Options()
	tags := map[string]string{"white": m.Players[0], "black": m.Players[1]}
	for _, t := range m.Tags {
		// The header tags as written (`; [Site "eXtreme Gammon"]`: "Site"),
		// the first of a name; not over the tags the import sets.
		if _, set := tags[t.Name]; !set && t.Name != "session_games" && t.Name != matDialectTag && !matSettingTag(t.Name) {
			tags[t.Name] = t.Value
		}
	}
	if m.Length == 0 && len(m.Games) > 1 {
		// A money session: a money game is one game for the API (spec: a
		// finished game has no legal moves outside a match).
		o.Score = m.Games[len(m.Games)-1].Score
		tags["session_games"] = strconv.Itoa(len(m.Games))
	}
	bo := &gamerulesv1.BackgammonOptions{Cube: o.MatchLength == 0, MatchLength: uint32(o.MatchLength),
		WhiteScore: uint32(o.Score[0]), BlackScore: uint32(o.Score[1]), Crawford: o.Crawford, Beavers: o.Beavers}
	if o.MatchLength == 0 && o.NoJacoby {
		bo.Jacoby = proto.Bool(false)
	}
	replay := &gamerulesv1.ReplayGameRequest{Game: "backgammon", IncludeStates: includeStates,
		Options: &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: bo}, Moves: make([]string, 0, len(moves))}
	for _, mv := range moves {
		replay.Moves = append(replay.Moves, mv.Notation)
	}
	return replay, tags, matReplayed(start, moves, applyNotation), nil
}

// matReadError is the status of a .mat that cannot be read or replayed:
// ctx's end keeps its code; a record over the replay's move limit is
// INVALID_REQUEST on moves (with the line and column where it passed it),
// as ReplayGame refuses too many moves; anything else recordError.
func matReadError(err error) error {
	var le *mat.LimitError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return toStatus("text", err)
	case errors.As(err, &le) && le.What == "tags":
		return toStatusMeta("text", fmt.Errorf("%w: more than %d header tags (line %d)", errInvalidRequest, le.Max, le.Line),
			map[string]string{"line": strconv.Itoa(le.Line), "column": strconv.Itoa(le.Column)})
	case errors.As(err, &le):
		return toStatusMeta("moves", fmt.Errorf("%w: the record replays to more than %d moves (%d by line %d); at most %d per call", errInvalidRequest, le.Max, le.Moves, le.Line, MaxReplayMoves),
			map[string]string{"line": strconv.Itoa(le.Line), "column": strconv.Itoa(le.Column)})
	}
	return recordError(err)
}

// matReplayed is the moveApplier of a .mat import: move i of its replay
// request is answered from the record's replay (start, then moves) by its
// index, without being applied or looked up again, so that an import plays
// its moves once. The record's replay applied the same notation (the
// replay request's moves[i] is moves[i].Notation, as importMat writes it)
// to the same state with the same function (backgammon.State.ApplyText,
// which ReplayGame's applyNotation ends in), so the answer (the state
// after, the canonical notation, no dice drawn) is the one applying it
// again gives; and refuseNotation, which applyNotation asks first, passes
// (the notation is not empty, and ApplyText applies nothing to a finished
// game but a match's "next game", which refuseNotation lets through too).
// The one check is that the replay starts from the record's start (the
// positions after are then the ones this applier answered); where it does
// not (not met: ReplayGame starts from the options importMat gives, which
// New makes into the same state), every move is applied by otherwise.
func matReplayed(start backgammon.State, moves []mat.Move, otherwise moveApplier) moveApplier {
	same := false
	return func(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
		if i == 0 {
			p, ok := pos.(backgammonPos)
			same = ok && p.s == start
		}
		if same && i < len(moves) {
			return backgammonPos{moves[i].After}, moves[i].Played.String(), false, nil
		}
		return otherwise(pos, i, notation, rng)
	}
}

// matRecorder keeps the typed moves and states of an export's replay, for
// mat.WriteReplay to write without applying them again.
type matRecorder struct{ moves []mat.Move }

// apply is applyNotation for a backgammon position, keeping the move.
func (r *matRecorder) apply(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
	p, ok := pos.(backgammonPos)
	if !ok {
		return applyNotation(pos, i, notation, rng) // not met: mat is a backgammon format
	}
	if err := refuseNotation(pos, notation); err != nil {
		return nil, "", false, err
	}
	next, m, drew, err := p.applyText(notation, rng)
	if err != nil {
		return nil, "", false, err
	}
	r.moves = append(r.moves, mat.Move{Played: m, After: next})
	return backgammonPos{next}, m.String(), drew, nil
}

// exportMat prepares a .mat export in one pass: the replay keeps its typed
// moves and states (matRecorder), which mat.WriteReplay writes without
// applying them again. The record is refused (INVALID_REQUEST) when it
// would not import back as written: more header tags than an import reads
// (maxRecordTags, the money-play settings counted), or a replay stopping
// after a roll with no play before its pass (which the format reads as
// the pass); and when it would be over MaxExportBytes, at the first byte
// past it (the writer then only counts, to say the size it needs).
func exportMat(replay *gamerulesv1.ReplayGameRequest) (moveApplier, recordWriter) {
	kept := &matRecorder{moves: make([]mat.Move, 0, min(len(replay.GetMoves()), MaxReplayMoves))}
	return kept.apply, func(resp *gamerulesv1.ReplayGameResponse, tags map[string]string) ([]byte, error) {
		start, err := backgammon.ParseState(resp.GetStart().GetText())
		if err != nil {
			return nil, toStatus("replay", err)
		}
		o := mat.WriteOptions{Dialect: matDialects[tags[matDialectTag]], Tags: matHeaderTags(tags), MaxBytes: MaxExportBytes}
		// The tags the import will read: the header tags and the
		// money-play settings written from the state.
		written := len(o.Tags)
		if start.MatchLength() == 0 && !start.Jacoby() {
			written++
		}
		if start.Beavers() {
			written++
		}
		if written > maxRecordTags {
			return nil, toStatus("tags", fmt.Errorf("%w: the record would hold %d header tags and an import reads at most %d", errInvalidRequest, written, maxRecordTags))
		}
		text, err := mat.WriteReplayOptions(start, kept.moves, [2]string{tags["white"], tags["black"]}, o)
		var se *mat.SizeError
		if errors.As(err, &se) {
			return nil, exportSizeError(se.Need, false)
		}
		if err != nil {
			return nil, toStatus("replay", fmt.Errorf("%w: %v", errInvalidRequest, err))
		}
		return text, nil
	}
}

// children uses LegalMovesWithResults, which applies the listed moves
// without checking them again.
func (p backgammonPos) children() ([]Position, error) {
	_, next := p.s.LegalMovesWithResults()
	out := make([]Position, len(next))
	for i, s := range next {
		out[i] = backgammonPos{s}
	}
	return out, nil
}

// playout draws the rolls with backgammon.RollDice (each roll by its
// probability): at every roll phase (the opening's included) the player to
// move rolls, so a playout never offers the cube nor resigns before
// rolling. The other moves are played by the policy: uniformly among the
// legal moves (in the move phase with the cube in use, the plays and the
// three resignations alike), or by backgammon.State.GreedyMove (the best
// play, never a resignation). A double already offered in the start
// state is answered uniformly among take, drop, beaver (where allowed)
// and, by the random policy only, the resignations; a resignation
// offered there is accepted or declined uniformly by both. A ply generates
// its moves once: the move picked from the list (or the roll drawn) is
// applied with backgammon.State.ApplyListed, without Apply's validation
// of the state and second generation of the plays.
func (p backgammonPos) playout(rng *rand.Rand, pol policy, first, maxPlies int, record bool) (playedGame, error) {
	return playRandom(playoutRules[backgammon.State, backgammon.Move]{name: "backgammon", greedy: backgammon.State.GreedyMove, draw: backgammonDraw, appendMoves: backgammon.State.AppendLegalMoves, applyListed: backgammon.State.ApplyListed}, p.s, rng, pol, first, maxPlies, record)
}

// backgammonDraw draws the roll of a roll phase (the opening's included).
func backgammonDraw(s backgammon.State, rng *rand.Rand) (backgammon.Move, bool) {
	if ph := s.Phase(); ph != backgammon.PhaseOpening && ph != backgammon.PhaseRoll {
		return backgammon.Move{}, false
	}
	m, err := backgammon.RollDice(s, rng)
	return m, err == nil
}

func (p backgammonPos) turn() int { return p.s.Turn() }
