package gravitytrap

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// The text forms as they were written before AppendText (issue 10), kept as
// the reference the append path must equal byte for byte.

func legacyMoveString(m Move) string {
	if m.Place {
		return "place " + strconv.Itoa(m.Station)
	}
	return strconv.Itoa(m.Station)
}

func legacyStateString(s State) string {
	b := s.board
	if b == nil {
		return ""
	}
	var sb strings.Builder
	sb.Grow(b.n + 12)
	for i := 0; i < b.n; i++ {
		switch {
		case int(s.ship[Red]) == i:
			sb.WriteByte('R')
		case int(s.ship[Blue]) == i:
			sb.WriteByte('B')
		case s.marbles&(1<<i) != 0:
			sb.WriteByte('o')
		default:
			sb.WriteByte('.')
		}
	}
	sb.WriteByte(' ')
	turn := "rb"
	if s.placing {
		turn = "RB"
	}
	sb.WriteByte(turn[s.toAct])
	if b.name != "" && b.name != DefaultBoardName {
		sb.WriteString(" " + b.name)
	}
	if s.allowMirror {
		sb.WriteString(" m")
	}
	return sb.String()
}

// TestNotationMatchesLegacy plays seeded random games on both built-in
// boards (either player first, with and without mirror placement) and
// checks every state's text and every listed move's notation (String,
// AppendText, AppendNotations) against the legacy string code; then odd
// stations and the zero State.
func TestNotationMatchesLegacy(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	r := rand.New(rand.NewPCG(2026, 10))
	for g := 0; g < games; g++ {
		bd := DefaultBoard()
		if g%2 == 1 {
			bd = mustBuiltin(RingsBoardName)
		}
		s, err := New(Options{Board: bd, First: g % 2, AllowMirrorPlacement: g%3 == 0})
		if err != nil {
			t.Fatal(err)
		}
		var visited []State
		for ply := 0; ply < 200; ply++ {
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
	for _, st := range []int{-1000, -1, 0, 9, 10, 63, 64, 99, 100, 12345} {
		for _, m := range []Move{{Station: st}, {Place: true, Station: st}} {
			if got, want := m.String(), legacyMoveString(m); got != want {
				t.Errorf("%+v.String() = %q, legacy %q", m, got, want)
			}
		}
	}
	if got, _ := (State{}).AppendText([]byte("x")); (State{}).String() != "" || string(got) != "x" {
		t.Errorf("zero State: String %q, AppendText %q; want \"\" and \"x\"", State{}.String(), got)
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

// TestNotationAllocs pins issue 10's allocation counts: Move.String none
// (flights and placements), State.String one, AppendText none with room,
// AppendNotations none into a dst with room.
func TestNotationAllocs(t *testing.T) {
	if rulestest.RaceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	setup, _ := New(Options{Board: mustBuiltin(RingsBoardName), AllowMirrorPlacement: true})
	for _, s := range append(benchStates(t)[:5], setup) {
		moves := s.LegalMoves()
		if len(moves) == 0 {
			continue
		}
		buf := make([]byte, 0, 128)
		dst := make([]string, 0, len(moves))
		str := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				textSink = m.String()
			}
		})
		app := testing.AllocsPerRun(20, func() {
			for _, m := range moves {
				buf, _ = m.AppendText(buf[:0])
			}
			buf, _ = s.AppendText(buf[:0])
		})
		list := testing.AllocsPerRun(20, func() { dst = AppendNotations(dst[:0], moves) })
		state := testing.AllocsPerRun(20, func() { textSink = s.String() })
		if str != 0 || app != 0 || list != 0 || state != 1 {
			t.Errorf("%s: Move.String %v allocs (want 0), AppendText %v (want 0), AppendNotations %v per list (want 0), State.String %v (want 1)", s, str, app, list, state)
		}
	}
}
