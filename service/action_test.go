package service

import (
	"context"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// TestActionIDs: every listed move of sampled states of every game has an
// action id inside its game's ListGames action_space_size, unique within
// the state; ApplyMove given the id alone answers as given the notation;
// ids that name no legal move, or another move than the notation, are
// ILLEGAL_MOVE on move.action; a random game replays the same from its
// actions as from its moves; and hand-checked ids (the specs' "Action
// ids").
func TestActionIDs(t *testing.T) {
	srv := New()
	ctx := context.Background()
	lg, _ := srv.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	space := map[string]int32{}
	for _, g := range lg.GetGames() {
		space[g.GetId()] = g.GetActionSpaceSize()
	}
	checked := 0
	for g, states := range sampleStates(t, srv, 20, 5) {
		for _, st := range states {
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int32]string{}
			for _, m := range lm.GetMoves() {
				a := m.GetAction()
				if m.Action == nil || a < 0 || a >= space[g] {
					t.Fatalf("%s %s: %s has action %v; want 0..%d", g, st.GetText(), m.GetNotation(), m.Action, space[g]-1)
				}
				if other, dup := seen[a]; dup {
					t.Fatalf("%s %s: %s and %s share action %d", g, st.GetText(), other, m.GetNotation(), a)
				}
				seen[a] = m.GetNotation()
			}
			for i, m := range lm.GetMoves() {
				if i%3 != 0 {
					continue
				}
				seed := uint64(3)
				byNotation, err1 := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Notation: m.GetNotation()}, Seed: &seed})
				byAction, err2 := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Action: m.Action}, Seed: &seed})
				both, err3 := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Notation: m.GetNotation(), Action: m.Action}, Seed: &seed})
				if err1 != nil || err2 != nil || err3 != nil {
					t.Fatalf("%s %s %s: %v %v %v", g, st.GetText(), m.GetNotation(), err1, err2, err3)
				}
				byNotation.Move.Action = m.Action
				if !proto.Equal(byNotation, byAction) || !proto.Equal(byNotation, both) {
					t.Errorf("%s %s: action %d answers %v; the notation %v", g, st.GetText(), m.GetAction(), byAction, byNotation)
				}
				checked++
			}
			if len(lm.GetMoves()) > 1 {
				a, b := lm.GetMoves()[0], lm.GetMoves()[1]
				_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Notation: a.GetNotation(), Action: b.Action}})
				if reason, field := statusDetail(t, err); reason != ReasonIllegalMove || field != "move.action" {
					t.Errorf("%s: notation %s with the action of %s: %v", g, a.GetNotation(), b.GetNotation(), err)
				}
			}
			if len(lm.GetMoves()) > 0 {
				_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Action: proto.Int32(space[g])}})
				if reason, field := statusDetail(t, err); reason != ReasonIllegalMove || field != "move.action" {
					t.Errorf("%s: action %d: %v", g, space[g], err)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d moves applied by action", checked)
	}
	// A random game of each, replayed from moves and from actions.
	for _, g := range srv.Games() {
		seed := uint64(11)
		ng, _ := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: g, Seed: &seed})
		rng := rand.New(rand.NewPCG(1, 2))
		var moves []string
		var actions []int32
		st := ng.GetState()
		for ply := 0; ply < 60; ply++ {
			lm, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
			if len(lm.GetMoves()) == 0 {
				break
			}
			m := lm.GetMoves()[rng.IntN(len(lm.GetMoves()))]
			moves, actions = append(moves, m.GetNotation()), append(actions, m.GetAction())
			am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Notation: m.GetNotation()}})
			if err != nil {
				t.Fatal(err)
			}
			st = am.GetState()
		}
		r1, err1 := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: g, State: ng.GetState(), Moves: moves})
		r2, err2 := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: g, State: ng.GetState(), Actions: actions})
		if err1 != nil || err2 != nil || !proto.Equal(r1, r2) || r2.GetState().GetText() != st.GetText() {
			t.Errorf("%s: replay of %d actions: %v %v", g, len(actions), err1, err2)
		}
		_, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: g, State: ng.GetState(), Moves: moves, Actions: actions})
		if reason, field := statusDetail(t, err); reason != ReasonInvalidRequest || field != "actions" {
			t.Errorf("%s: moves and actions: %v", g, err)
		}
	}
	// Hand-checked ids.
	for _, c := range []struct {
		game, state, move string
		action            int32
	}{
		{"gravity_trap", "...................... R", "place 7", 7},
		{"gravity_trap", "RoooBooooooooooooooooo r", "8", 64 + 8},
		{"backgammon", "4HPwATDgc/ABMA:cAkAAAAAAAAE", "roll 6-5", 5*6 + 4},
		{"backgammon", "4HPwATDgc/ABMA:cAkAAAAAAAAE", "roll 2-2", 1*6 + 1},
		// 8/5 6/5 with 3-1: 96 + (1+8·26+5)·677 + (1+6·26+5).
		{"backgammon", "4HPwATDgc/ABMA:MIEFAAAAAAAE", "8/5 6/5", 96 + 214*677 + 162},
	} {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: c.game, State: &gamerulesv1.GameState{Text: c.state}})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range lm.GetMoves() {
			if m.GetNotation() == c.move {
				found = true
				if m.GetAction() != c.action {
					t.Errorf("%s %s %s: action %d; want %d", c.game, c.state, c.move, m.GetAction(), c.action)
				}
			}
		}
		if !found {
			t.Errorf("%s %s: no move %s", c.game, c.state, c.move)
		}
	}
}
