package load

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/servertest"
)

// client serves the whole server (servertest: limits and interceptors
// included) on loopback ports for the test.
func client(t *testing.T) gamerulesv1grpc.GameRulesClient {
	t.Helper()
	return gamerulesv1grpc.NewGameRulesClient(servertest.Dial(t, servertest.Start(t, nil)))
}

// TestStates: the seeded play reaches the states the benchmark promises
// (the move counts of the table), the same ones on every run, and
// every case's request is answered without error.
func TestStates(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	states, err := States(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{ // group -> move count range
		"backgammon": {24, 26}, "backgammon-double": {40, 200}, "abalone": {67, 69},
		"labyrinth": {22, 22}, "gravity_trap": {1, 100}, "gravity_trap-large": {1, 100},
	}
	if len(states) != len(want) {
		t.Fatalf("%d states, want %d", len(states), len(want))
	}
	for _, s := range states {
		r, ok := want[s.Group]
		if n := len(s.Moves); !ok || n < r[0] || n > r[1] {
			t.Errorf("%s: %d moves at ply %d, want %d..%d", s.Group, n, s.Ply, r[0], r[1])
		}
		t.Logf("%s: ply %d, %s, %.60s", s.Group, s.Ply, s.Describe, s.State.GetText())
	}
	again, err := States(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range states {
		if !proto.Equal(states[i].State, again[i].State) {
			t.Errorf("%s: a second search found another state", states[i].Group)
		}
	}
	cases := Cases(states)
	replay, err := ReplayCases(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(replay[0].Requests[0].(*gamerulesv1.ReplayGameRequest).GetMoves()); n != 200 || len(replay[1].Requests) != 10 {
		t.Errorf("replay case: %d moves, %d applies; want 200, 10", n, len(replay[1].Requests))
	}
	for _, cs := range append(cases, replay...) {
		for _, req := range cs.Requests {
			var err error
			switch r := req.(type) {
			case *gamerulesv1.LegalMovesRequest:
				var lm *gamerulesv1.LegalMovesResponse
				lm, err = c.LegalMoves(ctx, r)
				if err == nil && len(lm.GetMoves()) != cs.Moves {
					t.Errorf("%s: %d moves, case says %d", cs.ID, len(lm.GetMoves()), cs.Moves)
				}
			case *gamerulesv1.ApplyMoveRequest:
				_, err = c.ApplyMove(ctx, r)
			case *gamerulesv1.ScoreRequest:
				_, err = c.Score(ctx, r)
			case *gamerulesv1.ReplayGameRequest:
				_, err = c.ReplayGame(ctx, r)
			}
			if err != nil {
				t.Errorf("%s: %v", cs.ID, err)
			}
		}
	}
	if len(cases) != 22 {
		t.Errorf("%d cases, want 22", len(cases))
	}

	// The files the load tools read.
	dir := t.TempDir()
	ps, files, err := WriteFiles(dir, append(cases, replay...))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(ps)
	if err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(raw, set); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range set.GetFile() {
		for _, d := range f.GetDependency() {
			if !names[d] {
				t.Errorf("protoset: %s before its import %s", f.GetName(), d)
			}
		}
		names[f.GetName()] = true
	}
	if !names["gamerules/v1/gamerules.proto"] || !names["grpc/health/v1/health.proto"] {
		t.Errorf("protoset lacks the API or health: %v", names)
	}
	body, err := os.ReadFile(files["backgammon/LegalMovesResults"].REST)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil || m["includeResults"] != true || m["game"] != nil {
		t.Errorf("REST body %.100s: %v; want includeResults and no game", body, err)
	}
	arr, err := os.ReadFile(files["backgammon/ApplyMove10Ply"].GRPC)
	if err != nil || !strings.HasPrefix(string(arr), "[") {
		t.Errorf("the 10 ApplyMove requests are not a JSON array: %.50s %v", arr, err)
	}
}
