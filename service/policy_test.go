package service

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

var greedy = gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY.Enum()

// TestPlayoutPolicy: the greedy policy is deterministic per seed on one
// core and on several, differs from the random one, and its games replay;
// with first_move_by_policy the first move is its choice (a legal move,
// the one a computer player of the playground plays), not dealt; an
// explicit PLAYOUT_POLICY_RANDOM answers as the default; UNSPECIFIED is
// refused on policy.
func TestPlayoutPolicy(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for g, states := range sampleStates(t, srv, 2, 9) {
		for _, st := range states {
			req := &gamerulesv1.PlayoutRequest{Game: g, State: st, Games: 40, Seed: proto.Uint64(7), IncludeMoves: true, Policy: greedy}
			var answers []*gamerulesv1.PlayoutResponse
			for _, procs := range []int{1, 3} {
				old := runtime.GOMAXPROCS(procs)
				resp, err := srv.Playout(ctx, req)
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				answers = append(answers, resp)
			}
			a := answers[0]
			if !proto.Equal(a, answers[1]) {
				t.Fatalf("%s %s: greedy answers differ between 1 and 3 cores", g, st.GetText())
			}
			// Every game of these seeds and states ends; not so in
			// general: of greedy Abalone games from the start, about 4 in
			// 1,000 are still going at 10,000 plies (docs/rules/abalone.md).
			if a.GetUnfinishedCount() != 0 {
				t.Errorf("%s %s: %d greedy games unfinished at the default max_plies", g, st.GetText(), a.GetUnfinishedCount())
			}
			for i, pg := range a.GetPlayed().GetGames() {
				if i%9 != 0 || len(pg.GetMoves()) > MaxReplayMoves {
					continue
				}
				rp, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: g, State: st, Moves: pg.GetMoves()})
				if err != nil || rp.GetFinished() != pg.GetFinished() || rp.GetWinner() != pg.GetWinner() {
					t.Errorf("%s game %d: replay %v %v; the playout says %v %v", g, i, rp.GetWinner(), err, pg.GetWinner(), pg.GetFinished())
				}
			}
			random := proto.Clone(req).(*gamerulesv1.PlayoutRequest)
			random.Policy = nil
			r, err := srv.Playout(ctx, random)
			if err != nil {
				t.Fatal(err)
			}
			random.Policy = gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_RANDOM.Enum()
			if r2, err := srv.Playout(ctx, random); err != nil || !proto.Equal(r, r2) {
				t.Errorf("%s: PLAYOUT_POLICY_RANDOM answers unlike the default: %v", g, err)
			}
			if r.GetTotalPlies() == a.GetTotalPlies() && slices.Equal(r.GetWinCounts(), a.GetWinCounts()) {
				t.Errorf("%s %s: greedy and random played alike (%d plies)", g, st.GetText(), r.GetTotalPlies())
			}
			// One move by the policy: the computer player's question.
			lm, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
			one, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: g, State: st, Games: 1, MaxPlies: 1, IncludeMoves: true, Policy: greedy, FirstMoveByPolicy: true, Seed: proto.Uint64(3)})
			if err != nil {
				t.Fatal(err)
			}
			moves := one.GetPlayed().GetGames()[0].GetMoves()
			if len(lm.GetMoves()) == 0 {
				if len(moves) != 0 {
					t.Errorf("%s %s: a finished state played %v", g, st.GetText(), moves)
				}
				continue
			}
			i := slices.IndexFunc(lm.GetMoves(), func(m *gamerulesv1.Move) bool { return len(moves) == 1 && m.GetNotation() == moves[0] })
			if i < 0 || one.GetFirstMoves()[i].GetPlayCount() != 1 {
				t.Errorf("%s %s: the greedy move %v is not a legal move counted once in first_moves", g, st.GetText(), moves)
			}
		}
	}
	_, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: "gravity_trap", State: &gamerulesv1.GameState{Text: "RoooBooooooooooooooooo r"}, Games: 1, Policy: gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_UNSPECIFIED.Enum()})
	if reason, field := statusDetail(t, err); reason != ReasonInvalidRequest || field != "policy" || !strings.Contains(err.Error(), "PLAYOUT_POLICY_GREEDY") {
		t.Errorf("policy UNSPECIFIED: %v; want INVALID_REQUEST on policy naming the values", err)
	}
}

// TestPlayoutGreedyFirstMove: with first_move_by_policy the greedy policy
// plays the move that wins at once where there is one (Gravity Trap: red
// takes blue's last marble), in every game.
func TestPlayoutGreedyFirstMove(t *testing.T) {
	srv := New()
	// Red on 3, blue on 12, marbles on 1, 11 and 15 (the default board's
	// lines 1-2-3, 3-11-12, 12-13-14, 11-15-19): 11 is blue's only
	// destination; red taking it keeps 15 and wins, red on 1 is stuck.
	text := ""
	for i := range 22 {
		switch i {
		case 3:
			text += "R"
		case 12:
			text += "B"
		case 1, 11, 15:
			text += "o"
		default:
			text += "."
		}
	}
	st := &gamerulesv1.GameState{Text: text + " r"}
	lm, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: st})
	if err != nil {
		t.Fatal(err)
	}
	var wins []string
	for _, m := range lm.GetMoves() {
		a, err := srv.ApplyMove(context.Background(), &gamerulesv1.ApplyMoveRequest{Game: "gravity_trap", State: st, Move: m})
		if err != nil {
			t.Fatal(err)
		}
		if a.GetFinished() && a.GetWinner() == 0 {
			wins = append(wins, m.GetNotation())
		}
	}
	if len(wins) != 1 || len(lm.GetMoves()) < 2 {
		t.Fatalf("%s: moves %v, winning %v; want one winning move among several", text, lm.GetMoves(), wins)
	}
	resp, err := srv.Playout(context.Background(), &gamerulesv1.PlayoutRequest{Game: "gravity_trap", State: st, Games: 20, MaxPlies: 1, IncludeMoves: true, Policy: greedy, FirstMoveByPolicy: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range resp.GetPlayed().GetGames() {
		if !slices.Equal(g.GetMoves(), wins) {
			t.Errorf("game %d: %v; want %v", i, g.GetMoves(), wins)
		}
	}
}

// TestPlayoutDefaultFinishes: at the default max_plies, 100 random games
// of every game from its start finish, under half of it (the longest
// measured: 4,558 plies, a four-player Labyrinth).
func TestPlayoutDefaultFinishes(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for _, g := range srv.Games() {
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: g, Seed: proto.Uint64(1)})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: g, State: ng.GetState(), Games: 100, Seed: proto.Uint64(1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: mean %.0f plies, longest %d", g, resp.GetMeanPlies(), resp.GetLongestPlies())
		if resp.GetUnfinishedCount() != 0 || resp.GetLongestPlies() > MaxPlayoutGamePlies/2 {
			t.Errorf("%s: %d of 100 random games unfinished, the longest %d plies; want all finished well under %d", g, resp.GetUnfinishedCount(), resp.GetLongestPlies(), MaxPlayoutGamePlies)
		}
	}
}

// TestPlayoutPlyBudget: a call whose games take more plies than the budget
// fails, INVALID_REQUEST on games, on one core and on several (the same
// request always fails); one just under it answers.
func TestPlayoutPlyBudget(t *testing.T) {
	srv := New()
	ctx := context.Background()
	ng, _ := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon"})
	req := &gamerulesv1.PlayoutRequest{Game: "backgammon", State: ng.GetState(), Games: 64, Seed: proto.Uint64(4)}
	all, err := srv.Playout(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer func(b int64) { playoutPlyBudget = b }(playoutPlyBudget)
	for _, c := range []struct {
		budget int64
		ok     bool
	}{{all.GetTotalPlies(), true}, {all.GetTotalPlies() - 1, false}} {
		playoutPlyBudget = c.budget
		for _, procs := range []int{1, 3} {
			old := runtime.GOMAXPROCS(procs)
			resp, err := srv.Playout(ctx, req)
			runtime.GOMAXPROCS(old)
			if c.ok {
				if err != nil || !proto.Equal(resp, all) {
					t.Errorf("budget %d, the games' plies, %d cores: %v", c.budget, procs, err)
				}
				continue
			}
			if reason, field := statusDetail(t, err); reason != ReasonInvalidRequest || field != "games" || !strings.Contains(err.Error(), "plies") {
				t.Errorf("budget %d, one less than the games' plies, %d cores: %v; want INVALID_REQUEST on games", c.budget, procs, err)
			}
		}
	}
}

// finishedMatchGame is a backgammon state whose game is over inside an
// unfinished match (LegalMoves: "next game"), reached by random play.
func finishedMatchGame(t *testing.T, srv *Server) *gamerulesv1.GameState {
	t.Helper()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon", Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	st := ng.GetState()
	r := rand.New(rand.NewPCG(9, 9))
	for range 5000 {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
		if err != nil {
			t.Fatal(err)
		}
		if len(lm.GetMoves()) == 1 && lm.GetMoves()[0].GetNotation() == "next game" {
			return st
		}
		// Never resign: a finished game by bearing off.
		var plays []*gamerulesv1.Move
		for _, m := range lm.GetMoves() {
			if !strings.HasPrefix(m.GetNotation(), "resign") && m.GetNotation() != "double" {
				plays = append(plays, m)
			}
		}
		a, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: plays[r.IntN(len(plays))].GetNotation()}})
		if err != nil {
			t.Fatal(err)
		}
		st = a.GetState()
	}
	t.Fatal("no finished game inside the match after 5,000 plies")
	return nil
}

// TestFinishedGameInMatch: in a finished game inside an unfinished
// backgammon match, Expand's children are LegalMoves' ("next game", with
// its result), and Playout plays the current game: 0 plies, its result, no
// first moves.
func TestFinishedGameInMatch(t *testing.T) {
	srv := New()
	ctx := context.Background()
	st := finishedMatchGame(t, srv)
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st, IncludeResults: true})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: "backgammon", State: st})
	ex, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: "backgammon", State: st, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	root := ex.GetRoot()
	if !root.GetFinished() || len(root.GetChildren()) != 1 || root.GetChildren()[0].GetMove().GetNotation() != "next game" ||
		root.GetChildren()[0].GetState().GetText() != lm.GetMoves()[0].GetResult().GetText() {
		t.Fatalf("Expand of %s: finished %v, children %v; want the one child next game to %s", st.GetText(), root.GetFinished(), root.GetChildren(), lm.GetMoves()[0].GetResult().GetText())
	}
	// Below it, the next game's opening rolls (30, a chance point).
	if kids := root.GetChildren()[0].GetChildren(); len(kids) != 30 || ex.GetNodeCount() != 32 {
		t.Errorf("below next game: %d children, %d nodes; want the 30 opening rolls, 32 nodes", len(kids), ex.GetNodeCount())
	}
	po, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: "backgammon", State: st, Games: 5, Seed: proto.Uint64(1), Policy: greedy})
	if err != nil {
		t.Fatal(err)
	}
	w := sc.GetWinner()
	if po.GetTotalPlies() != 0 || po.GetWinCounts()[w] != 5 || len(po.GetFirstMoves()) != 0 || po.Turn != nil {
		t.Errorf("Playout of a finished game in a match: %v; want 5 games of 0 plies won by %d, no first moves, no turn", po, w)
	}
}

// TestActionOutOfRange: an action id outside the action space says the
// range, on move.action (ApplyMove) and actions[i] (ReplayGame).
func TestActionOutOfRange(t *testing.T) {
	srv := New()
	ctx := context.Background()
	st := &gamerulesv1.GameState{Text: "RoooBooooooooooooooooo r"}
	for _, a := range []int32{128, -1, 1 << 30} {
		_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "gravity_trap", State: st, Move: &gamerulesv1.Move{Action: proto.Int32(a)}})
		if reason, field := statusDetail(t, err); reason != ReasonIllegalMove || field != "move.action" || !strings.Contains(err.Error(), "0..127 (actionSpaceSize 128") {
			t.Errorf("action %d: %v; want ILLEGAL_MOVE on move.action saying 0..127", a, err)
		}
		_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "gravity_trap", State: st, Actions: []int32{72, a}})
		if _, field := statusDetail(t, err); field != "actions[1]" || !strings.Contains(err.Error(), "0..127") {
			t.Errorf("replay of action %d: %v; want actions[1] saying 0..127", a, err)
		}
	}
	// In range but not legal here: the old message.
	_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "gravity_trap", State: st, Move: &gamerulesv1.Move{Action: proto.Int32(64)}})
	if !strings.Contains(err.Error(), "no legal move here") {
		t.Errorf("action 64 (to station 0, red's own): %v", err)
	}
	// Blue's one flight is to station 1: the count is singular.
	one := &gamerulesv1.GameState{Text: ".o.o...oooo..RB.ooo... b"}
	_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "gravity_trap", State: one, Move: &gamerulesv1.Move{Action: proto.Int32(0)}})
	if err == nil || !strings.Contains(err.Error(), "(the state has 1 legal move)") {
		t.Errorf("action 0 where one flight is legal: %v; want it to say 1 legal move", err)
	}
}
