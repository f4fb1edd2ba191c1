package server

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/service"
)

// TestCodecMarshalSameBytes: the server codec's vtprotobuf marshaling
// writes exactly the bytes proto.Marshal writes, for the answers of every
// RPC over seeded random play of every game (legal moves with their result
// states, applied moves, scores, new games, the game list).
func TestCodecMarshalSameBytes(t *testing.T) {
	srv := service.New()
	ctx := context.Background()
	codec := limit.Codec()
	check := func(what string, m proto.Message) {
		t.Helper()
		want, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := codec.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if b := got.Materialize(); !bytes.Equal(b, want) {
			t.Fatalf("%s: codec wrote %d bytes that differ from proto.Marshal's %d", what, len(b), len(want))
		}
		got.Free()
	}
	lg, _ := srv.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	check("ListGames", lg)
	for _, name := range []string{"default", "rings"} {
		b, err := srv.GetBoard(ctx, &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: name})
		if err != nil {
			t.Fatal(err)
		}
		check("GetBoard "+name, b)
	}
	checked := 0
	for _, id := range srv.Games() {
		for seed := uint64(1); seed <= 3; seed++ {
			ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: &seed})
			if err != nil {
				t.Fatal(err)
			}
			check(id+" NewGame", ng)
			st := ng.GetState()
			for ply := 0; ply < 40; ply++ {
				lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st, IncludeResults: true})
				if err != nil {
					t.Fatal(err)
				}
				check(id+" LegalMoves", lm)
				sc, _ := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: st})
				check(id+" Score", sc)
				if len(lm.GetMoves()) == 0 {
					break
				}
				s := seed*1000 + uint64(ply)
				mv := lm.GetMoves()[int(s*2654435761%uint64(len(lm.GetMoves())))]
				am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: mv.GetNotation()}, Seed: &s, IncludeLegalMoves: true})
				if err != nil {
					t.Fatal(err)
				}
				check(id+" ApplyMove", am)
				st = am.GetState()
				checked++
			}
		}
	}
	if checked < 200 {
		t.Fatalf("only %d plies checked", checked)
	}
}

// BenchmarkMarshal compares proto.Marshal with the codec (vtprotobuf) on
// the LegalMoves answers of mid-game states, with their result states.
func BenchmarkMarshal(b *testing.B) {
	srv := service.New()
	codec := limit.Codec()
	for _, g := range []struct {
		id    string
		plies int
	}{{"backgammon", 21}, {"abalone", 12}, {"labyrinth", 9}, {"gravity_trap", 6}} {
		for _, res := range []bool{false, true} {
			resp, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: g.id, State: midGame(b, g.id, g.plies), IncludeResults: res})
			if err != nil {
				b.Fatal(err)
			}
			name := g.id
			if res {
				name += "+results"
			}
			b.Run(name+"/proto", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = proto.Marshal(resp)
				}
			})
			b.Run(name+"/codec", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					d, _ := codec.Marshal(resp)
					d.Free()
				}
			})
		}
	}
}

// TestLimitNamesMatchService: server/limit, which must not import service,
// writes the same ErrorInfo domain and INVALID_REQUEST reason as the
// service.
func TestLimitNamesMatchService(t *testing.T) {
	if limit.Domain != service.ErrorDomain || limit.ReasonInvalidRequest != service.ReasonInvalidRequest {
		t.Errorf("limit's domain %q and reason %q differ from the service's %q and %q", limit.Domain, limit.ReasonInvalidRequest, service.ErrorDomain, service.ReasonInvalidRequest)
	}
}
