package service

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// expandGoldens are Expand answers kept byte for byte (compact JSON, as
// the gateway writes them but without its spacing) in testdata: written by
// the Expand of 1d15be7..ef2159a (one list of messages per node, built in
// a second pass), they hold the faster builders to the same answers.
// GAMERULES_WRITE_GOLDEN=1 writes them again.
var expandGoldens = []struct {
	file string
	req  *gamerulesv1.ExpandRequest
}{
	// Black's roll after White's opening 3-1: 21 rolls, 469 nodes.
	{"expand_roll_depth2.json", &gamerulesv1.ExpandRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}, Depth: 2}},
	// The opening, typed: 30 opening rolls and their plays' typed states.
	{"expand_opening_typed_depth1.json", &gamerulesv1.ExpandRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MAAAAAAAAAAE"}, Depth: 1, IncludeTyped: true}},
	// A bear-off race with the cube: finished leaves, points and winners.
	{"expand_bearoff_depth2.json", &gamerulesv1.ExpandRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "CQAAWAAAAAAAAA:MAEAAAAAAAAE cube"}, Depth: 2}},
}

func TestExpandGolden(t *testing.T) {
	srv := New()
	for _, g := range expandGoldens {
		resp, err := srv.Expand(context.Background(), g.req)
		if err != nil {
			t.Fatalf("%s: %v", g.file, err)
		}
		j, err := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := json.Compact(&got, j); err != nil {
			t.Fatal(err)
		}
		got.WriteByte('\n')
		path := filepath.Join("testdata", g.file)
		if os.Getenv("GAMERULES_WRITE_GOLDEN") == "1" {
			if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: the answer (%d bytes) differs from the golden (%d bytes)", g.file, got.Len(), len(want))
		}
	}
}
