package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

func TestZZExpandDigest(t *testing.T) {
	out := os.Getenv("EXPAND_DIGEST")
	if out == "" {
		t.Skip()
	}
	srv := New()
	ctx := context.Background()
	var buf bytes.Buffer
	states := sampleStates(t, srv, 8, 7)
	games := make([]string, 0, len(states))
	for g := range states {
		games = append(games, g)
	}
	sort.Strings(games)
	states["backgammon"] = append(states["backgammon"], &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}, &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MAAAAAAAAAAE"})
	for _, g := range games {
		for _, st := range states[g] {
			for depth := int32(1); depth <= 3; depth++ {
				for _, typed := range []bool{false, true} {
					for _, mx := range []int32{0, 300} {
						resp, err := srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: g, State: st, Depth: depth, IncludeTyped: typed, MaxNodes: mx})
						fmt.Fprintf(&buf, "%s %q d%d t%v m%d: ", g, st.GetText(), depth, typed, mx)
						if err != nil {
							fmt.Fprintf(&buf, "ERR %v\n", err)
							continue
						}
						b, err := resp.MarshalVT()
						if err != nil {
							t.Fatal(err)
						}
						j, err := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(resp)
						if err != nil {
							t.Fatal(err)
						}
						var c bytes.Buffer
						if err := json.Compact(&c, j); err != nil {
							t.Fatal(err)
						}
						fmt.Fprintf(&buf, "%d nodes\n%x\n%s\n", resp.GetNodeCount(), b, c.Bytes())
					}
				}
			}
		}
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
