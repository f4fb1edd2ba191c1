package service

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// refLegalMoves and refEncode are the reference builders (refbuild_test.go)
// for pos.
func refLegalMoves(t *testing.T, pos Position, results bool) ([]*gamerulesv1.Move, bool, error) {
	var out []*gamerulesv1.Move
	var chance bool
	var err error
	var ids []int
	switch p := pos.(type) {
	case backgammonPos:
		out, chance, err = refBackgammonLegalMoves(p, results)
		for _, m := range p.s.LegalMoves() {
			ids = append(ids, p.s.Action(m))
		}
	case abalonePos:
		out, chance, err = refAbaloneLegalMoves(p, results)
		for _, m := range p.s.LegalMoves() {
			ids = append(ids, m.Action())
		}
	case labyrinthPos:
		out, chance, err = refLabyrinthLegalMoves(p, results)
		for _, m := range p.s.LegalMoves() {
			ids = append(ids, m.Action())
		}
	case gravityTrapPos:
		out, chance, err = refGravityTrapLegalMoves(p, results)
		for _, m := range p.s.LegalMoves() {
			ids = append(ids, m.Action())
		}
	default:
		t.Fatalf("no reference for %T", pos)
	}
	// The action ids, from the rules' own encoders (TestActionIDs checks
	// them against their specs).
	for i, m := range out {
		m.Action = proto.Int32(int32(ids[i]))
	}
	return out, chance, err
}

func refEncode(t *testing.T, pos Position) *gamerulesv1.GameState {
	switch p := pos.(type) {
	case backgammonPos:
		return refBackgammonEncode(p)
	case abalonePos:
		return refAbaloneEncode(p)
	case labyrinthPos:
		return refLabyrinthEncode(p.s)
	case gravityTrapPos:
		return refGravityTrapEncode(p)
	}
	t.Fatalf("no reference for %T", pos)
	return nil
}

// sameMessage fails unless got and want are proto.Equal and marshal to the
// same deterministic bytes, and got's MarshalVT gives those bytes too.
func sameMessage(t *testing.T, what string, got, want proto.Message) {
	t.Helper()
	if !proto.Equal(got, want) {
		t.Fatalf("%s: optimised %v\nreference %v", what, got, want)
	}
	det := proto.MarshalOptions{Deterministic: true}
	g, err1 := det.Marshal(got)
	w, err2 := det.Marshal(want)
	if err1 != nil || err2 != nil || !bytes.Equal(g, w) {
		t.Fatalf("%s: marshaled bytes differ (%v, %v)", what, err1, err2)
	}
	// The gRPC codec's marshal (vtprotobuf), on messages that share
	// sub-messages (a Gravity Trap board), gives the reference's bytes too.
	if v, err := vtMarshal(got); err != nil || !bytes.Equal(v, w) {
		t.Fatalf("%s: MarshalVT bytes differ from the reference's (%v)", what, err)
	}
}

// TestBuildersMatchReference: for the states of seeded random games of
// every game and variant, the answers the optimised builders give
// (LegalMoves with and without results, the encoded state, a view) are
// those of the builders as they were (refbuild_test.go), message for
// message and byte for byte; and so are LegalMoves' answers with no read
// mask, with every path, and with each path alone (the reference's parts,
// mask_test.go).
func TestBuildersMatchReference(t *testing.T) {
	srv := New()
	ctx := context.Background()
	gtOpts := func(o *gamerulesv1.GravityTrapOptions) *gamerulesv1.NewGameRequest {
		return &gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: o}}
	}
	for _, tc := range []struct {
		name  string
		game  string
		req   *gamerulesv1.NewGameRequest
		plies int
	}{
		{"backgammon", bgGame, nil, 120},
		{"backgammon cube beavers", bgGame, &gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{Cube: true, Beavers: true}}}, 80},
		{"backgammon match", bgGame, &gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: 3}}}, 80},
		{"abalone", abGame, nil, 60},
		{"abalone daisy limit", abGame, &gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: "belgian_daisy", MaxPlies: 30}}}, 40},
		{"labyrinth", labGame, nil, 40},
		{"labyrinth 2 vader", labGame, &gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthOptions{Players: 2, Vader: true, OpenCards: true}}}, 40},
		{"gravity trap", gtGame, nil, 40},
		{"gravity trap rings mirror", gtGame, gtOpts(&gamerulesv1.GravityTrapOptions{Board: "rings", AllowMirrorPlacement: true}), 40},
		{"gravity trap hex", gtGame, gtOpts(&gamerulesv1.GravityTrapOptions{CustomBoard: gtHex()}), 40},
		{"gravity trap 64x256", gtGame, gtOpts(&gamerulesv1.GravityTrapOptions{CustomBoard: benchBigBoard()}), 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			states := 0
			for seed := uint64(1); seed <= 4; seed++ {
				req := tc.req
				if req == nil {
					req = &gamerulesv1.NewGameRequest{}
				}
				req = proto.Clone(req).(*gamerulesv1.NewGameRequest)
				req.Game, req.Seed = tc.game, &seed
				ng, err := srv.NewGame(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				st := ng.GetState()
				rng := rand.New(rand.NewPCG(seed, 99))
				for ply := 0; ply < tc.plies; ply++ {
					pos, err := srv.decode(tc.game, st)
					if err != nil {
						t.Fatal(err)
					}
					states++
					where := fmt.Sprintf("seed %d ply %d %s", seed, ply, st.GetText())
					sameMessage(t, where+" Encode", pos.Encode(), refEncode(t, pos))
					if obs, ok := pos.(Observer); ok {
						for p := -1; p < 2; p++ {
							v, err := obs.Observe(p)
							if err != nil {
								t.Fatal(err)
							}
							sameMessage(t, where+" Observe", v, refLabyrinthEncode(pos.(labyrinthPos).s.View(p)))
						}
					}
					var moves []*gamerulesv1.Move
					for _, results := range []bool{false, true} {
						w := noResults
						if results {
							w = allParts
						}
						got, gc, err1 := pos.LegalMoves(w)
						want, wc, err2 := refLegalMoves(t, pos, results)
						if err1 != nil || err2 != nil {
							t.Fatal(err1, err2)
						}
						sameMessage(t, fmt.Sprintf("%s LegalMoves(%v)", where, results),
							&gamerulesv1.LegalMovesResponse{Moves: got, Chance: gc}, &gamerulesv1.LegalMovesResponse{Moves: want, Chance: wc})
						// Through the Server with read masks: none and all
						// paths give the same answer, each mask its parts
						// (every fourth state of the first seed's game, the
						// start only on the 64×256 board, whose answers are
						// 0.7 MB: 17 masks a state, kept cheap under -race).
						if seed == 1 && ply%4 == 0 && (ply == 0 || tc.name != "gravity trap 64x256") {
							checkReadMasks(t, srv, tc.game, st, results, &gamerulesv1.LegalMovesResponse{Moves: want, Chance: wc}, where)
						}
						moves = got
					}
					if len(moves) == 0 {
						break
					}
					mv := moves[rng.IntN(len(moves))].GetNotation()
					if lm, _, _ := pos.LegalMoves(noResults); len(lm) > 0 && lm[0].Probability != nil {
						mv = "roll"
					}
					s := uint64(ply)
					am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: tc.game, State: st, Move: &gamerulesv1.Move{Notation: mv}, Seed: &s})
					if err != nil {
						t.Fatal(err)
					}
					st = am.GetState()
				}
			}
			t.Logf("%d states", states)
		})
	}
}
