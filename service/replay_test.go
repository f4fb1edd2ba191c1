package service

import (
	"bufio"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// abArchiveGame is one game of the MIGS archive: its tags and Aba-Pro moves.
type abArchiveGame struct {
	tags  map[string]string
	moves []string
}

// abArchive reads every game of testdata/abalone/migs-games.apgn.gz.
func abArchive(t *testing.T) []abArchiveGame {
	t.Helper()
	sc := bufio.NewScanner(abOpen(t, "migs-games.apgn.gz"))
	var games []abArchiveGame
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "[Event "):
			games = append(games, abArchiveGame{tags: map[string]string{}})
			fallthrough
		case strings.HasPrefix(line, "["):
			name, value, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			games[len(games)-1].tags[name] = strings.Trim(value, `"`)
		default:
			g := &games[len(games)-1]
			for _, tok := range strings.Fields(line) {
				if !strings.HasSuffix(tok, ".") && tok != "1-0" && tok != "0-1" && tok != "*" {
					g.moves = append(g.moves, tok)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

func abReplayRequest(layout string, moves []string) *gamerulesv1.ReplayGameRequest {
	return &gamerulesv1.ReplayGameRequest{Game: abGame, Moves: moves,
		Options: &gamerulesv1.ReplayGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: abLayouts[layout]}}}
}

// TestReplayAbaloneArchive: every one of the 1,941 archive games in one
// ReplayGame call each, the result agreeing with the record's; every 100th
// also move by move through ApplyMove, every intermediate state equal.
func TestReplayAbaloneArchive(t *testing.T) {
	srv := New()
	ctx := context.Background()
	games := abArchive(t)
	if len(games) != 1941 {
		t.Fatalf("%d archive games; want 1941", len(games))
	}
	plies := 0
	for i, g := range games {
		req := abReplayRequest(g.tags["Variant"], g.moves)
		req.IncludeStates = i%100 == 0
		resp, err := srv.ReplayGame(ctx, req)
		if err != nil {
			t.Fatalf("%s: ReplayGame = %v", g.tags["Event"], err)
		}
		plies += len(g.moves)
		want := "*"
		if resp.GetFinished() {
			want = []string{"1-0", "0-1"}[resp.GetWinner()]
		}
		if g.tags["Result"] != want || len(resp.GetMoves()) != len(g.moves) {
			t.Errorf("%s: %d moves, result %s; the record says %s", g.tags["Event"], len(resp.GetMoves()), want, g.tags["Result"])
		}
		if req.IncludeStates {
			if len(resp.GetStates()) != len(g.moves) {
				t.Fatalf("%s: %d states for %d moves", g.tags["Event"], len(resp.GetStates()), len(g.moves))
			}
			for n := range g.moves {
				if n%10 != 0 && n != len(g.moves)-1 {
					continue
				}
				st := abReplay(t, srv, g.tags["Event"], g.tags["Variant"], g.moves[:n+1], nil)
				if !proto.Equal(st, resp.GetStates()[n]) {
					t.Fatalf("%s ply %d: ReplayGame state %s; ApplyMove %s", g.tags["Event"], n, resp.GetStates()[n].GetText(), st.GetText())
				}
			}
		}
	}
	t.Logf("%d games, %d plies", len(games), plies)
}

// TestReplayAbaloneOracleGames: the 8 oracle games end in their recorded
// final positions with their marbles lost.
func TestReplayAbaloneOracleGames(t *testing.T) {
	var games []abReplayGame
	if err := json.NewDecoder(abOpen(t, "replay-tests.json")).Decode(&games); err != nil {
		t.Fatal(err)
	}
	srv := New()
	for _, g := range games {
		resp, err := srv.ReplayGame(context.Background(), abReplayRequest(g.Layout, g.AbaPro))
		if err != nil {
			t.Fatalf("%s: %v", g.Event, err)
		}
		typed := resp.GetState().GetAbalone()
		if abBoardOf(typed.GetBlack(), typed.GetWhite()) != abBoardOf(g.Final.Black, g.Final.White) ||
			strings.ToLower(typed.GetTurn().String()) != "abalone_player_"+g.Final.ToMove ||
			!slices.Equal(resp.GetPoints(), []int32{g.Lost.White, g.Lost.Black}) {
			t.Errorf("%s: final %v, points %v; want %v, %v", g.Event, typed, resp.GetPoints(), g.Final, g.Lost)
		}
	}
}

// bgPlayed plays a backgammon game of at most maxPlies through ApplyMove
// (rolls drawn from seeds, play number ply×pick modulo their count) and returns the moves in
// notation and the state after each.
func bgPlayed(t testing.TB, srv *Server, maxPlies, pick int) (moves []string, states []*gamerulesv1.GameState) {
	t.Helper()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: bgGame})
	if err != nil {
		t.Fatal(err)
	}
	st := ng.GetState()
	for ply := 0; ply < maxPlies; ply++ {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: st})
		if err != nil {
			t.Fatal(err)
		}
		if len(lm.GetMoves()) == 0 {
			break
		}
		mv := "roll"
		if !lm.GetChance() {
			mv = lm.GetMoves()[(ply*pick)%len(lm.GetMoves())].GetNotation()
		}
		seed := uint64(ply)
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: mv}, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, resp.GetMove().GetNotation())
		states = append(states, resp.GetState())
		st = resp.GetState()
	}
	return moves, states
}

// replayError returns the ErrorInfo of a ReplayGame error and its field
// violation's field.
func replayError(t *testing.T, err error) (*errdetails.ErrorInfo, string) {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.InvalidArgument {
		t.Fatalf("error %v: want InvalidArgument", err)
	}
	var info *errdetails.ErrorInfo
	field := ""
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			info = d
		case *errdetails.BadRequest:
			field = d.GetFieldViolations()[0].GetField()
		}
	}
	if info == nil {
		t.Fatalf("error %v has no ErrorInfo", err)
	}
	return info, field
}

// TestReplayBackgammon: a whole game replays to the states ApplyMove gave,
// one by one; a tampered move is found with its index and the state before
// it; a move after the end is GAME_OVER at its index.
func TestReplayBackgammon(t *testing.T) {
	srv := New()
	ctx := context.Background()
	moves, states := bgPlayed(t, srv, 5000, 7)
	if len(moves) < 40 {
		t.Fatalf("game of %d plies", len(moves))
	}
	resp, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: moves, IncludeStates: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(resp.GetMoves(), moves) || len(resp.GetStates()) != len(states) || resp.Seed != nil && resp.GetSeed() == 0 {
		t.Fatalf("moves %v; want %v", resp.GetMoves(), moves)
	}
	for i := range states {
		if !proto.Equal(resp.GetStates()[i], states[i]) {
			t.Fatalf("ply %d: %s; want %s", i, resp.GetStates()[i].GetText(), states[i].GetText())
		}
	}
	if !proto.Equal(resp.GetState(), states[len(states)-1]) || !resp.GetFinished() || resp.Winner == nil {
		t.Errorf("final %s finished %v; want %s, finished", resp.GetState().GetText(), resp.GetFinished(), states[len(states)-1].GetText())
	}

	// Tamper: a play that is not legal (a checker from the bar when none
	// is there, or the other side's point) at some play after the opening.
	for _, k := range []int{1, 17, len(moves) - 1} {
		if strings.HasPrefix(moves[k], "roll") {
			k--
		}
		bad := slices.Clone(moves)
		bad[k] = "24/13"
		_, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: bad})
		info, field := replayError(t, err)
		before := states[k-1].GetText()
		if info.GetReason() != ReasonIllegalMove || field != "moves["+strconv.Itoa(k)+"]" ||
			info.GetMetadata()["moveIndex"] != strconv.Itoa(k) || info.GetMetadata()["stateBefore"] != before {
			t.Errorf("tampered at %d: %v field %s; want ILLEGAL_MOVE at moves[%d] before %s", k, info, field, k, before)
		}
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: append(slices.Clone(moves), "roll")})
	if info, field := replayError(t, err); info.GetReason() != ReasonGameOver || field != "moves["+strconv.Itoa(len(moves))+"]" {
		t.Errorf("move after the end: %v %s", info, field)
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: []string{"roll 3-1", ""}})
	if info, field := replayError(t, err); info.GetReason() != ReasonIllegalMove || field != "moves[1]" {
		t.Errorf("empty move: %v %s", info, field)
	}

	// From a given state, with drawn rolls: the seed makes them
	// reproducible and is echoed.
	seed := uint64(42)
	req := &gamerulesv1.ReplayGameRequest{Game: bgGame, State: states[1], Moves: []string{"roll"}, Seed: &seed}
	a, err := srv.ReplayGame(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := srv.ReplayGame(ctx, req)
	if a.GetSeed() != 42 || a.Seed == nil || !strings.HasPrefix(a.GetMoves()[0], "roll ") || a.GetMoves()[0] != b.GetMoves()[0] || !proto.Equal(a.GetStart(), states[1]) {
		t.Errorf("drawn roll: %v / %v", a, b)
	}
}

// TestReplayLimits: the move limits, options beside a state, an
// unknown game, a cancelled call.
func TestReplayLimits(t *testing.T) {
	srv := New()
	ctx := context.Background()
	many := slices.Repeat([]string{"roll"}, MaxReplayMoves+1)
	_, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: many})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "moves" {
		t.Errorf("too many moves: %v %s", info, field)
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: many[:MaxReplayStates+1], IncludeStates: true})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "moves" {
		t.Errorf("too many states: %v %s", info, field)
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: abGame, State: textState("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"),
		Options: &gamerulesv1.ReplayGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{}}})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidOptions || field != "options" {
		t.Errorf("state and options: %v %s", info, field)
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: abGame, Options: &gamerulesv1.ReplayGameRequest_Backgammon{}})
	if info, _ := replayError(t, err); info.GetReason() != ReasonInvalidOptions {
		t.Errorf("options of another game: %v", info)
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "chess"})
	if info, _ := replayError(t, err); info.GetReason() != ReasonUnknownGame {
		t.Errorf("unknown game: %v", info)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := srv.ReplayGame(cctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: []string{"roll"}}); status.Code(err) != codes.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	// The states' bytes are bounded (here lowered to 10 backgammon states).
	moves, _ := bgPlayed(t, srv, 40, 7)
	defer func(n int) { replayStateBytes = n }(replayStateBytes)
	replayStateBytes = 10 * proto.Size(mustNew(t, srv, bgGame))
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: moves, IncludeStates: true})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "include_states" {
		t.Errorf("states over the bound: %v %s", info, field)
	}
	replayStateBytes = MaxReplayStateBytes
	// A seeded new game of Labyrinth starts where NewGame starts it.
	seed := uint64(5)
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "labyrinth", Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	r, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "labyrinth", Seed: &seed})
	if err != nil || !proto.Equal(r.GetStart(), ng.GetState()) || !proto.Equal(r.GetState(), ng.GetState()) || r.GetSeed() != 5 {
		t.Errorf("labyrinth from seed 5: %v, %v", r, err)
	}
}
