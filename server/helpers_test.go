package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
)

// The helpers of the unit tests that serve a call over a real port; the
// whole-stack tests (server/stacktest) have their own.

// startServerWith is startServer with the defaults changed by set.
func startServerWith(t testing.TB, set func(*Options)) Addrs {
	t.Helper()
	cfg := DefaultOptions()
	cfg.GRPCAddr = "127.0.0.1:0"
	cfg.HTTPAddr = "127.0.0.1:0"
	cfg.LogLevel = "error"
	set(&cfg)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Addrs, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ready) }()
	var addrs Addrs
	select {
	case addrs = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start in 10 s")
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run returned %v after shutdown", err)
		}
	})
	return addrs
}

func dial(t testing.TB, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// post sends a JSON body to the REST port and returns the status and the
// decoded JSON answer.
func post(t *testing.T, base, path, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post("http://"+base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s: answer is not JSON: %v: %s", path, err, raw)
	}
	return resp.StatusCode, out
}

// midGame plays a seeded game of id through the service for plies plies
// (each move picked by ply number) and returns its state as text.
func midGame(tb testing.TB, id string, plies int) *gamerulesv1.GameState {
	tb.Helper()
	srv := service.New()
	ctx := context.Background()
	seed := uint64(7)
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: &seed})
	if err != nil {
		tb.Fatal(err)
	}
	st := ng.GetState()
	for ply := 0; ply < plies; ply++ {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st})
		if err != nil {
			tb.Fatal(err)
		}
		if len(lm.GetMoves()) == 0 {
			break
		}
		s := uint64(ply)
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: lm.GetMoves()[(ply*7)%len(lm.GetMoves())].GetNotation()}, Seed: &s})
		if err != nil {
			tb.Fatal(err)
		}
		st = am.GetState()
	}
	return &gamerulesv1.GameState{Text: st.GetText()}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
