package abalone

import (
	"math/bits"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

// TestGreedyBeatsRandom: the greedy playout policy wins at least 70% of
// its games against the random one, each seat half the time.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 40
	if long() {
		games = 400
	}
	rec := rulestest.HeadToHead(t, games, 21, rulestest.Duel[State, Move]{
		Start: func(i int) State {
			s, err := New(Options{Layout: Layout(i / 2 % 3)})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		Greedy:   State.GreedyMove,
		ToAct:    State.ToMove,
		MaxPlies: 5000,
	})
	t.Logf("greedy against random: %+v", rec)
	if rec.GreedyWins*100 < 70*games {
		t.Errorf("greedy against random: %+v; want at least 70%% greedy wins", rec)
	}
}

// TestRings: the rings around E5 have 1, 6, 12, 18 and 24 cells, E5 alone
// in the middle, the edge (every cell with fewer than six neighbours)
// outside.
func TestRings(t *testing.T) {
	var all uint64
	for r, want := range []int{1, 6, 12, 18, 24} {
		if n := bits.OnesCount64(ringMask[r]); n != want {
			t.Errorf("ring %d: %d cells; want %d", r, n, want)
		}
		all |= ringMask[r]
	}
	if all != boardMask || ringMask[0] != bitOf(CellAt('E', 5)) {
		t.Errorf("rings cover %x; want the board %x, E5 the centre", all, boardMask)
	}
	for c := Cell(1); c <= NumCells; c++ {
		edge := false
		for d := East; d <= SouthEast; d++ {
			edge = edge || c.Neighbor(d) == NoCell
		}
		if edge != (ringMask[4]&bitOf(c) != 0) {
			t.Errorf("%s: edge %v, ring 4 %v", c, edge, ringMask[4]&bitOf(c) != 0)
		}
	}
}
