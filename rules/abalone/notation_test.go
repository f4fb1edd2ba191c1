package abalone

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// The text forms as they were written before AppendText (issue 10), kept as
// the reference the append path must equal byte for byte.

func legacyCellString(c Cell) string {
	if c == NoCell {
		return "-"
	}
	if !c.Valid() {
		return fmt.Sprintf("?%d", uint8(c))
	}
	return string([]byte{c.Row() + 'a' - 'A', '0' + byte(c.Num())})
}

func legacyMoveString(m Move) string {
	if m.End == NoCell {
		return legacyCellString(m.From) + legacyCellString(m.To)
	}
	return legacyCellString(m.From) + legacyCellString(m.End) + legacyCellString(m.To)
}

func legacyStateString(s State) string {
	var b strings.Builder
	for r := 8; r >= 0; r-- {
		empty := 0
		for i := rowStart[r]; i < rowStart[r+1]; i++ {
			var ch byte
			switch {
			case s.board[0]&(1<<i) != 0:
				ch = 'b'
			case s.board[1]&(1<<i) != 0:
				ch = 'w'
			default:
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte('0' + byte(empty))
				empty = 0
			}
			b.WriteByte(ch)
		}
		if empty > 0 {
			b.WriteByte('0' + byte(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteByte("bw?"[min(s.toMove, 2)])
	if s.maxPlies > 0 {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatUint(uint64(s.plies), 10))
		b.WriteByte('/')
		b.WriteString(strconv.FormatUint(uint64(s.maxPlies), 10))
	}
	return b.String()
}

// TestNotationMatchesLegacy plays seeded random games on the three layouts
// (with and without a ply limit) and checks every state's text and every
// listed move's notation (String, AppendText, AppendNotations) against the
// legacy string code; then every cell, odd values included.
func TestNotationMatchesLegacy(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 6
	}
	r := rand.New(rand.NewPCG(2026, 10))
	layouts := []Layout{Classic, BelgianDaisy, GermanDaisy}
	for g := 0; g < games; g++ {
		o := Options{Layout: layouts[g%3]}
		if g%2 == 1 {
			o.MaxPlies = 150
		}
		s, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		var visited []State
		for ply := 0; ply < 300; ply++ {
			visited = append(visited, s)
			moves := rulestest.CheckTexts(t, s, texts)
			if len(moves) == 0 {
				break
			}
			s, err = s.Apply(moves[r.IntN(len(moves))])
			if err != nil {
				t.Fatal(err)
			}
		}
		rulestest.CheckStateTexts(t, visited, texts)
	}
	for c := 0; c < 256; c++ {
		if got, want := Cell(c).String(), legacyCellString(Cell(c)); got != want {
			t.Errorf("Cell(%d).String() = %q, legacy %q", c, got, want)
		}
		m := Move{From: Cell(c), To: Cell(255 - c), End: Cell(c * 7 % 256)}
		if got, want := m.String(), legacyMoveString(m); got != want {
			t.Errorf("%+v.String() = %q, legacy %q", m, got, want)
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
// State.String one, AppendText none with room, AppendNotations one for a
// whole list into a dst with room, Cell.String none.
func TestNotationAllocs(t *testing.T) {
	if rulestest.RaceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, bs := range benchStates() {
		s := bs.s
		moves := s.LegalMoves()
		buf := make([]byte, 0, 64)
		dst := make([]string, 0, len(moves))
		str := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				textSink = m.String()
				textSink = m.From.String()
			}
		}) / float64(len(moves))
		app := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				buf, _ = m.AppendText(buf[:0])
				buf, _ = s.AppendText(buf[:0])
			}
		})
		list := testing.AllocsPerRun(20, func() { dst = AppendNotations(dst[:0], moves) })
		state := testing.AllocsPerRun(20, func() { textSink = s.String() })
		if str != 1 || app != 0 || list != 1 || state != 1 {
			t.Errorf("%s: Move.String+Cell.String %.2f allocs/move (want 1), AppendText %v (want 0), AppendNotations %v per list (want 1), State.String %v (want 1)", bs.name, str, app, list, state)
		}
	}
}

// Cells(p) has bit c−1 set exactly for the cells At gives to p, in every
// state of seeded games (pushes off included), and its population is
// Marbles(p).
func TestCellsMatchAt(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 35))
	pushedOff := false
	for _, l := range []Layout{Classic, BelgianDaisy, GermanDaisy} {
		s, err := New(Options{Layout: l})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 400; ply++ {
			for p := Black; p <= White; p++ {
				set, n := s.Cells(p), 0
				for c := Cell(1); c <= NumCells; c++ {
					if got, want := set&(1<<(c-1)) != 0, s.At(c) == p; got != want {
						t.Fatalf("%s: Cells(%d) has %v: %v; At gives %d", s, p, c, got, s.At(c))
					}
					if s.At(c) == p {
						n++
					}
				}
				if set>>NumCells != 0 || n != s.Marbles(p) {
					t.Fatalf("%s: Cells(%d) = %#x: bits beyond the cells, or %d marbles; Marbles gives %d", s, p, set, n, s.Marbles(p))
				}
				pushedOff = pushedOff || s.Lost(p) > 0
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if s, err = s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !pushedOff {
		t.Error("no marble was pushed off: the sets were checked at full strength only")
	}
}
