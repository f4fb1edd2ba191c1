// Command fleet-playout fans one large Playout out over a fleet of
// gamerules replicas and merges the answers: --games games from the start
// of a game (or a state), in calls of at most 10,000 games (one call's
// limit), each with the same seed and its own game_offset, so that the
// merged counts are exactly those one call over all the games would give,
// however the games were split and whichever replica played them.
//
//	go run ./examples/fleet-playout --addr dns:///gamerules-headless:50051 \
//	    --game backgammon --games 1000000 --parallel 16
//
// It dials with deploy/grpc-service-config.json (round_robin over every
// address the target resolves to, retries on UNAVAILABLE), so the calls
// spread over the replicas and one that stops mid-call is retried on
// another: a Playout is a pure function of its request.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/health" // the service config's healthCheckConfig
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/deploy"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "the gRPC target: host:port, or dns:///gamerules-headless:50051 for every replica")
	game := flag.String("game", "gravity_trap", "the game")
	text := flag.String("state", "", "the state's text; empty: a new game (NewGame with --seed)")
	games := flag.Int64("games", 100_000, "games in all")
	chunk := flag.Int("chunk", 10_000, "games per call, 1..10,000")
	seed := flag.Uint64("seed", 1, "the playout's seed (and the new game's)")
	parallel := flag.Int("parallel", 8, "calls at once")
	flag.Parse()
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(deploy.ServiceConfig))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := gamerulesv1grpc.NewGameRulesClient(conn)
	ctx := context.Background()
	st := &gamerulesv1.GameState{Text: *text}
	if *text == "" {
		ng, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: *game, Seed: seed})
		if err != nil {
			log.Fatal(err)
		}
		st = ng.GetState()
	}
	start := time.Now()
	resp, err := FanOut(ctx, c, &gamerulesv1.PlayoutRequest{Game: *game, State: st, Seed: seed}, *games, *chunk, *parallel)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d games in %v: wins %v, draws %d, unfinished %d, mean %.1f plies, longest %d\n",
		*game, resp.GetGameCount(), time.Since(start).Round(time.Millisecond), resp.GetWinCounts(),
		resp.GetDrawCount(), resp.GetUnfinishedCount(), resp.GetMeanPlies(), resp.GetLongestPlies())
	for _, fm := range resp.GetFirstMoves() {
		fmt.Printf("  first move %-12s %7d games, wins %v\n", fm.GetNotation(), fm.GetPlayCount(), fm.GetWinCounts())
	}
}

// FanOut plays games games of req (its game, state, seed, policy and
// max_plies; req.seed must be set, or the calls would each draw their own)
// in calls of at most chunk games, parallel at once, each starting at its
// game_offset, and merges the answers (deploy.MergePlayouts). The first failed call's
// error is returned.
func FanOut(ctx context.Context, c gamerulesv1grpc.GameRulesClient, req *gamerulesv1.PlayoutRequest, games int64, chunk, parallel int) (*gamerulesv1.PlayoutResponse, error) {
	if req.Seed == nil {
		return nil, fmt.Errorf("fan-out: give the request a seed, so that the calls play one sequence of games")
	}
	if games < 1 || chunk < 1 || chunk > 10_000 || parallel < 1 {
		return nil, fmt.Errorf("fan-out: games %d, chunk %d (1..10,000), parallel %d", games, chunk, parallel)
	}
	n := int((games + int64(chunk) - 1) / int64(chunk))
	parts := make([]*gamerulesv1.PlayoutResponse, n)
	errs := make([]error, n)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := proto.Clone(req).(*gamerulesv1.PlayoutRequest)
			r.GameOffset = req.GetGameOffset() + int64(i)*int64(chunk)
			r.Games = int32(min(int64(chunk), games-int64(i)*int64(chunk)))
			cctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			parts[i], errs[i] = c.Playout(cctx, r)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("the call of games %d..: %w", int64(i)*int64(chunk), err)
		}
	}
	return deploy.MergePlayouts(parts), nil
}
