package service

import (
	"cmp"
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// hostileStrings are tag names and values meant to break a record's lines:
// line breaks, control characters, quotes and backslashes, a tag or a move
// line of the format planted in a value, white space at the ends.
var hostileStrings = []string{
	"", "x", "Event", "a_1", "1a", "_a", "a-b", "a b", "é", "Position", "Result",
	"plain value", "a\nb", "a\r\nb", "\t", "x\x00y", "x\x7fy", "x\u0085y", "line\u2028sep",
	`quote " inside`, `back\slash`, `\"`, `\\"]`, `"] [Position "x"]`, "\n[Position \"O@\"]\n",
	"1) 31", " 1) 31: 8/5 6/5", "12)x", "a:b", " lead", "trail ", "Wins 2 points", " Game 2",
	"; [Jacoby \"Off\"]", "5 point match", strings.Repeat("n", 40), "名前", "0",
}

// randomPlayout plays up to n random legal moves of game from a new game
// (chance outcomes too) and returns their notations.
func randomPlayout(t *testing.T, srv *Server, game string, n int, rng *rand.Rand) []string {
	t.Helper()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: game})
	if err != nil {
		t.Fatal(err)
	}
	st := ng.GetState()
	var moves []string
	for len(moves) < n {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: game, State: st})
		if err != nil {
			t.Fatal(err)
		}
		if len(lm.GetMoves()) == 0 {
			break
		}
		mv := lm.GetMoves()[rng.IntN(len(lm.GetMoves()))]
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: game, State: st, Move: &gamerulesv1.Move{Notation: mv.GetNotation()}})
		if err != nil {
			t.Fatal(err)
		}
		moves, st = append(moves, mv.GetNotation()), am.GetState()
	}
	return moves
}

// TestExportsReadBack is the property of issue 19 item 6: every export
// ExportRecord accepts (APGN and .mat in every dialect, random games,
// random tags among hostile strings) imports again to the same moves and
// tags; what it refuses is INVALID_REQUEST on tags, or on replay for a
// .mat stopping after a roll with no play before its pass (issue 30).
func TestExportsReadBack(t *testing.T) {
	srv := New()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(19, 6))
	pick := func() string { return hostileStrings[rng.IntN(len(hostileStrings))] }
	accepted, refused := 0, 0
	for round := range 60 {
		game, format := "abalone", "apgn"
		if round%2 == 1 {
			game, format = bgGame, "mat"
		}
		moves := randomPlayout(t, srv, game, rng.IntN(80), rng)
		// (A .mat record may end with a roll still to be played: the
		// export writes it alone, the import keeps it as the dice.)
		tags := map[string]string{}
		for range rng.IntN(4) {
			tags[pick()] = pick()
		}
		if format == "mat" {
			tags["white"], tags["black"] = pick(), pick()
			// Every dialect (the tag chooses it; it is not written).
			tags[matDialectTag] = []string{"gnubg", "jellyfish", "xg", "galaxy"}[rng.IntN(4)]
		}
		replay := &gamerulesv1.ReplayGameRequest{Game: game, Moves: moves}
		ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: game, Format: format, Replay: replay, Tags: tags})
		if err != nil {
			// Bad tags; or (a .mat) a roll with no play, its pass not
			// yet played, which the format would read back with the
			// pass.
			info, field := replayError(t, err)
			expected := field == "tags" || field == "replay" && format == "mat" && endsBeforePass(t, srv, replay)
			if info.GetReason() != ReasonInvalidRequest || !expected {
				t.Fatalf("round %d: export refused with %v on %s, not INVALID_REQUEST on tags (or on replay before a pass; tags %q)", round, info, field, tags)
			}
			refused++
			continue
		}
		accepted++
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: game, Format: format, Text: ex.GetText()})
		if err != nil {
			t.Fatalf("round %d: the export does not import: %v\ntags %q\n%s", round, err, tags, ex.GetText())
		}
		want := map[string]string{}
		if format == "apgn" {
			for k, v := range tags {
				want[k] = v
			}
			delete(want, "Position")
			want["Variant"], want["Result"], want["Notation"] = "classic", im.GetTags()["Result"], "Aba-Pro"
		} else {
			// The other tags as header tags, but the money-play settings
			// (the export writes them from the state).
			for k, v := range tags {
				if !matSettingTag(k) && k != matDialectTag {
					want[k] = v
				}
			}
			want["white"], want["black"] = cmp.Or(tags["white"], "White"), cmp.Or(tags["black"], "Black")
		}
		if !maps.Equal(im.GetTags(), want) {
			t.Errorf("round %d: tags %q read back as %q", round, want, im.GetTags())
		}
		replayed, err := srv.ReplayGame(ctx, replay)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(im.GetResult().GetMoves()) // canonical, as ReplayGame answers
		if format == "mat" && len(got) > 0 {
			got[0] = replayed.GetMoves()[0] // the opening roll's order is not in the format
		}
		if !slices.Equal(got, replayed.GetMoves()) {
			t.Errorf("round %d: %d moves read back as %d: %q", round, len(replayed.GetMoves()), len(got), got)
		}
	}
	if accepted < 10 || refused < 10 {
		t.Errorf("%d exports accepted, %d refused; want some of each", accepted, refused)
	}
}

// endsBeforePass reports whether a backgammon replay ends after a roll
// whose only play is the pass.
func endsBeforePass(t *testing.T, srv *Server, replay *gamerulesv1.ReplayGameRequest) bool {
	t.Helper()
	ctx := context.Background()
	r, err := srv.ReplayGame(ctx, replay)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: r.GetState()})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range lm.GetMoves() {
		if m.GetNotation() == "pass" {
			return true
		}
	}
	return false
}
