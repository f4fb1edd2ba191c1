package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// The per-layer benchmarks (issue 10 item 2): one mid-game state of every
// game, made by seeded play, and the cost of each layer a LegalMoves,
// ApplyMove or Score request goes through in the server, measured apart so
// that a change's effect shows without a load run:
//
//	engine      the rules package alone (move generation, and with results
//	            each move applied), no conversion
//	handler     Server.LegalMoves (…) called directly with a decoded request:
//	            state decoding, the engine, the typed response built
//	unmarshal   proto.Unmarshal of the request's wire bytes
//	marshal     proto.Marshal of the response
//	json_in     protojson.Unmarshal of the request (the REST body)
//	json_out    protojson with the gateway's options (EmitDefaultValues, as
//	            cmd/gamerulesd newGateway) of the response
//	grpc        unmarshal + handler + marshal: the server's part of a gRPC call
//	rest        json_in + handler + json_out: the same over REST, without
//	            the gateway's own work
//
// marshal, json_out, grpc and rest also report the response's size (resp-B).
//
// Run: go test -run '^$' -bench Layers -benchtime 200ms ./service/
// Compare two builds with benchstat (-count 8, old and new interleaved).

// benchJSONOut and benchJSONIn are the gateway's protojson options.
var (
	benchJSONOut = protojson.MarshalOptions{EmitDefaultValues: true}
	benchJSONIn  = protojson.UnmarshalOptions{DiscardUnknown: false}
)

// benchCase is one game's mid-game state and the move ApplyMove applies.
type benchCase struct {
	name  string // sub-benchmark name
	game  string
	state *gamerulesv1.GameState // as the server returns it: text and typed
	move  *gamerulesv1.Move      // a legal move of state, notation only
	seed  uint64
}

// benchCases makes the states by seeded play through the Server, so they are
// the states a client holds: backgammon after 18 plies on a play of many
// choices, Abalone after 12 plies, Labyrinth 4 plies in (a shift to make),
// Gravity Trap on the default board after set-up and 2 moves, and on a
// large custom board (64 stations, 256 lines, the limits) the same.
func benchCases(b *testing.B) []benchCase {
	b.Helper()
	srv := New()
	ctx := context.Background()
	play := func(game string, opts *gamerulesv1.NewGameRequest, seed uint64, plies int, stop func(*gamerulesv1.LegalMovesResponse) bool) benchCase {
		b.Helper()
		req := opts
		if req == nil {
			req = &gamerulesv1.NewGameRequest{}
		}
		req.Game, req.Seed = game, &seed
		ng, err := srv.NewGame(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		st := ng.GetState()
		rng := rand.New(rand.NewPCG(seed, 7))
		for ply := 0; ; ply++ {
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: game, State: st})
			if err != nil {
				b.Fatal(err)
			}
			if len(lm.GetMoves()) == 0 {
				b.Fatalf("%s: game over after %d plies", game, ply)
			}
			mv := lm.GetMoves()[rng.IntN(len(lm.GetMoves()))].GetNotation()
			if ply >= plies && (stop == nil || stop(lm)) {
				return benchCase{game: game, state: st, move: &gamerulesv1.Move{Notation: mv}, seed: seed}
			}
			if lm.GetChance() {
				mv = "roll"
			}
			s := uint64(ply)
			am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: game, State: st, Move: &gamerulesv1.Move{Notation: mv}, Seed: &s})
			if err != nil {
				b.Fatal(err)
			}
			st = am.GetState()
		}
	}
	manyPlays := func(lm *gamerulesv1.LegalMovesResponse) bool { return !lm.GetChance() && len(lm.GetMoves()) >= 15 }
	gtBig := &gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: benchBigBoard()}}}
	cases := []benchCase{
		play(bgGame, nil, 1, 18, manyPlays),
		play(abGame, nil, 1, 12, nil),
		play(labGame, nil, 1, 4, nil),
		play(gtGame, nil, 1, 4, nil),
		play(gtGame, gtBig, 1, 4, nil),
	}
	for i, n := range []string{"backgammon", "abalone", "labyrinth", "gravity_trap", "gravity_trap_64x256"} {
		cases[i].name = n
	}
	return cases
}

// benchBigBoard is a custom Gravity Trap board at the size limits: 64
// stations, 256 distinct lines of 8 to 64 stations (seeded), opposite(i) =
// i xor 32.
func benchBigBoard() *gamerulesv1.GravityTrapBoard {
	rng := rand.New(rand.NewPCG(64, 256))
	pb := &gamerulesv1.GravityTrapBoard{}
	for i := range 64 {
		pb.Stations = append(pb.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: float64(i % 8), Y: float64(i / 8)})
		pb.Opposite = append(pb.Opposite, uint32(i^32))
	}
	seen := map[uint64]bool{}
	for len(pb.Lines) < 256 {
		perm := rng.Perm(64)[:8+rng.IntN(57)]
		var set uint64
		line := &gamerulesv1.GravityTrapLine{}
		for _, s := range perm {
			set |= 1 << s
			line.Stations = append(line.Stations, uint32(s))
		}
		if !seen[set] {
			seen[set] = true
			pb.Lines = append(pb.Lines, line)
		}
	}
	return pb
}

// engineLegal is the rules engine's part of LegalMoves for pos: the moves,
// and with results the state after each. It returns the number of moves.
func engineLegal(b *testing.B, pos Position, results bool) int {
	switch p := pos.(type) {
	case backgammonPos:
		if results {
			m, _ := p.s.LegalMovesWithResults()
			return len(m)
		}
		return len(p.s.LegalMoves())
	case abalonePos:
		return engineApplyAll(b, p.s.LegalMoves(), results, p.s.Apply)
	case labyrinthPos:
		return engineApplyAll(b, p.s.LegalMoves(), results, p.s.Apply)
	case gravityTrapPos:
		return engineApplyAll(b, p.s.LegalMoves(), results, p.s.Apply)
	}
	b.Fatalf("no engine for %T", pos)
	return 0
}

func engineApplyAll[M, S any](b *testing.B, moves []M, results bool, apply func(M) (S, error)) int {
	if results {
		for _, m := range moves {
			if _, err := apply(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	return len(moves)
}

// benchLayers runs the layers of one call: req is the decoded request,
// handle the Server method, newReq an empty request for decoding.
func benchLayers[Req, Resp proto.Message](b *testing.B, req Req, newReq func() Req, handle func(context.Context, Req) (Resp, error), engine func()) {
	ctx := context.Background()
	resp, err := handle(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	wire, err := proto.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := benchJSONOut.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	respWire, _ := proto.Marshal(resp)
	respJSON, _ := benchJSONOut.Marshal(resp)
	run := func(name string, f func()) {
		b.Run("layer="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
			switch name {
			case "marshal", "grpc":
				b.ReportMetric(float64(len(respWire)), "resp-B")
			case "json_out", "rest":
				b.ReportMetric(float64(len(respJSON)), "resp-B")
			}
		})
	}
	if engine != nil {
		run("engine", engine)
	}
	run("handler", func() {
		if _, err := handle(ctx, req); err != nil {
			b.Fatal(err)
		}
	})
	run("unmarshal", func() {
		if err := proto.Unmarshal(wire, newReq()); err != nil {
			b.Fatal(err)
		}
	})
	run("marshal", func() {
		if _, err := proto.Marshal(resp); err != nil {
			b.Fatal(err)
		}
	})
	run("json_in", func() {
		if err := benchJSONIn.Unmarshal(body, newReq()); err != nil {
			b.Fatal(err)
		}
	})
	run("json_out", func() {
		if _, err := benchJSONOut.Marshal(resp); err != nil {
			b.Fatal(err)
		}
	})
	run("grpc", func() {
		r := newReq()
		if err := proto.Unmarshal(wire, r); err != nil {
			b.Fatal(err)
		}
		out, err := handle(ctx, r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := proto.Marshal(out); err != nil {
			b.Fatal(err)
		}
	})
	run("rest", func() {
		r := newReq()
		if err := benchJSONIn.Unmarshal(body, r); err != nil {
			b.Fatal(err)
		}
		out, err := handle(ctx, r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := benchJSONOut.Marshal(out); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkLayersLegalMoves is LegalMoves of every game's mid-game state,
// with and without include_results, layer by layer.
func BenchmarkLayersLegalMoves(b *testing.B) {
	srv := New()
	for _, c := range benchCases(b) {
		for _, results := range []bool{false, true} {
			b.Run(fmt.Sprintf("game=%s/results=%v", c.name, results), func(b *testing.B) {
				req := &gamerulesv1.LegalMovesRequest{Game: c.game, State: c.state, IncludeResults: results}
				pos, err := srv.decode(c.game, c.state)
				if err != nil {
					b.Fatal(err)
				}
				benchLayers(b, req, func() *gamerulesv1.LegalMovesRequest { return &gamerulesv1.LegalMovesRequest{} }, srv.LegalMoves,
					func() { engineLegal(b, pos, results) })
			})
		}
	}
}

// BenchmarkLayersApplyMove is ApplyMove of one legal move of every game's
// mid-game state (no legal moves asked), layer by layer.
func BenchmarkLayersApplyMove(b *testing.B) {
	srv := New()
	for _, c := range benchCases(b) {
		b.Run("game="+c.name, func(b *testing.B) {
			req := &gamerulesv1.ApplyMoveRequest{Game: c.game, State: c.state, Move: c.move, Seed: &c.seed}
			benchLayers(b, req, func() *gamerulesv1.ApplyMoveRequest { return &gamerulesv1.ApplyMoveRequest{} }, srv.ApplyMove, nil)
		})
	}
}

// BenchmarkLayersScore is Score of every game's mid-game state, layer by layer.
func BenchmarkLayersScore(b *testing.B) {
	srv := New()
	for _, c := range benchCases(b) {
		b.Run("game="+c.name, func(b *testing.B) {
			req := &gamerulesv1.ScoreRequest{Game: c.game, State: c.state}
			benchLayers(b, req, func() *gamerulesv1.ScoreRequest { return &gamerulesv1.ScoreRequest{} }, srv.Score, nil)
		})
	}
}
