package backgammon

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// TestGreedyBeatsRandom: the greedy playout policy wins at least 70% of
// its games against the random one, each seat half the time (measured: 198
// of 200 games, 1,992 of 2,000 with GAMERULES_LONG=1).
func TestGreedyBeatsRandom(t *testing.T) {
	games := 200
	if long() {
		games = 2000
	}
	rec := rulestest.HeadToHead(t, games, 21, rulestest.Duel[State, Move]{
		Start: func(int) State {
			s, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		Greedy: State.GreedyMove,
		Chance: func(s State, r *rand.Rand) (Move, bool) {
			if ph := s.Phase(); ph != PhaseOpening && ph != PhaseRoll {
				return Move{}, false
			}
			m, err := RollDice(s, r)
			return m, err == nil
		},
		ToAct:    State.Turn,
		MaxPlies: 5000,
	})
	t.Logf("greedy against random: %+v", rec)
	if rec.GreedyWins*100 < 70*games || rec.Unfinished > 0 {
		t.Errorf("greedy against random: %+v; want at least 70%% greedy wins and every game finished", rec)
	}
}

// TestGreedyCount: the count of hand-made boards (white to have moved).
func TestGreedyCount(t *testing.T) {
	var b [2][25]uint8
	// White: two on his 6 point (home, made), one on his 13 point (a blot
	// black's checker on white's 2 point, behind it, could hit), 12 off.
	b[White][5], b[White][12] = 2, 1
	// Black: one on the bar, 14 on his own 23 point (white's 2 point).
	b[Black][24], b[Black][22] = 1, 14
	if got, want := greedyCount(&b, White), greedyHit+greedyHomeMade+greedyBlot+12*greedyOff; got != want {
		t.Errorf("count %d; want %d", got, want)
	}
	// Without the checker on the bar, black's rearmost checker is on
	// white's 2 point: the blot on 13 is still exposed, one on white's 1
	// point would not be.
	b[Black][24], b[Black][22] = 0, 15
	b[White][12], b[White][0] = 0, 1
	if got, want := greedyCount(&b, White), greedyHomeMade+12*greedyOff; got != want {
		t.Errorf("count with a blot behind every black checker: %d; want %d", got, want)
	}
}

// TestGreedyMoveRefusesChance: GreedyMove makes no choice at a chance
// point, the opening and a roll phase where the cube could be offered and
// resignations are legal too (it used to pick uniformly among the rolls,
// the double and the resignations there); after RollDice it plays, and a
// double awaiting an answer is taken, dropped or beavered, never resigned.
func TestGreedyMoveRefusesChance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s, err := New(Options{Cube: true, Beavers: true})
	if err != nil {
		t.Fatal(err)
	}
	if m, _, ok := s.GreedyMove(r); ok {
		t.Fatalf("opening: greedy chose %v; want no choice at a chance point", m)
	}
	roll := func(s State) State {
		m, err := RollDice(s, r)
		if err != nil {
			t.Fatal(err)
		}
		if s, err = s.Apply(m); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s = roll(s)
	m, s, ok := s.GreedyMove(r)
	if !ok || m.Kind() != KindPlay {
		t.Fatalf("after the opening roll: greedy %v, %v; want a play", m, ok)
	}
	if s.Phase() != PhaseRoll || !slices.Contains(s.LegalMoves(), DoubleMove()) || !slices.Contains(s.LegalMoves(), ResignMove(1)) {
		t.Fatalf("after a play: phase %v, moves %v; want a roll phase where the cube and resignations are legal", s.Phase(), s.LegalMoves())
	}
	for i := 0; i < 100; i++ {
		if m, _, ok := s.GreedyMove(r); ok {
			t.Fatalf("roll phase: greedy chose %v; want no choice at a chance point", m)
		}
	}
	if m, _, ok := roll(s).GreedyMove(r); !ok || (m.Kind() != KindPlay && m.Kind() != KindPass) {
		t.Errorf("after a roll: greedy %v, %v; want a play or pass", m, ok)
	}
	d, err := s.Apply(DoubleMove())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		m, _, ok := d.GreedyMove(r)
		if k := m.Kind(); !ok || (k != KindTake && k != KindDrop && k != KindBeaver) {
			t.Fatalf("double offered: greedy %v, %v; want take, drop or beaver", m, ok)
		}
	}
}
