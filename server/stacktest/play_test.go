package stacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// TestPlayEveryGame plays a seeded random game of every registered game
// through the real server: moves are listed over REST (with their results)
// and applied over gRPC by notation, and the two must agree. States travel
// as text only, as a curl user would send them.
func TestPlayEveryGame(t *testing.T) {
	a := startServer(t)
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC))
	ctx := context.Background()
	list, err := client.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range list.GetGames() {
		id := info.GetId()
		t.Run(id, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 11))
			code, body := post(t, a.HTTP, "/v1/games/"+id+":new", `{"seed": "42"}`)
			if code != 200 {
				t.Fatalf("POST %s:new = %d %v", id, code, body)
			}
			text := body["state"].(map[string]any)["text"].(string)
			if body["seed"] != "42" {
				t.Errorf("NewGame seed echoed as %v; want \"42\"", body["seed"])
			}
			const maxPlies = 300
			ply := 0
			for ; ply < maxPlies; ply++ {
				// Results on every 4th ply keep the test quick under -race.
				withResults := ply%4 == 0
				var lm gamerulesv1.LegalMovesResponse
				restCall(t, a.HTTP, "/v1/games/"+id+":legalMoves", fmt.Sprintf(`{"state":{"text":%q},"includeResults":%v}`, text, withResults), &lm)
				if len(lm.GetMoves()) == 0 {
					break
				}
				m := lm.GetMoves()[r.IntN(len(lm.GetMoves()))]
				if withResults && (m.GetResult().GetText() == "" || !oneofSet(m.GetResult())) {
					t.Fatalf("ply %d: move %q has no result with text and typed state", ply, m.GetNotation())
				}
				if !withResults && m.GetResult() != nil {
					t.Fatalf("ply %d: move %q has a result though includeResults was false", ply, m.GetNotation())
				}
				resp, err := client.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{
					Game:  id,
					State: &gamerulesv1.GameState{Text: text},
					Move:  &gamerulesv1.Move{Notation: m.GetNotation()},
				})
				if err != nil {
					t.Fatalf("ply %d: ApplyMove(%q, %q): %v", ply, text, m.GetNotation(), err)
				}
				if got, want := resp.GetState().GetText(), m.GetResult().GetText(); withResults && got != want {
					t.Fatalf("ply %d: ApplyMove(%q, %q) = %q; LegalMoves said %q", ply, text, m.GetNotation(), got, want)
				}
				// The typed state alone must decode to the same state.
				typed := &gamerulesv1.GameState{State: resp.GetState().GetState()}
				if _, err := client.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: typed}); err != nil {
					t.Fatalf("ply %d: Score(typed form of %q): %v", ply, resp.GetState().GetText(), err)
				}
				text = resp.GetState().GetText()
			}
			sc, err := client.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: &gamerulesv1.GameState{Text: text}})
			if err != nil {
				t.Fatal(err)
			}
			if ply < maxPlies && !sc.GetFinished() {
				t.Errorf("no legal moves after %d plies but Score says not finished: %v", ply, sc)
			}
			if ply < maxPlies {
				_, err := client.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: &gamerulesv1.GameState{Text: text}, Move: &gamerulesv1.Move{Notation: "anything"}})
				wantReason(t, err, "GAME_OVER", "move.notation")
			}
			t.Logf("%s: %d plies, finished=%v winner=%v points=%v %s", id, ply, sc.GetFinished(), sc.Winner, sc.GetPoints(), sc.GetDetail())
		})
	}
}

// restCall posts body and decodes a 200 answer into out.
func restCall(t *testing.T, base, path, body string, out *gamerulesv1.LegalMovesResponse) {
	t.Helper()
	code, m := post(t, base, path, body)
	if code != 200 {
		t.Fatalf("POST %s %s = %d %v", path, body, code, m)
	}
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := protojson.Unmarshal(raw, out); err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
}

func oneofSet(st *gamerulesv1.GameState) bool {
	return st.GetBackgammon() != nil || st.GetAbalone() != nil || st.GetLabyrinth() != nil || st.GetGravityTrap() != nil
}
