package labyrinth

import (
	"math/rand/v2"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// The text forms as they were written before AppendText (issue 10), kept as
// the reference the append path must equal byte for byte.

func legacyPointString(p Point) string {
	if !p.Valid() {
		return "-"
	}
	return string([]byte{"NESW"[p.side()], byte('0' + p.line() + 1)})
}

func legacySquareString(q Square) string {
	if !q.Valid() {
		return "-"
	}
	return string(q.appendText(nil))
}

func legacyMoveString(m Move) string {
	var b []byte
	switch {
	case m.IsShift():
		b = append(b, legacyPointString(m.Point)...)
		if m.Rotation != 0 {
			b = append(b, ':', '0'+m.Rotation%10)
		}
	case m.Vader:
		b = append(b, 'V', ':')
		b = m.To.appendText(b)
	default:
		if !m.To.Valid() {
			return "-"
		}
		b = m.To.appendText(b)
	}
	return string(b)
}

func legacyStateString(s State) string {
	b := make([]byte, 0, 160)
	for q := Square(0); q < NumSquares; q++ {
		if q > 0 && q%7 == 0 {
			b = append(b, '/')
		}
		b = s.board[q].appendText(b)
	}
	b = append(b, ' ')
	b = s.spare.appendText(b)
	b = append(b, ' ')
	for p := 0; p < int(s.n); p++ {
		if p > 0 {
			b = append(b, ',')
		}
		b = appendFigure(b, s.colors[p].Letter(), s.ships[p])
	}
	if s.vader.Valid() {
		if s.n > 0 {
			b = append(b, ',')
		}
		b = appendFigure(b, 'V', s.vader)
	}
	b = append(b, ' ')
	b = append(b, legacyPointString(s.last)...)
	b = append(b, ' ')
	switch s.phase {
	case PhaseShift:
		b = append(b, s.colors[s.turn].Letter(), 's')
	case PhaseMove:
		b = append(b, s.colors[s.turn].Letter(), 'm')
	default:
		if s.phase == PhaseOver && s.ambiguousWinner() {
			b = append(b, s.colors[s.turn].Letter())
		}
		b = append(b, '-')
	}
	b = append(b, ' ')
	for p := 0; p < int(s.n); p++ {
		if p > 0 {
			b = append(b, ',')
		}
		for i := uint8(0); i < s.count[p]; i++ {
			if i == s.found[p] {
				b = append(b, ':')
			}
			b = append(b, TargetLetter(s.cards[p][i]))
		}
		if s.found[p] == s.count[p] {
			b = append(b, ':')
		}
	}
	b = append(b, ' ')
	n := len(b)
	if s.variants.Vader {
		b = append(b, 'v')
	}
	if s.variants.OpenCards {
		b = append(b, 'o')
	}
	if s.variants.NoReturn {
		b = append(b, 'n')
	}
	if len(b) == n {
		b = append(b, '-')
	}
	return string(b)
}

// TestNotationMatchesLegacy plays seeded random games (2 to 4 players, the
// variants) and checks every state's text and every listed move's notation
// (String, AppendText, AppendNotations) against the legacy string code; then
// every point, square and odd move.
func TestNotationMatchesLegacy(t *testing.T) {
	games := 24
	if testing.Short() {
		games = 6
	}
	r := rand.New(rand.NewPCG(2026, 10))
	for g := 0; g < games; g++ {
		o := Options{Players: 2 + g%3, Seed: uint64(g), Variants: Variants{Vader: g%2 == 0, OpenCards: g%3 == 0, NoReturn: g%4 == 1}}
		s, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		var visited []State
		for ply := 0; ply < 400; ply++ {
			visited = append(visited, s)
			moves := rulestest.CheckTexts(t, s, texts)
			if len(moves) == 0 {
				break
			}
			if s, err = s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		rulestest.CheckStateTexts(t, visited, texts)
	}
	for v := 0; v < 256; v++ {
		if got, want := Point(v).String(), legacyPointString(Point(v)); got != want {
			t.Errorf("Point(%d).String() = %q, legacy %q", v, got, want)
		}
		if got, want := Square(v).String(), legacySquareString(Square(v)); got != want {
			t.Errorf("Square(%d).String() = %q, legacy %q", v, got, want)
		}
		for _, m := range []Move{{Point: Point(v), Rotation: uint8(v)}, {Vader: true, To: Square(v)}, {To: Square(v)}} {
			if got, want := m.String(), legacyMoveString(m); got != want {
				t.Errorf("%+v.String() = %q, legacy %q", m, got, want)
			}
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

var textSink string // keeps results alive in the allocation tests

// TestNotationAllocs pins issue 10's allocation counts: Move.String and
// State.String one, Point.String and Square.String none, AppendText none
// with room, AppendNotations one for a whole list into a dst with room.
func TestNotationAllocs(t *testing.T) {
	if rulestest.RaceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	s, err := New(Options{Players: 4, Seed: 7, Variants: Variants{Vader: true}})
	if err != nil {
		t.Fatal(err)
	}
	shifts := s.LegalMoves()
	next, _ := s.Apply(shifts[0])
	for _, st := range []State{s, next} {
		moves := st.LegalMoves()
		buf := make([]byte, 0, 256)
		dst := make([]string, 0, len(moves))
		str := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				textSink = m.String()
				textSink = m.Point.String()
				textSink = m.To.String()
			}
		}) / float64(len(moves))
		app := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				buf, _ = m.AppendText(buf[:0])
			}
			buf, _ = st.AppendText(buf[:0])
		})
		list := testing.AllocsPerRun(20, func() { dst = AppendNotations(dst[:0], moves) })
		state := testing.AllocsPerRun(20, func() { textSink = st.String() })
		if str != 1 || app != 0 || list != 1 || state != 1 {
			t.Errorf("%s: Move.String+Point.String+Square.String %.2f allocs/move (want 1), AppendText %v (want 0), AppendNotations %v per list (want 1), State.String %v (want 1)", st, str, app, list, state)
		}
	}
}
