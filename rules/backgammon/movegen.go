package backgammon

import (
	"math/bits"
	"slices"
	"sync"
)

// Legal-play generation (spec "Moving", "Must-play rules", "Hitting and the
// bar", "Bearing off"). It follows gnubg's GenerateMoves: every sequence of
// single-die steps is tried (both orders for a non-double; for a double, the
// sources in non-increasing order, which reaches every multiset of steps);
// only the sequences that use the most dice, and then the most pips (the
// higher die when only one can be played), are kept; and one play is kept per
// distinct resulting position.

// pos is the position seen by the player on roll, copied by value at each
// step of the search.
type pos struct {
	me  [26]int8 // me[p]: mover's checkers on his point p (1..24), bar (25), off (0)
	opp [25]int8 // opp[p]: opponent's checkers on the mover's point p (1..24)
	occ uint32   // bit p set when me[p] > 0 (p = 1..25)
	out int8     // mover's checkers on 7..25: bearing off needs 0
	// k0, k1 identify the resulting position exactly: 4 bits per mover slot
	// 1..16 in k0, slots 17..25 in k1 bits 0..35, and the points hit during
	// the turn in k1 bits 36..59. (The opponent's checkers change only by hits.)
	k0, k1 uint64
}

func (p *pos) addKey(slot int, delta int64) {
	if slot <= 16 {
		p.k0 += uint64(delta << (4 * (slot - 1)))
	} else {
		p.k1 += uint64(delta << (4 * (slot - 17)))
	}
}

// hitMask returns the points (bit p) hit during the turn.
func (p *pos) hitMask() uint32 { return uint32(p.k1>>36) << 1 }

// load sets p to s seen by the player on turn.
func (p *pos) load(s *State) {
	me, op := &s.board[s.turn], &s.board[1-s.turn]
	*p = pos{}
	for i := 0; i < 25; i++ {
		c := int8(me[i])
		p.me[i+1] = c
		if c > 0 {
			p.occ |= 1 << (i + 1)
			p.addKey(i+1, int64(c))
			if i >= 6 {
				p.out += c
			}
		}
	}
	p.me[0] = int8(Checkers) - p.out
	for i := 0; i < 6; i++ {
		p.me[0] -= p.me[i+1]
	}
	for q := 1; q <= 24; q++ { // opponent's own point q is the mover's 25-q
		p.opp[25-q] = int8(op[q-1])
	}
}

// can reports whether the checker on s may move d pips: the landing point is
// not held by two or more opposing checkers; bearing off needs every checker
// home, and with a die larger than the point no checker on a higher point.
// The caller has checked that there is a checker on s and that s is the bar
// when the bar is not empty.
func (p *pos) can(s, d int) bool {
	t := s - d
	if t > 0 {
		return p.opp[t] < 2
	}
	if p.out != 0 {
		return false
	}
	return t == 0 || p.occ>>(s+1) == 0
}

// move moves the checker on s by d (which can must allow) and returns the
// landing point (0 = off) and whether it hit a blot.
func (p *pos) move(s, d int) (t int, hit bool) {
	p.me[s]--
	p.addKey(s, -1)
	if p.me[s] == 0 {
		p.occ &^= 1 << s
	}
	t = s - d
	if s >= 7 && t < 7 {
		p.out--
	}
	if t <= 0 {
		p.me[0]++
		return 0, false
	}
	if p.opp[t] == 1 {
		p.opp[t] = 0
		p.k1 |= 1 << (35 + t)
		hit = true
	}
	p.me[t]++
	p.occ |= 1 << t
	p.addKey(t, 1)
	return t, hit
}

// sources returns the slots a checker may start from: the bar alone while it
// is not empty, else every occupied point.
func (p *pos) sources() uint32 {
	if p.me[Bar] > 0 {
		return 1 << Bar
	}
	return p.occ
}

// entry is one legal play found, with its resulting-position key and its
// sort key (the step codes packed from the first step down).
type entry struct {
	k0, k1 uint64
	sk     uint64
	m      Move
}

type gen struct {
	bestN, bestPips int
	ents            []entry
	tab             []int32 // open addressing on the key: index+1 into ents, 0 = empty
	st              [4][3]int8
	stk             [5]pos // doubles: the position after each step (kept off the Go stack's escape path)
}

var genPool = sync.Pool{New: func() any { return &gen{tab: make([]int32, 256)} }}

func (g *gen) reset() {
	g.bestN, g.bestPips = 0, 0
	g.ents = g.ents[:0]
	clear(g.tab)
}

func hashKey(k0, k1 uint64) uint64 {
	// splitmix64's finalizer: every input bit reaches the low bits we mask.
	h := k0 ^ bits.RotateLeft64(k1, 29)*0x9e3779b97f4a7c15
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// find returns the index in g.ents of the play with key (k0, k1), or -1.
func (g *gen) find(k0, k1 uint64) int {
	mask := uint64(len(g.tab) - 1)
	for h := hashKey(k0, k1) & mask; ; h = (h + 1) & mask {
		j := g.tab[h]
		if j == 0 {
			return -1
		}
		if e := &g.ents[j-1]; e.k0 == k0 && e.k1 == k1 {
			return int(j - 1)
		}
	}
}

func (g *gen) insert(j int) {
	e := &g.ents[j]
	mask := uint64(len(g.tab) - 1)
	h := hashKey(e.k0, e.k1) & mask
	for g.tab[h] != 0 {
		h = (h + 1) & mask
	}
	g.tab[h] = int32(j + 1)
}

// record offers the play in g.st[:n] that leads to p, worth pips.
func (g *gen) record(p *pos, n, pips int) {
	if n < g.bestN || n == g.bestN && pips < g.bestPips {
		return
	}
	if n > g.bestN || pips > g.bestPips {
		g.bestN, g.bestPips = n, pips
		g.ents = g.ents[:0]
		clear(g.tab)
	}
	// Canonical order: steps sorted by descending (from, to); this order can
	// always be executed (a checker moves down, the bar is highest).
	var codes [4]uint16
	for i := 0; i < n; i++ {
		c := uint16(g.st[i][0])<<5 | uint16(g.st[i][1])
		j := i
		for ; j > 0 && codes[j-1] < c; j-- {
			codes[j] = codes[j-1]
		}
		codes[j] = c
	}
	sk := uint64(codes[0])<<30 | uint64(codes[1])<<20 | uint64(codes[2])<<10 | uint64(codes[3])
	if j := g.find(p.k0, p.k1); j >= 0 {
		// Same position by another path: keep the path that sorts first, so
		// the move does not depend on the search order.
		if e := &g.ents[j]; sk > e.sk {
			e.sk = sk
			e.m = canonicalMove(codes, n, p.hitMask())
		}
		return
	}
	g.ents = append(g.ents, entry{k0: p.k0, k1: p.k1, sk: sk, m: canonicalMove(codes, n, p.hitMask())})
	if 2*len(g.ents) > len(g.tab) {
		g.tab = make([]int32, 2*len(g.tab))
		for j := range g.ents {
			g.insert(j)
		}
	} else {
		g.insert(len(g.ents) - 1)
	}
}

// canonicalMove builds the play from sorted step codes; a step hits when it is
// the first to land on a point hit during the turn.
func canonicalMove(codes [4]uint16, n int, hitPts uint32) Move {
	m := Move{kind: KindPlay, n: uint8(n)}
	for i := 0; i < n; i++ {
		from, to := uint8(codes[i]>>5), uint8(codes[i]&31)
		m.steps[i] = [2]uint8{from, to}
		if to != 0 && hitPts&(1<<to) != 0 {
			m.hits |= 1 << i
			hitPts &^= 1 << to
		}
	}
	return m
}

// generate fills g with the legal plays of s (PhaseMove), unsorted.
func (g *gen) generate(s *State) {
	g.reset()
	var p pos
	p.load(s)
	d1, d2 := int(s.dice[0]), int(s.dice[1])
	if d1 == d2 {
		g.stk[0] = p
		g.doubles(&g.stk[0], 0, Bar, d1)
		return
	}
	for o := 0; o < 2; o++ {
		for src := p.sources(); src != 0; {
			s1 := bits.Len32(src) - 1
			src &^= 1 << s1
			if !p.can(s1, d1) {
				continue
			}
			q := p
			t1, _ := q.move(s1, d1)
			g.st[0] = [3]int8{int8(s1), int8(t1)}
			played := false
			for src2 := q.sources(); src2 != 0; {
				s2 := bits.Len32(src2) - 1
				src2 &^= 1 << s2
				if !q.can(s2, d2) {
					continue
				}
				r := q
				t2, _ := r.move(s2, d2)
				g.st[1] = [3]int8{int8(s2), int8(t2)}
				g.record(&r, 2, d1+d2)
				played = true
			}
			if !played {
				g.record(&q, 1, d1)
			}
		}
		d1, d2 = d2, d1
	}
}

// doubles searches the plays of a double d: step number depth, sources at or
// below from (gnubg's ordering, so each multiset of steps is tried once).
func (g *gen) doubles(p *pos, depth, from, d int) {
	played := false
	for src := p.sources() & (2<<from - 1); src != 0; {
		s := bits.Len32(src) - 1
		src &^= 1 << s
		if !p.can(s, d) {
			continue
		}
		played = true
		q := &g.stk[depth+1]
		*q = *p
		t, _ := q.move(s, d)
		g.st[depth] = [3]int8{int8(s), int8(t)}
		if depth == 3 {
			g.record(q, 4, 4*d)
		} else {
			g.doubles(q, depth+1, s, d)
		}
	}
	if !played && depth > 0 {
		g.record(p, depth, depth*d)
	}
}

// sortEntries puts the plays in LegalMoves order: by their steps, compared
// from the first, each step by descending (from, to). The sort keys are
// distinct (one entry per play), so any sort gives the same order; a short
// list (most rolls have fewer than 40 plays) is
// insertion-sorted in place, without a comparison function's calls.
func (g *gen) sortEntries() {
	if e := g.ents; len(e) <= 40 {
		for i := 1; i < len(e); i++ {
			x := e[i]
			j := i
			for ; j > 0 && e[j-1].sk < x.sk; j-- {
				e[j] = e[j-1]
			}
			e[j] = x
		}
		return
	}
	slices.SortFunc(g.ents, func(a, b entry) int {
		switch {
		case a.sk > b.sk:
			return -1
		case a.sk < b.sk:
			return 1
		}
		return 0
	})
}

// openingRolls and rolls are the chance outcomes, in LegalMoves order.
var openingRolls, rolls = func() (op, ro []Move) {
	for w := 1; w <= 6; w++ {
		for b := 1; b <= 6; b++ {
			if w != b {
				op = append(op, OpeningRollMove(w, b))
			}
		}
	}
	for hi := 1; hi <= 6; hi++ {
		for lo := 1; lo <= hi; lo++ {
			ro = append(ro, RollMove(hi, lo))
		}
	}
	return op, ro
}()

// LegalMoves returns every legal move of s, never changing s:
//
//   - PhaseOpening: the 30 opening rolls "roll w-b" (white's die w, black's
//     die b, w != b), each with Probability 1/30, ordered by w then b;
//   - PhaseRoll: the 21 rolls "roll 1-1", "roll 2-1", "roll 2-2", …,
//     "roll 6-6" (high die first, ordered by high then low), Probability
//     1/36 for a double and 2/36 otherwise;
//   - PhaseMove: one play per distinct resulting position, under the
//     must-play rules over the whole turn (as many dice as possible; if only
//     one die can be played, the higher), exactly as gnubg lists them; or the
//     single move "pass" when no number can be played. Plays are ordered by
//     their canonical steps compared from the first step, each step by
//     descending from and then descending to (so "24/23 24/21" comes before
//     "24/21 6/5");
//   - PhaseOver: nil, or "next game" in a finished game of an unfinished
//     match (State.SessionGoesOn).
//
// With the cube in use (spec "Doubling cube, match play, resignation") the
// decisions follow: in PhaseRoll "double" when the player on roll may
// double; in PhaseDouble "take", "drop" and "beaver" (when allowed); in
// PhaseRoll, PhaseMove and PhaseDouble "resign single", "resign gammon",
// "resign backgammon"; in PhaseResign just "accept" and "decline". A game
// without the cube lists exactly what it always did.
//
// The result is a new slice owned by the caller. An invalid s (see Validate)
// gives an unspecified list; call Validate first on untrusted input.
func (s State) LegalMoves() []Move {
	return s.AppendLegalMoves(nil)
}

// AppendLegalMoves appends LegalMoves to dst and returns the extended slice;
// with a reused dst it does not allocate.
func (s State) AppendLegalMoves(dst []Move) []Move {
	switch s.Phase() {
	case PhaseOpening:
		return append(dst, openingRolls...)
	case PhaseRoll:
		return s.decisionMoves(append(dst, rolls...))
	case PhaseMove:
	default:
		return s.decisionMoves(dst)
	}
	g := genPool.Get().(*gen)
	g.generate(&s)
	if len(g.ents) == 0 {
		genPool.Put(g)
		return s.decisionMoves(append(dst, PassMove()))
	}
	g.sortEntries()
	dst = slices.Grow(dst, len(g.ents))
	for i := range g.ents {
		dst = append(dst, g.ents[i].m)
	}
	genPool.Put(g)
	return s.decisionMoves(dst)
}
