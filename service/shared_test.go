package service

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// TestSharedResultStates: the result states of a LegalMoves answer share
// equal sub-messages (see Server), so each is checked against the state
// ApplyMove builds for its move alone (an encoder of one state, which
// shares nothing), and against the same answer built again after the
// first was post-processed by the callers that change answers in place
// (Expand's nodes take the results out of the moves; Batch wraps them):
// over seeded play of every game, with and without the typed states.
func TestSharedResultStates(t *testing.T) {
	srv := New()
	ctx := context.Background()
	checked, expanded := 0, 0
	for _, id := range srv.Games() {
		for seed := uint64(1); seed <= 2; seed++ {
			ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: &seed})
			if err != nil {
				t.Fatal(err)
			}
			st := ng.GetState()
			for ply := 0; ply < 30; ply++ {
				req := &gamerulesv1.LegalMovesRequest{Game: id, State: st, IncludeResults: true}
				lm, err := srv.LegalMoves(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if len(lm.GetMoves()) == 0 {
					break
				}
				before := proto.Clone(lm).(*gamerulesv1.LegalMovesResponse)
				for i, m := range lm.GetMoves() {
					if i%3 != 0 && len(lm.GetMoves()) > 30 {
						continue
					}
					s := uint64(i)
					am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: m.GetNotation()}, Seed: &s})
					if err != nil {
						t.Fatalf("%s %q: ApplyMove(%q): %v", id, st.GetText(), m.GetNotation(), err)
					}
					if !proto.Equal(am.GetState(), m.GetResult()) {
						t.Fatalf("%s %q: move %q lists result\n%v\nApplyMove gives\n%v", id, st.GetText(), m.GetNotation(), m.GetResult(), am.GetState())
					}
					// The listed move (its typed form shares step messages
					// with the other moves) is the move ApplyMove applied.
					listed := proto.Clone(m).(*gamerulesv1.Move)
					listed.Result, listed.Action, listed.Probability = nil, nil, nil
					applied := proto.Clone(am.GetMove()).(*gamerulesv1.Move)
					applied.Action, applied.Probability = nil, nil
					if !proto.Equal(listed, applied) {
						t.Fatalf("%s %q: listed move\n%v\nApplyMove applied\n%v", id, st.GetText(), listed, applied)
					}
					checked++
				}
				// Expand to depth 1 changes its LegalMoves answer in place;
				// its nodes must still be the answer's results.
				ex, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: id, State: st, Depth: 1, IncludeTyped: true})
				if err != nil {
					t.Fatal(err)
				}
				if kids := ex.GetRoot().GetChildren(); len(kids) == len(before.GetMoves()) {
					for i, k := range kids {
						expanded++
						if !proto.Equal(k.GetState(), before.GetMoves()[i].GetResult()) {
							t.Fatalf("%s %q: Expand's child %d state\n%v\nLegalMoves' result\n%v", id, st.GetText(), i, k.GetState(), before.GetMoves()[i].GetResult())
						}
					}
				}
				bt, err := srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: []*gamerulesv1.BatchRequestItem{
					{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: req}},
					{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: req}},
				}})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range bt.GetResponses() {
					if !proto.Equal(it.GetLegalMoves(), before) {
						t.Fatalf("%s %q: Batch's LegalMoves differs from the call's", id, st.GetText())
					}
				}
				if !proto.Equal(lm, before) {
					t.Fatalf("%s %q: the answer changed after ApplyMove, Expand and Batch", id, st.GetText())
				}
				mv := lm.GetMoves()[int((seed*1000+uint64(ply))*2654435761%uint64(len(lm.GetMoves())))]
				st = mv.GetResult()
			}
		}
	}
	t.Logf("%d results, %d expand children", checked, expanded)
	if checked < 500 || expanded < 500 {
		t.Fatalf("only %d results checked", checked)
	}
}
