package backgammon

import (
	"math/rand/v2"
	"testing"
)

// TestAppendActions: AppendActions appends, after what ids held, Action's
// id of each listed move, and the ids of one list are distinct and within
// ActionSpace, over random games of the three kinds (with doubles, the
// cube's decisions, a match's next game and the opening's rolls).
func TestAppendActions(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	lists, doubles := 0, 0
	for g := 0; g < 30; g++ {
		o := []Options{{}, {Cube: true, Beavers: true}, {MatchLength: 5}}[g%3]
		s, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 400; ply++ {
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			ids := s.AppendActions([]int32{-7}, moves)
			if len(ids) != len(moves)+1 || ids[0] != -7 {
				t.Fatalf("%s: AppendActions gave %d ids starting %d; want the kept -7 and %d", s, len(ids), ids[0], len(moves))
			}
			seen := map[int32]bool{}
			for i, m := range moves {
				if want := int32(s.Action(m)); ids[i+1] != want {
					t.Fatalf("%s: AppendActions' id of %s = %d; Action %d", s, m, ids[i+1], want)
				}
				if ids[i+1] < 0 || ids[i+1] >= ActionSpace || seen[ids[i+1]] {
					t.Fatalf("%s: id %d of %s out of 0..%d or repeated", s, ids[i+1], m, ActionSpace-1)
				}
				seen[ids[i+1]] = true
			}
			lists++
			if s.Phase() == PhaseMove && s.dice[0] == s.dice[1] {
				doubles++
			}
			s, err = s.Apply(moves[r.IntN(len(moves))])
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if lists < 1000 || doubles == 0 {
		t.Errorf("%d lists, %d of a double's plays: want more", lists, doubles)
	}
}
