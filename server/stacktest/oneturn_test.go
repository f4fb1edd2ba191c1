package stacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// TestOneCallPerTurn plays a whole game of every game over REST as a client
// would with include_legal_moves: one LegalMoves call for the starting
// state, then exactly one ApplyMove call per move (backgammon rolls are
// moves too) until the game is over, reading the outcome and the next legal
// moves from the ApplyMove answer alone. Every answer is checked against
// Score and LegalMoves over gRPC (not counted as client calls). Abalone gets
// a ply limit, and Labyrinth (open cards, no return) ships take a card when
// they can reach one, so that every game ends soon.
func TestOneCallPerTurn(t *testing.T) {
	a := startServer(t)
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC))
	ctx := context.Background()
	newGame := map[string]string{
		"backgammon":   `{"seed":"3"}`,
		"abalone":      `{"abalone":{"maxPlies":120}}`,
		"labyrinth":    `{"seed":"5","labyrinth":{"players":2,"openCards":true,"noReturn":true}}`,
		"gravity_trap": `{}`,
	}
	for _, id := range []string{"abalone", "backgammon", "gravity_trap", "labyrinth"} {
		t.Run(id, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var ng gamerulesv1.NewGameResponse
			restDecode(t, a.HTTP, "/v1/games/"+id+":new", newGame[id], &ng)
			state := ng.GetState()
			var lm gamerulesv1.LegalMovesResponse
			restDecode(t, a.HTTP, "/v1/games/"+id+":legalMoves", fmt.Sprintf(`{"state":{"text":%q}}`, state.GetText()), &lm)
			moves := lm.GetMoves()
			calls, plies := 2, 0
			const maxPlies = 5000
			for ; plies < maxPlies && len(moves) > 0; plies++ {
				m := pickMove(r, state, moves)
				// Labyrinth: after a shift, ask for the figure moves' results
				// (to see which finds a card).
				withResults := state.GetLabyrinth().GetPhase() == gamerulesv1.LabyrinthPhase_LABYRINTH_PHASE_SHIFT
				stateJSON, err := protojson.Marshal(state)
				if err != nil {
					t.Fatal(err)
				}
				body := fmt.Sprintf(`{"state":%s,"move":{"notation":%q},"seed":"%d","includeLegalMoves":true,"includeResults":%v}`,
					stateJSON, m.GetNotation(), plies, withResults)
				var resp gamerulesv1.ApplyMoveResponse
				restDecode(t, a.HTTP, "/v1/games/"+id+":applyMove", body, &resp)
				calls++
				checkAgainstGRPC(t, ctx, client, id, plies, &resp)
				if withResults {
					for _, lm := range resp.GetNext().GetMoves() {
						if lm.GetResult().GetText() == "" {
							t.Fatalf("ply %d: includeResults set but move %q has no result", plies, lm.GetNotation())
						}
					}
				}
				state, moves = resp.GetState(), resp.GetNext().GetMoves()
				if resp.GetFinished() != (len(moves) == 0) {
					t.Fatalf("ply %d: finished=%v with %d legal moves", plies, resp.GetFinished(), len(moves))
				}
				if resp.GetFinished() {
					plies++
					t.Logf("%s: finished after %d plies in %d REST calls: winner=%d (set: %v) points=%v %q",
						id, plies, calls, resp.GetWinner(), resp.Winner != nil, resp.GetPoints(), resp.GetDetail())
					break
				}
			}
			if len(moves) != 0 {
				t.Fatalf("not finished after %d plies", plies)
			}
			if calls != plies+2 {
				t.Errorf("%d REST calls for %d plies; want plies + 2 (NewGame, one LegalMoves)", calls, plies)
			}
		})
	}
}

// pickMove picks a random move, except that a Labyrinth figure move that
// finds a card is taken when there is one.
func pickMove(r *rand.Rand, st *gamerulesv1.GameState, moves []*gamerulesv1.Move) *gamerulesv1.Move {
	if lab := st.GetLabyrinth(); lab != nil && lab.GetPhase() == gamerulesv1.LabyrinthPhase_LABYRINTH_PHASE_MOVE {
		turn := lab.GetTurn()
		found := len(lab.GetPlayers()[turn].GetFound())
		for _, m := range moves {
			if res := m.GetResult().GetLabyrinth(); res != nil && len(res.GetPlayers()[turn].GetFound()) > found {
				return m
			}
		}
	}
	return moves[r.IntN(len(moves))]
}

// checkAgainstGRPC checks that an ApplyMove answer's outcome is Score's and
// its legal moves are LegalMoves' for the state it returns.
func checkAgainstGRPC(t *testing.T, ctx context.Context, client gamerulesv1grpc.GameRulesClient, id string, ply int, resp *gamerulesv1.ApplyMoveResponse) {
	t.Helper()
	st := &gamerulesv1.GameState{Text: resp.GetState().GetText(), State: resp.GetState().GetState()}
	sc, err := client.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: st})
	if err != nil {
		t.Fatalf("ply %d: Score: %v", ply, err)
	}
	got := &gamerulesv1.ScoreResponse{Finished: resp.GetFinished(), Winner: resp.Winner, Points: resp.GetPoints(), Detail: resp.GetDetail()}
	if !proto.Equal(got, sc) {
		t.Fatalf("ply %d: ApplyMove outcome %v; Score says %v", ply, got, sc)
	}
	if len(sc.GetPoints()) == 0 {
		t.Fatalf("ply %d: no points", ply)
	}
	lm, err := client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st})
	if err != nil {
		t.Fatalf("ply %d: LegalMoves: %v", ply, err)
	}
	notations := func(ms []*gamerulesv1.Move) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.GetNotation())
		}
		return out
	}
	if g, w := notations(resp.GetNext().GetMoves()), notations(lm.GetMoves()); !slices.Equal(g, w) || resp.GetNext().GetChance() != lm.GetChance() {
		t.Fatalf("ply %d: ApplyMove listed %v (chance %v); LegalMoves %v (chance %v)", ply, g, resp.GetNext().GetChance(), w, lm.GetChance())
	}
}

// restDecode posts body and decodes a 200 answer into out.
func restDecode(t *testing.T, base, path, body string, out proto.Message) {
	t.Helper()
	code, m := post(t, base, path, body)
	if code != 200 {
		t.Fatalf("POST %s %.300s = %d %v", path, body, code, m)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := protojson.Unmarshal(raw, out); err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
}
