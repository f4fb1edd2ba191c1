package backgammon

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestWithoutJacoby: random money sessions with the cube, each game's moves
// played twice, with the Jacoby rule and without it, from the same score:
// every state of the first, WithoutJacoby, is the state of the second (the
// rule changes no move, only what a game borne off with the cube in the
// middle scores), and the games borne off as gammons at cube 1 score 1
// with the rule and 2 or 3 without. A state without the rule comes back
// unchanged.
func TestWithoutJacoby(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 66))
	full, ends := 0, map[string]int{}
	for k := 0; k < 80; k++ {
		beavers := r.IntN(2) == 0
		score := [2]int{r.IntN(40), r.IntN(40)}
		if k%10 == 0 {
			score = [2]int{1<<15 - 2, 1<<15 - 1} // at the score's limit
		}
		on, err := New(Options{Cube: true, Beavers: beavers, Score: score})
		if err != nil {
			t.Fatal(err)
		}
		off, err := New(Options{Cube: true, NoJacoby: true, Beavers: beavers, Score: score})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; on.Phase() != PhaseOver; ply++ {
			if got := on.WithoutJacoby(); got != off {
				t.Fatalf("game %d ply %d: %s without the rule is %s; played without it %s", k, ply, on, got, off)
			}
			if off.WithoutJacoby() != off {
				t.Fatalf("%s: without the rule already, changed", off)
			}
			// Rolls, plays, and now and then a double answered by a take,
			// a drop or a beaver (no resignation: the games end on the
			// board, most with the cube in the middle).
			var m Move
			var answers, plays []Move
			canDouble := false
			for _, mv := range on.LegalMoves() {
				switch mv.Kind() {
				case KindDouble:
					canDouble = true
				case KindTake, KindDrop, KindBeaver:
					answers = append(answers, mv)
				case KindPlay, KindPass:
					plays = append(plays, mv)
				}
			}
			switch on.Phase() {
			case PhaseOpening, PhaseRoll:
				m, _ = RollDice(on, r)
				if canDouble && r.IntN(150) == 0 {
					m = DoubleMove()
				}
			case PhaseDouble:
				m = answers[r.IntN(len(answers))]
			default:
				m = plays[r.IntN(len(plays))]
			}
			if on, err = on.Apply(m); err != nil {
				t.Fatal(err)
			}
			if off, err = off.Apply(m); err != nil {
				t.Fatalf("%s: %v played with the rule, not without: %v", off, m, err)
			}
		}
		if got := on.WithoutJacoby(); got != off {
			t.Fatalf("game %d, over: %s without the rule is %s; played without it %s", k, on, got, off)
		}
		ends[on.End()+" at cube "+strconv.Itoa(on.CubeValue())]++
		if out := on.Outcome(); on.End() == "borne off" && on.CubeOwner() < 0 && out.Detail != "single" {
			full++
			if off.Outcome().Points[out.Winner] == out.Points[out.Winner] {
				t.Errorf("%s: %v scores the same with and without the rule", on, out)
			}
		}
	}
	t.Logf("%d games scored in full without the rule; ends %v", full, ends)
	if full == 0 {
		t.Error("no gammon borne off with the cube in the middle: the test checks nothing")
	}
	m, _ := New(Options{MatchLength: 5})
	if m.WithoutJacoby() != m {
		t.Error("a match changed")
	}
}
