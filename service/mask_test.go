package service

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// maskAllPaths is every read_mask path but "*" and the two that contain
// others ("moves", "moves.result"): together they ask for everything.
var maskAllPaths = []string{"moves.notation", "moves.move", "moves.probability", "moves.action", "moves.result.text", "moves.result.state", "chance"}

// testMasks are the read masks checked against maskedRef: none, empty,
// every path, "*", the wholes, each path alone, and the cheap pair the
// README shows.
var testMasks = func() [][]string {
	m := [][]string{nil, {}, maskAllPaths, {"*"}, {"moves", "chance"}, {"moves.result"}, {"moves"}, {"moves.notation", "moves.result.text"}}
	for _, p := range maskAllPaths {
		m = append(m, []string{p})
	}
	return m
}()

// maskedRef is full (the reference answer, refbuild_test.go) with only the
// parts paths name, written from the proto's read_mask documentation
// without parseReadMask: nil or no paths is full itself; a "moves" path
// keeps one entry per move holding the parts named.
func maskedRef(full *gamerulesv1.LegalMovesResponse, paths []string) *gamerulesv1.LegalMovesResponse {
	if len(paths) == 0 {
		return full
	}
	has := func(names ...string) bool {
		for _, p := range paths {
			for _, n := range append(names, "*") {
				if p == n {
					return true
				}
			}
		}
		return false
	}
	out := &gamerulesv1.LegalMovesResponse{}
	if has("chance") {
		out.Chance = full.GetChance()
	}
	listed := false
	for _, p := range paths {
		listed = listed || p == "*" || p == "moves" || strings.HasPrefix(p, "moves.")
	}
	if !listed {
		return out
	}
	out.Moves = []*gamerulesv1.Move{}
	for _, m := range full.GetMoves() {
		pm := &gamerulesv1.Move{}
		if has("moves", "moves.notation") {
			pm.Notation = m.GetNotation()
		}
		if has("moves", "moves.move") {
			pm.Move = m.GetMove()
		}
		if has("moves", "moves.probability") {
			pm.Probability = m.Probability
		}
		if has("moves", "moves.action") {
			pm.Action = m.Action
		}
		text, typed := has("moves", "moves.result", "moves.result.text"), has("moves", "moves.result", "moves.result.state")
		if r := m.GetResult(); r != nil && (text || typed) {
			pm.Result = &gamerulesv1.GameState{}
			if text {
				pm.Result.Text = r.GetText()
			}
			if typed {
				pm.Result.State = r.GetState()
			}
		}
		out.Moves = append(out.Moves, pm)
	}
	return out
}

// checkReadMasks runs LegalMoves of st with every mask of testMasks and
// checks each answer against full, the reference answer, masked
// (maskedRef): message for message and byte for byte.
func checkReadMasks(t *testing.T, srv *Server, game string, st *gamerulesv1.GameState, results bool, full *gamerulesv1.LegalMovesResponse, where string) {
	t.Helper()
	for _, paths := range testMasks {
		req := &gamerulesv1.LegalMovesRequest{Game: game, State: st, IncludeResults: results}
		if paths != nil {
			req.ReadMask = &fieldmaskpb.FieldMask{Paths: paths}
		}
		got, err := srv.LegalMoves(context.Background(), req)
		if err != nil {
			t.Fatalf("%s mask %q: %v", where, paths, err)
		}
		sameMessage(t, fmt.Sprintf("%s results=%v mask %q", where, results, paths), got, maskedRef(full, paths))
	}
}

// TestReadMaskParts: each path alone gives exactly its part, hand-checked
// on backgammon's opening roll (chance outcomes with probabilities) and on
// the 3-1 opening play with results.
func TestReadMaskParts(t *testing.T) {
	srv := New()
	ctx := context.Background()
	lm := func(text string, results bool, paths ...string) *gamerulesv1.LegalMovesResponse {
		t.Helper()
		resp, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: &gamerulesv1.GameState{Text: text},
			IncludeResults: results, ReadMask: &fieldmaskpb.FieldMask{Paths: paths}})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	const opening, play31 = "4HPwATDgc/ABMA:MAAAAAAAAAAE", "4HPwATDgc/ABMA:MIEFAAAAAAAE"

	r := lm(opening, false, "moves.probability")
	if len(r.GetMoves()) != 30 || r.GetChance() {
		t.Fatalf("opening, probability: %d moves, chance %v; want 30, false", len(r.GetMoves()), r.GetChance())
	}
	for _, m := range r.GetMoves() {
		if m.Probability == nil || m.GetProbability() != 1.0/30 || m.GetNotation() != "" || m.GetMove() != nil || m.GetResult() != nil {
			t.Fatalf("opening, probability only: %v", m)
		}
	}
	if r := lm(opening, false, "chance"); !r.GetChance() || len(r.GetMoves()) != 0 {
		t.Fatalf("chance only: %v", r)
	}

	r = lm(play31, true, "moves.notation")
	if len(r.GetMoves()) != 16 {
		t.Fatalf("3-1: %d moves; want 16", len(r.GetMoves()))
	}
	if m := r.GetMoves()[0]; m.GetNotation() == "" || m.GetMove() != nil || m.GetResult() != nil || m.Probability != nil {
		t.Fatalf("notation only: %v", m)
	}
	full := lm(play31, true)
	r = lm(play31, true, "moves.result.text")
	for i, m := range r.GetMoves() {
		res := m.GetResult()
		if m.GetNotation() != "" || m.GetMove() != nil || res.GetState() != nil || res.GetText() != full.GetMoves()[i].GetResult().GetText() || res.GetText() == "" {
			t.Fatalf("result text only: %v", m)
		}
	}
	r = lm(play31, true, "moves.result.state")
	for i, m := range r.GetMoves() {
		res := m.GetResult()
		// The typed state keeps its Position and Match IDs (parts of the text).
		if res.GetText() != "" || res.GetBackgammon().GetPositionId() != full.GetMoves()[i].GetResult().GetBackgammon().GetPositionId() ||
			res.GetBackgammon().GetMatchId() == "" {
			t.Fatalf("result typed only: %v", m)
		}
	}
	r = lm(play31, true, "moves.move")
	if m := r.GetMoves()[0]; m.GetNotation() != "" || len(m.GetBackgammon().GetSteps()) != 2 || m.GetResult() != nil {
		t.Fatalf("typed move only: %v", m)
	}
	// Without include_results a result path builds no result.
	r = lm(play31, false, "moves.result.text")
	if len(r.GetMoves()) != 16 || r.GetMoves()[0].GetResult() != nil {
		t.Fatalf("result text without include_results: %v", r.GetMoves()[0])
	}
}

// TestReadMaskUnknownPath: a path the mask does not know is INVALID_ARGUMENT
// with reason INVALID_REQUEST, field violation read_mask, and a message
// naming the path and the accepted ones.
func TestReadMaskUnknownPath(t *testing.T) {
	srv := New()
	for _, bad := range []string{"", "moves.text", "Moves", "moves.backgammon", "moves.result.state.backgammon", "state", "moves.notation "} {
		_, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: bgGame,
			State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}, ReadMask: &fieldmaskpb.FieldMask{Paths: []string{"moves.notation", bad}}})
		st, _ := status.FromError(err)
		if st.Code() != codes.InvalidArgument || reasonOf(t, err) != ReasonInvalidRequest {
			t.Fatalf("path %q: %v; want INVALID_ARGUMENT INVALID_REQUEST", bad, err)
		}
		field := ""
		for _, d := range st.Details() {
			if br, ok := d.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) > 0 {
				field = br.GetFieldViolations()[0].GetField()
			}
		}
		if field != "read_mask" || !strings.Contains(st.Message(), fmt.Sprintf("%q", bad)) || !strings.Contains(st.Message(), `"moves.result.text"`) {
			t.Fatalf("path %q: field %q, message %q", bad, field, st.Message())
		}
	}
}

// TestReadMaskBounded: a mask of more paths than maxReadMaskPaths is
// refused, and an unknown path is quoted shortened in the message.
func TestReadMaskBounded(t *testing.T) {
	srv := New()
	paths := make([]string, maxReadMaskPaths+1)
	for i := range paths {
		paths[i] = "moves.notation"
	}
	st := &gamerulesv1.GameState{Text: "RoooBooooooooooooooooo r"}
	_, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: st, ReadMask: &fieldmaskpb.FieldMask{Paths: paths}})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "at most 64") {
		t.Errorf("65 paths: %v", err)
	}
	if _, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: st, ReadMask: &fieldmaskpb.FieldMask{Paths: paths[:64]}}); err != nil {
		t.Errorf("64 paths: %v", err)
	}
	long := strings.Repeat("x", 100000)
	_, err = srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: st, ReadMask: &fieldmaskpb.FieldMask{Paths: []string{long}}})
	if status.Code(err) != codes.InvalidArgument || len(err.Error()) > 1000 {
		t.Errorf("a 100 KB unknown path: %d-byte error %.100v", len(err.Error()), err)
	}
}
