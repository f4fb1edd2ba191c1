package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
)

// gatewayMarshaler is the marshaler newGateway answers a JSON request with.
func gatewayMarshaler() runtime.Marshaler {
	r, _ := http.NewRequest(http.MethodPost, "/", nil)
	r.Header.Set("Content-Type", "application/json")
	_, out := runtime.MarshalerForRequest(newGateway(), r)
	return out
}

// checkFastJSON fails unless fastJSON writes m exactly as the gateway's
// protojson does, up to protojson's random white space.
func checkFastJSON(t *testing.T, what string, m proto.Message) {
	t.Helper()
	got, err := gatewayMarshaler().Marshal(m)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want, err := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(m)
	if err != nil {
		t.Fatalf("%s: protojson: %v", what, err)
	}
	// What falls back to protojson has its white space too.
	var compact, gotCompact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&gotCompact, got); err != nil {
		t.Fatalf("%s: fastJSON wrote invalid JSON: %v: %s", what, err, got)
	}
	if !bytes.Equal(gotCompact.Bytes(), compact.Bytes()) {
		t.Fatalf("%s: fastJSON\n%s\nprotojson\n%s", what, got, compact.Bytes())
	}
}

// TestFastJSONMatchesProtojson: the REST answers of seeded random play of
// every game (NewGame, LegalMoves with results, ApplyMove, Score,
// ObserveState for each player), the other calls' answers, error statuses
// (protojson's, through the fallback) and messages with the numbers and
// strings that protojson writes in special ways are byte for byte what
// protojson writes, once compacted.
func TestFastJSONMatchesProtojson(t *testing.T) {
	ctx := context.Background()
	srv := service.New()
	lg, err := srv.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	checkFastJSON(t, "ListGames", lg)
	n := 0
	for _, game := range srv.Games() {
		for seed := uint64(1); seed <= 3; seed++ {
			r := rand.New(rand.NewPCG(seed, 11))
			ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: game, Seed: proto.Uint64(seed)})
			if err != nil {
				t.Fatalf("%s NewGame: %v", game, err)
			}
			checkFastJSON(t, game+" NewGame", ng)
			st := ng.GetState()
			for ply := 0; ply < 60; ply++ {
				lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: game, State: st, IncludeResults: ply%3 == 0})
				if err != nil {
					t.Fatalf("%s LegalMoves: %v", game, err)
				}
				checkFastJSON(t, game+" LegalMoves", lm)
				sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: game, State: st})
				if err != nil {
					t.Fatalf("%s Score: %v", game, err)
				}
				checkFastJSON(t, game+" Score", sc)
				for p := int32(0); p < 2; p++ {
					if ob, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: game, State: st, Player: proto.Int32(p)}); err == nil {
						checkFastJSON(t, game+" ObserveState", ob)
					}
				}
				n += 3
				if len(lm.GetMoves()) == 0 {
					break
				}
				mv := lm.GetMoves()[r.IntN(len(lm.GetMoves()))]
				mv.Result = nil
				am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: game, State: st, Move: mv, Seed: proto.Uint64(seed)})
				if err != nil {
					t.Fatalf("%s ApplyMove %v: %v", game, mv, err)
				}
				checkFastJSON(t, game+" ApplyMove", am)
				st = am.GetState()
			}
		}
	}
	for _, b := range []string{"default", "rings"} {
		gb, err := srv.GetBoard(ctx, &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: b})
		if err != nil {
			t.Fatal(err)
		}
		checkFastJSON(t, "GetBoard "+b, gb)
	}
	// An error: a Status with Any details (protojson writes it).
	_, err = srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "nonsense"}})
	checkFastJSON(t, "error status", status.Convert(err).Proto())
	// Numbers and strings protojson writes in its own way.
	for _, p := range []float64{0, 1, 0.5, 1.0 / 36, 1e-7, 1.5e-300, 1e21, 123456789.125, -2, math.NaN(), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64} {
		checkFastJSON(t, "probability", &gamerulesv1.Move{Probability: proto.Float64(p)})
	}
	for _, s := range []string{"", "plain", "quote \" and \\ back", "\x00\x01\x1f\t\n\r\b\f", "<html>&amp;", "é€😀\u2028\u2029", "\ufffd literal"} {
		checkFastJSON(t, "string", &gamerulesv1.Move{Notation: s})
	}
	// Invalid UTF-8: fastJSON leaves it to protojson, which refuses it.
	if _, err := gatewayMarshaler().Marshal(&gamerulesv1.Move{Notation: "bad \xff"}); err == nil {
		t.Errorf("invalid UTF-8 marshalled without an error")
	}
	// The answers take the fast path; the status (Any details) does not.
	for _, m := range []proto.Message{&gamerulesv1.LegalMovesResponse{}, &gamerulesv1.ApplyMoveResponse{}, &gamerulesv1.ScoreResponse{}, &gamerulesv1.NewGameResponse{}, &gamerulesv1.GetBoardResponse{}} {
		if jsonPlanOf(m.ProtoReflect().Descriptor()).fallback {
			t.Errorf("%T falls back to protojson", m)
		}
	}
	if !jsonPlanOf(status.New(3, "x").Proto().ProtoReflect().Descriptor()).fallback {
		t.Errorf("google.rpc.Status does not fall back to protojson")
	}
	if n < 300 {
		t.Errorf("compared %d answers of play; want more", n)
	}
}
