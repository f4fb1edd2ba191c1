package backgammon

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// Partial is a play in progress: the hops a player has made so far in his
// turn, one checker at a time, as a board program lets him play die by die
// (State.PartialPlay).
type Partial struct {
	// State is the position after the hops: the same player on turn, in
	// PhaseMove, with the same dice (the dice used are in Used). It is
	// drawn as any State; it is not a State reached by a move (LegalMoves
	// of it are not the rest of the play).
	State State
	// Used are the dice the hops used, in order (a double's value up to
	// four times).
	Used []int
	// Plays are the legal plays (LegalMoves' canonical moves, in its order)
	// that the hops are the start of: one when the play is decided (the
	// hops may be all of it).
	Plays []Move
	// Next are the hops that may come next, in order of From then To
	// (descending): each a checker's path from From to To using one or
	// more of the dice left (To is Off for bearing off), such that the
	// hops so far and it are the start of a legal play. A path of several
	// dice is listed only when every way of playing it gives the same
	// position. Hit is set when the hop hits on landing.
	Next []Step
	// Complete is true when the hops make a whole legal play (Plays has
	// exactly that play).
	Complete bool
}

// PartialPlay plays the start of a play: text is the hops made so far, in
// the order made, in the notation's from/to form separated by spaces
// ("8/5", "8/5 6/5", "bar/22 6/off"; "" for none), each hop one checker's
// path from a point (or the bar) to a point (or off) by one die or by
// several dice played with that checker. A hop of several dice that can be
// played in ways giving different positions (hitting on the way or not) is
// refused: play it one die at a time. The hops must be the start of a legal
// play in an order the rules allow (the bar first; any order of a listed
// play's steps that can be played is the same play). A hop bearing off
// that two different dice could make uses the one that leaves more plays
// (the smaller on a tie). It does not end the turn: Partial.Plays says
// which legal plays remain, and Apply the one chosen. Rules: docs/rules/backgammon.md,
// "Moving", "Must-play rules", "Hitting and the bar", "Bearing off" (a play's steps);
// the choice of die for an ambiguous bear-off hop is the page's convenience,
// not a rule: the play itself is always one of LegalMoves.
//
// Errors: game.ErrInvalidState if s is invalid; game.ErrIllegalMove when s
// is not in PhaseMove, a hop does not parse, or the hops are not the start
// of a legal play (saying which hop). At most four hops (four dice);
// the work is bounded by the dice (at most four single-die steps from each
// of at most 15 checkers).
func (s State) PartialPlay(text string) (Partial, error) {
	if err := s.Validate(); err != nil {
		return Partial{}, err
	}
	if s.phase != PhaseMove {
		return Partial{}, fmt.Errorf("backgammon: %w: a partial play needs the dice rolled (phase %s)", game.ErrIllegalMove, s.phase)
	}
	fields := strings.Fields(text)
	if len(fields) > 4 {
		return Partial{}, fmt.Errorf("backgammon: %w: partial play %s has %d hops; at most 4 (one per die)", game.ErrIllegalMove, game.Quote(text), len(fields))
	}
	hops := make([][2]int, len(fields))
	for i, f := range fields {
		a, b, ok := strings.Cut(f, "/")
		from, ok1 := partialPoint(a)
		to, ok2 := partialPoint(b)
		if !ok || !ok1 || !ok2 || from == Off || to == Bar || to >= from {
			return Partial{}, fmt.Errorf("backgammon: %w: partial play hop %s: want from/to, from a point 1..24 or bar, to a lower point or off", game.ErrIllegalMove, game.Quote(f))
		}
		hops[i] = [2]int{from, to}
	}
	pp := partialPlay{memo: map[partialKey][]uint64{}}
	g := genPool.Get().(*gen)
	defer genPool.Put(g)
	g.generate(&s)
	g.sortEntries()
	clear(g.tab) // the sort moved the entries: index them again
	for j := range g.ents {
		g.insert(j)
	}
	pp.g = g
	var start pos
	start.load(&s)
	d1, d2 := int(s.dice[0]), int(s.dice[1])
	dice := []int{d1, d2}
	if d1 == d2 {
		dice = []int{d1, d1, d1, d1}
	}
	if len(g.ents) == 0 {
		if len(hops) > 0 {
			return Partial{}, fmt.Errorf("backgammon: %w: no number of %d-%d can be played (pass)", game.ErrIllegalMove, d1, d2)
		}
		return Partial{State: s}, nil
	}
	cur := partialNode{p: start, dice: dice}
	for i, h := range hops {
		outs := pp.hop(cur, h[0], h[1])
		if len(outs) == 0 {
			return Partial{}, fmt.Errorf("backgammon: %w: partial play %s: hop %s is not the start of a legal play after %s", game.ErrIllegalMove, game.Quote(text), fields[i], partialText(fields[:i]))
		}
		best, ok := pp.pick(outs)
		if !ok {
			return Partial{}, fmt.Errorf("backgammon: %w: partial play %s: hop %s can be played in ways giving different positions: play it one die at a time", game.ErrIllegalMove, game.Quote(text), fields[i])
		}
		cur = best
	}
	out := Partial{Used: cur.used, State: s.withPos(&cur.p)}
	reach := pp.reach(cur)
	for j := range g.ents {
		if reach[j/64]&(1<<(j%64)) != 0 {
			out.Plays = append(out.Plays, g.ents[j].m)
		}
	}
	out.Complete = len(cur.used) == g.bestN && len(out.Plays) == 1
	if !out.Complete {
		out.Next = pp.next(cur)
	}
	return out, nil
}

func partialText(f []string) string {
	if len(f) == 0 {
		return "no hop"
	}
	return game.Quote(strings.Join(f, " "))
}

// partialPoint reads "bar", "off" or a point 1..24.
func partialPoint(v string) (int, bool) {
	switch strings.ToLower(v) {
	case "bar":
		return Bar, true
	case "off":
		return Off, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 24 || strconv.Itoa(n) != v {
		return 0, false
	}
	return n, true
}

// partialNode is a position within the turn: the dice left and used.
type partialNode struct {
	p    pos
	dice []int // left
	used []int
}

func (n partialNode) step(src, d, i int) (partialNode, int, bool) {
	q := n
	t, hit := q.p.move(src, d)
	q.dice = slices.Delete(slices.Clone(n.dice), i, i+1)
	q.used = append(slices.Clone(n.used), d)
	return q, t, hit
}

type partialPlay struct {
	g    *gen
	memo map[partialKey][]uint64
}

// partialKey identifies a node for reach: the position and the dice left.
type partialKey struct {
	k0, k1 uint64
	dice   [4]int8
}

// movable reports whether the checker on src may move by d now.
func (n *partialNode) movable(src, d int) bool {
	return n.p.sources()&(1<<src) != 0 && n.p.can(src, d)
}

// hop returns the nodes after a checker's path from → to with one or more
// of n's dice, each the start of a legal play.
func (pp *partialPlay) hop(n partialNode, from, to int) []partialNode {
	var out []partialNode
	var walk func(n partialNode, at int)
	walk = func(n partialNode, at int) {
		for i, d := range n.dice {
			if slices.Index(n.dice, d) != i || !n.movable(at, d) {
				continue // a die value tried once
			}
			q, t, _ := n.step(at, d, i)
			switch {
			case t == to:
				if some(pp.reach(q)) {
					out = append(out, q)
				}
			case t > to && t != Off:
				walk(q, t)
			}
		}
	}
	walk(n, from)
	return out
}

// pick chooses among the nodes a hop can reach: they must be one position
// (else false); of several dice choices, the one leaving more plays, then
// the smaller dice.
func (pp *partialPlay) pick(outs []partialNode) (partialNode, bool) {
	best, bestN := outs[0], -1
	for _, o := range outs {
		if o.p.k0 != outs[0].p.k0 || o.p.k1 != outs[0].p.k1 {
			return partialNode{}, false
		}
		n := count(pp.reach(o))
		if n > bestN || n == bestN && sum(o.used) < sum(best.used) {
			best, bestN = o, n
		}
	}
	return best, true
}

func sum(v []int) int {
	t := 0
	for _, x := range v {
		t += x
	}
	return t
}

// reach is the set (a bit per index into g.ents) of the legal plays that
// single-die steps from n can complete: as many dice as the legal plays
// and the same position. Each node's set is computed once (memo).
func (pp *partialPlay) reach(n partialNode) []uint64 {
	key := partialKey{k0: n.p.k0, k1: n.p.k1}
	for i, d := range n.dice {
		key.dice[i] = int8(d)
	}
	if r, ok := pp.memo[key]; ok {
		return r
	}
	g := pp.g
	out := make([]uint64, (len(g.ents)+63)/64)
	if len(n.used) == g.bestN {
		if j := g.find(n.p.k0, n.p.k1); j >= 0 {
			out[j/64] |= 1 << (j % 64)
		}
	} else {
		for src := n.p.sources(); src != 0; {
			s := bits.Len32(src) - 1
			src &^= 1 << s
			for i, d := range n.dice {
				if slices.Index(n.dice, d) != i || !n.p.can(s, d) {
					continue
				}
				q, _, _ := n.step(s, d, i)
				for w, b := range pp.reach(q) {
					out[w] |= b
				}
			}
		}
	}
	pp.memo[key] = out
	return out
}

// some reports whether the set r has a play.
func some(r []uint64) bool {
	for _, b := range r {
		if b != 0 {
			return true
		}
	}
	return false
}

// count is the number of plays in the set r.
func count(r []uint64) int {
	n := 0
	for _, b := range r {
		n += bits.OnesCount64(b)
	}
	return n
}

// next lists the hops from n that keep it the start of a legal play: for
// each source, every path of its checker by the dice left, once.
func (pp *partialPlay) next(n partialNode) []Step {
	var out []Step
	for src := n.p.sources(); src != 0; {
		s := bits.Len32(src) - 1
		src &^= 1 << s
		var byTo [Bar][]partialNode
		var walk func(m partialNode, at int)
		walk = func(m partialNode, at int) {
			for i, d := range m.dice {
				if slices.Index(m.dice, d) != i || !m.movable(at, d) {
					continue
				}
				q, t, _ := m.step(at, d, i)
				if some(pp.reach(q)) {
					byTo[t] = append(byTo[t], q)
				}
				if t != Off {
					walk(q, t)
				}
			}
		}
		walk(n, s)
		for to := s - 1; to >= Off; to-- {
			if len(byTo[to]) == 0 {
				continue
			}
			if _, ok := pp.pick(byTo[to]); !ok {
				continue
			}
			out = append(out, Step{From: s, To: to, Hit: to != Off && n.p.opp[to] == 1})
		}
	}
	return out
}

// withPos is s with the board of p (p loaded from s, then moved by the
// player on turn): his checkers as p has them, the opponent's less those
// hit, which are on his bar.
func (s State) withPos(p *pos) State {
	next := s
	me, op := &next.board[s.turn], &next.board[1-s.turn]
	for i := 0; i < 25; i++ {
		me[i] = uint8(p.me[i+1])
	}
	hit := 0
	for q := 1; q <= 24; q++ {
		if n := uint8(p.opp[25-q]); n != op[q-1] {
			hit += int(op[q-1]) - int(n)
			op[q-1] = n
		}
	}
	op[24] += uint8(hit)
	return next
}
