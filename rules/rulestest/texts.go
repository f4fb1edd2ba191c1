package rulestest

import "testing"

// TextState is the surface of an engine's State that the text checks need:
// State plus AppendText (the append form of String).
type TextState[S any, M any] interface {
	State[S, M]
	AppendText(b []byte) ([]byte, error)
}

// TextMove is the surface of an engine's Move that the text checks need.
type TextMove interface {
	Move
	AppendText(b []byte) ([]byte, error)
}

// Texts tells CheckTexts and CheckStateTexts what to compare: an engine's
// text writers against the reference string code they replaced (issue 10's
// "legacy" functions, kept in each engine's notation_test.go), which they
// must equal byte for byte.
type Texts[S any, M any] struct {
	// LegacyState and LegacyMove are the reference text forms.
	LegacyState func(S) string
	LegacyMove  func(M) string
	// AppendNotations and AppendStateTexts are the engine's list writers.
	AppendNotations  func(dst []string, moves []M) []string
	AppendStateTexts func(dst []string, states []S) []string
}

// CheckTexts checks, for s and every move it lists, that String, AppendText
// (after a non-empty prefix) and AppendNotations (after a kept element) give
// the legacy text. It returns s.LegalMoves().
func CheckTexts[S TextState[S, M], M TextMove](t testing.TB, s S, x Texts[S, M]) []M {
	t.Helper()
	want := x.LegacyState(s)
	if got := s.String(); got != want {
		t.Fatalf("State.String() = %q, legacy %q", got, want)
	}
	if got, _ := s.AppendText([]byte("x")); string(got) != "x"+want {
		t.Fatalf("State.AppendText = %q, want x%q", got, want)
	}
	moves := s.LegalMoves()
	list := x.AppendNotations([]string{"keep"}, moves)
	if len(list) != len(moves)+1 || list[0] != "keep" {
		t.Fatalf("%s: AppendNotations gave %d texts for %d moves (or lost dst)", want, len(list), len(moves))
	}
	for i, m := range moves {
		want := x.LegacyMove(m)
		if got := m.String(); got != want {
			t.Fatalf("%s: Move.String() = %q, legacy %q", s, got, want)
		}
		if got, _ := m.AppendText([]byte("x")); string(got) != "x"+want {
			t.Fatalf("%s: Move.AppendText = %q, want x%q", s, got, want)
		}
		if list[i+1] != want {
			t.Fatalf("%s: AppendNotations[%d] = %q, legacy %q", s, i, list[i+1], want)
		}
	}
	return moves
}

// CheckStateTexts checks AppendStateTexts against the legacy text of each
// state, and (not under the race detector) that a list of up to 64 costs
// at most two allocations.
func CheckStateTexts[S TextState[S, M], M TextMove](t testing.TB, states []S, x Texts[S, M]) {
	t.Helper()
	texts := x.AppendStateTexts([]string{"keep"}, states)
	if len(texts) != len(states)+1 || texts[0] != "keep" {
		t.Fatalf("AppendStateTexts gave %d texts for %d states (or lost dst)", len(texts), len(states))
	}
	for i, s := range states {
		if want := x.LegacyState(s); texts[i+1] != want {
			t.Fatalf("AppendStateTexts[%d] = %q, legacy %q", i, texts[i+1], want)
		}
	}
	if RaceEnabled || len(states) == 0 {
		return
	}
	states = states[:min(len(states), 64)]
	dst := make([]string, 0, len(states))
	if n := testing.AllocsPerRun(5, func() { dst = x.AppendStateTexts(dst[:0], states) }); n > 2 {
		t.Errorf("AppendStateTexts of %d states: %v allocations, want at most 2", len(states), n)
	}
}
