package backgammon

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// TestParseAnyState: each form is told by its shape; the canonical form is
// ParseState's; a bare Position ID is refused with two Match IDs that,
// added, read as the position with white or black to roll; Text writes
// each form and reads back through ParseAnyState.
func TestParseAnyState(t *testing.T) {
	for _, text := range []string{white31, openingID, "sGfwATDgc/ABMA:ExEAAAAAAAAA cube beavers beaver_count=3"} {
		want, err := ParseState(text)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ParseAnyState("  " + text + "\n"); err != nil || got != want {
			t.Errorf("ParseAnyState(%s) = %v, %v; want %s", text, got, err, want)
		}
	}
	_, err := ParseAnyState("4HPwATDgc/ABMA")
	if err == nil || !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), "who is on roll") {
		t.Fatalf("bare Position ID: %v", err)
	}
	ids := regexp.MustCompile(`4HPwATDgc/ABMA:[A-Za-z0-9+/]{12}`).FindAllString(err.Error(), -1)
	if len(ids) != 2 {
		t.Fatalf("the refusal %q suggests %d IDs, want 2", err, len(ids))
	}
	for p, id := range ids {
		s, err := ParseAnyState(id)
		if err != nil || s.Turn() != p || s.Phase() != PhaseRoll || s.CubeInUse() || s.MatchLength() != 0 {
			t.Errorf("suggested %s reads as %v, %v; want player %d to roll, money, no cube", id, s, err, p)
		}
	}
	if _, err := ParseAnyState("4HPwATDgc/AB!A"); err == nil || !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("a bad bare Position ID: %v", err)
	}
	if _, err := ParseAnyState(strings.Repeat("XGID=", 1000)); err == nil || !errors.Is(err, game.ErrInvalidState) || len(err.Error()) > 400 {
		t.Errorf("a long text: %v", err)
	}
	n := 0
	xgidPlayouts(t, 10, 33, func(s State) {
		for _, f := range Formats {
			text := s.Text(f)
			got, err := ParseAnyState(text)
			if err != nil && s.phase == PhaseOver && s.end != endBorneOff {
				continue // a game that was not borne off: XGID and FIBS cannot say it ended
			}
			if err != nil || (got == s) != s.Lossless(f) {
				t.Fatalf("%s: ParseAnyState(%s) = %v, %v; Lossless(%s) = %v", s, text, got, err, f, s.Lossless(f))
			}
			n++
		}
	})
	for _, name := range []string{"gnubg", "XGID", "Fibs"} {
		if f, err := ParseFormat(name); err != nil || !strings.EqualFold(f.String(), name) {
			t.Errorf("ParseFormat(%s) = %v, %v", name, f, err)
		}
	}
	if _, err := ParseFormat("sgf"); !errors.Is(err, game.ErrInvalidOptions) {
		t.Errorf("ParseFormat(sgf) = %v", err)
	}
}

// FuzzParseAnyState: no input panics or errs with anything but an invalid
// state; what parses is valid, and its text in each form reads back.
func FuzzParseAnyState(f *testing.F) {
	for _, s := range fuzzStates {
		f.Add(s)
	}
	f.Add("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
	f.Add("-b----E-C---eE---c-e----B-:1:1:-1:D:3:2:0:7:10")
	f.Add("XGID=-b----E-C---eE---c-e----B-:1:-1:1:B:3:2:3:0:10")
	f.Add("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
	f.Add("4HPwATDgc/ABMA")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseAnyState(text)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("ParseAnyState(%q) = %v; not an ErrInvalidState", text, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseAnyState(%q) gave an invalid state: %v", text, err)
		}
		for _, f := range Formats {
			if _, err := ParseAnyState(s.Text(f)); err != nil && !(s.phase == PhaseOver && s.end != endBorneOff) {
				t.Fatalf("ParseAnyState(%q) = %s, whose %s text %s does not read: %v", text, s, f, s.Text(f), err)
			}
		}
	})
}
