package main

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/deploy"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/servertest"
)

// TestFanOutEqualsOneCall: a playout fanned out over three servers (a
// resolver listing them, the service config's round_robin) in chunks of
// several sizes, merged, equals the one call over all its games, in every
// game, from a new game (first moves dealt round robin, or at a
// backgammon opening roll drawn).
func TestFanOutEqualsOneCall(t *testing.T) {
	var addrs []resolver.Address
	for range 3 {
		addrs = append(addrs, resolver.Address{Addr: servertest.Start(t, nil).GRPCAddr()})
	}
	res := manual.NewBuilderWithScheme("fleettest")
	res.InitialState(resolver.State{Addresses: addrs})
	conn, err := grpc.NewClient("fleettest:///x", grpc.WithResolvers(res), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(deploy.ServiceConfig))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := gamerulesv1grpc.NewGameRulesClient(conn)
	ctx := context.Background()
	const games = 300
	for _, g := range []string{"gravity_trap", "backgammon", "abalone", "labyrinth"} {
		ng, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: g, Seed: proto.Uint64(5)})
		if err != nil {
			t.Fatal(err)
		}
		req := &gamerulesv1.PlayoutRequest{Game: g, State: ng.GetState(), Seed: proto.Uint64(9), MaxPlies: 60}
		one := proto.Clone(req).(*gamerulesv1.PlayoutRequest)
		one.Games = games
		want, err := c.Playout(ctx, one)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []int{300, 150, 100, 7, 1000, 299} {
			got, err := FanOut(ctx, c, req, games, chunk, 4)
			if err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(got, want) {
				t.Errorf("%s, chunks of %d: merged\n%v\nwant one call's\n%v", g, chunk, got, want)
			}
		}
		// A different seed plays other games: the equality is not vacuous.
		other := proto.Clone(req).(*gamerulesv1.PlayoutRequest)
		other.Seed = proto.Uint64(10)
		got, err := FanOut(ctx, c, other, games, 100, 4)
		if err != nil {
			t.Fatal(err)
		}
		if got.GetTotalPlies() == want.GetTotalPlies() && proto.Equal(got, want) {
			t.Errorf("%s: seeds 9 and 10 merge to the same answer", g)
		}
	}
	if _, err := FanOut(ctx, c, &gamerulesv1.PlayoutRequest{Game: "gravity_trap"}, 10, 5, 1); err == nil {
		t.Error("a fan-out without a seed: no error; each call would draw its own seed")
	}
}
