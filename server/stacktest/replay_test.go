package stacktest

import (
	"context"
	"encoding/json"
	"github.com/gamerules/gamerules/server"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service"
)

// TestReplayOverBothTransports: a backgammon game played over gRPC one move
// at a time replays in one ReplayGame call to the same final state over gRPC
// and REST; the same record with one move tampered fails on both with the
// move's index and the state before it; the most moves a call takes pass
// the server's default element budget and receive limit on both ports, and
// one more is refused by the service.
func TestReplayOverBothTransports(t *testing.T) {
	a := startServerWith(t, func(*server.Options) {})
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC))
	ctx := context.Background()
	ng, err := client.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon"})
	if err != nil {
		t.Fatal(err)
	}
	st := ng.GetState()
	var moves, texts []string
	for ply := 0; ; ply++ {
		lm, err := client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
		if err != nil {
			t.Fatal(err)
		}
		if len(lm.GetMoves()) == 0 {
			break
		}
		mv := lm.GetMoves()[(ply*5)%len(lm.GetMoves())].GetNotation() // rolls named, as a record has them
		am, err := client.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: mv}})
		if err != nil {
			t.Fatal(err)
		}
		st = am.GetState()
		moves, texts = append(moves, mv), append(texts, st.GetText())
	}
	final := texts[len(texts)-1]

	rg, err := client.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: moves})
	if err != nil || rg.GetState().GetText() != final || !rg.GetFinished() {
		t.Fatalf("gRPC ReplayGame = %v, %v; want %s", rg.GetState().GetText(), err, final)
	}
	body, _ := json.Marshal(map[string]any{"moves": moves})
	var rest gamerulesv1.ReplayGameResponse
	restDecode(t, a.HTTP, "/v1/games/backgammon:replay", string(body), &rest)
	if rest.GetState().GetText() != final || !rest.GetFinished() {
		t.Fatalf("REST ReplayGame = %s; want %s", rest.GetState().GetText(), final)
	}

	k := 31
	if moves[k][0] == 'r' { // a roll: tamper with the play after it
		k++
	}
	bad := slices.Clone(moves)
	bad[k] = "bar/20"
	_, err = client.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: bad})
	var info *errdetails.ErrorInfo
	for _, d := range status.Convert(err).Details() {
		if i, ok := d.(*errdetails.ErrorInfo); ok {
			info = i
		}
	}
	if status.Code(err) != codes.InvalidArgument || info.GetReason() != "ILLEGAL_MOVE" || info.GetMetadata()["moveIndex"] != strconv.Itoa(k) ||
		info.GetMetadata()["stateBefore"] != texts[k-1] || info.GetMetadata()["field"] != "moves["+strconv.Itoa(k)+"]" {
		t.Errorf("gRPC tampered at %d: %v", k, err)
	}
	body, _ = json.Marshal(map[string]any{"moves": bad})
	code, out := post(t, a.HTTP, "/v1/games/backgammon:replay", string(body))
	md := restErrorInfo(out)
	if code != 400 || md["reason"] != "ILLEGAL_MOVE" || md["moveIndex"] != strconv.Itoa(k) || md["stateBefore"] != texts[k-1] {
		t.Errorf("REST tampered at %d: %d %v", k, code, out)
	}

	// The most moves a call takes: "roll" then "roll" again, which is
	// not legal at index 1 — the service, not the transport, answers.
	many := slices.Repeat([]string{"bar/22* 13/9(2)"}, service.MaxReplayMoves)
	many[0] = "roll"
	_, err = client.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: many})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "moves[1]") {
		t.Errorf("gRPC %d moves: %v", len(many), err)
	}
	body, _ = json.Marshal(map[string]any{"moves": many})
	if code, out := post(t, a.HTTP, "/v1/games/backgammon:replay", string(body)); code != 400 || restErrorInfo(out)["moveIndex"] != "1" {
		t.Errorf("REST %d moves (%d bytes): %d %v", len(many), len(body), code, out)
	}
	_, err = client.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: append(many, "roll")})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "at most") {
		t.Errorf("gRPC %d moves: %v", len(many)+1, err)
	}
}

// restErrorInfo flattens a REST error answer's ErrorInfo: its reason and
// metadata.
func restErrorInfo(out map[string]any) map[string]string {
	m := map[string]string{}
	details, _ := out["details"].([]any)
	for _, d := range details {
		d, _ := d.(map[string]any)
		if d["@type"] != "type.googleapis.com/google.rpc.ErrorInfo" {
			continue
		}
		m["reason"], _ = d["reason"].(string)
		md, _ := d["metadata"].(map[string]any)
		for k, v := range md {
			m[k], _ = v.(string)
		}
	}
	return m
}
