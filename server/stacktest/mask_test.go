package stacktest

import (
	"context"
	"github.com/gamerules/gamerules/server"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/rest/fastjson"
)

// TestRESTReadMask: LegalMoves' read_mask end to end, on both REST
// gateways: the JSON string form ("readMask": "a,b") is read, the answer
// holds only the parts asked for (the same as the gRPC answer with the
// same mask, and the same notations and texts as the unmasked answer), and
// an unknown path is HTTP 400 with reason INVALID_REQUEST on read_mask.
// The answer type holds no well-known type, so it is still written by
// rest/fastjson (only the request, which is decoded, holds the
// FieldMask).
func TestRESTReadMask(t *testing.T) {
	if !fastjson.Supported((&gamerulesv1.LegalMovesResponse{}).ProtoReflect().Descriptor()) {
		t.Fatal("LegalMovesResponse is not written by fastjson")
	}
	const body = `{"state":{"text":"4HPwATDgc/ABMA:MIEFAAAAAAAE"},"includeResults":true`
	for _, gw := range []string{server.GatewayInProcess, server.GatewayLoopback} {
		t.Run(gw, func(t *testing.T) {
			a := startServerWith(t, func(c *server.Options) { c.MaxRecvBytes = 1 << 20; c.RESTGateway = gw })
			code, full := post(t, a.HTTP, "/v1/games/backgammon:legalMoves", body+`}`)
			if code != 200 {
				t.Fatalf("unmasked: HTTP %d %v", code, full)
			}
			code, got := post(t, a.HTTP, "/v1/games/backgammon:legalMoves", body+`,"readMask":"moves.notation,moves.result.text"}`)
			if code != 200 {
				t.Fatalf("masked: HTTP %d %v", code, got)
			}
			fm, gm := full["moves"].([]any), got["moves"].([]any)
			if len(fm) != 16 || len(gm) != 16 || got["chance"] != false {
				t.Fatalf("masked: %d moves (unmasked %d), chance %v; want 16, false", len(gm), len(fm), got["chance"])
			}
			for i := range gm {
				m, f := gm[i].(map[string]any), fm[i].(map[string]any)
				res, _ := m["result"].(map[string]any)
				fres := f["result"].(map[string]any)
				if len(m) != 2 || m["notation"] != f["notation"] || len(res) != 1 || res["text"] != fres["text"] || res["text"] == "" {
					t.Fatalf("move %d: %v; want notation %v and result text %v only", i, m, f["notation"], fres["text"])
				}
			}

			// The gRPC answer with the same mask is the same.
			cc := dial(t, a.GRPC)
			lm, err := gamerulesv1grpc.NewGameRulesClient(cc).LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{
				Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}, IncludeResults: true,
				ReadMask: &fieldmaskpb.FieldMask{Paths: []string{"moves.notation", "moves.result.text"}}})
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range lm.GetMoves() {
				r := gm[i].(map[string]any)
				if m.GetNotation() != r["notation"] || m.GetResult().GetText() != r["result"].(map[string]any)["text"] || m.GetMove() != nil || m.GetResult().GetState() != nil {
					t.Fatalf("gRPC move %d: %v; REST %v", i, m, r)
				}
			}

			code, bad := post(t, a.HTTP, "/v1/games/backgammon:legalMoves", body+`,"readMask":"moves.notation,moves.typed"}`)
			msg, _ := bad["message"].(string)
			if code != 400 || !strings.Contains(msg, `"moves.typed"`) || !strings.Contains(msg, `"moves.result.text"`) {
				t.Fatalf("unknown path: HTTP %d %v", code, bad)
			}
			if !hasReason(bad, "INVALID_REQUEST", "read_mask") {
				t.Fatalf("unknown path: details %v; want ErrorInfo INVALID_REQUEST and a read_mask violation", bad["details"])
			}
		})
	}
}

// hasReason reports whether a REST error body (a google.rpc.Status) has an
// ErrorInfo with reason and a BadRequest field violation on field.
func hasReason(body map[string]any, reason, field string) bool {
	details, _ := body["details"].([]any)
	info, viol := false, false
	for _, d := range details {
		m, _ := d.(map[string]any)
		if m["reason"] == reason {
			info = true
		}
		if vs, ok := m["fieldViolations"].([]any); ok {
			for _, v := range vs {
				if v.(map[string]any)["field"] == field {
					viol = true
				}
			}
		}
	}
	return info && viol
}
