package backgammon

import (
	"math/rand/v2"
	"testing"
)

// TestApplyText: over random games (money games with the cube too), every
// legal move's text through ApplyText gives what ParseMove and Apply give,
// and texts that are not legal get ParseMove's error.
func TestApplyText(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	moves := 0
	for g := 0; g < 30; g++ {
		s, err := New(Options{Cube: g%2 == 1})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 2000 && s.Phase() != PhaseOver; ply++ {
			legal := s.LegalMoves()
			for _, m := range legal {
				want, err := s.Apply(m)
				if err != nil {
					t.Fatalf("%s: %s: %v", s, m, err)
				}
				got, gm, err := s.ApplyText(m.String())
				if err != nil || got != want || gm != m {
					t.Fatalf("%s: ApplyText(%q) = %s, %s, %v; want %s", s, m, got, gm, err, want)
				}
				moves++
			}
			for _, bad := range []string{"bar/20", "24/13", "6/off", "pass", "roll 3-1", "double"} {
				_, _, err1 := s.ApplyText(bad)
				m, err2 := ParseMove(s, bad)
				if err2 == nil {
					_, err2 = s.Apply(m)
				}
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("%s: ApplyText(%q) error %v; ParseMove+Apply %v", s, bad, err1, err2)
				}
			}
			s, err = s.Apply(legal[r.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d moves", moves)
}
