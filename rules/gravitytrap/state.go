package gravitytrap

import (
	"fmt"
	"math/bits"

	"github.com/gamerules/gamerules/rules/game"
)

// Players (spec "Pieces"): red is player 0, blue is player 1.
const (
	Red  = 0
	Blue = 1
)

// NoStation is the station of a ship not yet placed.
const NoStation = -1

// playerNames are the players' names, by index, as Info and errors use them.
var playerNames = [2]string{"red", "blue"}

// Info returns the description of Gravity Trap (red and blue, no chance).
func Info() game.Info {
	return game.Info{
		ID:           "gravity_trap",
		Name:         "Gravity Trap",
		Players:      append([]string(nil), playerNames[:]...),
		MinPlayers:   2,
		MaxPlayers:   2,
		RulesVersion: "1.0.0",
	}
}

// Options are the variants of a new game (spec "Set-up").
type Options struct {
	// Board is the board to play on; nil means DefaultBoard().
	Board *Board
	// First is the player who places first and then moves first: Red (the
	// default, 0) or Blue (1).
	First int
	// AllowMirrorPlacement lifts the ban on placing the second ship on the
	// station opposite the first (spec "Set-up" step 2; the Dutch leaflet).
	AllowMirrorPlacement bool
}

// State is a whole Gravity Trap position: the board, the marbles, both ships,
// the player to act, the phase (set-up or moving) and the mirror option.
//
// A State is a small value: Apply returns a new State and never changes its
// receiver. Its only reference is the immutable *Board, so States are safe to
// copy, share and use from several goroutines. States on the same *Board
// compare equal with == exactly when they are the same position.
//
// The zero State is invalid (it has no board); use New, ParseState,
// ParseStateOn or FromPosition.
type State struct {
	board       *Board
	marbles     uint64  // bit i: a marble on station i
	ship        [2]int8 // station of each ship, NoStation while not placed
	toAct       uint8   // player to place (set-up) or to move
	placing     bool    // set-up phase
	allowMirror bool    // Options.AllowMirrorPlacement
}

// New returns a fresh game: the empty board, Options.First to place his ship.
// Options.First other than Red or Blue is an error wrapping
// game.ErrInvalidOptions.
func New(o Options) (State, error) {
	if o.First != Red && o.First != Blue {
		return State{}, fmt.Errorf("gravitytrap: %w: first player %d (want 0 = red or 1 = blue)", game.ErrInvalidOptions, o.First)
	}
	return State{
		board:       o.Board.orDefault(),
		ship:        [2]int8{NoStation, NoStation},
		toAct:       uint8(o.First),
		placing:     true,
		allowMirror: o.AllowMirrorPlacement,
	}, nil
}

// Position is the typed form of a State, for callers that carry a state as
// data (the API's typed state; a caller's board must travel this way).
type Position struct {
	// Board is the board; nil means DefaultBoard().
	Board *Board
	// Marbles lists the stations holding a marble, in any order (State.Position
	// gives them ascending). Empty during set-up.
	Marbles []int
	// Ships holds each player's ship station, NoStation while not placed.
	Ships [2]int
	// ToAct is the player to place (set-up) or to move: Red or Blue.
	ToAct int
	// Placing is true during set-up.
	Placing bool
	// AllowMirrorPlacement is the option of the same name.
	AllowMirrorPlacement bool
}

// Position returns s in typed form; FromPosition(s.Position()) == s.
func (s State) Position() Position {
	p := Position{
		Board:                s.board,
		Marbles:              stationsOf(s.marbles),
		ToAct:                int(s.toAct),
		Placing:              s.placing,
		AllowMirrorPlacement: s.allowMirror,
	}
	for i := range s.ship {
		p.Ships[i] = int(s.ship[i])
	}
	return p
}

// FromPosition builds a State from its typed form and validates it (see
// Validate). Errors wrap game.ErrInvalidState: an unknown or repeated marble
// station, a ship off the board, ToAct not a player, or a position Validate
// rejects.
func FromPosition(p Position) (State, error) {
	b := p.Board.orDefault()
	s := State{board: b, placing: p.Placing, allowMirror: p.AllowMirrorPlacement}
	if p.ToAct != Red && p.ToAct != Blue {
		return State{}, stateErr("player to act %d (want 0 = red or 1 = blue)", p.ToAct)
	}
	s.toAct = uint8(p.ToAct)
	for _, m := range p.Marbles {
		if m < 0 || m >= b.n {
			return State{}, stateErr("marble on unknown station %d (stations are 0..%d)", m, b.n-1)
		}
		if s.marbles&(1<<m) != 0 {
			return State{}, stateErr("marble on station %d listed twice", m)
		}
		s.marbles |= 1 << m
	}
	for i, st := range p.Ships {
		if st != NoStation && (st < 0 || st >= b.n) {
			return State{}, stateErr("%s ship on unknown station %d (stations are 0..%d, or %d while not placed)", playerNames[i], st, b.n-1, NoStation)
		}
		s.ship[i] = int8(st)
	}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}

func stateErr(format string, args ...any) error {
	return fmt.Errorf("gravitytrap: %w: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))
}

// Board returns the state's board (nil for the zero State).
func (s State) Board() *Board { return s.board }

// ToAct returns the player to place or to move (Red or Blue), also in a
// finished position (where that player may have lost or won).
func (s State) ToAct() int { return int(s.toAct) }

// Placing reports whether the game is in set-up (ships being placed).
func (s State) Placing() bool { return s.placing }

// AllowMirrorPlacement reports the option of the same name.
func (s State) AllowMirrorPlacement() bool { return s.allowMirror }

// Ship returns the station of player p's ship, or NoStation while it is not
// placed (or p is not a player).
func (s State) Ship(p int) int {
	if p != Red && p != Blue {
		return NoStation
	}
	return int(s.ship[p])
}

// HasMarble reports whether station i holds a marble.
func (s State) HasMarble(i int) bool {
	return i >= 0 && i < MaxStations && s.marbles&(1<<i) != 0
}

// Marbles returns the number of marbles on the board.
func (s State) Marbles() int { return bits.OnesCount64(s.marbles) }

// Validate reports whether s could arise in a game on its board. It rejects,
// with an error wrapping game.ErrInvalidState that says why:
//   - the zero State (no board);
//   - set-up: marbles on the board, both ships placed, or the player to
//     place having placed already;
//   - moving: a ship not placed, both ships on one station, a marble under a
//     ship, a marble off the board;
//   - moving, after k >= 1 moves (k = stations holding neither marble nor
//     ship): the player who moved last must share a line with an empty
//     station (the one he left, which stays empty for good), and after
//     k >= 2 moves so must the player to move.
//
// Validate never changes s. It does not look for impossible histories
// beyond these checks.
func (s State) Validate() error {
	b := s.board
	if b == nil {
		return stateErr("zero State has no board; use New, ParseState or FromPosition")
	}
	if s.toAct > 1 {
		return stateErr("player to act %d", s.toAct)
	}
	if s.marbles&^b.all != 0 {
		return stateErr("marble off the board (station %d of 0..%d)", 63-bits.LeadingZeros64(s.marbles), b.n-1)
	}
	for i, st := range s.ship {
		if st < NoStation || int(st) >= b.n {
			return stateErr("%s ship on unknown station %d", playerNames[i], st)
		}
	}
	me, other := s.toAct, 1-s.toAct
	if s.placing {
		switch {
		case s.marbles != 0:
			return stateErr("marbles on the board during set-up (they are put on after both ships)")
		case s.ship[me] != NoStation:
			return stateErr("%s is to place but his ship is already on station %d", playerNames[me], s.ship[me])
		}
		// The mirror ban is not checked here: the first ship is placed, the
		// second not yet, so there is nothing to check.
		return nil
	}
	for i, st := range s.ship {
		if st == NoStation {
			return stateErr("%s ship not placed after set-up", playerNames[i])
		}
		if s.marbles&(1<<st) != 0 {
			return stateErr("%s ship on station %d which holds a marble", playerNames[i], st)
		}
	}
	if s.ship[0] == s.ship[1] {
		return stateErr("both ships on station %d", s.ship[0])
	}
	empty := b.all &^ s.marbles &^ (1 << s.ship[0]) &^ (1 << s.ship[1])
	moves := bits.OnesCount64(empty)
	if moves >= 1 && b.reach[s.ship[other]]&empty == 0 {
		return stateErr("%s moved last but no empty station shares a line with his station %d", playerNames[other], s.ship[other])
	}
	if moves >= 2 && b.reach[s.ship[me]]&empty == 0 {
		return stateErr("%s has moved but no empty station shares a line with his station %d", playerNames[me], s.ship[me])
	}
	return nil
}

// avail returns player p's destinations in a moving-phase state.
func (s *State) avail(p uint8) uint64 {
	return s.board.reach[s.ship[p]] & s.marbles
}

// result returns whether the game is over, the winner and his score
// (spec "End and score").
func (s *State) result() (finished bool, winner uint8, score int) {
	if s.placing || s.board == nil {
		return false, 0, 0
	}
	me, other := s.toAct, 1-s.toAct
	// The player who did not move last is the one to move, so the one not
	// to move has just moved (or, right after set-up, placed second). If
	// his ship is stuck he made his last move and loses, also when both
	// ships are stuck; otherwise a stuck player to move loses.
	if s.avail(other) == 0 {
		return true, me, bits.OnesCount64(s.avail(me))
	}
	if s.avail(me) == 0 {
		return true, other, bits.OnesCount64(s.avail(other))
	}
	return false, 0, 0
}

// Outcome returns the result so far (spec "End and score"). The game is over
// as soon as either ship has no legal move; Winner is then the winner and
// Points[Winner] the number of marble stations his ship can still reach
// (the loser's Points is 0), and Detail names the trapped loser, "red
// trapped" or "blue trapped". An unfinished game (and set-up) has Winner
// game.NoWinner, Points {0, 0} and no Detail. Outcome of the zero State is
// unfinished.
func (s State) Outcome() game.Outcome {
	out := game.Outcome{Winner: game.NoWinner, Points: []int{0, 0}}
	if fin, w, score := s.result(); fin {
		out.Finished, out.Winner = true, int(w)
		out.Points[w] = score
		out.Detail = playerNames[1-w] + " trapped"
	}
	return out
}

// LegalMoves returns every legal move, ascending by station: during set-up
// the placements (Place true) on every station except the other ship's and,
// unless AllowMirrorPlacement, the one opposite it; when moving, every
// station holding a marble that shares a line with the mover's station.
// A finished game (and the zero State) has no legal moves: the result is
// then empty (nil). s is not changed.
func (s State) LegalMoves() []Move {
	if s.board == nil {
		return nil
	}
	var set uint64
	if s.placing {
		set = s.placeable()
	} else {
		if fin, _, _ := s.result(); fin {
			return nil
		}
		set = s.avail(s.toAct)
	}
	out := make([]Move, 0, bits.OnesCount64(set))
	for ; set != 0; set &= set - 1 {
		out = append(out, Move{Place: s.placing, Station: bits.TrailingZeros64(set)})
	}
	return out
}

// placeable returns the stations the player to place may choose.
func (s *State) placeable() uint64 {
	set := s.board.all
	if o := s.ship[1-s.toAct]; o != NoStation {
		set &^= 1 << o
		if opp, ok := s.board.Opposite(int(o)); ok && !s.allowMirror {
			set &^= 1 << opp
		}
	}
	return set
}

// Apply returns the state after m; s is not changed. During set-up m must be
// a placement (Place true): after the second placement a marble goes on every
// other station and the player who placed first is to move. When moving, the
// ship flies to m.Station, whose marble is removed.
//
// Errors: the zero State → game.ErrInvalidState; a finished game →
// game.ErrGameOver; a move that is not legal now → game.ErrIllegalMove with
// the reason (a placement after set-up or a flight during it, a station off
// the board, the other ship's station, the mirror station, an empty station,
// the mover's own station, a station on no line through the mover's).
func (s State) Apply(m Move) (State, error) {
	b := s.board
	if b == nil {
		return State{}, stateErr("zero State has no board; use New, ParseState or FromPosition")
	}
	if fin, w, _ := s.result(); fin {
		return State{}, fmt.Errorf("gravitytrap: %w: %s has won; no move %v", game.ErrGameOver, playerNames[w], m)
	}
	me, other := s.toAct, 1-s.toAct
	t := m.Station
	if t < 0 || t >= b.n {
		return State{}, illegal(m, "no station %d on this board (0..%d)", t, b.n-1)
	}
	if s.placing {
		if !m.Place {
			return State{}, illegal(m, "set-up: %s must place his ship first (place N)", playerNames[me])
		}
		if int(s.ship[other]) == t {
			return State{}, illegal(m, "station %d holds the %s ship", t, playerNames[other])
		}
		if opp, ok := b.Opposite(int(s.ship[other])); ok && opp == t && !s.allowMirror {
			return State{}, illegal(m, "station %d is opposite the %s ship on %d: mirror placement is banned (option allow_mirror_placement lifts the ban)", t, playerNames[other], s.ship[other])
		}
		n := s
		n.ship[me] = int8(t)
		n.toAct = other
		if s.ship[other] != NoStation {
			n.placing = false
			n.marbles = b.all &^ (1 << t) &^ (1 << s.ship[other])
		}
		return n, nil
	}
	if m.Place {
		return State{}, illegal(m, "set-up is over; a move names the destination station only")
	}
	from := int(s.ship[me])
	switch {
	case t == from:
		return State{}, illegal(m, "the %s ship is on station %d already", playerNames[me], t)
	case t == int(s.ship[other]):
		return State{}, illegal(m, "station %d holds the %s ship; a ship may not land on the other", t, playerNames[other])
	case s.marbles&(1<<t) == 0:
		return State{}, illegal(m, "station %d is empty; a ship lands only on a marble", t)
	case b.reach[from]&(1<<t) == 0:
		return State{}, illegal(m, "station %d is on no line through station %d (the %s ship)", t, from, playerNames[me])
	}
	n := s
	n.ship[me] = int8(t)
	n.marbles &^= 1 << t
	n.toAct = other
	return n, nil
}

func illegal(m Move, format string, args ...any) error {
	return fmt.Errorf("gravitytrap: %w: %v: %s", game.ErrIllegalMove, m, fmt.Sprintf(format, args...))
}
