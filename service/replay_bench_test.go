package service

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// serverSide is the CPU a request costs the server apart from the
// transport: the request decoded from its wire bytes, the handler, the
// answer encoded.
func serverSide[Req, Resp proto.Message](b *testing.B, wire []byte, newReq func() Req, handle func(context.Context, Req) (Resp, error)) {
	req := newReq()
	if err := proto.Unmarshal(wire, req); err != nil {
		b.Fatal(err)
	}
	resp, err := handle(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := proto.Marshal(resp); err != nil {
		b.Fatal(err)
	}
}

// bg200 is a backgammon game of 200 plies (rolls included) and the state
// before each ply, from the start.
func bg200(b *testing.B, srv *Server) ([]string, []*gamerulesv1.GameState) {
	var moves []string
	var states []*gamerulesv1.GameState
	for pick := 1; len(moves) < 200; pick++ {
		if pick > 50 {
			b.Fatal("no game of 200 plies")
		}
		moves, states = bgPlayed(b, srv, 200, pick)
	}
	ng, _ := srv.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: bgGame})
	return moves, append([]*gamerulesv1.GameState{ng.GetState()}, states[:199]...)
}

// BenchmarkReplay200Plies is one ReplayGame call of a 200-ply backgammon
// game (rolls named, as in a record), server side (decode, replay, encode).
// Compare with BenchmarkApplyMove10Calls: the target is that this
// costs less than that.
func BenchmarkReplay200Plies(b *testing.B) {
	srv := New()
	moves, _ := bg200(b, srv)
	wire, err := proto.Marshal(&gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: moves})
	if err != nil {
		b.Fatal(err)
	}
	newReq := func() *gamerulesv1.ReplayGameRequest { return &gamerulesv1.ReplayGameRequest{} }
	b.ReportAllocs()
	for b.Loop() {
		serverSide(b, wire, newReq, srv.ReplayGame)
	}
}

// BenchmarkApplyMove10Calls is 10 single ApplyMove calls (plies 100..109 of
// the same game, each with its state as a client sends it: text), server
// side, as a client without ReplayGame would check 10 moves.
func BenchmarkApplyMove10Calls(b *testing.B) {
	srv := New()
	moves, before := bg200(b, srv)
	var wires [][]byte
	for i := 100; i < 110; i++ {
		w, err := proto.Marshal(&gamerulesv1.ApplyMoveRequest{Game: bgGame, State: textState(before[i].GetText()), Move: &gamerulesv1.Move{Notation: moves[i]}})
		if err != nil {
			b.Fatal(err)
		}
		wires = append(wires, w)
	}
	newReq := func() *gamerulesv1.ApplyMoveRequest { return &gamerulesv1.ApplyMoveRequest{} }
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range wires {
			serverSide(b, w, newReq, srv.ApplyMove)
		}
	}
}
