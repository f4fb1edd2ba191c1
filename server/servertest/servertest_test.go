package servertest_test

import (
	"context"
	"net/http"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server"
	"github.com/gamerules/gamerules/server/servertest"
)

// TestStart: Start serves both ports with the options set changed, and Dial
// reaches the gRPC one.
func TestStart(t *testing.T) {
	s := servertest.Start(t, func(o *server.Options) { o.MaxInFlight = 3 })
	list, err := gamerulesv1grpc.NewGameRulesClient(servertest.Dial(t, s)).ListGames(context.Background(), &gamerulesv1.ListGamesRequest{})
	if err != nil || len(list.GetGames()) != 4 {
		t.Fatalf("ListGames over gRPC = %v, %v; want 4 games", list, err)
	}
	resp, err := http.Get("http://" + s.HTTPAddr() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/readyz = %d; want 200", resp.StatusCode)
	}
}
