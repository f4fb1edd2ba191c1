package backgammon

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gamerules/gamerules/rules/game"
)

// Kind says what a Move is.
type Kind uint8

const (
	// KindNone is the zero Move's kind: not a move; Apply refuses it.
	KindNone Kind = iota
	// KindPlay moves checkers: one to four single-die steps.
	KindPlay
	// KindPass forfeits the turn; legal only when no number can be played.
	KindPass
	// KindRoll is a chance outcome of PhaseRoll: the two dice, higher first.
	KindRoll
	// KindOpeningRoll is a chance outcome of PhaseOpening: white's die, then
	// black's, never equal.
	KindOpeningRoll
)

// The decision kinds (spec "Doubling cube, match play, resignation"),
// numbered from 16.
const (
	// KindDouble offers a double (PhaseRoll, before rolling).
	KindDouble Kind = 16 + iota
	// KindTake accepts a double (PhaseDouble).
	KindTake
	// KindDrop refuses a double; the game ends (PhaseDouble).
	KindDrop
	// KindBeaver takes and at once redoubles, keeping the cube (PhaseDouble,
	// money play with beavers).
	KindBeaver
	// KindResign offers to resign; Move.Resignation is the level.
	KindResign
	// KindAccept accepts a resignation; the game ends (PhaseResign).
	KindAccept
	// KindDecline declines a resignation; play goes on (PhaseResign).
	KindDecline
	// KindNextGame starts the next game of an unfinished match (PhaseOver;
	// spec "Doubling cube, match play").
	KindNextGame
)

var kindNames = [...]string{"none", "play", "pass", "roll", "opening roll"}

var decisionNames = [...]string{"double", "take", "drop", "beaver", "resign", "accept", "decline", "next game"}

// String returns "none", "play", "pass", "roll", "opening roll", "double",
// "take", "drop", "beaver", "resign", "accept", "decline" or "next game".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	if k >= KindDouble && int(k-KindDouble) < len(decisionNames) {
		return decisionNames[k-KindDouble]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Step is one checker moved by one die: From and To are points from the
// mover's side, From in 1..25 (25 = Bar), To in 0..24 (0 = Off). Hit is true
// when the step lands on a lone opposing checker and sends it to the bar.
type Step struct {
	From, To int
	Hit      bool
}

// String returns "from/to", with "bar", "off" and a trailing "*" for a hit.
func (st Step) String() string {
	s := pointName(st.From) + "/" + pointName(st.To)
	if st.Hit {
		s += "*"
	}
	return s
}

// Move is one move of the game: a checker play, a pass, or a chance outcome
// (a roll). It is a small comparable value (use ==, or as a map key). The
// moves LegalMoves returns are canonical: a play's steps are in execution
// order sorted by descending (From, To), one play per resulting position, and
// ParseMove returns exactly these values. The zero Move is KindNone.
type Move struct {
	kind  Kind
	n     uint8    // number of steps (KindPlay)
	hits  uint8    // bit i: step i hits
	dice  [2]uint8 // KindRoll: high, low; KindOpeningRoll: white's, black's
	steps [4][2]uint8
}

// Kind returns what m is.
func (m Move) Kind() Kind { return m.kind }

// Dice returns the dice of a roll: (high, low) for KindRoll, (white's,
// black's) for KindOpeningRoll, and 0, 0 for other kinds.
func (m Move) Dice() (int, int) {
	if m.kind != KindRoll && m.kind != KindOpeningRoll {
		return 0, 0
	}
	return int(m.dice[0]), int(m.dice[1])
}

// Len returns the number of single-die steps of a play (1..4), 0 for other kinds.
func (m Move) Len() int { return int(m.n) }

// Step returns step i (0 <= i < m.Len()) of a play. It panics if i is out of
// range (a programmer error).
func (m Move) Step(i int) Step {
	if i < 0 || i >= int(m.n) {
		panic(fmt.Sprintf("backgammon: Move.Step(%d) of a move with %d steps", i, m.n))
	}
	return Step{From: int(m.steps[i][0]), To: int(m.steps[i][1]), Hit: m.hits&(1<<i) != 0}
}

// Steps returns a play's steps in order (nil for other kinds).
func (m Move) Steps() []Step {
	if m.n == 0 {
		return nil
	}
	out := make([]Step, m.n)
	for i := range out {
		out[i] = m.Step(i)
	}
	return out
}

// Probability returns the chance of a chance outcome: 1/30 for an opening
// roll, 1/36 for a double and 2/36 for any other roll of PhaseRoll; 0 for
// moves that are not chance outcomes.
func (m Move) Probability() float64 {
	switch m.kind {
	case KindOpeningRoll:
		return 1.0 / 30
	case KindRoll:
		if m.dice[0] == m.dice[1] {
			return 1.0 / 36
		}
		return 2.0 / 36
	}
	return 0
}

// DoubleMove returns "double". Legal in PhaseRoll when the player on roll
// may double (spec "Doubling cube, match play, resignation").
func DoubleMove() Move { return Move{kind: KindDouble} }

// TakeMove returns "take", the answer that accepts a double.
func TakeMove() Move { return Move{kind: KindTake} }

// DropMove returns "drop", the answer that refuses a double (gnubg also
// says "pass" and "reject"; ParseMove reads them).
func DropMove() Move { return Move{kind: KindDrop} }

// BeaverMove returns "beaver".
func BeaverMove() Move { return Move{kind: KindBeaver} }

// ResignMove returns the offer to resign at level 1 single, 2 gammon or 3
// backgammon: "resign single", "resign gammon", "resign backgammon". Other
// levels give a move Apply refuses.
func ResignMove(level int) Move {
	if level < 1 || level > 3 {
		level = 0
	}
	return Move{kind: KindResign, dice: [2]uint8{uint8(level), 0}}
}

// AcceptMove returns "accept", the answer that accepts a resignation.
func AcceptMove() Move { return Move{kind: KindAccept} }

// DeclineMove returns "decline", the answer that declines a resignation.
func DeclineMove() Move { return Move{kind: KindDecline} }

// NextGameMove returns "next game": in a finished game of an unfinished
// match, the start of the next game.
func NextGameMove() Move { return Move{kind: KindNextGame} }

// Resignation returns the level of a KindResign move (1 single, 2 gammon,
// 3 backgammon) and 0 for other moves.
func (m Move) Resignation() int {
	if m.kind != KindResign {
		return 0
	}
	return int(m.dice[0])
}

// PassMove returns the pass move ("pass"), legal when no number can be played.
func PassMove() Move { return Move{kind: KindPass} }

// RollMove returns the PhaseRoll outcome with dice a and b (1..6, any order);
// its String is "roll <high>-<low>".
func RollMove(a, b int) Move {
	if a < b {
		a, b = b, a
	}
	return Move{kind: KindRoll, dice: [2]uint8{uint8(a), uint8(b)}}
}

// OpeningRollMove returns the PhaseOpening outcome where white rolled w and
// black rolled b (1..6, different); its String is "roll <w>-<b>".
func OpeningRollMove(w, b int) Move {
	return Move{kind: KindOpeningRoll, dice: [2]uint8{uint8(w), uint8(b)}}
}

// PlayMove returns a play made of the given steps, executed in the order
// given (each one die; From 1..25, To 0..24). Hit flags are ignored: Apply
// works them out. It is the typed way to give a play; the result need not be
// canonical (Apply accepts any order of steps that is a legal play, and
// returns the same State as for the canonical move). Errors wrap
// game.ErrIllegalMove: no steps, more than 4, or a point out of range.
func PlayMove(steps ...Step) (Move, error) {
	if len(steps) == 0 || len(steps) > 4 {
		return Move{}, fmt.Errorf("backgammon: %w: a play has 1 to 4 steps, not %d", game.ErrIllegalMove, len(steps))
	}
	m := Move{kind: KindPlay, n: uint8(len(steps))}
	for i, st := range steps {
		if st.From < 1 || st.From > Bar || st.To < Off || st.To > 24 || st.To >= st.From {
			return Move{}, fmt.Errorf("backgammon: %w: step %d %d/%d: from must be 1..25 (25 = bar), to 0..24 (0 = off) and below from", game.ErrIllegalMove, i+1, st.From, st.To)
		}
		m.steps[i] = [2]uint8{uint8(st.From), uint8(st.To)}
	}
	return m, nil
}

func pointName(p int) string {
	switch p {
	case Bar:
		return "bar"
	case Off:
		return "off"
	}
	return strconv.Itoa(p)
}

// String returns m in gnubg's notation (spec "Move notation"): "pass";
// "roll 6-5" (PhaseRoll, high first; an opening roll is "roll <white>-<black>");
// or a play such as "24/18 13/11", "bar/22", "6/off", "13/9(4)", "24/23*/20":
// each checker's path from its start to its end, naming a point passed on
// the way only where it hits, identical paths grouped with "(n)". The zero
// Move is "none". A play costs one allocation (the string); the other kinds
// none. AppendText writes the same bytes into a caller's buffer, and
// AppendNotations the notation of a whole list into one string.
func (m Move) String() string {
	switch m.kind {
	case KindPlay:
		var buf [64]byte
		return string(m.appendPlay(buf[:0]))
	case KindRoll, KindOpeningRoll:
		if m.dice[0] >= 1 && m.dice[0] <= 6 && m.dice[1] >= 1 && m.dice[1] <= 6 {
			return rollNames[m.dice[0]-1][m.dice[1]-1]
		}
		var buf [16]byte
		b, _ := m.AppendText(buf[:0])
		return string(b)
	case KindResign:
		return resignMoveNames[m.dice[0]]
	}
	return m.kindText()
}

// rollNames[a-1][b-1] is "roll a-b"; resignMoveNames[level] is "resign <level name>".
var rollNames, resignMoveNames = func() (r [6][6]string, rs [4]string) {
	for a := range r {
		for b := range r[a] {
			r[a][b] = "roll " + strconv.Itoa(a+1) + "-" + strconv.Itoa(b+1)
		}
	}
	for l, name := range resignNames {
		rs[l] = "resign " + name
	}
	return r, rs
}()

// kindText is the notation of the moves that are their kind's name alone.
func (m Move) kindText() string {
	switch m.kind {
	case KindPass:
		return "pass"
	case KindDouble, KindTake, KindDrop, KindBeaver, KindAccept, KindDecline, KindNextGame:
		return m.kind.String()
	}
	return "none"
}

// AppendText appends m's notation (exactly the bytes of m.String()) to b
// and returns the extended buffer. It never allocates when b has room (a
// play is at most 32 bytes, any other move at most 18), and the error is
// always nil: Move implements encoding.TextAppender.
func (m Move) AppendText(b []byte) ([]byte, error) {
	switch m.kind {
	case KindPlay:
		return m.appendPlay(b), nil
	case KindRoll, KindOpeningRoll:
		b = append(b, "roll "...)
		b = strconv.AppendUint(b, uint64(m.dice[0]), 10)
		b = append(b, '-')
		return strconv.AppendUint(b, uint64(m.dice[1]), 10), nil
	case KindResign:
		return append(append(b, "resign "...), resignNames[m.dice[0]]...), nil
	}
	return append(b, m.kindText()...), nil
}

// AppendNotations appends the notation of each of moves to dst, in order
// (dst[len(dst)+i] == moves[i].String(), byte for byte), and returns the
// extended slice. The plays' texts are substrings of one string built for
// the whole list, the other moves' texts constants, so the cost is at most
// one allocation for all the text (plus dst's growth when it lacks
// capacity), not one or more per move. This is the call for listing moves
// (e.g. LegalMoves' notation).
func AppendNotations(dst []string, moves []Move) []string {
	dst = slices.Grow(dst, len(moves))
	for i, m := range moves {
		if m.kind == KindPlay {
			return appendPlayNotations(dst, moves[i:])
		}
		dst = append(dst, m.String()) // a constant for every listed kind
	}
	return dst
}

// appendPlayNotations is AppendNotations from the first play on (dst has
// room for the moves).
func appendPlayNotations(dst []string, moves []Move) []string {
	var stack [2048]byte
	var endStack [256]int32
	buf, ends := stack[:0], endStack[:0]
	base := len(dst)
	for _, m := range moves {
		if m.kind != KindPlay {
			dst = append(dst, m.String())
			ends = append(ends, -1)
			continue
		}
		buf = m.appendPlay(buf)
		ends = append(ends, int32(len(buf)))
		dst = append(dst, "")
	}
	text := string(buf)
	start := int32(0)
	for i, e := range ends {
		if e >= 0 {
			dst[base+i] = text[start:e]
			start = e
		}
	}
	return dst
}

// Notations returns the notation of each of moves: AppendNotations into a
// new slice (at most two allocations for the whole list).
func Notations(moves []Move) []string {
	return AppendNotations(make([]string, 0, len(moves)), moves)
}

// appendPlay renders a play as gnubg does: steps are chained into checker
// paths (a step from the point where a path ends continues that path);
// waypoints are shown only when hit; paths that print alike apart from hit
// marks are counted, "13/7*(2)", and written as the one with the most hits.
// Everything but b lives on the stack.
func (m Move) appendPlay(b []byte) []byte {
	type path struct {
		pts [5]uint8 // the points shown: the start, the hit waypoints, the end
		n   uint8    // len of pts in use
		hit uint8    // bit k: pts[k] is hit ("*")
		hn  uint8    // hits shown
	}
	var paths [4]path
	np := 0
	for i := 0; i < int(m.n); i++ {
		from, to := m.steps[i][0], m.steps[i][1]
		j := 0
		for ; j < np; j++ {
			p := &paths[j]
			if last := p.pts[p.n-1]; last == from && last != Off {
				break
			}
		}
		p := &paths[j]
		if j == np {
			p.pts[0], p.n = from, 1
			np++
		} else if p.hit&(1<<(p.n-1)) == 0 && p.n > 1 {
			p.n-- // the path goes on: its unhit end becomes a hidden waypoint
		}
		p.pts[p.n] = to
		if m.hits&(1<<i) != 0 {
			p.hit |= 1 << p.n
			p.hn++
		}
		p.n++
	}
	// Order the paths by descending start, then end (a stable insertion sort).
	order := [4]uint8{0, 1, 2, 3}
	for i := 1; i < np; i++ {
		for j := i; j > 0; j-- {
			pa, pb := &paths[order[j]], &paths[order[j-1]]
			if pa.pts[0] < pb.pts[0] || (pa.pts[0] == pb.pts[0] && pa.pts[pa.n-1] <= pb.pts[pb.n-1]) {
				break
			}
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	// Write into b's spare room: a play is at most 32 bytes (maxPlayText),
	// and a point's name is written as 3 bytes, its length counted.
	b = slices.Grow(b, maxPlayText+3)
	t := b[:cap(b)]
	i := len(b)
	var done [4]bool
	for j := 0; j < np; j++ {
		if done[order[j]] {
			continue
		}
		pj := &paths[order[j]]
		shown := pj
		count := 1
		for k := j + 1; k < np; k++ {
			pk := &paths[order[k]]
			if !done[order[k]] && pk.n == pj.n && pk.pts == pj.pts {
				count++
				if pk.hn > shown.hn {
					shown = pk
				}
				done[order[k]] = true
			}
		}
		if j > 0 {
			t[i] = ' '
			i++
		}
		for k := 0; k < int(shown.n); k++ {
			if k > 0 {
				t[i] = '/'
				i++
			}
			c := &pointCodes[shown.pts[k]]
			t[i], t[i+1], t[i+2] = c[0], c[1], c[2]
			i += int(c[3])
			if shown.hit&(1<<k) != 0 {
				t[i] = '*'
				i++
			}
		}
		if count > 1 {
			t[i], t[i+1], t[i+2] = '(', byte('0'+count), ')'
			i += 3
		}
	}
	return t[:i]
}

// maxPlayText is the longest play notation: four distinct paths of a
// double, each hitting ("24/20* 23/19* 22/18* 21/17*" is 27 bytes), or one
// path with four hits ("bar/22*/19*/16*/13*", 19), comes under it.
const maxPlayText = 32

// pointCodes[p] is point p's name in a play ("off", "1".."24", "bar"),
// zero-padded to 3 bytes, then its length.
var pointCodes = func() (t [Bar + 1][4]byte) {
	for p := range t {
		name := strconv.Itoa(p)
		switch p {
		case Off:
			name = "off"
		case Bar:
			name = "bar"
		}
		copy(t[p][:3], name)
		t[p][3] = byte(len(name))
	}
	return t
}()
