package abalone

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// garbleAbaPro writes an Aba-Pro move with random case and separators
// between (and around) its cells, and a broadside with either end first.
func garbleAbaPro(r *rand.Rand, m Move) string {
	cells := []Cell{m.From, m.To}
	if m.End != NoCell {
		cells = []Cell{m.From, m.End, m.To}
		if r.IntN(2) == 0 {
			// the other end first: its target is one step the same way
			d, _, _ := lineOf(m.From, m.To)
			cells = []Cell{m.End, m.From, m.End.Neighbor(d)}
		}
	}
	seps := []string{"", " ", "-", ", ", ":", " > ", "/", "  "}
	var b strings.Builder
	b.WriteString([]string{"", " ", "\t"}[r.IntN(3)])
	for i, c := range cells {
		if i > 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		name := c.String()
		if r.IntN(2) == 0 {
			name = strings.ToUpper(name)
		}
		b.WriteString(name)
	}
	return b.String()
}

// TestReadMoveAbaPro reads every legal move of seeded random playouts from
// every layout, as written (Move.String) and garbled: each must be the move
// itself, with the same action id.
func TestReadMoveAbaPro(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 4))
	plies := 40
	if long() {
		plies = 400
	}
	var read, garbled int
	for _, l := range []Layout{Classic, BelgianDaisy, GermanDaisy} {
		s, err := New(Options{Layout: l})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < plies && !s.over(); ply++ {
			moves := s.LegalMoves()
			for _, m := range moves {
				for k, text := range []string{m.String(), strings.ToUpper(m.String()), garbleAbaPro(r, m)} {
					got, err := ReadMove(s, text)
					if err != nil || got != m || got.Action() != m.Action() {
						t.Fatalf("%s: ReadMove(%q) = %v, %v; want %s", s, text, got, err, m)
					}
					if k == 2 {
						garbled++
					} else {
						read++
					}
				}
			}
			if s, err = s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("moves read as written %d, garbled %d", read, garbled)
}

func TestReadMoveAbaProRefusals(t *testing.T) {
	s, _ := New(Options{})
	for _, c := range []struct{ text, want string }{
		{"A1 B2", "a1b2"},
		{"a1-b2", "a1b2"},
		{"C3, C5 > D4", "c3c5d4"},
		{"c5:c3:d6", "c3c5d4"}, // the other end first
		{"a1a2", "the nearest legal moves: a1b1, a1b2"},
		{"e5 e6", "the nearest legal moves"},
		{"z9z8", "not a cell"},
		{"hello", "want two cells"},
	} {
		m, err := ReadMove(s, c.text)
		if err == nil {
			if m.String() != c.want {
				t.Errorf("ReadMove(%q) = %s; want %s", c.text, m, c.want)
			}
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("ReadMove(%q) = %v; want %q", c.text, err, c.want)
		}
	}
}
