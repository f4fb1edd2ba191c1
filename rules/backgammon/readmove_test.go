package backgammon

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// The dialect writers below write a canonical play as each program does;
// the property tests read every play of the gnubg corpora back from each.

// writeXG writes a play as eXtreme Gammon and Backgammon Studio do: paths
// through unhit points joined ("24/18 18/13" as "24/13"), identical paths
// counted, "bar" and "off".
func writeXG(m Move) string {
	paths := chainPaths(m.Steps())
	var parts []string
	for i := 0; i < len(paths); {
		n := 1
		for i+n < len(paths) && samePath(paths[i+n], paths[i]) {
			n++
		}
		p := paths[i]
		var b strings.Builder
		b.WriteString(pointName(p[0].From))
		for _, st := range p {
			if st.Hit || st == p[len(p)-1] {
				b.WriteString("/" + pointName(st.To))
				if st.Hit {
					b.WriteString("*")
				}
			}
		}
		if n > 1 {
			fmt.Fprintf(&b, "(%d)", n)
		}
		parts = append(parts, b.String())
		i += n
	}
	return strings.Join(parts, " ")
}

// chainPaths groups a play's steps (execution order) into checker paths: a
// step from where an earlier path ends continues it.
func chainPaths(steps []Step) [][]Step {
	var paths [][]Step
	for _, st := range steps {
		j := -1
		for k, p := range paths {
			if last := p[len(p)-1]; last.To == st.From && last.To != Off {
				j = k
				break
			}
		}
		if j < 0 {
			paths = append(paths, []Step{st})
		} else {
			paths[j] = append(paths[j], st)
		}
	}
	return paths
}

func samePath(a, b []Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// writeFIBS writes a play as FIBS's move command takes it: one die per
// step, "from-to", "bar" and "off", no stars.
func writeFIBS(m Move) string {
	var parts []string
	for _, st := range m.Steps() {
		parts = append(parts, pointName(st.From)+"-"+pointName(st.To))
	}
	return strings.Join(parts, " ")
}

// writeFIBSUp writes a play as FIBS shows the moves of the player who
// moves upward (points numbered for the other side: the mover's p is
// 25-p), "bar" and "off" as words.
func writeFIBSUp(m Move) string {
	name := func(p int) string {
		switch p {
		case Bar:
			return "bar"
		case Off:
			return "off"
		}
		return strconv.Itoa(25 - p)
	}
	var parts []string
	for _, st := range m.Steps() {
		parts = append(parts, name(st.From)+"-"+name(st.To))
	}
	return strings.Join(parts, " ")
}

// writeOpenSpiel writes a play as OpenSpiel's backgammon ActionToString
// does, one action per two dice (a double is two actions, joined by a
// space): "Bar"/"Off", a pair on one checker chained ("24/18/13"), equal
// pairs "10/8(2)", the higher start first, a second hit on the same point
// unmarked, and "Pass" for a die left unplayed.
func writeOpenSpiel(m Move) string {
	steps := m.Steps()
	name := func(p int) string {
		switch p {
		case Bar:
			return "Bar"
		case Off:
			return "Off"
		}
		return strconv.Itoa(p)
	}
	star := func(h bool) string {
		if h {
			return "*"
		}
		return ""
	}
	var acts []string
	for i := 0; i < len(steps); i += 2 {
		a := steps[i]
		if i+1 == len(steps) {
			acts = append(acts, name(a.From)+"/"+name(a.To)+star(a.Hit)+" Pass")
			continue
		}
		b := steps[i+1]
		switch {
		case a.From == b.From && a.To == b.To:
			acts = append(acts, name(a.From)+"/"+name(a.To)+star(a.Hit)+"(2)")
		case a.To == b.From && a.To != Off:
			acts = append(acts, name(a.From)+"/"+name(a.To)+star(a.Hit)+"/"+name(b.To)+star(b.Hit))
		case b.To == a.From && b.To != Off:
			acts = append(acts, name(b.From)+"/"+name(b.To)+star(b.Hit)+"/"+name(a.To)+star(a.Hit))
		default:
			if a.From < b.From || a.From == b.From && a.To < b.To {
				a, b = b, a
			}
			second := b.Hit && !(a.Hit && a.To == b.To)
			acts = append(acts, name(a.From)+"/"+name(a.To)+star(a.Hit)+" "+name(b.From)+"/"+name(b.To)+star(second))
		}
	}
	return strings.Join(acts, " ")
}

var dialects = []struct {
	name  string
	write func(Move) string
}{
	{"gnubg", Move.String},
	{"xg", writeXG},
	{"fibs", writeFIBS},
	{"fibs-upward", writeFIBSUp},
	{"openspiel", writeOpenSpiel},
}

// TestReadMoveDialects reads every legal play of every position of the
// gnubg oracle corpora (gnubg 1.07's complete lists) written in each
// dialect: each must read back to itself, with the action id of the
// canonical move.
func TestReadMoveDialects(t *testing.T) {
	counts := map[string]int{}
	for name, rows := range allOracleRows(t) {
		for i := range rows {
			r := &rows[i]
			s := oracleState(t, r)
			moves := s.LegalMoves()
			if len(moves) != r.Count && !(r.Count == 0 && len(moves) == 1) {
				t.Fatalf("%s row %d: %d legal moves; gnubg %d", name, r.ID, len(moves), r.Count)
			}
			for _, m := range moves {
				for _, d := range dialects {
					text := d.write(m)
					if m.Kind() == KindPass {
						text = []string{"pass", "Cannot Move", "no move", "", "Pass"}[counts[d.name+" pass"]%5]
						counts[d.name+" pass"]++
					}
					got, err := ReadMove(s, text)
					if err != nil || got != m {
						t.Fatalf("%s row %d (%s): ReadMove(%q) [%s] = %v, %v; want %s", name, r.ID, s, text, d.name, got, err, m)
					}
					if s.Action(got) != s.Action(m) {
						t.Fatalf("action ids differ")
					}
					counts[d.name]++
				}
			}
		}
	}
	for _, d := range dialects {
		if counts[d.name] < 60000 {
			t.Errorf("%s: only %d plays read", d.name, counts[d.name])
		}
	}
	t.Logf("plays read back per dialect: %v", counts)
}

// garble writes play m as a careless person or program might: random
// chaining and splitting of a checker's steps, unhit waypoints left out,
// counts, stars removed or added, paths shuffled, "/" or "-", "bar"/"b"/25
// and "off"/"o"/0, any case, spaces or commas. starRemoved says whether a
// hit was left unmarked (then the text may rightly name a play that hits
// less: gnubg's reading of a path without "*" is the way that does not hit).
func garble(r *rand.Rand, m Move) (text string, starRemoved bool) {
	type pt struct {
		p    int
		star bool
	}
	var paths [][]pt
	for _, p := range chainPaths(m.Steps()) {
		if r.IntN(3) == 0 && len(p) > 1 {
			// split the checker's path into its single steps
			for _, st := range p {
				paths = append(paths, []pt{{st.From, false}, {st.To, st.Hit}})
			}
			continue
		}
		cur := []pt{{p[0].From, false}}
		for k, st := range p {
			last := k == len(p)-1
			if !last && r.IntN(2) == 0 {
				// leave this waypoint out (losing its star if any)
				if st.Hit {
					starRemoved = true
				}
				continue
			}
			cur = append(cur, pt{st.To, st.Hit})
		}
		paths = append(paths, cur)
	}
	for _, p := range paths {
		for k := 1; k < len(p); k++ {
			switch {
			case p[k].star && r.IntN(4) == 0:
				p[k].star, starRemoved = false, true
			case !p[k].star && p[k].p != Off && r.IntN(10) == 0:
				p[k].star = true
			}
		}
	}
	r.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	name := func(p int) string {
		switch p {
		case Bar:
			return []string{"bar", "b", "25", "Bar", "BAR"}[r.IntN(5)]
		case Off:
			return []string{"off", "o", "0", "Off", "OFF"}[r.IntN(5)]
		}
		return strconv.Itoa(p)
	}
	var words []string
	for i := 0; i < len(paths); i++ {
		n := 1
		if r.IntN(2) == 0 {
			for j := i + 1; j < len(paths); j++ {
				if fmt.Sprint(paths[j]) == fmt.Sprint(paths[i]) {
					paths[i+n], paths[j] = paths[j], paths[i+n]
					n++
				}
			}
		}
		var b strings.Builder
		for k, q := range paths[i] {
			if k > 0 {
				b.WriteString([]string{"/", "-"}[r.IntN(2)])
			}
			b.WriteString(name(q.p))
			if q.star {
				b.WriteString("*")
			}
		}
		if n > 1 {
			fmt.Fprintf(&b, []string{"(%d)", " (%d)"}[r.IntN(2)], n)
		}
		words = append(words, b.String())
		i += n - 1
	}
	text = strings.Join(words, []string{" ", ", ", "  ", ","}[r.IntN(4)])
	if r.IntN(3) == 0 {
		text = strings.ToUpper(text)
	}
	return text, starRemoved
}

func hitCount(m Move) int {
	n := 0
	for _, st := range m.Steps() {
		if st.Hit {
			n++
		}
	}
	return n
}

// TestReadMoveGarbled garbles every legal play of the corpora (1 text
// each; GAMERULES_LONG=1: 10) and reads it back: the answer is the play
// meant or a refusal (a *ReadError, or a ParseMove error), never another
// play; but where a hit was left unmarked, a play that hits less is the
// text's right reading.
func TestReadMoveGarbled(t *testing.T) {
	per := 1
	if long() {
		per = 10
	}
	r := rand.New(rand.NewPCG(31, 3))
	var tried, same, refused, fewerHits, ambiguousN int
	for name, rows := range allOracleRows(t) {
		for i := range rows {
			s := oracleState(t, &rows[i])
			for _, m := range s.LegalMoves() {
				if m.Kind() != KindPlay {
					continue
				}
				for range per {
					text, starRemoved := garble(r, m)
					tried++
					got, err := ReadMove(s, text)
					switch {
					case err == nil && got == m:
						same++
					case err != nil:
						if !errors.Is(err, game.ErrIllegalMove) {
							t.Fatalf("%s %s: ReadMove(%q) = %v: not ErrIllegalMove", name, s, text, err)
						}
						var re *ReadError
						if errors.As(err, &re) && re.Ambiguous {
							ambiguousN++
							found := false
							for _, p := range re.Plays {
								found = found || p == m
							}
							if !found || len(re.Plays) < 2 {
								t.Fatalf("%s %s: ReadMove(%q) ambiguous among %v, not listing %s", name, s, text, re.Plays, m)
							}
						}
						refused++
					case starRemoved && hitCount(got) < hitCount(m):
						fewerHits++
					default:
						t.Fatalf("%s %s: ReadMove(%q) = %s; meant %s", name, s, text, got, m)
					}
				}
			}
		}
	}
	t.Logf("garbled texts %d: read as meant %d, refused %d (ambiguous %d), an unmarked hit read as the play hitting less %d", tried, same, refused, ambiguousN, fewerHits)
	if same < tried*9/10 {
		t.Errorf("only %d of %d garbled texts read as meant", same, tried)
	}
}

// TestReadMoveCases checks hand-worked texts: each dialect's forms, and the
// refusals with their listed plays.
func TestReadMoveCases(t *testing.T) {
	blots := fromBoard(map[int]int{24: 2, 13: 5, 8: 3, 6: 5}, map[int]int{2: 1, 4: 1, 13: 13}, 3, 1)
	dance := fromBoard(map[int]int{25: 1, 6: 14}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5}, 6, 5)
	bar := fromBoard(map[int]int{25: 1, 13: 1, 6: 13}, map[int]int{2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, 6, 5)
	bearOff := fromBoard(map[int]int{2: 2, 1: 13}, map[int]int{13: 15}, 2, 1)
	for _, c := range []struct {
		state, text, want string
	}{
		{white31, "8/5 6/5", "8/5 6/5"},
		{white31, "8-5 6-5", "8/5 6/5"},         // FIBS
		{white31, "move 8-5 6-5", "8/5 6/5"},    // FIBS's command
		{white31, "6-5, 8-5", "8/5 6/5"},        // any order, commas
		{white31, "8/5* 6/5", "8/5 6/5"},        // an extra star
		{white31, "24/23/20", "24/20"},          // chained
		{white31, "24-23 23-20", "24/20"},       // FIBS, one die per step
		{white31, "24/23 23/20", "24/20"},       // split
		{white31, "24/21 Pass", "!uses 1 die"},  // OpenSpiel's half pass, but both dice play
		{white31, "13/10 24/23", "24/23 13/10"}, // any order
		{white31, "8/5 6/5 (2)", "!has 3 steps but 3-1 gives 2; the nearest legal plays: 8/5 6/5"},          // a count too many
		{white31, "pass", "!a play is possible"},                                                            // a play is possible
		{white31, "Cannot Move", "!the nearest"},                                                            // likewise, with plays listed
		{white31, "hello", "!expected a point"},                                                             // not notation
		{white31, "8/4 6/5", "!needs dice 4 and 1; the roll is 3-1; the nearest legal plays: 8/5 6/5, 8/4"}, // 8/4 6/5 needs 4 and 1
		{dance, "", "pass"},
		{dance, "Cannot Move", "pass"},
		{dance, "no move.", "pass"},
		{dance, "PASS", "pass"},
		{bar, "Bar/19 13/8", "bar/19 13/8"}, // OpenSpiel
		{bar, "BAR-19 13-8", "bar/19 13/8"}, // FIBS, upper case
		{bar, "25/19, 13/8", "bar/19 13/8"},
		{bar, "b/19 13/8", "bar/19 13/8"},
		{bearOff, "2/Off 1/Off", "2/off 1/off"}, // OpenSpiel
		{bearOff, "2-o 1-0", "2/off 1/off"},     // FIBS's "o", 0
		{blots, "24/23*/20", "24/23*/20"},
		{blots, "24/23/20", "24/23*/20"}, // the star the position implies
		{blots, "24-21-20", "24/21*/20"},
		{blots, "24/20", "!it can be 24/21*/20 or 24/23*/20"}, // all listed
		{blots, "24/20*", "!it can be 24/21*/20 or 24/23*/20"},
		{blots, "24/23 24/21", "24/23* 24/21*"},
	} {
		s := mustState(t, c.state)
		got, err := ReadMove(s, c.text)
		if strings.HasPrefix(c.want, "!") {
			if err == nil || !strings.Contains(err.Error(), c.want[1:]) {
				t.Errorf("%s: ReadMove(%q) = %v, %v; want an error with %q", c.state, c.text, got, err, c.want[1:])
			}
			if err != nil && !errors.Is(err, game.ErrIllegalMove) {
				t.Errorf("ReadMove(%q) = %v: not ErrIllegalMove", c.text, err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("%s: ReadMove(%q) = %v, %v; want %s", c.state, c.text, got, err, c.want)
		}
	}
}
