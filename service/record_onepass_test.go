package service

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/backgammon/mat"
)

// TestRecordMatOnePass: a .mat import (every record in testdata, gnubg's
// and ours, matches and money sessions, with and without include_states)
// answers every move of its replay from the record's replay (the applier
// never falls back to applying a move again), and the answer is the one
// ReplayGame gives for the import's replay request (equal, and the same
// JSON bytes, the seed aside: each call draws one for the new game). An export writes the bytes mat.Write writes from the
// replay's moves, which applies them again.
func TestRecordMatOnePass(t *testing.T) {
	srv := New()
	ctx := context.Background()
	files, _ := filepath.Glob("../testdata/backgammon/mat/*.mat")
	more, _ := filepath.Glob("../testdata/backgammon/mat/*/*.mat")
	files = append(files, more...)
	if len(files) < 20 {
		t.Fatalf("%d .mat files", len(files))
	}
	answered := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, states := range []bool{false, true} {
			replay, _, _, err := importMat(context.Background(), string(data), states)
			if err != nil {
				// gnubg's re-exports of two of our sessions, which lose
				// moves next to resignations (rules/backgammon/mat's
				// TestGnubgReadsOurExports), do not replay.
				if filepath.Base(filepath.Dir(f)) != "gnubg-reimport" {
					t.Errorf("%s: %v", f, err)
				}
				continue
			}
			m, _ := mat.Read(data)
			moves, err := m.Replay()
			if err != nil {
				t.Fatal(err)
			}
			start, moves, err := m.LastGame(moves)
			if err != nil {
				t.Fatal(err)
			}
			again := func(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
				t.Errorf("%s: move %d %q applied again", f, i, notation)
				return applyNotation(pos, i, notation, rng)
			}
			got, err := srv.replayGame(ctx, replay, matReplayed(start, moves, again))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			answered += len(replay.GetMoves())
			want, err := srv.ReplayGame(ctx, replay)
			if err != nil {
				t.Fatal(err)
			}
			if (got.Seed == nil) != (want.Seed == nil) {
				t.Errorf("%s: seed %v; ReplayGame's %v", f, got.Seed, want.Seed)
			}
			got.Seed, want.Seed = nil, nil // a new game's seed is drawn for each call
			gj, _ := protojson.Marshal(got)
			wj, _ := protojson.Marshal(want)
			if !proto.Equal(got, want) || !bytes.Equal(gj, wj) {
				t.Errorf("%s (states %v): the import's answer differs from ReplayGame's:\n%s\n%s", f, states, gj, wj)
			}
			if states {
				continue
			}
			tags := map[string]string{"white": m.Players[0], "black": m.Players[1]}
			ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: replay, Tags: tags})
			if err != nil {
				t.Fatalf("%s: ExportRecord: %v", f, err)
			}
			st, _ := backgammon.ParseState(want.GetStart().GetText())
			text, err := mat.Write(st, want.GetMoves(), m.Players)
			if err != nil || ex.GetText() != string(text) {
				t.Errorf("%s: ExportRecord writes\n%s\nmat.Write\n%s (%v)", f, ex.GetText(), text, err)
			}
		}
	}
	t.Logf("%d .mat files, %d moves answered from the records' replays", len(files), answered)

	// A replay that does not start from the record's start (not met by an
	// import) is applied move by move, every move, with the same answer.
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	replay, _, _, err := importMat(ctx, string(data), false)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := mat.Read(data)
	moves, _ := m.Replay()
	_, moves, _ = m.LastGame(moves)
	var other backgammon.State // not the record's start
	applied := 0
	count := func(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
		applied++
		return applyNotation(pos, i, notation, rng)
	}
	got, err := srv.replayGame(ctx, replay, matReplayed(other, moves, count))
	if err != nil || applied != len(replay.GetMoves()) || applied == 0 {
		t.Fatalf("%s from another start: %d of %d moves applied again, %v", files[0], applied, len(replay.GetMoves()), err)
	}
	want, _ := srv.ReplayGame(ctx, replay)
	got.Seed, want.Seed = nil, nil
	if !proto.Equal(got, want) {
		t.Errorf("%s from another start: the answer differs from ReplayGame's", files[0])
	}
}
