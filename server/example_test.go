package server_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server"
)

// The whole server inside a program: New, Run, the bound addresses, and a
// game served over REST.
func Example() {
	opts := server.DefaultOptions()
	opts.GRPCAddr, opts.HTTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	opts.LogLevel = "error"
	s, err := server.New(opts) // the whole stack: limits, interceptors, gateway, health, metrics, playground, docs
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }() // serves until ctx is done, then the graceful shutdown

	resp, err := http.Post("http://"+s.HTTPAddr()+"/v1/games/abalone:legalMoves", "application/json",
		strings.NewReader(`{"state":{"text":"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"}}`))
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, strings.Count(string(body), `"notation"`), "legal moves")

	stop()
	fmt.Println("stopped:", <-done)
	// Output:
	// 200 44 legal moves
	// stopped: <nil>
}

// The API mounted into a program's own gRPC server, which serves its own
// services beside it, with the stack's limits and interceptors.
func ExampleNewAPI() {
	opts := server.DefaultOptions()
	opts.LogLevel = "error"
	api, err := server.NewAPI(opts)
	if err != nil {
		log.Fatal(err)
	}
	gs := grpc.NewServer(api.GRPCServerOptions()...) // limits, element budget, interceptors
	api.RegisterGRPC(gs)
	// ... and the program's own services: gs.RegisterService(...)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go gs.Serve(lis)
	defer gs.Stop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	c := gamerulesv1grpc.NewGameRulesClient(conn)
	list, err := c.ListGames(context.Background(), &gamerulesv1.ListGamesRequest{})
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range list.GetGames() {
		fmt.Println(g.GetId())
	}
	// REST too, in process: mux.Handle("/v1/", rest).
	rest, err := api.RESTHandler()
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", rest)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/games/abalone:legalMoves",
		strings.NewReader(`{"state":{"text":"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"},"readMask":"moves.notation"}`)))
	fmt.Println("REST:", rec.Code, strings.Count(rec.Body.String(), `"notation"`), "legal moves")
	// Output:
	// abalone
	// backgammon
	// gravity_trap
	// labyrinth
	// REST: 200 44 legal moves
}
