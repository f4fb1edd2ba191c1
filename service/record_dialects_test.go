package service

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// TestRecordMatDialects: every dialect sample (testdata/backgammon/mat/
// dialects: Jellyfish, eXtreme Gammon, Backgammon Galaxy, FIBS) imports;
// its header tags come back as tags; exported in each dialect (the tag
// mat_dialect) and imported again it gives the same replay (the same
// moves as the engine plays them, a pending roll included, the same final
// state and the header tags); a record that ends in a roll still to be played ends in the move
// phase with those dice.
func TestRecordMatDialects(t *testing.T) {
	srv := New()
	ctx := context.Background()
	files, _ := filepath.Glob("../testdata/backgammon/mat/dialects/*/*.mat")
	if len(files) < 20 {
		t.Fatalf("%d samples", len(files))
	}
	pending := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: string(data)})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if strings.Contains(string(data), `; [Site "eXtreme Gammon"]`) && im.GetTags()["Site"] != "eXtreme Gammon" {
			t.Errorf("%s: tags %v", f, im.GetTags())
		}
		moves := im.GetReplay().GetMoves()
		if last := moves[len(moves)-1]; strings.HasPrefix(last, "roll ") {
			pending++
			if d := im.GetResult().GetState().GetBackgammon().GetDice(); len(d) != 2 || "roll "+string(rune('0'+d[0]))+"-"+string(rune('0'+d[1])) != last {
				t.Errorf("%s: ends with %s; dice %v", f, last, d)
			}
		}
		for _, dialect := range []string{"gnubg", "jellyfish", "xg", "galaxy"} {
			tags := map[string]string{"mat_dialect": dialect}
			for k, v := range im.GetTags() {
				tags[k] = v
			}
			ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: im.GetReplay(), Tags: tags})
			if err != nil {
				t.Fatalf("%s: ExportRecord %s: %v", f, dialect, err)
			}
			again, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: ex.GetText()})
			if err != nil {
				t.Fatalf("%s: %s export re-imported: %v\n%s", f, dialect, err, ex.GetText())
			}
			if again.GetResult().GetState().GetText() != im.GetResult().GetState().GetText() ||
				!slices.Equal(again.GetResult().GetMoves(), im.GetResult().GetMoves()) || again.GetTags()["Site"] != im.GetTags()["Site"] {
				t.Errorf("%s: %s export re-imported ends %s, want %s", f, dialect, again.GetResult().GetState().GetText(), im.GetResult().GetState().GetText())
			}
		}
	}
	if pending == 0 {
		t.Error("no sample ends with a roll to play")
	}
	_, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: &gamerulesv1.ReplayGameRequest{Game: bgGame}, Tags: map[string]string{"mat_dialect": "snowie"}})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || !strings.Contains(err.Error(), "mat_dialect") {
		t.Errorf("unknown dialect: %v %s", info, field)
	}
}

// TestRecordMatRefusals: the import refuses a record at its first real
// problem, INVALID_REQUEST on text with the line and column: here a
// resignation by the player not on turn, and a roll written without its
// play while several plays are legal.
func TestRecordMatRefusals(t *testing.T) {
	srv := New()
	head := " 3 point match\n\n Game 1\n Left : 0                     Right : 0\n"
	for _, c := range []struct{ text, line, column, says string }{
		{head + "  1) 31: 8/5 6/5\n                                 Wins 1 point\n", "6", "34", "only the player on turn may resign"},
		{head + "  1) 31:                         42: 8/4 6/4\n", "5", "6", "without a play while 16 plays are legal"},
	} {
		_, err := srv.ImportRecord(context.Background(), &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: c.text})
		info, field := replayError(t, err)
		if md := info.GetMetadata(); info.GetReason() != ReasonInvalidRequest || field != "text" || md["line"] != c.line || md["column"] != c.column || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v %s %v", c.text, info, field, err)
		}
	}
}
