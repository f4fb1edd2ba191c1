package service

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"google.golang.org/grpc/status"
)

// longMatchExport is issue 30's export: a 32,767-point match of 2,250
// games (each the opening roll, a resignation and its acceptance, "next
// game" between them: 8,999 moves) whose players' names, nameLen bytes
// each, the .mat repeats in every game's header.
func longMatchExport(nameLen int) *gamerulesv1.ExportRecordRequest {
	var moves []string
	for g := range 2250 {
		if g > 0 {
			moves = append(moves, "next game")
		}
		moves = append(moves, "roll 3-1", "resign single", "accept")
	}
	return &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat",
		Replay: &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: moves,
			Options: &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: 32767, Cube: true}}},
		Tags: map[string]string{"white": strings.Repeat("w", nameLen), "black": strings.Repeat("b", nameLen)}}
}

// TestExportSizeBudget: an export over MaxExportBytes is INVALID_REQUEST
// on replay, its message and metadata giving the size the record would
// need (each game's header holds both names: at least 2,250 × 30,000
// bytes here) and the limit; the same match with short names is written.
func TestExportSizeBudget(t *testing.T) {
	srv := New()
	ctx := context.Background()
	_, err := srv.ExportRecord(ctx, longMatchExport(15_000))
	info, field := replayError(t, err)
	need, _ := strconv.Atoi(info.GetMetadata()["size"])
	if info.GetReason() != ReasonInvalidRequest || field != "replay" || need < 2250*30_000 || info.GetMetadata()["limit"] != strconv.Itoa(MaxExportBytes) ||
		!strings.Contains(err.Error(), strconv.Itoa(need)+" bytes") || !strings.Contains(err.Error(), strconv.Itoa(MaxExportBytes)) {
		t.Errorf("a 70 MB export: %v (%v on %s); want INVALID_REQUEST on replay giving the size and the limit", err, info, field)
	}
	ok, err := srv.ExportRecord(ctx, longMatchExport(10))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(ok.GetText(), "\n Game "); n != 2250 || len(ok.GetText()) > MaxExportBytes {
		t.Errorf("the match with short names: %d games, %d bytes", n, len(ok.GetText()))
	}
}

// TestExportTagsReadBack: with as many tags as an import reads, every
// format's export either imports back with the same tags or is refused as
// INVALID_REQUEST on tags: a .mat's header tags with the Jacoby tag money
// play adds, an APGN game's with the three the export writes, a JSON
// record's past its element limit.
func TestExportTagsReadBack(t *testing.T) {
	srv := New()
	ctx := context.Background()
	tagsOf := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprintf("T%04d", i)] = "v"
		}
		return m
	}
	money := &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{Cube: true, Jacoby: new(false)}}
	match := &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: 3, Cube: true}}
	for _, c := range []struct {
		name, game, format string
		options            any
		tags               int
		refused            bool
	}{
		{"mat match, 1,000 tags", bgGame, "mat", match, 1000, false},
		{"mat money without Jacoby, 999 tags", bgGame, "mat", money, 999, false},
		{"mat money without Jacoby, 1,000 tags", bgGame, "mat", money, 1000, true},
		{"apgn, 997 tags", "abalone", "apgn", nil, 997, false},
		{"apgn, 998 tags", "abalone", "apgn", nil, 998, true},
		{"json, 1,000 tags", "abalone", "json", nil, 1000, false},
		{"json, 10,000 tags", "abalone", "json", nil, 10_000, true},
	} {
		replay := &gamerulesv1.ReplayGameRequest{Game: c.game, Moves: []string{}}
		if o, ok := c.options.(*gamerulesv1.ReplayGameRequest_Backgammon); ok {
			replay.Options = o
			replay.Moves = []string{"roll 3-1", "8/5 6/5"}
		}
		tags := tagsOf(c.tags)
		ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: c.game, Format: c.format, Replay: replay, Tags: tags})
		if c.refused {
			if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "tags" {
				t.Errorf("%s: %v on %s; want INVALID_REQUEST on tags", c.name, info, field)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: c.game, Format: c.format, Text: ex.GetText()})
		if err != nil {
			t.Fatalf("%s: the export does not import: %v", c.name, err)
		}
		got := maps.Clone(im.GetTags())
		for _, k := range []string{"white", "black", "Variant", "Result", "Notation", "Jacoby"} {
			delete(got, k)
		}
		if !maps.Equal(got, tags) || !slices.Equal(im.GetReplay().GetMoves(), replay.GetMoves()) {
			t.Errorf("%s: %d tags and moves %q read back as %d tags and %q", c.name, len(tags), replay.GetMoves(), len(got), im.GetReplay().GetMoves())
		}
	}
}

// TestExportEndingInPassReadsBack is issue 30 item 7's property: random
// backgammon games stopped right after a pass (a roll no number of which
// can be played), in a match and in money play, exported as .mat in every
// dialect, import back to the same moves; the same games stopped after the
// roll but before its pass are refused (they would read back with it).
func TestExportEndingInPassReadsBack(t *testing.T) {
	srv := New()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(30, 7))
	games := 0
	for round := 0; games < 12 && round < 400; round++ {
		options := &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: uint32(rng.IntN(2) * 5), Cube: true}}
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: bgGame, Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: options.Backgammon}})
		if err != nil {
			t.Fatal(err)
		}
		st, moves := ng.GetState(), []string(nil)
		for len(moves) < 2000 {
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: st})
			if err != nil {
				t.Fatal(err)
			}
			var pick string
			for _, m := range lm.GetMoves() {
				switch n := m.GetNotation(); {
				case n == "pass":
					pick = n
				case pick == "" && !strings.HasPrefix(n, "resign") && n != "double":
					if rng.IntN(3) == 0 || m == lm.GetMoves()[len(lm.GetMoves())-1] {
						pick = n
					}
				}
			}
			if pick == "" {
				break
			}
			am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: pick}})
			if err != nil {
				t.Fatal(err)
			}
			st, moves = am.GetState(), append(moves, am.GetMove().GetNotation())
			if pick == "pass" && rng.IntN(2) == 0 {
				break
			}
		}
		if len(moves) == 0 || moves[len(moves)-1] != "pass" {
			continue
		}
		games++
		replay := &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: moves, Options: options}
		want, err := srv.ReplayGame(ctx, replay)
		if err != nil {
			t.Fatal(err)
		}
		for _, dialect := range []string{"gnubg", "jellyfish", "xg", "galaxy"} {
			tags := map[string]string{matDialectTag: dialect}
			ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: replay, Tags: tags})
			if err != nil {
				t.Fatalf("%s: %v", dialect, err)
			}
			im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: ex.GetText()})
			if err != nil {
				t.Fatalf("%s: %v\n%s", dialect, err, ex.GetText())
			}
			got := slices.Clone(im.GetResult().GetMoves())
			got[0] = want.GetMoves()[0] // the opening roll's order is not in the format
			if !slices.Equal(got, want.GetMoves()) || im.GetResult().GetState().GetText() != want.GetState().GetText() {
				t.Fatalf("%s: %d moves ending in a pass read back as %d\n%s", dialect, len(want.GetMoves()), len(got), ex.GetText())
			}
			short := &gamerulesv1.ReplayGameRequest{Game: bgGame, Moves: moves[:len(moves)-1], Options: options}
			_, err = srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: short, Tags: tags})
			if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "replay" {
				t.Errorf("%s: stopped before the pass: %v on %s; want INVALID_REQUEST on replay", dialect, status.Convert(err).Message(), field)
			}
		}
	}
	if games < 12 {
		t.Fatalf("%d games ending in a pass; want 12", games)
	}
}

// TestExportSizeBudgetLinear: a JSON or APGN export whose tags alone pass
// MaxExportBytes is refused before it is written, saying at least that
// size (the request here is larger than the server's receive limit
// allows; the service has no such limit of its own).
func TestExportSizeBudgetLinear(t *testing.T) {
	srv := New()
	big := strings.Repeat("v", MaxExportBytes)
	for _, c := range []struct{ game, format string }{{"abalone", "json"}, {"abalone", "apgn"}, {bgGame, "json"}} {
		_, err := srv.ExportRecord(context.Background(), &gamerulesv1.ExportRecordRequest{Game: c.game, Format: c.format,
			Replay: &gamerulesv1.ReplayGameRequest{Game: c.game}, Tags: map[string]string{"Event": big}})
		info, field := replayError(t, err)
		if info.GetReason() != ReasonInvalidRequest || field != "replay" || info.GetMetadata()["size"] != strconv.Itoa(len(big)+len("Event")) ||
			!strings.Contains(err.Error(), "at least") {
			t.Errorf("%s %s: %v (%v on %s); want INVALID_REQUEST on replay, at least the tag's size", c.game, c.format, err, info, field)
		}
	}
}
