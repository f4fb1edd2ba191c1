package labyrinth

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/gamerules/gamerules/rules/game"
)

// Move is one step of a turn: a shift in the shift phase, a figure move in
// the move phase. Move is a small comparable value; String gives its
// notation (spec "Move notation").
//
// A shift has Point set (N2..W6) and Rotation, the quarter turns clockwise
// applied to the spare before inserting it. A figure move has Point ==
// NoPoint, To the destination (the figure's own square to stay) and Vader
// set when Darth Vader moves instead of the player's ship. The zero Move is
// the ship move to r1c1.
type Move struct {
	Point    Point  // insertion point of a shift; NoPoint for a figure move
	Rotation uint8  // shift only: quarter turns clockwise, 0..3
	Vader    bool   // figure move only: Darth Vader moves, not the ship
	To       Square // figure move only: the destination
}

// ShiftMove returns the shift at p with the spare turned rot quarter turns
// clockwise (rot taken modulo 4).
func ShiftMove(p Point, rot int) Move { return Move{Point: p, Rotation: uint8(rot & 3)} }

// ShipMove returns the move of the player's ship to q.
func ShipMove(q Square) Move { return Move{To: q} }

// VaderMove returns the move of Darth Vader to q.
func VaderMove(q Square) Move { return Move{Vader: true, To: q} }

// IsShift reports whether m is a shift (rather than a figure move).
func (m Move) IsShift() bool { return m.Point != NoPoint }

// String returns m's notation: "N2" or "N2:1" for a shift (rotation 0 is
// not written), "r3c5" for a ship move, "V:r3c5" for a Vader move. One
// allocation; AppendText writes the same bytes into a caller's buffer, and
// AppendNotations the notation of a whole list into one string.
func (m Move) String() string {
	var buf [8]byte
	b, _ := m.AppendText(buf[:0])
	return string(b)
}

// AppendText appends m's notation (exactly the bytes of m.String(), at most
// 6) to b and returns the extended buffer; it does not allocate when b has
// room, and the error is always nil (Move implements encoding.TextAppender).
func (m Move) AppendText(b []byte) ([]byte, error) {
	switch {
	case m.IsShift():
		b = m.Point.appendText(b)
		if m.Rotation != 0 {
			b = append(b, ':', '0'+m.Rotation%10)
		}
	case m.Vader:
		b = m.To.appendText(append(b, 'V', ':'))
	case !m.To.Valid():
		b = append(b, '-')
	default:
		b = m.To.appendText(b)
	}
	return b, nil
}

// AppendNotations appends the notation of each of moves to dst, in order
// (dst[len(dst)+i] == moves[i].String(), byte for byte), and returns the
// extended slice. The texts are substrings of one string built for the
// whole list, so the cost is one allocation for all the text (plus dst's
// growth when it lacks capacity), not one per move. This is the call for
// listing moves (e.g. LegalMoves' notation).
func AppendNotations(dst []string, moves []Move) []string {
	var stack [512]byte
	var endStack [128]int32
	buf, ends := stack[:0], endStack[:0]
	for _, m := range moves {
		buf, _ = m.AppendText(buf)
		ends = append(ends, int32(len(buf)))
	}
	text := string(buf)
	dst = slices.Grow(dst, len(ends))
	start := int32(0)
	for _, e := range ends {
		dst = append(dst, text[start:e])
		start = e
	}
	return dst
}

// Notations returns the notation of each of moves: AppendNotations into a
// new slice (two allocations for the whole list).
func Notations(moves []Move) []string {
	return AppendNotations(make([]string, 0, len(moves)), moves)
}

// push inserts t at p: the line moves one square, figures on the pushed-out
// tile wrap to the inserted one (spec "Shift"). It returns the pushed-out
// tile. p must be valid.
func (s *State) push(p Point, t Tile) Tile {
	line := p.line()
	var out Tile
	switch p.side() {
	case 0: // N: down column line
		out = s.board[6*7+line]
		for r := 6; r > 0; r-- {
			s.board[r*7+line] = s.board[(r-1)*7+line]
		}
		s.board[line] = t
	case 2: // S: up column line
		out = s.board[line]
		for r := 0; r < 6; r++ {
			s.board[r*7+line] = s.board[(r+1)*7+line]
		}
		s.board[6*7+line] = t
	case 3: // W: right along row line
		base := line * 7
		out = s.board[base+6]
		copy(s.board[base+1:base+7], s.board[base:base+6])
		s.board[base] = t
	default: // E: left along row line
		base := line * 7
		out = s.board[base]
		copy(s.board[base:base+6], s.board[base+1:base+7])
		s.board[base+6] = t
	}
	for i := 0; i < int(s.n); i++ {
		s.ships[i] = pushed(p, s.ships[i])
	}
	if s.vader.Valid() {
		s.vader = pushed(p, s.vader)
	}
	return out
}

// pushed returns where a figure on q stands after the push at p.
func pushed(p Point, q Square) Square {
	line := p.line()
	r, c := int(q)/7, int(q)%7
	switch p.side() {
	case 0:
		if c == line {
			r = (r + 1) % 7
		}
	case 2:
		if c == line {
			r = (r + 6) % 7
		}
	case 3:
		if r == line {
			c = (c + 1) % 7
		}
	default:
		if r == line {
			c = (c + 6) % 7
		}
	}
	return Square(r*7 + c)
}

// notCol7 has a bit for every square outside column 7.
const notCol7 = (uint64(1)<<NumSquares - 1) &^ (1<<6 | 1<<13 | 1<<20 | 1<<27 | 1<<34 | 1<<41 | 1<<48)

// links returns the board's connections as bit sets over squares: bit q of
// h is set when q and q+1 (its east neighbour) are both open towards each
// other, bit q of v when q and q+7 (south) are.
func (s *State) links() (h, v uint64) {
	var e, w, so, no uint64
	for q := range s.board {
		m := uint64(s.board[q].Sides)
		no |= (m & 1) << q
		e |= (m >> 1 & 1) << q
		so |= (m >> 2 & 1) << q
		w |= (m >> 3 & 1) << q
	}
	return e & (w >> 1) & notCol7, so & (no >> 7)
}

// flood returns the set of squares connected to from (from included).
func flood(from Square, h, v uint64) uint64 {
	r := uint64(1) << from
	for {
		n := r | (r&h)<<1 | (r>>1)&h | (r&v)<<7 | (r>>7)&v
		if n == r {
			return r
		}
		r = n
	}
}

// Reachable returns every square connected to from by an unbroken corridor,
// from itself included, in reading order (spec "Move"); nil when from is off
// the board. Figures never block.
func (s State) Reachable(from Square) []Square {
	if !from.Valid() {
		return nil
	}
	h, v := s.links()
	set := flood(from, h, v)
	out := make([]Square, 0, bits.OnesCount64(set))
	for ; set != 0; set &= set - 1 {
		out = append(out, Square(bits.TrailingZeros64(set)))
	}
	return out
}

// movers reports which figures the player to act may move (spec "Targets
// and winning", "Variants"): his ship, unless his current card calls for
// Darth Vader; with open cards, his ship if any unfound card is not a Vader
// card and Vader if any is. With all cards found he moves his ship home.
func (s *State) movers() (ship, vader bool) {
	p := s.turn
	lo, hi := s.found[p], s.count[p]
	if lo == hi {
		return true, false
	}
	if !s.variants.OpenCards {
		v := s.vaderCard(s.cards[p][lo])
		return !v, v
	}
	for i := lo; i < hi; i++ {
		if s.vaderCard(s.cards[p][i]) {
			vader = true
		} else {
			ship = true
		}
	}
	return ship, vader
}

// LegalMoves returns every legal move of the player to act, each once.
//
// In the shift phase: the shifts in point order N2, N4, N6, E2, E4, E6, S2,
// S4, S6, W2, W4, W6, leaving out the reversal of the previous push, each
// point with rotations 0..3 but only the smallest rotation of each distinct
// spare orientation (so 44 or 48 shifts, 22 or 24 with a straight spare).
//
// In the move phase: the ship moves to every square its ship reaches
// (staying included) in reading order, then the Vader moves likewise, for
// the figures the player may move (see the spec's "Variants").
//
// Empty when the game is over, for a per-player view (IsView) and for the
// zero State. s is not changed.
func (s State) LegalMoves() []Move {
	if s.n == 0 || s.phase == PhaseOver || s.IsView() {
		return nil
	}
	if s.phase == PhaseShift {
		return s.shiftMoves(make([]Move, 0, 4*NumPoints))
	}
	if s.phase != PhaseMove {
		return nil
	}
	ship, vader := s.movers()
	h, v := s.links()
	var shipSet, vaderSet uint64
	if ship {
		shipSet = flood(s.ships[s.turn], h, v)
	}
	if vader && s.vader.Valid() {
		vaderSet = flood(s.vader, h, v)
	}
	out := make([]Move, 0, bits.OnesCount64(shipSet)+bits.OnesCount64(vaderSet))
	for ; shipSet != 0; shipSet &= shipSet - 1 {
		out = append(out, Move{To: Square(bits.TrailingZeros64(shipSet))})
	}
	for ; vaderSet != 0; vaderSet &= vaderSet - 1 {
		out = append(out, Move{Vader: true, To: Square(bits.TrailingZeros64(vaderSet))})
	}
	return out
}

// distinctRotations returns the rotations 0..3 of a tile with sides m that
// give distinct orientations: 0,1 for a straight, 0..3 otherwise.
func distinctRotations(m uint8) int {
	if rotSides(m, 2) == m {
		return 2
	}
	return 4
}

func (s *State) shiftMoves(out []Move) []Move {
	forbidden := s.last.Opposite()
	k := distinctRotations(s.spare.Sides)
	for p := N2; p <= W6; p++ {
		if p == forbidden {
			continue
		}
		for r := 0; r < k; r++ {
			out = append(out, Move{Point: p, Rotation: uint8(r)})
		}
	}
	return out
}

// Apply returns the state after m; s is not changed. Apply = Validate + the
// transition: it first checks s as Validate does.
//
// A shift (shift phase) turns the spare, pushes it in at m.Point, wraps the
// figures on the pushed-out tile to the inserted one, makes the pushed-out
// tile the spare, records m.Point and goes to the move phase. Any rotation
// 0..3 is accepted; rotations giving the same orientation give the same
// state.
//
// A figure move (move phase) moves the ship or Darth Vader to m.To; if it
// ends on the square of a target the player may find with that figure, the
// card is found (spec "Targets and winning"); then either the game ends
// (all cards found and, unless NoReturn, the ship moved onto its start
// square) and the mover is the winner, or the next player in turn order
// shifts.
//
// Errors: game.ErrGameOver when the game is over; game.ErrInvalidState when
// s does not Validate (a view, among others); game.ErrIllegalMove, saying
// why, for a move that is not legal now (wrong phase, the reversal of the
// previous push, a rotation outside 0..3, a figure the player may not move,
// a square not connected to the figure). On error the State returned is
// the zero State.
func (s State) Apply(m Move) (State, error) { return s.apply(m, true) }

// ApplyListed is Apply for a move known to be legal, without Apply's
// costly checks: m must be a move of s.LegalMoves(), and s a State that
// Validates (one from New, ParseState, FromPosition or Apply, or
// ApplyListed's own results). It returns what Apply returns for m, without
// validating s again nor flooding the labyrinth again to check that m.To
// is reached (LegalMoves did), so a caller that chose m from the list (a
// playout) pays for the generation once. For any other m or s the result
// is unspecified: use Apply on moves that come from outside. s does not
// change.
func (s State) ApplyListed(m Move) State {
	next, _ := s.apply(m, false)
	return next
}

// apply is Apply, with check; without it (ApplyListed) it leaves out the
// validation of s and the flood that checks a figure move's square.
func (s State) apply(m Move, check bool) (State, error) {
	if s.phase == PhaseOver {
		return State{}, fmt.Errorf("labyrinth: %w: %v: player %c has won", game.ErrGameOver, m, s.colors[s.turn].Letter())
	}
	if check {
		if err := s.validate(false); err != nil {
			return State{}, fmt.Errorf("labyrinth: %w: %v", game.ErrInvalidState, err)
		}
	}
	illegal := func(format string, a ...any) (State, error) {
		return State{}, fmt.Errorf("labyrinth: %w: %v: "+format, append([]any{game.ErrIllegalMove, m}, a...)...)
	}
	if s.phase == PhaseShift {
		if !m.IsShift() {
			return illegal("the turn starts with a shift (an insertion point such as N2)")
		}
		if !m.Point.Valid() {
			return illegal("insertion point %d is not one of N2..W6", m.Point)
		}
		if m.Rotation > 3 {
			return illegal("rotation %d; want 0..3", m.Rotation)
		}
		if m.Point == s.last.Opposite() {
			return illegal("%v would reverse the previous push %v", m.Point, s.last)
		}
		s.spare = s.push(m.Point, s.spare.Rotate(int(m.Rotation)))
		s.last = m.Point
		s.phase = PhaseMove
		return s, nil
	}

	// Move phase.
	if m.IsShift() {
		return illegal("the labyrinth has been shifted; now move a figure (or stay)")
	}
	if !m.To.Valid() {
		return illegal("square %d is off the board", m.To)
	}
	p := int(s.turn)
	ship, vader := s.movers()
	from := &s.ships[p]
	switch {
	case m.Vader && !s.variants.Vader:
		return illegal("Darth Vader is not in this game")
	case m.Vader && !vader:
		return illegal("no card of player %c calls for Darth Vader; move the ship", s.colors[p].Letter())
	case !m.Vader && !ship:
		return illegal("the card of player %c calls for Darth Vader (V:%v)", s.colors[p].Letter(), m.To)
	case m.Vader:
		from = &s.vader
	}
	if check {
		h, v := s.links()
		if flood(*from, h, v)&(1<<m.To) == 0 {
			return illegal("%v is not connected to %v", m.To, *from)
		}
	}
	*from = m.To
	s.find(p, s.board[m.To].Target, m.Vader)
	if s.won(p) && (s.variants.NoReturn || !m.Vader) {
		s.phase = PhaseOver
		return s, nil
	}
	s.turn = uint8((p + 1) % int(s.n))
	s.phase = PhaseShift
	return s, nil
}

// find records that player p's figure (Vader when byVader) ended its move
// on target (0 = none): the card is found if it is his current card, or any
// unfound card with open cards, and is one the figure may find. The found
// card moves to the end of his found cards; the rest of the stack keeps its
// order.
func (s *State) find(p int, target uint8, byVader bool) {
	if target == 0 {
		return
	}
	lo, hi := s.found[p], s.found[p]+1
	if s.variants.OpenCards {
		hi = s.count[p]
	}
	if hi > s.count[p] {
		return
	}
	for i := lo; i < hi; i++ {
		c := s.cards[p][i]
		if c == target && s.vaderCard(c) == byVader {
			copy(s.cards[p][lo+1:i+1], s.cards[p][lo:i])
			s.cards[p][lo] = c
			s.found[p]++
			return
		}
	}
}
