package labyrinth_test

import (
	"os"
	"testing"

	lab "github.com/gamerules/gamerules/rules/labyrinth"
	"github.com/gamerules/gamerules/rules/rulestest"
)

// TestGreedyBeatsRandom: the greedy playout policy wins at least 70% of
// its two-player games against the random one, each seat half the time,
// with and without Darth Vader and open cards.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 40
	if os.Getenv("GAMERULES_LONG") != "" {
		games = 400
	}
	for _, v := range []lab.Variants{{}, {Vader: true}, {OpenCards: true}} {
		rec := rulestest.HeadToHead(t, games, 21, rulestest.Duel[lab.State, lab.Move]{
			Start: func(i int) lab.State {
				return mustNew(t, lab.Options{Players: 2, Seed: uint64(i), Variants: v})
			},
			Greedy:   lab.State.GreedyMove,
			ToAct:    lab.State.Turn,
			MaxPlies: 20000,
		})
		t.Logf("%+v: greedy against random: %+v", v, rec)
		if rec.GreedyWins*100 < 70*games || rec.Unfinished > 0 {
			t.Errorf("%+v: greedy against random: %+v; want at least 70%% greedy wins", v, rec)
		}
	}
}
