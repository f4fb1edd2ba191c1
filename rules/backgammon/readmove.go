package backgammon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// ReadMove reads a move as people and programs write it (spec "Move
// notation", "Dialects") and returns the canonical Move LegalMoves lists for
// it (its notation is Move.String, its action id State.Action). It is
// ParseMove made tolerant, for text from other programs; ParseMove stays the
// reader of the canonical grammar, with its exact reasons for a refusal.
// A text ParseMove reads is read the same (ReadMove calls it first), so
// ReadMove(s, m.String()) == m for every legal m. Beyond ParseMove, a play
// may be written:
//
//   - in the notation of gnubg ("24/18 13/11", "bar/22*", "6/off",
//     "13/9(2)", "24/23*/20"), eXtreme Gammon and Backgammon Studio (the
//     same, with unhit waypoints left out: "24/13", "8/2*(2)"), FIBS
//     ("8-5 6-5", "bar-22", "6-off", one die per step, "-" for "/"; a
//     leading "move" is skipped; FIBS numbers the points for the player
//     who moves from 24 to 1, so a text whose every step goes upward,
//     "1-7 12-14", "bar-3", "22-off", is read with point p as the mover's
//     25-p) or OpenSpiel ("Bar/24*", "2/Off", "10/8(2)", "24/18/13",
//     "24/18 Pass" when only one die can be played);
//   - with points from the mover's side, "bar", "b" or 25 for the bar and
//     "off", "o" or 0 for off, in any case; "/" or "-" between points;
//     spaces, commas or semicolons between paths; "(n)" after a path or as
//     its own word;
//   - with steps in any order, chained ("24/23/20") or not ("24/23 23/20"),
//     combined ("24/20" for 24/23/20);
//   - with a "*" missing or extra: the position says where the play hits.
//     Stars are read first as ParseMove reads them (a hit only where "*"
//     says so if such a way exists); when no play fits the stars, they are
//     ignored and the play is taken if it is then the only one;
//   - as a pass: "pass", "cannot move", "can't move", "no move", "no
//     moves", "no play" or the empty text, when no number can be played.
//
// Rolls, the cube, resignations and "next game" are read as ParseMove reads
// them, in their phases.
//
// Errors: ParseMove's kinds (game.ErrInvalidState, game.ErrGameOver,
// game.ErrIllegalMove). A play refused in PhaseMove while a play is
// possible is a *ReadError (with no play possible, the error says that pass
// is the only move): a
// text that matches two or more different plays lists them all
// (Ambiguous); one that matches none lists the nearest legal plays (see
// ReadError) after the reason ParseMove gives. Work is bounded: at most 4
// written steps, each searched in at most 4! orders of dice.
func ReadMove(s State, text string) (Move, error) {
	m, err := ParseMove(s, text)
	if err == nil || s.Phase() != PhaseMove || s.Validate() != nil {
		return m, err
	}
	g := genPool.Get().(*gen)
	defer genPool.Put(g)
	g.generate(&s)
	if isPassText(text) {
		if len(g.ents) == 0 {
			return PassMove(), nil
		}
		return Move{}, &ReadError{Text: text, Plays: firstPlays(g, nearestMax), Err: fmt.Errorf("backgammon: %w: %s with %d-%d: a play is possible (%d legal)", game.ErrIllegalMove, game.Quote(text), s.dice[0], s.dice[1], len(g.ents))}
	}
	norm, alt, ok := normalizePlay(text)
	if !ok {
		return Move{}, &ReadError{Text: text, Plays: firstPlays(g, nearestMax), Err: err}
	}
	m, rerr, q, final := s.readPlay(g, text, norm)
	if final {
		return m, rerr
	}
	if alt != "" {
		// Both directions of numbering fit the text ("24-off"): the other.
		if m, err2, _, final := s.readPlay(g, text, alt); final && err2 == nil {
			return m, nil
		}
	}
	if q == nil {
		return Move{}, &ReadError{Text: text, Plays: firstPlays(g, nearestMax), Err: err}
	}
	if len(g.ents) == 0 {
		return Move{}, rerr // ParseMove's "the only legal move is pass"
	}
	return Move{}, &ReadError{Text: text, Plays: nearest(g, q), Err: rerr}
}

// readPlay reads norm (ParseMove's grammar) against g's legal plays: final
// is true when that settles it (the play, or the refusal of an ambiguous
// text); otherwise err says why no play fits and q holds the written steps
// (nil when norm is not a play).
func (s *State) readPlay(g *gen, text, norm string) (m Move, err error, q *search, final bool) {
	noOffset := func(_ int, why string, args ...any) error {
		return &game.ParseError{Game: "backgammon", What: "move", Input: text, Offset: -1, Reason: fmt.Sprintf(why, args...), Kind: game.ErrIllegalMove}
	}
	q = new(search)
	q.init(g, s)
	if perr := q.readPaths(norm, text, noOffset); perr != nil || q.nh == 0 {
		return Move{}, perr, nil, false
	}
	j, rerr := q.run(text)
	if rerr == nil {
		return g.ents[j].m, nil, q, true
	}
	if len(q.found) > 1 {
		return Move{}, ambiguous(text, g, q), q, true
	}
	if q.marked != 0 {
		// No play hits where the stars say: read the steps without them.
		var q2 search
		q2.init(g, s)
		if q2.readPaths(strings.ReplaceAll(norm, "*", ""), text, noOffset) == nil {
			j, err2 := q2.run(text)
			if err2 == nil {
				return g.ents[j].m, nil, q, true
			}
			if len(q2.found) > 1 {
				return Move{}, ambiguous(text, g, &q2), q, true
			}
		}
	}
	return Move{}, rerr, q, false
}

// nearestMax is how many plays a ReadError lists at most.
const nearestMax = 5

// ReadError is ReadMove's refusal of a play (it wraps game.ErrIllegalMove
// through Err).
//
// When Ambiguous, the text matches every play of Plays (all of them, in
// LegalMoves order) and no star or waypoint tells them apart. Otherwise
// Plays are the nearest legal plays, at most 5 in LegalMoves order:
// "nearest" counts the checkers a play puts elsewhere than the text does.
// For each point (and the bar and off) take how many checkers the text
// moves there minus how many it moves away, the same for the play, and add
// up the absolute differences; the plays with the smallest sum are the
// nearest. A text that is not a play at all (no points to compare) lists
// the first legal plays.
type ReadError struct {
	Text      string // the text as given
	Ambiguous bool   // the text matches all of Plays
	Plays     []Move // the plays matched (Ambiguous) or the nearest legal plays
	Err       error  // the reason; wraps game.ErrIllegalMove
}

// Error says why and lists Plays in gnubg's notation: "…: it can be 24/20
// or 24/23 23/20" or "…; the nearest legal plays: 8/5 6/5, 13/10 6/5".
func (e *ReadError) Error() string {
	names := make([]string, len(e.Plays))
	for i, m := range e.Plays {
		names[i] = m.String()
	}
	if e.Ambiguous {
		return fmt.Sprintf("%v: it can be %s; write the waypoints or mark hits with *", e.Err, orList(names))
	}
	if len(names) == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("%v; the nearest legal plays: %s", e.Err, strings.Join(names, ", "))
}

// Unwrap returns Err.
func (e *ReadError) Unwrap() error { return e.Err }

func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func ambiguous(text string, g *gen, q *search) error {
	idx := make([]int, 0, len(q.found))
	for _, c := range q.found {
		idx = append(idx, c.idx)
	}
	// LegalMoves order is g.ents order.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	plays := make([]Move, len(idx))
	for i, k := range idx {
		plays[i] = g.ents[k].m
	}
	return &ReadError{Text: text, Ambiguous: true, Plays: plays, Err: fmt.Errorf("backgammon: %w: %s matches %d different plays", game.ErrIllegalMove, game.Quote(text), len(plays))}
}

func firstPlays(g *gen, n int) []Move {
	out := make([]Move, 0, min(n, len(g.ents)))
	for i := 0; i < len(g.ents) && i < n; i++ {
		out = append(out, g.ents[i].m)
	}
	return out
}

// nearest returns the legal plays whose net change of checkers per point is
// closest (L1) to the written hops' (see ReadError).
func nearest(g *gen, q *search) []Move {
	var want [Bar + 1]int
	for i := 0; i < q.nh; i++ {
		want[q.hops[i].from]--
		want[q.hops[i].to]++
	}
	best := -1
	var out []Move
	for i := range g.ents {
		m := &g.ents[i].m
		d := want
		for k := 0; k < int(m.n); k++ {
			d[m.steps[k][0]]++
			d[m.steps[k][1]]--
		}
		sum := 0
		for _, v := range d {
			sum += max(v, -v)
		}
		switch {
		case best < 0 || sum < best:
			best, out = sum, append(out[:0], *m)
		case sum == best && len(out) < nearestMax:
			out = append(out, *m)
		}
	}
	return out
}

// passWords are the texts ReadMove reads as a pass (after lower-casing,
// trimming and dropping a final "."), besides the empty text.
var passWords = map[string]bool{
	"pass": true, "cannot move": true, "can't move": true, "cant move": true,
	"no move": true, "no moves": true, "no play": true, "no legal move": true,
	"no legal moves": true,
}

func isPassText(text string) bool {
	t := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	t = strings.TrimSuffix(t, ".")
	t = strings.ReplaceAll(t, "’", "'")
	return t == "" || passWords[t]
}

// PlayNotation rewrites a play written in any dialect ReadMove reads (see
// there: "/" or "-", "bar"/"b"/25, "off"/"o"/0, any case, commas, "(n)" as
// its own word, a leading "move", OpenSpiel's "Pass" half) into the grammar
// ParseMove reads: lower case, "/" between points, "bar" and "off", a star
// only after a landing point, paths separated by one space ("Bar-22*, 6-O"
// is "bar/22* 6/off"; a text whose every step goes upward, and none
// downward, is FIBS's numbering for the other direction: "1-7" is "24/18").
// It reads no position: ok is false when a word is not
// a path, and the result may still be no legal play. At most 12 words.
// It is the one lexer of the dialects: ReadMove and the .mat reader
// (rules/backgammon/mat) use it.
func PlayNotation(text string) (string, bool) {
	t, _, ok := normalizePlay(text)
	return t, ok
}

// IsPathWord reports whether w is one checker path of a play in a dialect
// ReadMove reads, without spaces: "13/9", "25/20*", "6/0", "bar/21",
// "6-off", "13/9(2)", "24/23*/20" (points 0 to 25, "bar", "b", "off" or
// "o", in any case; "/" or "-" between them; a "*" after any point; a count
// in parentheses at the end). It is linear in len(w).
func IsPathWord(w string) bool {
	_, ok := lex(strings.ToLower(w))
	return ok
}

// normalizePlay is PlayNotation; alt is the text in the other direction's
// numbering when both directions fit it ("24-off"), else "".
func normalizePlay(text string) (norm, alt string, ok bool) {
	t := strings.ToLower(text)
	t = strings.NewReplacer(",", " ", ";", " ").Replace(t)
	words := strings.Fields(t)
	if len(words) > 0 && words[0] == "move" {
		words = words[1:]
	}
	if len(words) > 12 {
		return "", "", false // a play has at most 4 steps
	}
	var paths []lexPath
	for _, w := range words {
		switch {
		case w == "pass":
			continue // OpenSpiel's half of a play that uses one die
		case len(w) == 3 && w[0] == '(' && w[1] >= '1' && w[1] <= '4' && w[2] == ')':
			if len(paths) == 0 || paths[len(paths)-1].count != "" {
				return "", "", false
			}
			paths[len(paths)-1].count = w // "13/9 (2)"
			continue
		}
		p, ok := lex(w)
		if !ok {
			return "", "", false
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		return "", "", false
	}
	// FIBS numbers the points for the player who moves from 24 to 1; the
	// other player's steps go upward ("1-7", "bar-3", "22-off"). A text
	// whose every step goes upward, and none downward, is in that
	// numbering: point p is the mover's 25-p.
	down, up := true, true
	for _, p := range paths {
		for k := 1; k < len(p.pts); k++ {
			a, b := p.pts[k-1], p.pts[k]
			down = down && a.at(false) > b.at(false)
			up = up && a.at(true) < b.at(true)
		}
	}
	write := func(mirror bool) string {
		var out []string
		for _, p := range paths {
			var b strings.Builder
			for k, q := range p.pts {
				if k > 0 {
					b.WriteByte('/')
				}
				n := q.n
				if mirror && !q.word {
					n = 25 - n
				}
				switch {
				case n == Bar:
					b.WriteString("bar")
				case n == Off:
					b.WriteString("off")
				default:
					b.WriteString(strconv.Itoa(n))
				}
				if q.star && k > 0 {
					b.WriteByte('*')
				}
			}
			out = append(out, b.String()+p.count)
		}
		return strings.Join(out, " ")
	}
	switch {
	case up && !down:
		return write(true), "", true
	case up && down:
		return write(false), write(true), true
	}
	return write(false), "", true
}

// lexPoint is a point of a written path: n is 0..25 (a word: "bar" is 25,
// "off" 0), word says it was written as a word, star that a "*" follows.
type lexPoint struct {
	n          int
	word, star bool
}

// at is the point's number for a comparison of direction: in the upward
// numbering the words swap ends (the bar is below 1, off above 24).
func (q lexPoint) at(up bool) int {
	if up && q.word {
		return Bar - q.n
	}
	return q.n
}

type lexPath struct {
	pts   []lexPoint
	count string // "(n)" or ""
}

// lex reads one path: point (sep point)+ [(n)], sep "/" or "-", points
// 0..25, "bar", "b", "off" or "o", each with an optional "*"; w is lower
// case.
func lex(w string) (lexPath, bool) {
	var p lexPath
	if n := len(w); n >= 3 && w[n-1] == ')' {
		if w[n-3] != '(' || w[n-2] < '1' || w[n-2] > '4' {
			return p, false
		}
		w, p.count = w[:n-3], w[n-3:]
	}
	for len(w) > 0 {
		if len(p.pts) == 6 {
			return p, false
		}
		i := strings.IndexAny(w, "/-")
		seg := w
		if i >= 0 {
			seg, w = w[:i], w[i+1:]
			if w == "" {
				return p, false
			}
		} else {
			w = ""
		}
		q := lexPoint{star: strings.HasSuffix(seg, "*")}
		seg = strings.TrimRight(seg, "*")
		switch seg {
		case "bar", "b":
			q.n, q.word = Bar, true
		case "off", "o":
			q.n, q.word = Off, true
		default:
			if len(seg) < 1 || len(seg) > 2 || strings.Trim(seg, "0123456789") != "" {
				return p, false
			}
			q.n, _ = strconv.Atoi(seg)
			if q.n > 25 {
				return p, false
			}
		}
		p.pts = append(p.pts, q)
	}
	return p, len(p.pts) >= 2
}
