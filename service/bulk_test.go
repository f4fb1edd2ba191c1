package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// sampleStates plays seeded random games of every game through the
// service (NewGame, LegalMoves, ApplyMove) and returns every k-th state
// reached, the starts and some finished states included.
func sampleStates(t testing.TB, srv *Server, perGame, k int) map[string][]*gamerulesv1.GameState {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(21, 21))
	out := map[string][]*gamerulesv1.GameState{}
	for _, g := range srv.Games() {
		for len(out[g]) < perGame {
			seed := r.Uint64()
			ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: g, Seed: &seed})
			if err != nil {
				t.Fatal(err)
			}
			st := ng.GetState()
			for ply := 0; ply < 400 && len(out[g]) < perGame; ply++ {
				if ply%k == 0 {
					out[g] = append(out[g], st)
				}
				lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
				if err != nil {
					t.Fatal(err)
				}
				if len(lm.GetMoves()) == 0 {
					out[g] = append(out[g], st)
					break
				}
				mv := lm.GetMoves()[r.IntN(len(lm.GetMoves()))]
				am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Notation: mv.GetNotation()}})
				if err != nil {
					t.Fatal(err)
				}
				st = am.GetState()
			}
		}
	}
	return out
}

// TestBatchEqualsSingleCalls: every item of a mixed batch (every game,
// every kind of call, good and bad items) is answered exactly as its
// single call, answer or error, in order; on one core and on several.
func TestBatchEqualsSingleCalls(t *testing.T) {
	srv := New()
	ctx := context.Background()
	var items []*gamerulesv1.BatchRequestItem
	var singles []func() (proto.Message, error)
	add := func(it *gamerulesv1.BatchRequestItem, single func() (proto.Message, error)) {
		items = append(items, it)
		singles = append(singles, single)
	}
	seed := uint64(5)
	for g, states := range sampleStates(t, srv, 12, 7) {
		ng := &gamerulesv1.NewGameRequest{Game: g, Seed: &seed}
		add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_NewGame{NewGame: ng}},
			func() (proto.Message, error) { return srv.NewGame(ctx, ng) })
		for i, st := range states {
			lm := &gamerulesv1.LegalMovesRequest{Game: g, State: st, IncludeResults: i%2 == 0}
			add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: lm}},
				func() (proto.Message, error) { return srv.LegalMoves(ctx, lm) })
			sc := &gamerulesv1.ScoreRequest{Game: g, State: st}
			add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_Score{Score: sc}},
				func() (proto.Message, error) { return srv.Score(ctx, sc) })
			ob := &gamerulesv1.ObserveStateRequest{Game: g, State: st, Player: proto.Int32(0)}
			add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_ObserveState{ObserveState: ob}},
				func() (proto.Message, error) { return srv.ObserveState(ctx, ob) })
			// An applied move (the first listed; "nonsense" when none: an
			// error item) with the legal moves after it.
			moves, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
			mv := "nonsense"
			if len(moves.GetMoves()) > 0 {
				mv = moves.GetMoves()[0].GetNotation()
			}
			am := &gamerulesv1.ApplyMoveRequest{Game: g, State: st, Move: &gamerulesv1.Move{Notation: mv}, Seed: &seed, IncludeLegalMoves: true}
			add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_ApplyMove{ApplyMove: am}},
				func() (proto.Message, error) { return srv.ApplyMove(ctx, am) })
		}
		bad := &gamerulesv1.LegalMovesRequest{Game: g, State: &gamerulesv1.GameState{Text: "no such state"}}
		add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: bad}},
			func() (proto.Message, error) { return srv.LegalMoves(ctx, bad) })
	}
	unknown := &gamerulesv1.ScoreRequest{Game: "chess", State: &gamerulesv1.GameState{Text: "x"}}
	add(&gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_Score{Score: unknown}},
		func() (proto.Message, error) { return srv.Score(ctx, unknown) })
	if len(items) < 200 {
		t.Fatalf("only %d items", len(items))
	}
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		resp, err := srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: items})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.GetResponses()) != len(items) {
			t.Fatalf("%d answers to %d items", len(resp.GetResponses()), len(items))
		}
		errs := 0
		for i, got := range resp.GetResponses() {
			want, werr := singles[i]()
			if werr != nil {
				errs++
				if !proto.Equal(got.GetError(), status.Convert(werr).Proto()) {
					t.Errorf("GOMAXPROCS %d, item %d: %v; want the single call's error %v", procs, i, got, werr)
				}
				continue
			}
			var a proto.Message
			switch r := got.GetResponse().(type) {
			case *gamerulesv1.BatchResponseItem_NewGame:
				a = r.NewGame
			case *gamerulesv1.BatchResponseItem_LegalMoves:
				a = r.LegalMoves
			case *gamerulesv1.BatchResponseItem_ApplyMove:
				a = r.ApplyMove
			case *gamerulesv1.BatchResponseItem_Score:
				a = r.Score
			case *gamerulesv1.BatchResponseItem_ObserveState:
				a = r.ObserveState
			}
			if a == nil || !proto.Equal(a, want) {
				t.Errorf("GOMAXPROCS %d, item %d: %v; want %v", procs, i, got, want)
			}
		}
		if errs < 5 {
			t.Errorf("only %d error items: the test checks too few", errs)
		}
	}
}

// TestBatchLimits: more than MaxBatchItems items is refused whole; an
// empty item fails itself (INVALID_REQUEST on requests[i]); a call past
// its deadline fails whole.
func TestBatchLimits(t *testing.T) {
	srv := New()
	sc := &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_Score{Score: &gamerulesv1.ScoreRequest{Game: "gravity_trap", State: &gamerulesv1.GameState{Text: "RoooBooooooooooooooooo r"}}}}
	many := make([]*gamerulesv1.BatchRequestItem, MaxBatchItems+1)
	for i := range many {
		many[i] = sc
	}
	_, err := srv.Batch(context.Background(), &gamerulesv1.BatchRequest{Requests: many})
	if reason, field := statusDetail(t, err); reason != ReasonInvalidRequest || field != "requests" {
		t.Errorf("%d items: %v; want INVALID_REQUEST on requests", len(many), err)
	}
	resp, err := srv.Batch(context.Background(), &gamerulesv1.BatchRequest{Requests: many[:MaxBatchItems]})
	if err != nil || len(resp.GetResponses()) != MaxBatchItems || resp.GetResponses()[MaxBatchItems-1].GetScore() == nil {
		t.Errorf("%d items: %v", MaxBatchItems, err)
	}
	resp, err = srv.Batch(context.Background(), &gamerulesv1.BatchRequest{Requests: []*gamerulesv1.BatchRequestItem{sc, {}}})
	if err != nil {
		t.Fatal(err)
	}
	e := resp.GetResponses()[1].GetError()
	if e == nil || codes.Code(e.GetCode()) != codes.InvalidArgument {
		t.Fatalf("empty item: %v", resp)
	}
	if reason, field := statusDetail(t, status.FromProto(e).Err()); reason != ReasonInvalidRequest || field != "requests[1]" {
		t.Errorf("empty item: %s on %s; want INVALID_REQUEST on requests[1]", reason, field)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: many[:100]}); status.Code(err) != codes.Canceled {
		t.Errorf("cancelled call: %v; want CANCELED", err)
	}
}

// statusDetail returns err's ErrorInfo reason and field.
func statusDetail(t testing.TB, err error) (reason, field string) {
	t.Helper()
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return ei.GetReason(), ei.GetMetadata()["field"]
		}
	}
	return "", ""
}

// TestExpandEqualsLegalMoves: every node of Expand's tree (depth 2 from
// sampled states of every game, and depth 3 from a backgammon roll) has
// as children its state's LegalMoves with results, and its outcome is
// Score's.
func TestExpandEqualsLegalMoves(t *testing.T) {
	srv := New()
	ctx := context.Background()
	var check func(g string, n *gamerulesv1.ExpandNode, depth int, typed bool) int
	check = func(g string, n *gamerulesv1.ExpandNode, depth int, typed bool) int {
		st := n.GetState()
		sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: g, State: st})
		if err != nil {
			t.Fatal(err)
		}
		if n.GetFinished() != sc.GetFinished() || n.Winner == nil != (sc.Winner == nil) || n.GetWinner() != sc.GetWinner() || fmt.Sprint(n.GetPoints()) != fmt.Sprint(sc.GetPoints()) {
			t.Errorf("%s %s: outcome %v %v %v; Score says %v", g, st.GetText(), n.GetFinished(), n.GetWinner(), n.GetPoints(), sc)
		}
		if depth == 0 {
			if len(n.GetChildren()) != 0 {
				t.Errorf("%s %s: children below the depth", g, st.GetText())
			}
			return 1
		}
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st, IncludeResults: true, ReadMask: nil})
		if err != nil {
			t.Fatal(err)
		}
		if len(lm.GetMoves()) != len(n.GetChildren()) || lm.GetChance() != n.GetChance() {
			t.Fatalf("%s %s: %d children (chance %v); LegalMoves lists %d (chance %v)", g, st.GetText(), len(n.GetChildren()), n.GetChance(), len(lm.GetMoves()), lm.GetChance())
		}
		count := 1
		for i, m := range lm.GetMoves() {
			c := n.GetChildren()[i]
			want := proto.Clone(m).(*gamerulesv1.Move)
			want.Result = nil
			wantState := m.GetResult()
			if !typed {
				want = &gamerulesv1.Move{Notation: m.GetNotation(), Probability: m.Probability, Action: m.Action}
				wantState = &gamerulesv1.GameState{Text: m.GetResult().GetText()}
			}
			if !proto.Equal(c.GetMove(), want) || !proto.Equal(c.GetState(), wantState) {
				t.Errorf("%s %s: child %d is %v %v; LegalMoves lists %v", g, st.GetText(), i, c.GetMove(), c.GetState(), m)
			}
			// A text state of a custom board cannot be decoded alone; the
			// sampled states are all on built-in boards.
			count += check(g, c, depth-1, typed)
		}
		return count
	}
	nodes := 0
	for g, states := range sampleStates(t, srv, 6, 11) {
		for i, st := range states {
			typed := i%2 == 1
			resp, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: g, State: st, Depth: 2, IncludeTyped: typed})
			if err != nil {
				if reason, _ := statusDetail(t, err); reason == ReasonInvalidRequest {
					continue // a tree over the budget (Labyrinth's are large)
				}
				t.Fatal(err)
			}
			if got := check(g, resp.GetRoot(), 2, typed); got != int(resp.GetNodeCount()) {
				t.Errorf("%s %s: node_count %d; the tree has %d", g, st.GetText(), resp.GetNodeCount(), got)
			}
			nodes += int(resp.GetNodeCount())
		}
	}
	if nodes < 1000 {
		t.Errorf("only %d nodes checked", nodes)
	}
	// A backgammon roll phase: depth 2 is every roll and every play of it.
	roll := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}
	resp, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: "backgammon", State: roll, Depth: 3, IncludeTyped: true})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.GetRoot().GetChance() || resp.GetRoot().Chance == nil || len(resp.GetRoot().GetChildren()) != 21 || resp.GetRoot().GetState().GetBackgammon() == nil {
		t.Fatalf("backgammon roll: %d children, chance %v", len(resp.GetRoot().GetChildren()), resp.GetRoot().GetChance())
	}
	sum := 0.0
	for _, c := range resp.GetRoot().GetChildren() {
		sum += c.GetMove().GetProbability()
	}
	if sum < 0.999999 || sum > 1.000001 {
		t.Errorf("the rolls' probabilities sum to %v", sum)
	}
	need := resp.GetNodeCount()
	_, err = srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: "backgammon", State: roll, Depth: 3, MaxNodes: 100})
	var meta map[string]string
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			meta = ei.GetMetadata()
		}
	}
	if meta["field"] != "depth" || meta["nodes"] != fmt.Sprint(need) {
		t.Errorf("over the budget: %v (metadata %v); want INVALID_REQUEST on depth with nodes=%d", err, meta, need)
	}
	for _, d := range []int32{0, -1, MaxExpandDepth + 1} {
		if _, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: "backgammon", State: roll, Depth: d}); !strings.Contains(fmt.Sprint(err), "depth") || status.Code(err) != codes.InvalidArgument {
			t.Errorf("depth %d: %v", d, err)
		}
	}
}

// TestPlayoutDeterministic: the same request gets the same answer, on one
// core and on several; the counts add up; each recorded game replays
// (ReplayGame) to the winner the answer gives it, and the plies add up to
// total_plies; the first moves are dealt round robin.
func TestPlayoutDeterministic(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for g, states := range sampleStates(t, srv, 3, 9) {
		for _, st := range states {
			req := &gamerulesv1.PlayoutRequest{Game: g, State: st, Games: 60, Seed: proto.Uint64(7), MaxPlies: 3000, IncludeMoves: true}
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
				t.Fatalf("%s %s: answers differ between 1 and 3 cores", g, st.GetText())
			}
			sum := a.GetDrawCount() + a.GetUnfinishedCount()
			for _, w := range a.GetWinCounts() {
				sum += w
			}
			if sum != 60 || a.GetGameCount() != 60 || len(a.GetPlayed().GetGames()) != 60 {
				t.Errorf("%s: wins %v draws %d unfinished %d: %d games; want 60", g, a.GetWinCounts(), a.GetDrawCount(), a.GetUnfinishedCount(), sum)
			}
			plies := 0
			for i, pg := range a.GetPlayed().GetGames() {
				plies += len(pg.GetMoves())
				if i%7 != 0 {
					continue
				}
				rp, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: g, State: st, Moves: pg.GetMoves()})
				if err != nil {
					t.Fatalf("%s game %d: %v", g, i, err)
				}
				if rp.GetFinished() != pg.GetFinished() || (pg.Winner != nil && rp.GetWinner() != pg.GetWinner()) {
					t.Errorf("%s game %d: replay ends finished %v winner %v; the playout says %v %v", g, i, rp.GetFinished(), rp.GetWinner(), pg.GetFinished(), pg.GetWinner())
				}
			}
			if int64(plies) != a.GetTotalPlies() {
				t.Errorf("%s: total_plies %d; the games have %d", g, a.GetTotalPlies(), plies)
			}
			lm, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
			plays := int32(0)
			for i, fm := range a.GetFirstMoves() {
				plays += fm.GetPlayCount()
				if fm.GetNotation() != lm.GetMoves()[i].GetNotation() {
					t.Errorf("%s: first move %d is %s; LegalMoves lists %s", g, i, fm.GetNotation(), lm.GetMoves()[i].GetNotation())
				}
				if n := int32(len(lm.GetMoves())); !lm.GetChance() && fm.GetPlayCount() != 60/n+b2i(int32(i) < 60%n) {
					t.Errorf("%s: first move %d has %d plays; round robin deals %d", g, i, fm.GetPlayCount(), 60/n+b2i(int32(i) < 60%n))
				}
			}
			if (a.Turn != nil) != (len(lm.GetMoves()) > 0 && !lm.GetChance()) {
				t.Errorf("%s %s: turn %v with %d moves (chance %v); want it exactly at a decision", g, st.GetText(), a.Turn, len(lm.GetMoves()), lm.GetChance())
			}
			if len(lm.GetMoves()) > 0 && plays != 60 {
				t.Errorf("%s: the first moves have %d plays; want 60", g, plays)
			}
			other, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: g, State: st, Games: 60, Seed: proto.Uint64(8), MaxPlies: 3000})
			if err != nil {
				t.Fatal(err)
			}
			if len(lm.GetMoves()) > 1 && other.GetTotalPlies() == a.GetTotalPlies() && fmt.Sprint(other.GetWinCounts()) == fmt.Sprint(a.GetWinCounts()) && g != "labyrinth" {
				t.Errorf("%s %s: seeds 7 and 8 played the same games", g, st.GetText())
			}
		}
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// TestPlayoutLimits: the games, plies and recorded games limits and the
// policy are checked before any game is played (the budget of the plies
// played: TestPlayoutPlyBudget).
func TestPlayoutLimits(t *testing.T) {
	srv := New()
	st := &gamerulesv1.GameState{Text: "RoooBooooooooooooooooo r"}
	for _, c := range []struct {
		req   *gamerulesv1.PlayoutRequest
		field string
	}{
		{&gamerulesv1.PlayoutRequest{Games: 0}, "games"},
		{&gamerulesv1.PlayoutRequest{Games: MaxPlayoutGames + 1}, "games"},
		{&gamerulesv1.PlayoutRequest{Games: 1, MaxPlies: -1}, "max_plies"},
		{&gamerulesv1.PlayoutRequest{Games: 1, Policy: gamerulesv1.PlayoutPolicy(7).Enum()}, "policy"},
		{&gamerulesv1.PlayoutRequest{Games: 1, MaxPlies: MaxPlayoutGamePlies + 1}, "max_plies"},
		{&gamerulesv1.PlayoutRequest{Games: MaxPlayoutRecorded + 1, IncludeMoves: true}, "include_moves"},
	} {
		c.req.Game, c.req.State = "gravity_trap", st
		_, err := srv.Playout(context.Background(), c.req)
		if reason, field := statusDetail(t, err); reason != ReasonInvalidRequest || field != c.field {
			t.Errorf("%v: %v; want INVALID_REQUEST on %s", c.req, err, c.field)
		}
	}
	resp, err := srv.Playout(context.Background(), &gamerulesv1.PlayoutRequest{Game: "gravity_trap", State: st, Games: MaxPlayoutGames, Seed: proto.Uint64(1)})
	if err != nil || resp.GetGameCount() != MaxPlayoutGames || resp.GetUnfinishedCount() != 0 {
		t.Errorf("%d games: %v %v", MaxPlayoutGames, resp.GetUnfinishedCount(), err)
	}
}

// TestBulkAnswerBounds: a Batch or an Expand whose answer would pass 4 MiB
// of protobuf is refused as INVALID_REQUEST (not retryable), a Playout of
// a two-player Labyrinth counts two players, and a replay by actions
// names the action that failed.
func TestBulkAnswerBounds(t *testing.T) {
	srv := New()
	ctx := context.Background()
	seed := uint64(5)
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "labyrinth", Seed: &seed, Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthOptions{Players: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	lm := &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "labyrinth", State: ng.GetState(), IncludeResults: true}}}
	one, err := srv.LegalMoves(ctx, lm.GetLegalMoves())
	if err != nil {
		t.Fatal(err)
	}
	n := MaxBatchAnswerBytes/proto.Size(one) + 2 // just over the bound
	items := make([]*gamerulesv1.BatchRequestItem, n)
	for i := range items {
		items[i] = lm
	}
	_, err = srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: items})
	if reason, field := statusDetail(t, err); status.Code(err) != codes.InvalidArgument || reason != ReasonInvalidRequest || field != "requests" {
		t.Errorf("a batch of %d Labyrinth LegalMoves with results (%d bytes each): %v; want INVALID_REQUEST on requests", n, proto.Size(one), err)
	}
	if _, err := srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: items[:n-4]}); err != nil {
		t.Errorf("a batch of %d just under the bound: %v", n-4, err)
	}
	// Depth 3 with typed states is 5,041 nodes, 2.3 MB: over a bound of 1 MiB.
	expandAnswerLimit = 1 << 20
	_, err = srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: "labyrinth", State: ng.GetState(), Depth: 3, IncludeTyped: true})
	expandAnswerLimit = MaxExpandAnswerBytes
	if reason, field := statusDetail(t, err); reason != ReasonInvalidRequest || field != "depth" || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("Labyrinth Expand depth 3 with typed states over a 1 MiB bound: %v; want INVALID_REQUEST on depth, saying its size", err)
	}
	po, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: "labyrinth", State: ng.GetState(), Games: 4, Seed: &seed, MaxPlies: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(po.GetWinCounts()) != 2 {
		t.Errorf("Playout of a two-player Labyrinth: winCounts %v; want 2 players", po.GetWinCounts())
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "gravity_trap", State: &gamerulesv1.GameState{Text: "RoooBooooooooooooooooo r"}, Actions: []int32{72, -1}})
	if _, field := statusDetail(t, err); field != "actions[1]" {
		t.Errorf("replay by actions with a bad second: %v (field %q); want the field actions[1]", err, field)
	}
}

// TestExpandAnswerLimitExact: the answer limit holds to the byte whether
// the answer's size is measured or bounded (a backgammon tree without
// typed parts is only measured when its bound passes the limit): with the
// limit one byte under an answer's size the tree is refused, at its size
// it is answered.
func TestExpandAnswerLimitExact(t *testing.T) {
	srv := New()
	ctx := context.Background()
	defer func() { expandAnswerLimit = MaxExpandAnswerBytes }()
	checked := 0
	for g, states := range sampleStates(t, srv, 4, 13) {
		for i, st := range states {
			for depth := int32(1); depth <= 2; depth++ {
				req := &gamerulesv1.ExpandRequest{Game: g, State: st, Depth: depth, IncludeTyped: i%3 == 2}
				expandAnswerLimit = MaxExpandAnswerBytes
				resp, err := srv.Expand(ctx, req)
				if err != nil {
					continue // over the node budget
				}
				size := resp.SizeVT()
				expandAnswerLimit = size - 1
				if _, err := srv.Expand(ctx, req); !strings.Contains(fmt.Sprint(err), fmt.Sprintf("is %d bytes", size)) {
					t.Errorf("%s %s depth %d: a limit 1 byte under its %d bytes: %v; want it refused", g, st.GetText(), depth, size, err)
				}
				expandAnswerLimit = size
				if _, err := srv.Expand(ctx, req); err != nil {
					t.Errorf("%s %s depth %d: a limit of its %d bytes: %v", g, st.GetText(), depth, size, err)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d answers checked", checked)
	}
}
