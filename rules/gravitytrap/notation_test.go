package gravitytrap

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
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
			want := legacyStateString(s)
			visited = append(visited, s)
			if got := s.String(); got != want {
				t.Fatalf("State.String() = %q, legacy %q", got, want)
			}
			if got, _ := s.AppendText([]byte("x")); string(got) != "x"+want {
				t.Fatalf("State.AppendText = %q, want x%q", got, want)
			}
			moves := s.LegalMoves()
			list := AppendNotations([]string{"keep"}, moves)
			if len(list) != len(moves)+1 || list[0] != "keep" {
				t.Fatalf("%s: AppendNotations gave %d texts for %d moves (or lost dst)", s, len(list), len(moves))
			}
			for i, m := range moves {
				want := legacyMoveString(m)
				got, _ := m.AppendText([]byte("x"))
				if m.String() != want || string(got) != "x"+want || list[i+1] != want {
					t.Fatalf("%s: move %q: String %q, AppendText %q, AppendNotations %q", s, want, m.String(), got, list[i+1])
				}
			}
			if len(moves) == 0 {
				break
			}
			if s, err = s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		checkStateTexts(t, visited)
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

var textSink string // keeps results alive in the allocation tests

// TestNotationAllocs pins issue 10's allocation counts: Move.String none
// (flights and placements), State.String one, AppendText none with room,
// AppendNotations none into a dst with room.
func TestNotationAllocs(t *testing.T) {
	if raceEnabled {
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

// checkStateTexts checks AppendStateTexts against the legacy text of each
// state, and that a list of 64 costs at most two allocations.
func checkStateTexts(t *testing.T, states []State) {
	t.Helper()
	texts := AppendStateTexts([]string{"keep"}, states)
	if len(texts) != len(states)+1 || texts[0] != "keep" {
		t.Fatalf("AppendStateTexts gave %d texts for %d states (or lost dst)", len(texts), len(states))
	}
	for i, s := range states {
		if want := legacyStateString(s); texts[i+1] != want {
			t.Fatalf("AppendStateTexts[%d] = %q, legacy %q", i, texts[i+1], want)
		}
	}
	if raceEnabled || len(states) == 0 {
		return
	}
	states = states[:min(len(states), 64)]
	dst := make([]string, 0, len(states))
	if n := testing.AllocsPerRun(5, func() { dst = AppendStateTexts(dst[:0], states) }); n > 2 {
		t.Errorf("AppendStateTexts of %d states: %v allocations, want at most 2", len(states), n)
	}
}
