// Command go plays a whole game against a gamerules server through the
// generated Go client (gen/go/gamerules/v1), one ApplyMove call per move:
// include_legal_moves brings the next moves and every answer carries the
// outcome. On a refused request it prints the google.rpc.ErrorInfo reason
// and the BadRequest field.
//
//	go run ./cmd/gamerulesd --grpc-addr 127.0.0.1:50051 &
//	go run ./examples/go --addr 127.0.0.1:50051 --game backgammon --seed 1
//	go run ./examples/go --game all    # every game ListGames lists, in turn
//	go run ./examples/go --addr dns:///gamerules-headless:50051  # every replica of a fleet
//
// It dials with deploy/grpc-service-config.json (deploy.ServiceConfig):
// round_robin over every address the target resolves to, health checks,
// and retries on UNAVAILABLE, so the calls of a game spread over a fleet's
// replicas and go on through a rolling restart (README, "Running many
// replicas").
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/health" // the service config's healthCheckConfig
	"google.golang.org/grpc/status"

	"github.com/gamerules/gamerules/deploy"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:50051", "the server's gRPC target: host:port, or dns:///gamerules-headless:50051 for every replica behind a name")
	id := flag.String("game", "backgammon", "the game to play: a game id the server lists (ListGames), or all (each in turn)")
	seed := flag.Uint64("seed", 1, "seed of the set-up, the dice and the random player")
	maxPlies := flag.Int("max-plies", 20000, "give up after this many plies")
	flag.Parse()
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(deploy.ServiceConfig))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := gamerulesv1grpc.NewGameRulesClient(conn)
	ids, err := games(context.Background(), c, *id)
	if err != nil {
		log.Fatal(describe(err))
	}
	for _, g := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, err := play(ctx, c, g, *seed, *maxPlies, os.Stdout)
		if err != nil {
			log.Fatal(describe(err))
		}
		fmt.Printf("%s: finished after %d plies (%d calls): winner %s, points %v, %s\n",
			g, res.plies, res.calls, winner(res.last), res.last.GetPoints(), res.last.GetDetail())
		// A refused request, to show the error details.
		_, err = c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{
			Game: g, State: res.last.GetState(), Move: &gamerulesv1.Move{Notation: "anything"}})
		fmt.Println("a move after the end:", describe(err))
		cancel()
	}
}

// games is the list of games the --game flag's value names: for "all"
// every game the server lists (ListGames, in its order: sorted by id),
// else the one game (the server refuses an id it does not serve).
func games(ctx context.Context, c gamerulesv1grpc.GameRulesClient, flagValue string) ([]string, error) {
	if flagValue != "all" {
		return []string{flagValue}, nil
	}
	list, err := c.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, g := range list.GetGames() {
		ids = append(ids, g.GetId())
	}
	return ids, nil
}

// result is how a game went.
type result struct {
	plies, calls int
	last         *gamerulesv1.ApplyMoveResponse
}

// play plays one random game to the end: NewGame, one LegalMoves, then one
// ApplyMove (with include_legal_moves) per move, writing each move to log.
func play(ctx context.Context, c gamerulesv1grpc.GameRulesClient, id string, seed uint64, maxPlies int, log io.Writer) (result, error) {
	r := rand.New(rand.NewPCG(seed, 1))
	req := &gamerulesv1.NewGameRequest{Game: id, Seed: &seed}
	switch id {
	case "abalone":
		// Random Abalone rarely pushes six marbles off: end it by a ply limit.
		req.Options = &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{MaxPlies: 200}}
	case "labyrinth":
		req.Options = &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthOptions{Players: 2}}
	}
	ng, err := c.NewGame(ctx, req)
	if err != nil {
		return result{}, err
	}
	lm, err := c.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: ng.GetState()})
	if err != nil {
		return result{}, err
	}
	res := result{calls: 2}
	state, moves := ng.GetState(), lm.GetMoves()
	for len(moves) > 0 {
		if res.plies == maxPlies {
			return res, fmt.Errorf("%s: not finished after %d plies", id, maxPlies)
		}
		m := moves[r.IntN(len(moves))]
		drawSeed := r.Uint64()
		resp, err := c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{
			Game: id, State: state, Move: &gamerulesv1.Move{Notation: m.GetNotation()},
			Seed: &drawSeed, IncludeLegalMoves: true,
		})
		if err != nil {
			return res, err
		}
		res.calls++
		res.plies++
		res.last = resp
		fmt.Fprintf(log, "%d. %s\n", res.plies, resp.GetMove().GetNotation())
		state, moves = resp.GetState(), resp.GetNext().GetMoves()
		if resp.GetFinished() != (len(moves) == 0) {
			return res, fmt.Errorf("ply %d: finished=%v with %d legal moves", res.plies, resp.GetFinished(), len(moves))
		}
	}
	return res, nil
}

func winner(r *gamerulesv1.ApplyMoveResponse) string {
	if r.Winner == nil {
		return "none (a draw)"
	}
	return fmt.Sprint(r.GetWinner())
}

// describe writes a gRPC error with its ErrorInfo reason and bad field.
func describe(err error) string {
	st, ok := status.FromError(err)
	if !ok || err == nil {
		return fmt.Sprint(err)
	}
	s := fmt.Sprintf("%s: %s", st.Code(), st.Message())
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			s += fmt.Sprintf(" [reason %s, domain %s]", d.GetReason(), d.GetDomain())
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				s += fmt.Sprintf(" [field %s]", v.GetField())
			}
		}
	}
	return s
}
