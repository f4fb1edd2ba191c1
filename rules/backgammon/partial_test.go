package backgammon

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// opening31 is the start with White to play 3-1.
func opening31(t *testing.T) State {
	t.Helper()
	s0, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := s0.Apply(OpeningRollMove(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPartialPlayOpening31 checks hand-counted facts of the opening 3-1:
// 16 plays; after 8/5 the plays left are those with 8/5; 8/5 6/5 in either
// order is the one play "8/5 6/5" and complete; 24/20 (both dice, one
// checker) passes 21 or 23, one position.
func TestPartialPlayOpening31(t *testing.T) {
	s := opening31(t)
	p, err := s.PartialPlay("")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Plays) != 16 || p.Complete || len(p.Used) != 0 {
		t.Fatalf("no hops: %d plays, complete %v, used %v; want 16, false, []", len(p.Plays), p.Complete, p.Used)
	}
	for _, order := range []string{"8/5 6/5", "6/5 8/5"} {
		p, err := s.PartialPlay(order)
		if err != nil {
			t.Fatal(order, err)
		}
		if !p.Complete || len(p.Plays) != 1 || p.Plays[0].String() != "8/5(2)" && p.Plays[0].String() != "8/5 6/5" {
			t.Fatalf("%s: complete %v plays %v", order, p.Complete, p.Plays)
		}
		want, _ := s.Apply(p.Plays[0])
		if p.State.board != want.board {
			t.Errorf("%s: board %v, want the play's %v", order, p.State.board, want.board)
		}
	}
	p, err = s.PartialPlay("8/5")
	if err != nil {
		t.Fatal(err)
	}
	// The plays with a checker from 8 to 5, by hand: then a 1 by 24/23,
	// 8/7, 6/5 or 5/4 (8/5/4 is "8/4"; 13/12 lands on Black's midpoint).
	if len(p.Plays) != 4 {
		t.Errorf("after 8/5: %d plays %v, want 4", len(p.Plays), p.Plays)
	}
	if !slices.Equal(p.Used, []int{3}) || p.State.Checkers(White, 5) != 1 || p.State.Checkers(White, 8) != 2 {
		t.Errorf("after 8/5: used %v, 5 has %d, 8 has %d", p.Used, p.State.Checkers(White, 5), p.State.Checkers(White, 8))
	}
	// The die 1 left: each source (24, 13, 8, 6, 5) moves 1.
	if len(p.Next) != len(p.Plays) {
		t.Errorf("after 8/5: %d next hops, %d plays: %v", len(p.Next), len(p.Plays), p.Next)
	}
	p, err = s.PartialPlay("24/20")
	if err != nil || !p.Complete || p.Plays[0].String() != "24/20" {
		t.Fatalf("24/20: %v %+v", err, p.Plays)
	}
	for _, bad := range []string{"8/3", "24/18", "6/off", "13/10 13/10", "x/5", "8/5 6/5 6/5", "1/2"} {
		if _, err := s.PartialPlay(bad); !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("%q: err %v, want ErrIllegalMove", bad, err)
		}
	}
}

// TestPartialPlayEveryOrder checks over random play that every legal
// play, hop by hop in its canonical order and in reverse when that can be
// played, is reached, complete, with Apply's board; and that each prefix
// lists it among its Plays and its next hop among Next.
func TestPartialPlayEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 34))
	start, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := start
	checked := 0
	for ply := 0; ply < 400 && checked < 3000; ply++ {
		if s.Phase() == PhaseOver {
			s = start
		}
		moves := s.LegalMoves()
		if s.Phase() == PhaseMove && moves[0].Kind() == KindPlay {
			for _, m := range moves {
				want, _ := s.Apply(m)
				var hops []string
				for i, st := range m.Steps() {
					p, err := s.PartialPlay(strings.Join(hops, " "))
					if err != nil {
						t.Fatalf("%s: %s before hop %d: %v", s, m, i, err)
					}
					if !slices.Contains(p.Plays, m) {
						t.Fatalf("%s: %s: prefix %v does not list it: %v", s, m, hops, p.Plays)
					}
					if !slices.ContainsFunc(p.Next, func(n Step) bool { return n.From == st.From && n.To == st.To }) {
						t.Fatalf("%s: %s: prefix %v: next %v lacks %s", s, m, hops, p.Next, st)
					}
					hops = append(hops, pointName(st.From)+"/"+pointName(st.To))
				}
				p, err := s.PartialPlay(strings.Join(hops, " "))
				if err != nil || !p.Complete || len(p.Plays) != 1 || p.Plays[0] != m {
					t.Fatalf("%s: %s: err %v complete %v plays %v", s, m, err, p.Complete, p.Plays)
				}
				if p.State.board != want.board {
					t.Fatalf("%s: %s: board %v, Apply's %v", s, m, p.State.board, want.board)
				}
				checked++
			}
		}
		var m Move
		if s.Phase() == PhaseRoll || s.Phase() == PhaseOpening {
			m, _ = RollDice(s, r)
		} else {
			m = moves[r.IntN(len(moves))]
		}
		next, err := s.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		s = next
	}
	if checked < 500 {
		t.Fatalf("only %d plays checked", checked)
	}
}
