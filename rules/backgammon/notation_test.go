package backgammon

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// The notation as it was written before AppendText (issue 10), kept as the
// reference the append path must equal byte for byte.

func legacyMoveString(m Move) string {
	switch m.kind {
	case KindPass:
		return "pass"
	case KindRoll, KindOpeningRoll:
		return fmt.Sprintf("roll %d-%d", m.dice[0], m.dice[1])
	case KindPlay:
		return legacyPlayString(m)
	case KindResign:
		return "resign " + resignNames[m.dice[0]]
	case KindDouble, KindTake, KindDrop, KindBeaver, KindAccept, KindDecline, KindNextGame:
		return m.kind.String()
	}
	return "none"
}

func legacyPointName(p int) string {
	switch p {
	case Bar:
		return "bar"
	case Off:
		return "off"
	}
	return fmt.Sprint(p)
}

func legacyPlayString(m Move) string {
	type path struct {
		pts  [5]uint8
		hit  [5]bool
		n    int
		text string
	}
	var paths [4]path
	np := 0
	for i := 0; i < int(m.n); i++ {
		from, to := m.steps[i][0], m.steps[i][1]
		hit := m.hits&(1<<i) != 0
		j := 0
		for ; j < np; j++ {
			p := &paths[j]
			if last := p.pts[p.n-1]; last == from && last != Off {
				break
			}
		}
		if j == np {
			paths[np].pts[0] = from
			paths[np].n = 1
			np++
		}
		p := &paths[j]
		p.pts[p.n], p.hit[p.n] = to, hit
		p.n++
	}
	for j := 0; j < np; j++ {
		p := &paths[j]
		var b strings.Builder
		b.WriteString(legacyPointName(int(p.pts[0])))
		for k := 1; k < p.n; k++ {
			if k < p.n-1 && !p.hit[k] {
				continue
			}
			b.WriteByte('/')
			b.WriteString(legacyPointName(int(p.pts[k])))
			if p.hit[k] {
				b.WriteByte('*')
			}
		}
		p.text = b.String()
	}
	ps := paths[:np]
	sort.SliceStable(ps, func(a, b int) bool {
		pa, pb := &ps[a], &ps[b]
		if pa.pts[0] != pb.pts[0] {
			return pa.pts[0] > pb.pts[0]
		}
		return pa.pts[pa.n-1] > pb.pts[pb.n-1]
	})
	same := func(ta, tb string) bool { return strings.ReplaceAll(ta, "*", "") == strings.ReplaceAll(tb, "*", "") }
	var b strings.Builder
	for j := 0; j < np; j++ {
		if ps[j].text == "" {
			continue
		}
		count := 1
		for k := j + 1; k < np; k++ {
			if ps[k].text != "" && same(ps[k].text, ps[j].text) {
				count++
				if strings.Count(ps[k].text, "*") > strings.Count(ps[j].text, "*") {
					ps[j].text = ps[k].text
				}
				ps[k].text = ""
			}
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ps[j].text)
		if count > 1 {
			fmt.Fprintf(&b, "(%d)", count)
		}
	}
	return b.String()
}

func legacyStateString(s State) string {
	t := s.PositionID() + ":" + s.MatchID()
	if s.cubeUse && s.matchLen == 0 {
		t += " cube"
	}
	if s.beavers {
		t += " beavers"
	}
	return t
}

// TestNotationMatchesLegacy plays seeded random games (money with and
// without the cube and beavers, a match) and checks every state's text and
// every listed move's notation, chance outcomes and cube decisions
// included, against the legacy string code.
func TestNotationMatchesLegacy(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 12
	}
	opts := []Options{{}, {Cube: true}, {Cube: true, Beavers: true, NoJacoby: true}, {MatchLength: 5}}
	r := rand.New(rand.NewPCG(2026, 10))
	seen := map[Kind]bool{}
	for g := 0; g < games; g++ {
		s, err := New(opts[g%len(opts)])
		if err != nil {
			t.Fatal(err)
		}
		var visited []State
		for ply := 0; ply < 2000; ply++ {
			visited = append(visited, s)
			moves := rulestest.CheckTexts(t, s, texts)
			if len(moves) == 0 {
				break
			}
			if s.Phase() == PhaseOver {
				if s.MatchLength() == 0 {
					break
				}
			}
			for _, m := range moves {
				seen[m.kind] = true
			}
			next, err := s.Apply(moves[r.IntN(len(moves))])
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			s = next
		}
		rulestest.CheckStateTexts(t, visited, texts)
	}
	for _, k := range []Kind{KindPlay, KindPass, KindRoll, KindOpeningRoll, KindDouble, KindTake, KindDrop, KindResign, KindAccept, KindDecline, KindNextGame} {
		if !seen[k] {
			t.Errorf("no %v move listed in the random games", k)
		}
	}
	// Every roll and kind, odd ones included.
	for a := 0; a <= 7; a++ {
		for b := 0; b <= 7; b++ {
			for _, m := range []Move{RollMove(a, b), OpeningRollMove(a, b)} {
				if got, want := m.String(), legacyMoveString(m); got != want {
					t.Errorf("String() = %q, legacy %q", got, want)
				}
			}
		}
	}
	for _, m := range []Move{{}, PassMove(), DoubleMove(), TakeMove(), DropMove(), BeaverMove(), ResignMove(0), ResignMove(1), ResignMove(2), ResignMove(3), AcceptMove(), DeclineMove(), NextGameMove()} {
		if got, want := m.String(), legacyMoveString(m); got != want {
			t.Errorf("String() = %q, legacy %q", got, want)
		}
	}
}

// texts is what rulestest.CheckTexts and CheckStateTexts compare.
var texts = rulestest.Texts[State, Move]{
	LegacyState:      legacyStateString,
	LegacyMove:       legacyMoveString,
	AppendNotations:  AppendNotations,
	AppendStateTexts: AppendStateTexts,
}

var textSink string

// TestNotationAllocs pins the allocation counts issue 10 asks for: a play's
// String one, a roll's none, AppendText none with room, AppendNotations one
// for a whole list into a dst with room (none for the rolls), State.String one.
func TestNotationAllocs(t *testing.T) {
	if rulestest.RaceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, ns := range notationStates(t) {
		s := ns.s
		moves := s.LegalMoves()
		buf := make([]byte, 0, 64)
		dst := make([]string, 0, len(moves))
		perMove := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				textSink = m.String()
			}
		}) / float64(len(moves))
		appendAllocs := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				buf, _ = m.AppendText(buf[:0])
			}
		})
		list := testing.AllocsPerRun(20, func() { dst = AppendNotations(dst[:0], moves) })
		state := testing.AllocsPerRun(20, func() { textSink = s.String() })
		wantList := 1.0 // the plays' text
		if ns.name == "rolls" {
			wantList = 0 // rolls are constants
		}
		if perMove > 1 || appendAllocs != 0 || list != wantList || state != 1 {
			t.Errorf("%s: String %.2f allocs/move (want ≤ 1), AppendText %v (want 0), AppendNotations %v per list (want %v), State.String %v (want 1)", ns.name, perMove, appendAllocs, list, wantList, state)
		}
	}
}
