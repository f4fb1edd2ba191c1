package gravitytrap

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// TestGreedyBeatsRandom: the greedy playout policy wins at least 70% of
// its games against the random one from a random set-up (the greedy
// player placing by its policy too), each seat half the time, on both
// built-in boards.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 400
	if os.Getenv("GAMERULES_LONG") != "" {
		games = 4000
	}
	for _, b := range []*Board{DefaultBoard(), RingsBoard()} {
		rec := rulestest.HeadToHead(t, games, 21, rulestest.Duel[State, Move]{
			Start: func(int) State {
				s, err := New(Options{Board: b})
				if err != nil {
					t.Fatal(err)
				}
				return s
			},
			Greedy:   State.GreedyMove,
			ToAct:    State.ToAct,
			MaxPlies: 100,
		})
		t.Logf("%s: greedy against random: %+v", b.Name(), rec)
		if rec.GreedyWins*100 < 70*games || rec.Unfinished > 0 {
			t.Errorf("%s: greedy against random: %+v; want at least 70%% greedy wins", b.Name(), rec)
		}
	}
}

// TestGreedyScore: hand-checked flights on a small board of lines 0-1-2,
// 2-3, 3-4 and 2-5 (so station 2 reaches 0, 1, 3 and 5), and 0-6, 3-7
// (the empty stations the ships came from), red to move from station 0,
// blue on station 3.
func TestGreedyScore(t *testing.T) {
	b, err := NewBoard(BoardDef{
		Stations: []Station{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 0}, {4, 4, 0}, {5, 2, 1}, {6, 0, 1}, {7, 3, 1}},
		Lines:    [][]int{{0, 1, 2}, {2, 3}, {3, 4}, {2, 5}, {0, 6}, {3, 7}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		marbles []int
		to      int
		want    int
	}{
		// Blue's one marble is 2: red taking it, with 1 left, traps blue.
		{[]int{1, 2}, 2, greedyWin},
		// Red on 1 keeps 2, which blue takes, left stuck himself: no trap;
		// red's room 1 less blue's 1.
		{[]int{1, 2}, 1, 0},
		// Red on 1 has only 2, which blue takes keeping 5 to fly to.
		{[]int{1, 2, 4, 5}, 1, greedyLoseNext},
		// Red on 2 reaches 1 and 5, blue 4.
		{[]int{1, 2, 4, 5}, 2, 1},
		// Red on 1 with no marble left on its line loses at once.
		{[]int{1, 4}, 1, greedyLose},
	} {
		s, err := FromPosition(Position{Board: b, Marbles: c.marbles, Ships: [2]int{0, 3}, ToAct: Red})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.greedyScore(Move{Station: c.to}); got != c.want {
			t.Errorf("marbles %v, red to %d: %d; want %d", c.marbles, c.to, got, c.want)
		}
		// The best flight of both first positions is to 2.
		if m, _, ok := s.GreedyMove(rand.New(rand.NewPCG(1, 2))); len(c.marbles) > 2 || c.marbles[1] == 2 {
			if !ok || m.Station != 2 {
				t.Errorf("marbles %v: greedy flies to %d (%v); want 2", c.marbles, m.Station, ok)
			}
		}
	}
}

// TestGreedyLastPlacement: on the path 0-1-2-3 (opposites 3, 2, 1, 0) the
// second placement decides at once; the greedy placer never takes the
// station where its own ship is stuck and always takes the one that traps
// the first ship (the set-up score used to count every station the lines
// reach, the first ship's included, so both were ties drawn at random).
func TestGreedyLastPlacement(t *testing.T) {
	b, err := ParseBoardJSON([]byte(`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0,1],[1,2],[2,3]],"opposite":[3,2,1,0]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		red, want int // red's placement, blue's greedy one
		outcome   string
	}{
		// Blue on 0 would reach only red's station: stuck, he loses; on 3
		// he reaches 2 and red 0 and 2.
		{1, 3, ""},
		// Red on 0 (3 is then banned) reaches only 1: blue on 1 traps him;
		// on 2 neither is stuck.
		{0, 1, "red trapped"},
	} {
		for seed := uint64(0); seed < 64; seed++ {
			s, err := New(Options{Board: b})
			if err != nil {
				t.Fatal(err)
			}
			if s, err = s.Apply(Move{Place: true, Station: c.red}); err != nil {
				t.Fatal(err)
			}
			m, next, ok := s.GreedyMove(rand.New(rand.NewPCG(seed, 9)))
			if !ok || m.Station != c.want {
				t.Fatalf("red on %d, seed %d: blue places %v (%v); want place %d", c.red, seed, m, ok, c.want)
			}
			if got := next.Outcome().Detail; got != c.outcome {
				t.Fatalf("red on %d, blue on %d: outcome %q; want %q", c.red, c.want, got, c.outcome)
			}
		}
	}
}
