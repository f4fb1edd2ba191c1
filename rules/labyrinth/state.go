package labyrinth

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// MinPlayers and MaxPlayers bound the number of players.
const (
	MinPlayers = 2
	MaxPlayers = 4
)

// Info returns the description of Labyrinth: 2 to 4 players seated by
// colour (red, yellow, green, blue by default), no chance after the deal,
// and hidden information (each player's cards).
func Info() game.Info {
	return game.Info{
		ID:                   "labyrinth",
		Name:                 "Labyrinth (Star Wars edition)",
		Players:              []string{Red.String(), Yellow.String(), Green.String(), Blue.String()},
		MinPlayers:           MinPlayers,
		MaxPlayers:           MaxPlayers,
		HasHiddenInformation: true,
		RulesVersion:         "1.0.0",
	}
}

// maxCards is the largest stack: 24 cards dealt to 2 players.
const maxCards = NumTargets / MinPlayers

// hiddenCard marks a card of a per-player view that the viewer may not see
// (written '?' in the text form). Real cards are 1..24.
const hiddenCard = 0

// Phase is the step of the turn the player to act is in.
type Phase uint8

// Phases. The zero Phase belongs only to the zero State, which is invalid.
const (
	PhaseShift Phase = iota + 1 // the player must shift the labyrinth
	PhaseMove                   // the player must move a figure (or stay)
	PhaseOver                   // the game has ended
)

// String returns "shift", "move" or "over".
func (p Phase) String() string {
	switch p {
	case PhaseShift:
		return "shift"
	case PhaseMove:
		return "move"
	case PhaseOver:
		return "over"
	}
	return "invalid"
}

// Variants are the optional rules of the leaflet (spec "Variants").
type Variants struct {
	// Vader: the Darth Vader figure is on the board; a player whose card
	// shows the Vader symbol (targets 21..24) moves Vader instead of his ship.
	Vader bool
	// OpenCards: a player may find any of his unfound targets, not only
	// the top one; his whole stack is visible to him.
	OpenCards bool
	// NoReturn: the game ends when a player has found all his targets.
	NoReturn bool
}

// Layout is an explicit set-up for New: the board and spare as they lie and
// the card stacks.
type Layout struct {
	// Board holds the 49 tiles, indexed by Square (reading order). The
	// fixed squares must hold the printed tiles (FixedTile).
	Board [NumSquares]Tile
	// Spare is the tile beside the board, in its current orientation.
	Spare Tile
	// Stacks has one stack per player in turn order, top card first; cards
	// are targets 1..24 and the stacks partition them evenly.
	Stacks [][]uint8
}

// ParseLayout reads an explicit set-up in text: "<board> <spare> <stacks>",
// the board and spare as in the state's text form, then the stacks of the
// players in turn order, comma-separated, each top card first, e.g.
// "…/… 5* MAGBULCXIWPE,HKNTQRJDSFOV". It checks the syntax only; New checks
// the rest. Errors are *game.ParseError with Kind game.ErrInvalidOptions.
func ParseLayout(text string) (Layout, error) {
	var l Layout
	bad := func(off int, reason string) (Layout, error) {
		return Layout{}, &game.ParseError{Game: "labyrinth", What: "layout", Input: text, Offset: off, Reason: reason, Kind: game.ErrInvalidOptions}
	}
	f := strings.Split(text, " ")
	if len(f) != 3 {
		return bad(-1, "want 3 space-separated fields: board spare stacks")
	}
	board, n, ok := parseBoard(f[0])
	if !ok {
		return bad(n, "want 7 rows of 7 tiles separated by '/'")
	}
	l.Board = board
	spare, n, ok := parseTile(f[1])
	if !ok || n != len(f[1]) {
		return bad(len(f[0])+1, "want the spare tile")
	}
	l.Spare = spare
	off := len(f[0]) + len(f[1]) + 2
	for _, st := range strings.Split(f[2], ",") {
		if len(st) > maxCards {
			return bad(off, "too many cards in a stack")
		}
		cards := make([]uint8, len(st))
		for i := 0; i < len(st); i++ {
			if st[i] < 'A' || st[i] > 'X' {
				return bad(off+i, "want cards A-X")
			}
			cards[i] = st[i] - 'A' + 1
		}
		l.Stacks = append(l.Stacks, cards)
		off += len(st) + 1
	}
	return l, nil
}

// Options configure New.
type Options struct {
	// Players is the number of players, 2..4. 0 means len(Colors), or
	// when Colors is nil too the number of Layout stacks, or else 4 (the
	// zero Options is a 4-player game).
	Players int
	// Colors are the players' colours in turn order, all distinct; nil
	// means the first Players of Red, Yellow, Green, Blue. When both are
	// set, len(Colors) must equal Players.
	Colors []Color
	// First is the index (0..Players−1) of the player who begins.
	First int
	// Variants switch on Darth Vader, open cards and no return.
	Variants
	// Seed drives the random set-up (tile layout, orientations and deal)
	// when Layout is nil; the same Seed and options always give the same
	// game. See New for the exact procedure.
	Seed uint64
	// Layout, when not nil, is the explicit set-up to use instead.
	Layout *Layout
}

// State is a whole Labyrinth position: the 7×7 tiles, the spare, every
// player's colour, ship square and cards (found ones in the order found,
// then the stack top first), Darth Vader's square, the previous insertion
// point, the player to act and the phase, and the variants.
//
// State is a comparable value without pointers: copying it copies the game,
// and no method changes its receiver. The zero State is invalid (Validate
// reports it, LegalMoves is empty); make States with New, ParseState,
// FromPosition or Apply.
//
// A State may be a per-player view (View): then some cards are hidden. Such
// a State prints and parses, but Validate refuses it and LegalMoves is empty.
type State struct {
	board    [NumSquares]Tile
	spare    Tile
	n        uint8 // number of players, 2..4
	colors   [MaxPlayers]Color
	ships    [MaxPlayers]Square
	vader    Square // Darth Vader's square; NoSquare when the variant is off
	last     Point  // previous insertion point, NoPoint before the first shift
	turn     uint8  // player to act; when the game is over, the winner
	phase    Phase
	variants Variants
	// cards[p][:found[p]] are p's found targets in the order found;
	// cards[p][found[p]:count[p]] is his stack, top first (hiddenCard in a view).
	cards [MaxPlayers][maxCards]uint8
	found [MaxPlayers]uint8
	count [MaxPlayers]uint8
}

// pcgStream is the second PCG word of the random set-up ("labyrint" in ASCII).
const pcgStream = 0x6c61627972696e74

// New returns the start of a game: ships on their start squares, the first
// player to shift, no previous push.
//
// With Layout nil the set-up is random but fully determined by Seed (spec
// "Players and set-up"): r := rand.New(rand.NewPCG(Seed, 0x6c61627972696e74));
// the 34 loose tiles (13 straights, the first with the Vader symbol; corners
// with targets 19..24; 9 plain corners; T-junctions with targets 13..18, all
// oriented as the 5/6/7 masks) are shuffled with r.Shuffle, each is turned
// r.IntN(4) quarter turns in list order, the first 33 fill the free squares
// in reading order and the last is the spare. With the Vader variant, if the
// Vader tile is the spare it is swapped with the tile on free square number
// r.IntN(33). Then the cards 1..24 are shuffled with r.Shuffle and dealt one
// at a time to players 0, 1, …, top card first. Darth Vader starts on the
// Vader tile.
//
// Errors wrap game.ErrInvalidOptions: players outside 2..4, repeated or
// unknown colours, First out of range, a Layout that breaks the rules of
// Validate (tile mix, fixed tiles, targets, uneven stacks), or, with the
// Vader variant, the Vader tile as the spare.
func New(o Options) (State, error) {
	var s State
	n := o.Players
	if n == 0 {
		n = len(o.Colors)
		if o.Colors == nil {
			n = MaxPlayers
			if o.Layout != nil {
				n = len(o.Layout.Stacks)
			}
		}
	}
	if n < MinPlayers || n > MaxPlayers {
		switch {
		case o.Players != 0:
			return State{}, fmt.Errorf("labyrinth: %w: players = %d; want 2..4", game.ErrInvalidOptions, o.Players)
		case o.Colors != nil:
			return State{}, fmt.Errorf("labyrinth: %w: colors: %d given; want 2..4 (one per player)", game.ErrInvalidOptions, n)
		default:
			return State{}, fmt.Errorf("labyrinth: %w: layout: %d stacks; want 2..4 (one per player)", game.ErrInvalidOptions, n)
		}
	}
	if o.Colors != nil && len(o.Colors) != n {
		return State{}, fmt.Errorf("labyrinth: %w: %d colors for %d players", game.ErrInvalidOptions, len(o.Colors), n)
	}
	if o.First < 0 || o.First >= n {
		return State{}, fmt.Errorf("labyrinth: %w: first = %d; want 0..%d", game.ErrInvalidOptions, o.First, n-1)
	}
	s.n = uint8(n)
	for p := 0; p < n; p++ {
		s.colors[p] = Color(p)
		if o.Colors != nil {
			s.colors[p] = o.Colors[p]
		}
		if s.colors[p] >= NumColors {
			return State{}, fmt.Errorf("labyrinth: %w: colors[%d] = %d is not a colour", game.ErrInvalidOptions, p, s.colors[p])
		}
		for q := 0; q < p; q++ {
			if s.colors[q] == s.colors[p] {
				return State{}, fmt.Errorf("labyrinth: %w: colour %v given twice", game.ErrInvalidOptions, s.colors[p])
			}
		}
		s.ships[p] = s.colors[p].Start()
	}
	s.variants = o.Variants
	s.turn = uint8(o.First)
	s.phase = PhaseShift
	s.last = NoPoint
	s.vader = NoSquare

	if o.Layout != nil {
		l := o.Layout
		s.board, s.spare = l.Board, l.Spare
		if len(l.Stacks) != n {
			return State{}, fmt.Errorf("labyrinth: %w: layout has %d stacks for %d players", game.ErrInvalidOptions, len(l.Stacks), n)
		}
		for p, st := range l.Stacks {
			if len(st) != NumTargets/n {
				return State{}, fmt.Errorf("labyrinth: %w: stack %d has %d cards; want %d", game.ErrInvalidOptions, p, len(st), NumTargets/n)
			}
			copy(s.cards[p][:], st)
			s.count[p] = uint8(len(st))
		}
	} else {
		s.randomSetup(o.Seed)
	}
	if s.variants.Vader {
		if s.spare.Vader {
			return State{}, fmt.Errorf("labyrinth: %w: with Darth Vader the Vader tile must be on the board, not the spare", game.ErrInvalidOptions)
		}
		for q := range s.board {
			if s.board[q].Vader {
				s.vader = Square(q)
			}
		}
	}
	if err := s.validate(false); err != nil {
		return State{}, fmt.Errorf("labyrinth: %w: layout: %v", game.ErrInvalidOptions, err)
	}
	return s, nil
}

// randomSetup lays the tiles and deals the cards as New documents.
func (s *State) randomSetup(seed uint64) {
	r := rand.New(rand.NewPCG(seed, pcgStream))
	loose := looseTiles()
	r.Shuffle(len(loose), func(i, j int) { loose[i], loose[j] = loose[j], loose[i] })
	for i := range loose {
		loose[i] = loose[i].Rotate(r.IntN(4))
	}
	var free [33]Square
	k := 0
	for q := Square(0); q < NumSquares; q++ {
		if isFixed[q] {
			s.board[q] = fixedTile[q]
			continue
		}
		free[k] = q
		s.board[q] = loose[k]
		k++
	}
	s.spare = loose[33]
	if s.variants.Vader && s.spare.Vader {
		q := free[r.IntN(len(free))]
		s.spare, s.board[q] = s.board[q], s.spare
	}
	var deck [NumTargets]uint8
	for i := range deck {
		deck[i] = uint8(i + 1)
	}
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	n := int(s.n)
	for i, c := range deck {
		p := i % n
		s.cards[p][s.count[p]] = c
		s.count[p]++
	}
}

// Players returns the number of players, 2..4 (0 for the zero State).
func (s State) Players() int { return int(s.n) }

// Color returns player p's colour (p in 0..Players()−1; other p give an
// invalid Color).
func (s State) Color(p int) Color {
	if p < 0 || p >= int(s.n) {
		return NumColors
	}
	return s.colors[p]
}

// Ship returns the square of player p's ship (NoSquare for p out of range).
func (s State) Ship(p int) Square {
	if p < 0 || p >= int(s.n) {
		return NoSquare
	}
	return s.ships[p]
}

// Vader returns Darth Vader's square, or NoSquare when the variant is off.
func (s State) Vader() Square { return s.vader }

// Tile returns the tile at q (the zero Tile when q is off the board).
func (s State) Tile(q Square) Tile {
	if !q.Valid() {
		return Tile{}
	}
	return s.board[q]
}

// Board returns all 49 tiles, indexed by Square.
func (s State) Board() [NumSquares]Tile { return s.board }

// Spare returns the spare tile in its current orientation.
func (s State) Spare() Tile { return s.spare }

// Last returns the insertion point of the previous shift (NoPoint before
// the first one). Its Opposite may not be played now (spec "No reversal").
func (s State) Last() Point { return s.last }

// Turn returns the index of the player to act; once the game is over, the
// index of the winner.
func (s State) Turn() int { return int(s.turn) }

// Phase returns the phase: shift, move, or over.
func (s State) Phase() Phase { return s.phase }

// Variants returns the variants in play.
func (s State) Variants() Variants { return s.variants }

// Found returns player p's found targets in the order found (a new slice).
func (s State) Found(p int) []uint8 {
	if p < 0 || p >= int(s.n) {
		return nil
	}
	return append([]uint8(nil), s.cards[p][:s.found[p]]...)
}

// Stack returns player p's cards still to find, top first (a new slice);
// in a per-player view a hidden card is 0.
func (s State) Stack(p int) []uint8 {
	if p < 0 || p >= int(s.n) {
		return nil
	}
	return append([]uint8(nil), s.cards[p][s.found[p]:s.count[p]]...)
}

// AppendFound appends Found(p) to dst (the targets p has found, in the
// order found) and returns the extended slice, without a slice of its own
// (nothing for a player out of range).
func (s State) AppendFound(dst []uint8, p int) []uint8 {
	if p < 0 || p >= int(s.n) {
		return dst
	}
	return append(dst, s.cards[p][:s.found[p]]...)
}

// AppendStack appends Stack(p) to dst (p's cards still to find, top
// first, a hidden card 0) and returns the extended slice, without a slice
// of its own (nothing for a player out of range).
func (s State) AppendStack(dst []uint8, p int) []uint8 {
	if p < 0 || p >= int(s.n) {
		return dst
	}
	return append(dst, s.cards[p][s.found[p]:s.count[p]]...)
}

// Target returns player p's current target card (the top of his stack,
// 1..24), or 0 when he has found all his cards (his target is then his
// start square) or the card is hidden.
func (s State) Target(p int) uint8 {
	if p < 0 || p >= int(s.n) || s.found[p] == s.count[p] {
		return 0
	}
	return s.cards[p][s.found[p]]
}

// IsView reports whether s is a per-player view with hidden cards; such a
// State cannot be played.
func (s State) IsView() bool {
	for p := 0; p < int(s.n); p++ {
		for i := s.found[p]; i < s.count[p]; i++ {
			if s.cards[p][i] == hiddenCard {
				return true
			}
		}
	}
	return false
}

// View returns what player p may see of s (spec "Hidden information"): the
// whole state except the other players' stacks, whose cards are hidden, and
// p's own stack below its top card, unless the open-cards variant is on. A
// p outside 0..Players()−1 gives a spectator's view, with every stack
// hidden. Found cards are face up and stay visible. The size of each stack
// is public.
//
// A view prints ('?' for each hidden card) and parses, but Validate refuses
// it with game.ErrInvalidState and LegalMoves returns nil for it. A view
// that happens to hide nothing (every other stack empty) is the state itself.
func (s State) View(p int) State {
	v := s
	for q := 0; q < int(v.n); q++ {
		from := v.found[q]
		if q == p {
			if v.variants.OpenCards {
				continue
			}
			from++ // the top card stays visible
		}
		for i := from; i < v.count[q]; i++ {
			v.cards[q][i] = hiddenCard
		}
	}
	return v
}

// vaderCard reports whether card c shows the Darth Vader symbol and so calls
// for Vader: targets 21..24 with the Vader variant on (spec "Board and
// tiles"; without the variant the symbols are ignored).
func (s *State) vaderCard(c uint8) bool {
	return s.variants.Vader && c >= 21
}

// won reports whether player p has met the winning condition: all cards
// found, and (unless NoReturn) his ship on his start square.
func (s *State) won(p int) bool {
	if s.found[p] != s.count[p] {
		return false
	}
	return s.variants.NoReturn || s.ships[p] == s.colors[p].Start()
}

// Outcome reports the result so far (spec "Score"): Points[p] is the number
// of targets player p has found; once the game is over, Finished is true and
// Winner is the index of the player who won. Outcome of the zero State has
// no points.
func (s State) Outcome() game.Outcome {
	o := game.Outcome{Winner: game.NoWinner, Points: make([]int, s.n)}
	for p := range o.Points {
		o.Points[p] = int(s.found[p])
	}
	if s.phase == PhaseOver {
		o.Finished = true
		o.Winner = int(s.turn)
		if s.variants.NoReturn {
			o.Detail = "all targets found"
		} else {
			o.Detail = "all targets found and back at the start"
		}
	}
	return o
}

// Validate reports whether s is a position that can arise in a game (spec
// "Board and tiles", "Players and set-up", "Hidden information"): 2..4
// players with distinct colours; the 16 fixed tiles in place; the 34 loose
// tiles (board and spare) are 13 straights without target, one of them
// with the Vader symbol, 15 corners of which 6 show targets 19..24, and 6
// T-junctions showing targets 13..18, each target once; every player holds
// 24/players cards and together they hold each target once; no card is
// hidden (a per-player view is refused); Darth Vader on the board exactly
// when that variant is on; a previous insertion point in the move phase
// and after the game; a finished game's winner has met the winning
// condition; and no other player has met it, except (Darth Vader variant,
// without no return) a ship waiting on its start square after Vader found
// its player's last card, which must then be a Vader card.
//
// Errors wrap game.ErrInvalidState and name the square, player or field.
func (s State) Validate() error {
	if err := s.validate(false); err != nil {
		return fmt.Errorf("labyrinth: %w: %v", game.ErrInvalidState, err)
	}
	return nil
}

// errView is the reason a per-player view is refused.
var errView = errors.New("hidden cards: a per-player view is for display only and cannot be played")

// validate checks s; allowHidden accepts hidden cards (for parsing views).
// It returns a bare reason; callers add the prefix and kind.
func (s *State) validate(allowHidden bool) error {
	n := int(s.n)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%d players; want 2..4", n)
	}
	var colorSeen [NumColors]bool
	for p := 0; p < n; p++ {
		c := s.colors[p]
		if c >= NumColors || colorSeen[c] {
			return fmt.Errorf("player %d: colour %v is invalid or repeated", p, c)
		}
		colorSeen[c] = true
		if !s.ships[p].Valid() {
			return fmt.Errorf("player %d: ship is off the board", p)
		}
	}
	for p := n; p < MaxPlayers; p++ {
		if s.ships[p] != 0 || s.colors[p] != 0 || s.count[p] != 0 || s.found[p] != 0 {
			return fmt.Errorf("player %d of %d is set", p, n)
		}
	}

	if !s.tilesOK() {
		if err := s.tileError(); err != nil {
			return err
		}
	}

	// Darth Vader.
	if s.variants.Vader != s.vader.Valid() {
		if s.variants.Vader {
			return errors.New("the Darth Vader figure is not on the board")
		}
		return errors.New("the Darth Vader figure is on the board but the variant is off")
	}

	// Cards: an even deal partitioning 1..24.
	var cardSeen [NumTargets + 1]bool
	hidden := false
	for p := 0; p < n; p++ {
		if int(s.count[p]) != NumTargets/n {
			return fmt.Errorf("player %d holds %d cards; want %d", p, s.count[p], NumTargets/n)
		}
		if s.found[p] > s.count[p] {
			return fmt.Errorf("player %d: more cards found than held", p)
		}
		for i := uint8(0); i < s.count[p]; i++ {
			c := s.cards[p][i]
			if c == hiddenCard {
				if i < s.found[p] {
					return fmt.Errorf("player %d: a found card is hidden", p)
				}
				hidden = true
				continue
			}
			if c > NumTargets {
				return fmt.Errorf("player %d: card %d is not a target", p, c)
			}
			if cardSeen[c] {
				return fmt.Errorf("card %c dealt twice", TargetLetter(c))
			}
			cardSeen[c] = true
		}
	}
	if hidden && !allowHidden {
		return errView
	}

	// Phase, turn, previous push, winner.
	switch s.phase {
	case PhaseShift, PhaseMove, PhaseOver:
	default:
		return errors.New("no phase")
	}
	if int(s.turn) >= n {
		return fmt.Errorf("player to act %d of %d", s.turn, n)
	}
	if s.last != NoPoint && !s.last.Valid() {
		return fmt.Errorf("previous insertion point %d is invalid", s.last)
	}
	if s.phase != PhaseShift && s.last == NoPoint {
		return fmt.Errorf("phase %v without a previous shift", s.phase)
	}
	over := s.phase == PhaseOver
	if over && !s.won(int(s.turn)) {
		return fmt.Errorf("game over but player %d (%c) has not won", s.turn, s.colors[s.turn].Letter())
	}
	for p := 0; p < n; p++ {
		if !s.won(p) || (over && p == int(s.turn)) {
			continue
		}
		// Only a ship waiting on its start square after Vader found the
		// last card can have met the condition without winning (yet, or
		// before another player won): the ship cannot find a card on a
		// corner, and bringing it home after its last card wins at once.
		if s.variants.NoReturn || !s.variants.Vader {
			if over {
				return fmt.Errorf("player %d (%c) has also met the winning condition", p, s.colors[p].Letter())
			}
			return fmt.Errorf("player %d (%c) has already won but the game goes on", p, s.colors[p].Letter())
		}
		if c := s.cards[p][s.found[p]-1]; !s.vaderCard(c) {
			return fmt.Errorf("player %d (%c) has all cards found and his ship at home, but his last card %c was not found by Darth Vader, so he would have won", p, s.colors[p].Letter(), TargetLetter(c))
		}
	}
	return nil
}

// Position is a State spelled out in plain exported values, for conversion
// to and from other representations (the service's typed messages).
// FromPosition(s.Position()) == s for every State s that FromPosition accepts.
type Position struct {
	Board  [NumSquares]Tile // indexed by Square
	Spare  Tile
	Colors []Color  // per player in turn order; len is the number of players
	Ships  []Square // per player
	Vader  Square   // Darth Vader's square; NoSquare when the variant is off
	Last   Point    // previous insertion point; NoPoint before the first shift
	Turn   int      // player to act; the winner once Phase is PhaseOver
	Phase  Phase
	Found  [][]uint8 // per player, targets found in the order found
	Stacks [][]uint8 // per player, cards to find, top first; 0 = hidden (a view)
	Variants
}

// Position returns s spelled out; the slices are new.
func (s State) Position() Position {
	n := int(s.n)
	sn := Position{
		Board: s.board, Spare: s.spare, Vader: s.vader, Last: s.last,
		Turn: int(s.turn), Phase: s.phase, Variants: s.variants,
		Colors: append([]Color(nil), s.colors[:n]...),
		Ships:  append([]Square(nil), s.ships[:n]...),
		Found:  make([][]uint8, n),
		Stacks: make([][]uint8, n),
	}
	for p := 0; p < n; p++ {
		sn.Found[p] = s.Found(p)
		sn.Stacks[p] = s.Stack(p)
	}
	return sn
}

// FromPosition builds the State sn describes. It checks what Validate
// checks, except that hidden cards (0 in Stacks) are accepted, so a view
// converts too. Errors wrap game.ErrInvalidState.
func FromPosition(sn Position) (State, error) {
	var s State
	n := len(sn.Colors)
	bad := func(format string, a ...any) (State, error) {
		return State{}, fmt.Errorf("labyrinth: %w: "+format, append([]any{game.ErrInvalidState}, a...)...)
	}
	if n < MinPlayers || n > MaxPlayers {
		return bad("%d players; want 2..4", n)
	}
	if len(sn.Ships) != n || len(sn.Found) != n || len(sn.Stacks) != n {
		return bad("%d colours but %d ships, %d found lists, %d stacks", n, len(sn.Ships), len(sn.Found), len(sn.Stacks))
	}
	s.n = uint8(n)
	s.board, s.spare, s.variants = sn.Board, sn.Spare, sn.Variants
	s.vader, s.last, s.phase = sn.Vader, sn.Last, sn.Phase
	if sn.Turn < 0 || sn.Turn >= n {
		return bad("turn %d of %d players", sn.Turn, n)
	}
	s.turn = uint8(sn.Turn)
	for p := 0; p < n; p++ {
		s.colors[p], s.ships[p] = sn.Colors[p], sn.Ships[p]
		f, st := sn.Found[p], sn.Stacks[p]
		if len(f)+len(st) > maxCards {
			return bad("player %d holds %d cards", p, len(f)+len(st))
		}
		copy(s.cards[p][:], f)
		copy(s.cards[p][len(f):], st)
		s.found[p] = uint8(len(f))
		s.count[p] = uint8(len(f) + len(st))
	}
	if !s.vader.Valid() {
		s.vader = NoSquare
	}
	if err := s.validate(true); err != nil {
		return bad("%v", err)
	}
	return s, nil
}

// Loose squares: those without a printed tile, in reading order.
var looseSquares = func() (l [33]Square) {
	k := 0
	for q := Square(0); q < NumSquares; q++ {
		if !isFixed[q] {
			l[k] = q
			k++
		}
	}
	return l
}()

// fixedSquares are the squares with a printed tile.
var fixedSquares = func() (f [16]Square) {
	k := 0
	for q := Square(0); q < NumSquares; q++ {
		if isFixed[q] {
			f[k] = q
			k++
		}
	}
	return f
}()

// targetRange[shape] has a bit for each target a loose tile of that shape
// may show (bit 0: none).
var targetRange = [4]uint32{
	ShapeStraight: 1,
	ShapeCorner:   1 | 0x3f<<19,
	ShapeT:        0x3f << 13,
}

// tilesOK is the fast check of the tiles (spec "Board and tiles"): the
// fixed tiles in place and the loose mix conserved. tileError explains a
// failure.
func (s *State) tilesOK() bool {
	for _, q := range fixedSquares {
		if s.board[q] != fixedTile[q] {
			return false
		}
	}
	var shapes [4]uint8
	var targets uint32
	withTarget, vaders := 0, 0
	ok := true
	tile := func(t Tile) {
		sh := shapeOf[t.Sides&15]
		shapes[sh]++
		bit := uint32(1) << (t.Target & 31)
		ok = ok && t.Sides < 16 && t.Target <= NumTargets && targetRange[sh]&bit != 0
		if t.Target != 0 {
			targets |= bit
			withTarget++
		}
		if t.Vader {
			vaders++
			ok = ok && sh == ShapeStraight
		}
	}
	for _, q := range looseSquares {
		tile(s.board[q])
	}
	tile(s.spare)
	return ok && shapes == [4]uint8{0, 13, 15, 6} && vaders == 1 && withTarget == 12 && targets == 0xfff<<13
}

// tileError explains why tilesOK failed (nil if it did not).
func (s *State) tileError() error {
	var targetSeen [NumTargets + 1]bool
	var shapes [4]int
	vaders := 0
	check := func(t Tile, q Square) error {
		where := func() string {
			if q == NoSquare {
				return "spare"
			}
			return q.String()
		}
		sh := t.Shape()
		switch sh {
		case ShapeInvalid:
			return fmt.Errorf("%s: sides %x are not a straight, corner or T-junction", where(), t.Sides)
		case ShapeStraight:
			if t.Target != 0 {
				return fmt.Errorf("%s: a straight tile shows no target", where())
			}
		case ShapeCorner:
			if t.Target != 0 && (t.Target < 19 || t.Target > 24) {
				return fmt.Errorf("%s: a corner shows no target or one of 19..24 (S..X), not %c", where(), TargetLetter(t.Target))
			}
		case ShapeT:
			if t.Target < 13 || t.Target > 18 {
				return fmt.Errorf("%s: a loose T-junction shows one of targets 13..18 (M..R)", where())
			}
		}
		if t.Target != 0 {
			if targetSeen[t.Target] {
				return fmt.Errorf("%s: target %c shown twice", where(), TargetLetter(t.Target))
			}
			targetSeen[t.Target] = true
		}
		if t.Vader {
			if sh != ShapeStraight {
				return fmt.Errorf("%s: the Vader symbol is on a %s tile; only a straight tile shows it (spec \"Board and tiles\")", where(), sh)
			}
			vaders++
		}
		shapes[sh]++
		return nil
	}
	for q := Square(0); q < NumSquares; q++ {
		t := s.board[q]
		if isFixed[q] {
			if t != fixedTile[q] {
				return fmt.Errorf("%v: fixed tile must be %v, not %v", q, fixedTile[q], t)
			}
			continue
		}
		if err := check(t, q); err != nil {
			return err
		}
	}
	if err := check(s.spare, NoSquare); err != nil {
		return err
	}
	if shapes[ShapeStraight] != 13 || shapes[ShapeCorner] != 15 || shapes[ShapeT] != 6 {
		return fmt.Errorf("loose tiles are %d straights, %d corners, %d T-junctions; want 13, 15, 6",
			shapes[ShapeStraight], shapes[ShapeCorner], shapes[ShapeT])
	}
	if vaders != 1 {
		return fmt.Errorf("%d tiles show the Vader symbol; want 1", vaders)
	}
	// With 13..18 on the 6 T's and no repeats, a missing target can only be a corner one.
	for c := 19; c <= NumTargets; c++ {
		if !targetSeen[c] {
			return fmt.Errorf("no corner shows target %c", TargetLetter(uint8(c)))
		}
	}
	return nil

}
