// Command mcts-bot is a Monte-Carlo bot for every game of a gamerules
// server (flat Monte Carlo: the server plays the games). At each of its
// turns it asks Playout for games from the state, the first moves dealt
// round robin over the legal moves, and plays the move whose games its
// side won most often (a draw counts half). It plays against a uniformly
// random player, seats alternating, and prints the score.
//
// Each ply costs one cheap Playout call (one game of one ply: whose turn
// it is and the legal moves, in LegalMoves' order), the bot's turns one
// more (-playouts games), and one ApplyMove (chance outcomes, "roll", are
// drawn by the server from a seed).
//
//	go run ./cmd/gamerulesd --grpc-addr 127.0.0.1:50051 &
//	go run ./examples/mcts-bot --addr 127.0.0.1:50051 --game gravity_trap --games 100
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "the server's gRPC address")
	id := flag.String("game", "gravity_trap", "the game: a game id the server lists (ListGames)")
	games := flag.Int("games", 100, "games to play against the random player")
	playouts := flag.Int("playouts", 1000, "Playout games per decision of the bot")
	seed := flag.Uint64("seed", 1, "seed of the set-ups, the dice, the playouts and the random player")
	maxPlies := flag.Int("max-plies", 2000, "a game still going after this many plies counts as unfinished")
	playoutPlies := flag.Int("playout-plies", 0, "plies per playout game (0: the server's budget); a short horizon judges by the points so far")
	policy := flag.String("playout-policy", "greedy", "how the playout games go on after their first move: random or greedy (the server's cheap better-than-random policy)")
	flag.Parse()
	pol, ok := gamerulesv1.PlayoutPolicy_value["PLAYOUT_POLICY_"+strings.ToUpper(*policy)]
	if !ok || pol == 0 {
		log.Fatalf("--playout-policy %q: want random or greedy", *policy)
	}
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	b := bot{c: gamerulesv1grpc.NewGameRulesClient(conn), playouts: int32(*playouts), maxPlies: *maxPlies, playoutPlies: int32(*playoutPlies), policy: gamerulesv1.PlayoutPolicy(pol)}
	sc, err := b.match(context.Background(), *id, *games, *seed)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "%s: the bot won %d, the random player %d, draws or unfinished %d, of %d games (%.0f%%)\n",
		*id, sc.bot, sc.random, sc.other, *games, 100*float64(sc.bot)/float64(*games))
}

// bot plays through a GameRules client.
type bot struct {
	c        gamerulesv1grpc.GameRulesClient
	playouts int32
	maxPlies int
	// playoutPlies bounds each playout game (0: the server's budget).
	playoutPlies int32
	// policy plays the playout games after their first move (0: the
	// server's default, random).
	policy gamerulesv1.PlayoutPolicy
}

// playoutPolicy is b.policy as Playout's optional field: absent for 0.
func (b bot) playoutPolicy() *gamerulesv1.PlayoutPolicy {
	if b.policy == gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_UNSPECIFIED {
		return nil
	}
	return b.policy.Enum()
}

// score is a match's result.
type score struct{ bot, random, other int }

// match plays games games, the bot in seat i%2 of game i, from seeded new
// games.
func (b bot) match(ctx context.Context, id string, games int, seed uint64) (score, error) {
	var sc score
	for i := 0; i < games; i++ {
		w, err := b.game(ctx, id, i%2, seed+uint64(i))
		if err != nil {
			return sc, fmt.Errorf("game %d: %w", i, err)
		}
		switch {
		case w == nil:
			sc.other++
		case int(*w) == i%2:
			sc.bot++
		default:
			sc.random++
		}
	}
	return sc, nil
}

// game plays one game, the bot in seat seat (0-based), and returns the
// winner (nil: a draw, or unfinished at maxPlies).
func (b bot) game(ctx context.Context, id string, seat int, seed uint64) (*int32, error) {
	rng := rand.New(rand.NewPCG(seed, 99))
	ng, err := b.c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: &seed})
	if err != nil {
		return nil, err
	}
	st := ng.GetState()
	for ply := 0; ply < b.maxPlies; ply++ {
		// One game of one ply: whose turn, and the legal moves.
		s := rng.Uint64()
		look, err := b.c.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: id, State: st, Games: 1, MaxPlies: 1, Seed: &s})
		if err != nil {
			return nil, err
		}
		if len(look.GetFirstMoves()) == 0 {
			sc, err := b.c.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: st})
			return sc.Winner, err
		}
		var move string
		switch {
		case look.Turn == nil:
			move = "roll" // a chance point: the server draws, from s
		case int(look.GetTurn()) == seat:
			if move, err = b.choose(ctx, id, st, rng.Uint64()); err != nil {
				return nil, err
			}
		default:
			fm := look.GetFirstMoves()
			move = fm[rng.IntN(len(fm))].GetNotation()
		}
		am, err := b.c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: move}, Seed: &s})
		if err != nil {
			return nil, err
		}
		if am.GetFinished() {
			return am.Winner, nil
		}
		st = am.GetState()
	}
	return nil, nil
}

// choose is the bot's move in st: Playout's first move with the best
// result for the player to move, (wins + draws/2) / games, ties to the
// best points (its own less the best other's, per game; with a short
// horizon most games are unfinished, and the points so far decide).
func (b bot) choose(ctx context.Context, id string, st *gamerulesv1.GameState, seed uint64) (string, error) {
	resp, err := b.c.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: id, State: st, Games: max(b.playouts, 1), Seed: &seed, MaxPlies: b.playoutPlies, Policy: b.playoutPolicy()})
	if err != nil {
		return "", err
	}
	me := resp.GetTurn()
	best, bestRate, bestPoints := "", -1.0, -1.0
	for _, fm := range resp.GetFirstMoves() {
		if fm.GetPlayCount() == 0 {
			continue
		}
		n := float64(fm.GetPlayCount())
		rate := (float64(fm.GetWinCounts()[me]) + float64(fm.GetDrawCount())/2) / n
		other := int32(0)
		for p, v := range fm.GetPoints() {
			if int32(p) != me {
				other = max(other, v)
			}
		}
		points := float64(fm.GetPoints()[me]-other) / n
		if rate > bestRate || (rate == bestRate && points > bestPoints) {
			best, bestRate, bestPoints = fm.GetNotation(), rate, points
		}
	}
	if best == "" {
		// Fewer playouts than moves: the unplayed ones are as good as any.
		best = resp.GetFirstMoves()[0].GetNotation()
	}
	return best, nil
}
