package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/servertest"
)

// TestExamplePlaysEveryGame runs the example's play against the real server
// on a loopback port: every game ends, with one call per move plus two, and
// describe shows the reason and field of a refused move.
func TestExamplePlaysEveryGame(t *testing.T) {
	// The whole server, as gamerulesd runs it (limits, interceptors).
	c := gamerulesv1grpc.NewGameRulesClient(servertest.Dial(t, servertest.Start(t, nil)))
	ctx := context.Background()
	// --game all plays every game the server serves.
	list, err := c.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, g := range list.GetGames() {
		served = append(served, g.GetId())
	}
	slices.Sort(served)
	all, err := games(ctx, c, "all")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(all, served) {
		t.Errorf("--game all plays %v; the server serves %v", all, served)
	}
	if one, _ := games(ctx, c, "labyrinth"); !slices.Equal(one, []string{"labyrinth"}) {
		t.Errorf("--game labyrinth plays %v", one)
	}
	for _, id := range all {
		res, err := play(ctx, c, id, 1, 20000, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", id, describe(err))
		}
		if !res.last.GetFinished() || res.calls != res.plies+2 {
			t.Errorf("%s: finished=%v after %d plies in %d calls", id, res.last.GetFinished(), res.plies, res.calls)
		}
		t.Logf("%s: %d plies, points %v, %s", id, res.plies, res.last.GetPoints(), res.last.GetDetail())
		_, err = c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: res.last.GetState(), Move: &gamerulesv1.Move{Notation: "x"}})
		if d := describe(err); !strings.Contains(d, "reason GAME_OVER") || !strings.Contains(d, "field move.notation") {
			t.Errorf("%s: describe = %q", id, d)
		}
	}
}
