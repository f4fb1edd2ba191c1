package backgammon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// ParseMove reads a move in s (spec "Move notation"), case-insensitively:
//
//   - "roll 6-5" (or "roll 65"): in PhaseRoll the roll, dice in either order;
//     in PhaseOpening "roll w-b" is white's die w and black's die b;
//   - "pass": legal only when no number can be played;
//   - a play: space-separated checker paths "from/to", with "bar" (also "b"
//     or 25) and "off" (also 0), "*" after a point that is hit, waypoints
//     ("24/23*/20", "24/18/13"), combined steps ("24/13", "bar/13*/9" with
//     4-4), and "(n)" for n checkers taking the same path ("13/9(2)"). Paths
//     may come in any order. A path that can be made in more than one way is
//     taken as written: a hit happens only where "*" says so if such a way
//     exists; otherwise any legal way is taken, unless they lead to
//     different positions (then the move is ambiguous and refused).
//
// The result is the canonical Move, the one LegalMoves lists for the same
// resulting position, so ParseMove(s, m.String()) == m. A bare "roll" is
// refused: to have the server draw the dice, use RollDice.
//
// Errors: game.ErrInvalidState if s is invalid, game.ErrGameOver in
// PhaseOver, otherwise game.ErrIllegalMove — a *game.ParseError for text that
// is not notation, or an error saying that the steps' lengths do not fit the
// dice (checked first, whatever the board: "13/10 13/10" with 3-1 "needs dice
// 3 and 3; the roll is 3-1"), which step is blocked, or which must-play rule
// the play breaks. An error quotes the text with game.Quote (at most its
// first 80 bytes), so a huge text does not make a huge error.
func ParseMove(s State, text string) (Move, error) {
	if err := s.Validate(); err != nil {
		return Move{}, err
	}
	if m, ok := decisionWord(s, text); ok {
		if _, err := s.Apply(m); err != nil {
			return Move{}, err
		}
		return m, nil
	}
	if s.phase == PhaseOver {
		if s.matchLen > 0 && !s.MatchOver() {
			return Move{}, fmt.Errorf("backgammon: %w: the game is over; the match goes on with \"next game\", not %s", game.ErrIllegalMove, game.Quote(text))
		}
		return Move{}, fmt.Errorf("backgammon: %w: the game is over; no move %s", game.ErrGameOver, game.Quote(text))
	}
	if ph := s.Phase(); ph == PhaseDouble || ph == PhaseResign {
		return Move{}, fmt.Errorf("backgammon: %w: %s: a decision awaits an answer first (%s)", game.ErrIllegalMove, game.Quote(text), s.answers())
	}
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	t := strings.ToLower(strings.TrimSpace(text))
	perr := func(off int, why string, args ...any) error {
		if off >= 0 {
			off += lead
		}
		return &game.ParseError{Game: "backgammon", What: "move", Input: text, Offset: off, Reason: fmt.Sprintf(why, args...), Kind: game.ErrIllegalMove}
	}
	if t == "" {
		return Move{}, perr(-1, "empty move")
	}
	if strings.HasPrefix(t, "roll") {
		rest := strings.TrimSpace(t[4:])
		off := len(t) - len(rest)
		if rest == "" {
			return Move{}, perr(-1, `a roll needs its dice, e.g. "roll 6-5" (RollDice draws them)`)
		}
		var a, b int
		switch {
		case len(rest) == 3 && (rest[1] == '-' || rest[1] == ' ' || rest[1] == ','):
			a, b = int(rest[0])-'0', int(rest[2])-'0'
		case len(rest) == 2:
			a, b = int(rest[0])-'0', int(rest[1])-'0'
		default:
			return Move{}, perr(off, `dice are written "6-5"`)
		}
		if a < 1 || a > 6 || b < 1 || b > 6 {
			return Move{}, perr(off, "each die is 1..6")
		}
		switch s.phase {
		case PhaseOpening:
			if a == b {
				return Move{}, perr(off, "an opening roll has two different dice (white's, black's); a tie is rolled again")
			}
			return OpeningRollMove(a, b), nil
		case PhaseRoll:
			return RollMove(a, b), nil
		}
		return Move{}, fmt.Errorf("backgammon: %w: %s: the dice are already rolled (%d-%d); play them or pass", game.ErrIllegalMove, game.Quote(text), s.dice[0], s.dice[1])
	}
	if s.phase != PhaseMove {
		return Move{}, fmt.Errorf("backgammon: %w: %s: the %s phase needs a roll first, e.g. \"roll 6-5\"", game.ErrIllegalMove, game.Quote(text), s.phase)
	}

	g := genPool.Get().(*gen)
	defer genPool.Put(g)
	g.generate(&s)
	if t == "pass" {
		if len(g.ents) > 0 {
			return Move{}, fmt.Errorf("backgammon: %w: pass with %d-%d: a play is possible (%d legal, e.g. %s)", game.ErrIllegalMove, s.dice[0], s.dice[1], len(g.ents), g.ents[0].m)
		}
		return PassMove(), nil
	}

	var q search
	q.init(g, &s)
	if err := q.readPaths(t, text, perr); err != nil {
		return Move{}, err
	}
	if q.nh == 0 {
		return Move{}, perr(-1, "empty move")
	}
	j, err := q.run(text)
	if err != nil {
		return Move{}, err
	}
	return g.ents[j].m, nil
}

// readPaths reads the checker paths of a play in t (the lower-cased, trimmed
// text; text is the caller's original, for errors) into q's hops: point
// ('/' point)+ ['(' n ')'], separated by spaces, tabs or commas. perr makes
// a *game.ParseError at an offset of t (-1: none). ParseMove and ReadMove
// share it.
func (q *search) readPaths(t, text string, perr func(off int, why string, args ...any) error) error {
	i := 0
	for i < len(t) {
		if t[i] == ' ' || t[i] == '\t' || t[i] == ',' {
			i++
			continue
		}
		// One path: point ('/' point)+ ['(' n ')'].
		var pts [6]int
		var marks [6]bool
		np := 0
		for {
			if np == len(pts) {
				return perr(i, "too many points in one path")
			}
			p, n := readPoint(t[i:])
			if n == 0 {
				return perr(i, `expected a point: 1..24, "bar" or "off"`)
			}
			pts[np] = p
			i += n
			if i < len(t) && t[i] == '*' {
				marks[np] = true
				i++
			}
			np++
			if i < len(t) && t[i] == '/' {
				i++
				continue
			}
			break
		}
		if np < 2 {
			return perr(i, `a path is "from/to"`)
		}
		count := 1
		if i < len(t) && t[i] == '(' {
			j := strings.IndexByte(t[i:], ')')
			if j < 0 {
				return perr(i, `"(" without ")"`)
			}
			c, err := strconv.Atoi(t[i+1 : i+j])
			if err != nil || c < 1 || c > 4 {
				return perr(i+1, "a count (n) is 1..4")
			}
			count = c
			i += j + 1
		}
		if i < len(t) && t[i] != ' ' && t[i] != '\t' && t[i] != ',' {
			return perr(i, "unexpected %q", t[i])
		}
		if marks[0] {
			return perr(-1, "a path's starting point cannot be a hit")
		}
		for k := 1; k < np; k++ {
			from, to := pts[k-1], pts[k]
			switch {
			case from == Off:
				return perr(-1, "a checker borne off cannot move")
			case to == Bar:
				return perr(-1, "a checker cannot move to the bar")
			case to >= from:
				return perr(-1, "%s/%s moves backwards; checkers move from higher to lower points", pointName(from), pointName(to))
			case to == Off && marks[k]:
				return perr(-1, `"off" cannot be a hit`)
			}
			for c := 0; c < count; c++ {
				if !q.addHop(from, to, marks[k]) {
					return fmt.Errorf("backgammon: %w: %s has more steps than the dice %d-%d allow", game.ErrIllegalMove, game.Quote(text), q.dice0[0], q.dice0[1])
				}
			}
		}
	}
	return nil
}

// decisionWord reads the decisions (spec "As moves"): "double", "take",
// "drop" (also "pass" and "reject" while a double awaits an answer, as gnubg
// says), "beaver", "resign single|gammon|backgammon" (also gnubg's "normal",
// and "n", "g", "b", "1", "2", "3"), "accept", "decline" (also "reject"
// while a resignation awaits an answer) and "next game". ok is false for
// any other text.
func decisionWord(s State, text string) (Move, bool) {
	// The words of text, lower case, as strings.Fields splits them, read
	// into an array: a play's text, of more words, costs no slice.
	var words [3]string
	n := 0
	for w := range strings.FieldsSeq(strings.ToLower(text)) {
		if n == len(words) {
			break
		}
		words[n] = w
		n++
	}
	if n == 0 || n > 2 {
		return Move{}, false
	}
	f := words[:n]
	if len(f) == 2 {
		switch {
		case f[0] == "next" && f[1] == "game":
			return NextGameMove(), true
		case f[0] == "resign":
			switch f[1] {
			case "single", "normal", "n", "s", "1":
				return ResignMove(1), true
			case "gammon", "g", "2":
				return ResignMove(2), true
			case "backgammon", "b", "3":
				return ResignMove(3), true
			}
		}
		return Move{}, false
	}
	switch f[0] {
	case "double":
		return DoubleMove(), true
	case "take":
		return TakeMove(), true
	case "drop":
		return DropMove(), true
	case "beaver", "redouble":
		return BeaverMove(), true
	case "accept":
		return AcceptMove(), true
	case "decline":
		return DeclineMove(), true
	case "pass":
		if s.Phase() == PhaseDouble {
			return DropMove(), true
		}
	case "reject":
		switch s.Phase() {
		case PhaseDouble:
			return DropMove(), true
		case PhaseResign:
			return DeclineMove(), true
		}
		return DropMove(), true // refused with the reason by Apply
	}
	return Move{}, false
}

// readPoint reads a point at the start of t: digits 0..25, "bar", "b" or
// "off". It returns the point and the bytes read (0 when none).
func readPoint(t string) (p, n int) {
	switch {
	case strings.HasPrefix(t, "bar"):
		return Bar, 3
	case strings.HasPrefix(t, "off"):
		return Off, 3
	case strings.HasPrefix(t, "b"):
		return Bar, 1
	}
	for n < len(t) && n < 2 && t[n] >= '0' && t[n] <= '9' {
		p = p*10 + int(t[n]-'0')
		n++
	}
	if n == 0 || p > 25 {
		return 0, 0
	}
	return p, n
}

// hop is one written path segment: from one point to another (possibly by
// several dice), with "*" on the landing point.
type hop struct {
	from, to int8
	mark     bool
}

type cand struct {
	idx   int
	exact bool // hits exactly where the text marks them
}

// search finds the legal plays a written move can mean: it tries the hops in
// every order and every way to make each hop with the dice left, and keeps
// the results that are legal plays (positions g holds).
type search struct {
	g       *gen
	start   pos
	hops    [4]hop
	cur     [4]int8 // where hop i's checker is; -1 when the hop is made
	started [4]bool // hop i's checker has left its start
	nh      int
	dice    [4]int8
	dused   [4]bool
	nd      int
	ns      int // dice used so far
	pips    int // pips of the dice used so far
	marked  uint32
	dice0   [2]uint8
	found   []cand
	buf     [8]cand
	errPri  int
	err     string
	// steps[n] is the position after n+1 steps, the one next passes on
	// at that depth (at most 4 steps): one array in q, not a position
	// on the heap per step tried (a recursive call's argument escapes).
	steps [4]pos
}

func (q *search) init(g *gen, s *State) {
	q.g = g
	q.start.load(s)
	q.dice0 = s.dice
	d1, d2 := int8(s.dice[0]), int8(s.dice[1])
	if d1 == d2 {
		q.dice, q.nd = [4]int8{d1, d1, d1, d1}, 4
	} else {
		q.dice, q.nd = [4]int8{d1, d2}, 2
	}
	q.found = q.buf[:0]
	q.errPri = -1
}

// addHop adds a written segment; false when there are more than 4.
func (q *search) addHop(from, to int, mark bool) bool {
	if q.nh == len(q.hops) {
		return false
	}
	q.hops[q.nh] = hop{int8(from), int8(to), mark}
	q.cur[q.nh] = int8(from)
	q.nh++
	if mark && to != Off {
		q.marked |= 1 << to
	}
	return true
}

// wants reports whether a failure of priority pri would be kept (fail).
func (q *search) wants(pri int) bool { return pri > q.errPri }

// name is the hop as written, "13/7" or "bar/22".
func (h hop) name() string { return pointName(int(h.from)) + "/" + pointName(int(h.to)) }

func (q *search) fail(pri int, format string, args ...any) {
	if pri > q.errPri {
		q.errPri = pri
		q.err = fmt.Sprintf(format, args...)
	}
}

// run searches and returns the index in q.g.ents of the play meant.
func (q *search) run(text string) (int, error) {
	if len(q.g.ents) == 0 {
		return -1, fmt.Errorf("backgammon: %w: %s: no number of %d-%d can be played; the only legal move is pass", game.ErrIllegalMove, game.Quote(text), q.dice0[0], q.dice0[1])
	}
	if q.nh > q.nd {
		return -1, fmt.Errorf("backgammon: %w: %s has %d steps but %d-%d gives %d", game.ErrIllegalMove, game.Quote(text), q.nh, q.dice0[0], q.dice0[1], q.nd)
	}
	if !q.pipsFit() {
		// The numbers are wrong whatever the board: say so before any
		// blocked point the search would meet on the way.
		return -1, fmt.Errorf("backgammon: %w: %s needs %s; the roll is %d-%d", game.ErrIllegalMove, game.Quote(text), q.needs(), q.dice0[0], q.dice0[1])
	}
	q.next(&q.start, 0)
	exact, nexact := -1, 0
	for _, c := range q.found {
		if c.exact {
			exact = c.idx
			nexact++
		}
	}
	switch {
	case nexact == 1:
		return exact, nil
	case nexact == 0 && len(q.found) == 1:
		return q.found[0].idx, nil
	case len(q.found) > 1:
		return -1, fmt.Errorf("backgammon: %w: %s is ambiguous: it can be %s or %s; mark hits with *", game.ErrIllegalMove, game.Quote(text), q.g.ents[q.found[0].idx].m, q.g.ents[q.found[1].idx].m)
	}
	return -1, fmt.Errorf("backgammon: %w: %s with %d-%d: %s", game.ErrIllegalMove, game.Quote(text), q.dice0[0], q.dice0[1], q.err)
}

// pipsFit reports whether the dice can make the written steps by their
// lengths alone, whatever the board: each step gets dice of its own (some
// dice may stay unused) adding up to its length, or for a bear-off to at
// least its length with every die but the last one short of it (a bear-off
// that overshoots uses the larger die last). The search can only find a play
// when this holds, so it decides nothing; it lets run say first that the
// numbers are wrong. At most 5^4 assignments are tried.
func (q *search) pipsFit() bool {
	combos := 1
	for k := 0; k < q.nd; k++ {
		combos *= q.nh + 1
	}
next:
	for c := 0; c < combos; c++ {
		var sum, high [4]int
		for k, x := 0, c; k < q.nd; k, x = k+1, x/(q.nh+1) {
			if h := x % (q.nh + 1); h < q.nh { // h == q.nh: die k unused
				d := int(q.dice[k])
				sum[h] += d
				high[h] = max(high[h], d)
			}
		}
		for i := 0; i < q.nh; i++ {
			n := int(q.hops[i].from - q.hops[i].to)
			if q.hops[i].to == Off {
				if sum[i] < n || sum[i]-high[i] >= n {
					continue next
				}
			} else if sum[i] != n {
				continue next
			}
		}
		return true
	}
	return false
}

// needs says what the written steps need, for the error when pipsFit fails:
// "dice 3 and 3" when every step is one die's length to a point, otherwise
// each step's need ("a 3", "11 pips (24/13)", "a 6 or higher (6/off)",
// "8 pips or more (8/off)") joined with "and".
func (q *search) needs() string {
	single := true
	for i := 0; i < q.nh; i++ {
		if n := q.hops[i].from - q.hops[i].to; q.hops[i].to == Off || n > 6 {
			single = false
		}
	}
	items := make([]string, q.nh)
	for i := 0; i < q.nh; i++ {
		h := q.hops[i]
		n := int(h.from - h.to)
		path := pointName(int(h.from)) + "/" + pointName(int(h.to))
		switch {
		case single && q.nh > 1:
			items[i] = strconv.Itoa(n)
		case h.to != Off && n <= 6:
			items[i] = "a " + strconv.Itoa(n)
		case h.to != Off:
			items[i] = fmt.Sprintf("%d pips (%s)", n, path)
		case n <= 6:
			items[i] = fmt.Sprintf("a %d or higher (%s)", n, path)
		default:
			items[i] = fmt.Sprintf("%d pips or more (%s)", n, path)
		}
	}
	s := items[len(items)-1]
	if len(items) > 1 {
		s = strings.Join(items[:len(items)-1], ", ") + " and " + s
	}
	if single && q.nh > 1 {
		s = "dice " + s
	}
	return s
}

// next moves one checker of an unfinished hop by one die, in every way,
// from p; done hops are complete. Steps of different hops interleave, so
// "bar/21(2)" with 2-2 can enter both checkers before moving on, and
// "14/off 5/off" with 5-5 can bear off from 5 before the other checker
// arrives at 4.
func (q *search) next(p *pos, done int) {
	if done == q.nh {
		q.finish(p)
		return
	}
	for i := 0; i < q.nh; i++ {
		cur := int(q.cur[i])
		if cur < 0 {
			continue
		}
		dup := false
		for j := 0; j < i; j++ {
			if q.cur[j] == q.cur[i] && q.started[j] == q.started[i] && q.hops[j].to == q.hops[i].to && q.hops[j].mark == q.hops[i].mark {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		h := q.hops[i]
		// The messages below are written only when they would be kept
		// (q.wants): a search that succeeds formats none.
		// Error priority: a rule that blocks a step (class 200) says more
		// than dice that do not add up (class 100); deeper failures win
		// within a class.
		dicePri, rulePri := 100+q.ns, 200+q.ns
		if !q.started[i] && p.me[cur] == 0 {
			// Another written path may still bring a checker here; then
			// this is only an order that does not work.
			pri := rulePri
			for j := 0; j < q.nh; j++ {
				if j != i && q.cur[j] > int8(cur) && q.hops[j].to <= int8(cur) {
					pri = 0
				}
			}
			if q.wants(pri) {
				q.fail(pri, "%s: no checker of yours on %s", h.name(), slotName(cur))
			}
			continue
		}
		if cur != Bar && p.me[Bar] > 0 {
			if q.wants(rulePri) {
				q.fail(rulePri, "%s: a checker on the bar must enter first", h.name())
			}
			continue
		}
		left := 0
		for k := 0; k < q.nd; k++ {
			if !q.dused[k] {
				left += int(q.dice[k])
			}
		}
		if left == 0 {
			if q.wants(dicePri) {
				q.fail(dicePri, "%s: no die is left for it", h.name())
			}
			continue
		}
		if cur-int(h.to) > left {
			if q.wants(dicePri) {
				q.fail(dicePri, "%s: the dice left (%s) cannot make it", h.name(), q.left())
			}
			continue
		}
		var tried uint8
		for k := 0; k < q.nd; k++ {
			if q.dused[k] {
				continue
			}
			d := int(q.dice[k])
			if tried&(1<<d) != 0 {
				continue
			}
			tried |= 1 << d
			t := cur - d
			if h.to != Off && t < int(h.to) {
				if q.wants(dicePri) {
					q.fail(dicePri, "%s: the dice left (%s) cannot make it", h.name(), q.left())
				}
				continue
			}
			if !p.can(cur, d) {
				if q.wants(rulePri) {
					q.fail(rulePri, "%s: %s", h.name(), blockReason(p, cur, d))
				}
				continue
			}
			r := &q.steps[q.ns]
			*r = *p
			r.move(cur, d)
			q.dused[k] = true
			q.ns++
			q.pips += d
			started := q.started[i]
			q.started[i] = true
			if t == int(h.to) || h.to == Off && t <= 0 {
				q.cur[i] = -1
				q.next(r, done+1)
			} else {
				q.cur[i] = int8(t)
				q.next(r, done)
			}
			q.cur[i] = int8(cur)
			q.started[i] = started
			q.ns--
			q.pips -= d
			q.dused[k] = false
		}
	}
}

// left lists the unused dice.
func (q *search) left() string {
	var b strings.Builder
	for k := 0; k < q.nd; k++ {
		if !q.dused[k] {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(int(q.dice[k])))
		}
	}
	return b.String()
}

// blockReason says why the checker on s cannot move d (p.can is false).
func blockReason(p *pos, s, d int) string {
	t := s - d
	if t > 0 {
		return fmt.Sprintf("point %d is blocked by %d opposing checkers", t, p.opp[t])
	}
	if p.out != 0 {
		return fmt.Sprintf("cannot bear off with a %d while %d checkers are outside the home board", d, p.out)
	}
	high := 0
	for x := 6; x > s; x-- {
		if p.me[x] > 0 {
			high = x
			break
		}
	}
	return fmt.Sprintf("cannot bear off from %d with a %d: a checker on %d is higher (bear off from %d with a %d, or move inside the board)", s, d, high, s, s)
}

// finish checks a complete reading of the text: the position reached must be
// a legal play's result and hit at least where the text says.
func (q *search) finish(p *pos) {
	j := q.g.find(p.k0, p.k1)
	if j < 0 {
		switch {
		case !q.wants(1000): // a failure of this class is kept already
		case q.ns < q.g.bestN:
			q.fail(1000, "this play uses %s but %d can be played; a player must use as many dice as possible", diceCount(q.ns), q.g.bestN)
		case q.pips < q.g.bestPips:
			q.fail(1000, "only one die can be played, and then it must be the higher (%d)", q.g.bestPips)
		default:
			q.fail(1000, "not a legal play")
		}
		return
	}
	hits := p.hitMask()
	if miss := q.marked &^ hits; miss != 0 {
		for t := 1; t <= 24 && q.wants(900); t++ {
			if miss&(1<<t) != 0 {
				q.fail(900, "point %d is marked as a hit, but this play hits nothing there", t)
				break
			}
		}
		return
	}
	exact := hits == q.marked
	for k := range q.found {
		if q.found[k].idx == j {
			q.found[k].exact = q.found[k].exact || exact
			return
		}
	}
	q.found = append(q.found, cand{idx: j, exact: exact})
}

// diceCount writes n dice: "1 die", "2 dice".
func diceCount(n int) string {
	if n == 1 {
		return "1 die"
	}
	return strconv.Itoa(n) + " dice"
}
