package main

import (
	"context"
	"os"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/servertest"
)

// TestBotBeatsRandom plays the bot (1,000 greedy playouts a decision, the
// command's defaults) against the random player through the real server
// on a loopback port: in Gravity Trap it must win at least 90% of the
// games (100 with GAMERULES_LONG=1, else 20), and in
// every other game ListGames lists more than the random player
// (GAMERULES_LONG=1 only: a backgammon game is a few seconds).
func TestBotBeatsRandom(t *testing.T) {
	c := gamerulesv1grpc.NewGameRulesClient(servertest.Dial(t, servertest.Start(t, nil)))
	long := os.Getenv("GAMERULES_LONG") == "1"
	games := 20
	if long {
		games = 100
	}
	greedy := gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY
	b := bot{c: c, playouts: 1000, maxPlies: 2000, policy: greedy} // the command's defaults
	sc, err := b.match(context.Background(), "gravity_trap", games, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("gravity_trap: %+v of %d games", sc, games)
	if sc.bot*10 < games*9 {
		t.Errorf("gravity_trap: the bot won %d of %d games; want at least 90%%", sc.bot, games)
	}
	if !long {
		return
	}
	// Every other game the server lists (ListGames): 10 games each.
	list, err := c.ListGames(context.Background(), &gamerulesv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range list.GetGames() {
		id := info.GetId()
		if id == "gravity_trap" {
			continue // played above
		}
		b := bot{c: c, playouts: 100, maxPlies: 2000, policy: greedy}
		sc, err := b.match(context.Background(), id, 10, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v of 10 games", id, sc)
		if sc.bot <= sc.random {
			t.Errorf("%s: the bot won %d, the random player %d", id, sc.bot, sc.random)
		}
	}
}
