package service

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/abalone/apgn"
	"github.com/gamerules/gamerules/rules/backgammon/mat"
)

// TestRecordRoundTrip: games of three kinds exported as JSON records import
// to the same final state, export again to the same bytes, and a tampered
// record is refused at the tampered move with its index.
func TestRecordRoundTrip(t *testing.T) {
	srv := New()
	ctx := context.Background()
	bgMoves, bgStates := bgPlayed(t, srv, 5000, 7)
	arch := abArchive(t)[3]
	replays := []*gamerulesv1.ReplayGameRequest{
		{Game: bgGame, Moves: bgMoves},
		abReplayRequest(arch.tags["Variant"], arch.moves),
	}
	for _, r := range replays {
		want, err := srv.ReplayGame(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: r.GetGame(), Replay: r, Tags: map[string]string{"event": "round trip"}})
		if err != nil {
			t.Fatalf("%s: ExportRecord = %v", r.GetGame(), err)
		}
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: r.GetGame(), Text: ex.GetText()})
		if err != nil {
			t.Fatalf("%s: ImportRecord(%s) = %v", r.GetGame(), ex.GetText(), err)
		}
		if !proto.Equal(im.GetResult().GetState(), want.GetState()) || im.GetResult().GetFinished() != want.GetFinished() || im.GetTags()["event"] != "round trip" {
			t.Errorf("%s: imported to %s; replay %s", r.GetGame(), im.GetResult().GetState().GetText(), want.GetState().GetText())
		}
		again, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: r.GetGame(), Replay: im.GetReplay(), Tags: im.GetTags()})
		if err != nil || again.GetText() != ex.GetText() {
			t.Errorf("%s: export of the import:\n%s\nwant\n%s (%v)", r.GetGame(), again.GetText(), ex.GetText(), err)
		}
	}

	// Tamper with the backgammon record's 20th play.
	ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Replay: replays[0]})
	if err != nil {
		t.Fatal(err)
	}
	k := 41
	if strings.HasPrefix(bgMoves[k], "roll") {
		k++
	}
	tampered := strings.Replace(ex.GetText(), `"`+bgMoves[k]+`"`, `"bar/20"`, 1)
	if strings.Count(ex.GetText(), `"`+bgMoves[k]+`"`) != 1 {
		t.Skipf("move %q is not unique in the record", bgMoves[k])
	}
	_, err = srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Text: tampered})
	info, field := replayError(t, err)
	if info.GetReason() != ReasonIllegalMove || field != "moves["+strconv.Itoa(k)+"]" || info.GetMetadata()["stateBefore"] != bgStates[k-1].GetText() {
		t.Errorf("tampered record: %v %s", info, field)
	}

	// A record that cannot be read: line and column.
	_, err = srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Text: "{\n  \"format\": \"gamerules-record/1\",\n  \"game\": \"backgammon\",\n  \"moves\": [\"roll 3-1\",]\n}"})
	info, field = replayError(t, err)
	if info.GetReason() != ReasonInvalidRequest || field != "text" || info.GetMetadata()["line"] != "4" || info.GetMetadata()["column"] != "24" {
		t.Errorf("bad record: %v %s", info, field)
	}
	// Another game's record, and an unknown format.
	_, err = srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: abGame, Text: ex.GetText()})
	if info, _ := replayError(t, err); info.GetReason() != ReasonInvalidRequest {
		t.Errorf("record of another game: %v", info)
	}
	_, err = srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "sgf", Text: ex.GetText()})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "format" {
		t.Errorf("unknown format: %v %s", info, field)
	}
}

// TestRecordOptionsAndSeed: a record made by hand from options and a seed
// (a Labyrinth set-up) imports to NewGame's state for them.
func TestRecordOptionsAndSeed(t *testing.T) {
	srv := New()
	ctx := context.Background()
	seed := uint64(9)
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "labyrinth", Seed: &seed,
		Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthOptions{Players: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	text := `{"format": "gamerules-record/1", "game": "labyrinth", "options": {"players": 3}, "seed": "9", "moves": []}`
	im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: "labyrinth", Text: text})
	if err != nil || !proto.Equal(im.GetResult().GetStart(), ng.GetState()) {
		t.Fatalf("ImportRecord = %v, %v; want start %s", im.GetResult().GetStart().GetText(), err, ng.GetState().GetText())
	}
	ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: "labyrinth", Replay: im.GetReplay()})
	if err != nil || !strings.Contains(ex.GetText(), `"start": `+strconv.Quote(ng.GetState().GetText())) {
		t.Errorf("ExportRecord = %s, %v", ex.GetText(), err)
	}
}

// TestRecordMat: every gnubg-made .mat imports (format mat) to a finished
// match whose winner is the record's; exported as .mat and imported again
// it ends in the same state; a tampered play is ILLEGAL_MOVE with its index,
// the state before it and its line and column in the file.
func TestRecordMat(t *testing.T) {
	srv := New()
	ctx := context.Background()
	files, _ := filepath.Glob("../testdata/backgammon/mat/seed*.mat")
	if len(files) < 5 {
		t.Fatalf("%d .mat files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: string(data)})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !im.GetResult().GetFinished() || !im.GetResult().GetBackgammon().GetMatch().GetOver() || im.GetTags()["white"] != "gnubg" {
			t.Errorf("%s: ends %v", f, im.GetResult().GetState().GetText())
		}
		ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: im.GetReplay(), Tags: im.GetTags()})
		if err != nil {
			t.Fatalf("%s: ExportRecord: %v", f, err)
		}
		again, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: ex.GetText()})
		if err != nil || again.GetResult().GetState().GetText() != im.GetResult().GetState().GetText() {
			t.Errorf("%s: export re-imported: %v, %v", f, again.GetResult().GetState().GetText(), err)
		}
	}
	data, _ := os.ReadFile("../testdata/backgammon/mat/seed12-match5.mat")
	tampered := strings.Replace(string(data), "13/9 13/8 ", "13/9 13/7 ", 1)
	_, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: tampered})
	info, field := replayError(t, err)
	if md := info.GetMetadata(); info.GetReason() != ReasonIllegalMove || field != "moves[7]" || md["line"] != "9" || md["column"] != "6" || md["stateBefore"] == "" {
		t.Errorf("tampered .mat: %v %s", info, field)
	}
}

// TestRecordAPGN: every game of the Abalone archive, as its own APGN
// record, imports (format apgn) with the result its Result tag says; every
// 20th exported as APGN and imported again ends in the same state, and
// exports the same bytes.
func TestRecordAPGN(t *testing.T) {
	srv := New()
	ctx := context.Background()
	data, err := io.ReadAll(abOpen(t, "migs-games.apgn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	games, err := apgn.Read(data)
	if err != nil || len(games) != 1941 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for i, g := range games {
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: abGame, Format: "apgn", Text: string(apgn.Write(g))})
		if err != nil {
			t.Fatalf("%s: %v", g.Tag("Event"), err)
		}
		want := "*"
		if r := im.GetResult(); r.GetFinished() {
			want = []string{"1-0", "0-1"}[r.GetWinner()]
		}
		if want != g.Result || im.GetTags()["Event"] != g.Tag("Event") {
			t.Errorf("%s: result %s; the record says %s", g.Tag("Event"), want, g.Result)
		}
		if i%20 != 0 {
			continue
		}
		ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: abGame, Format: "apgn", Replay: im.GetReplay(), Tags: im.GetTags()})
		if err != nil {
			t.Fatal(err)
		}
		again, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: abGame, Format: "apgn", Text: ex.GetText()})
		if err != nil || !proto.Equal(again.GetResult().GetState(), im.GetResult().GetState()) {
			t.Fatalf("%s: exported and imported: %v, %v\n%s", g.Tag("Event"), again.GetResult().GetState().GetText(), err, ex.GetText())
		}
		ex2, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: abGame, Format: "apgn", Replay: again.GetReplay(), Tags: again.GetTags()})
		if err != nil || ex2.GetText() != ex.GetText() {
			t.Fatalf("%s: export not stable:\n%s\n%s", g.Tag("Event"), ex.GetText(), ex2.GetText())
		}
	}
	// A tampered move: ILLEGAL_MOVE at its index.
	g := games[0]
	g.Moves = append([]string{}, g.Moves...)
	g.Moves[10] = "a1a2"
	_, err = srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: abGame, Format: "apgn", Text: string(apgn.Write(g))})
	if info, field := replayError(t, err); info.GetReason() != ReasonIllegalMove || field != "moves[10]" {
		t.Errorf("tampered APGN: %v %s", info, field)
	}
}

// TestRecordCustomBoard: a Gravity Trap game on a custom board is written
// with its options (the text form does not carry the board) and imports to
// the same states; started from a state instead, it cannot be written.
func TestRecordCustomBoard(t *testing.T) {
	srv := New()
	ctx := context.Background()
	replay := &gamerulesv1.ReplayGameRequest{Game: gtGame, Moves: []string{"place 0", "place 1"},
		Options: &gamerulesv1.ReplayGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: gtHex()}}}
	want, err := srv.ReplayGame(ctx, replay)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: gtGame, Replay: replay})
	if err != nil || strings.Contains(ex.GetText(), `"start"`) || !strings.Contains(ex.GetText(), `"customBoard"`) {
		t.Fatalf("ExportRecord = %s, %v", ex.GetText(), err)
	}
	im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: gtGame, Text: ex.GetText()})
	if err != nil || !proto.Equal(im.GetResult().GetState(), want.GetState()) {
		t.Fatalf("ImportRecord = %v, %v; want %v", im.GetResult().GetState(), err, want.GetState())
	}
	_, err = srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: gtGame, Replay: &gamerulesv1.ReplayGameRequest{State: want.GetStart()}})
	if info, field := replayError(t, err); info.GetReason() != ReasonInvalidRequest || field != "replay.state" {
		t.Errorf("custom board from a state: %v %s", info, field)
	}
}

// TestRecordMatMoney: the gnubg money sessions (testdata/backgammon/mat/
// money-*.mat: 2 to 8 games, Jacoby on and off, beavers, declined
// resignations) import with every game checked, as the replay of their
// last game from the running score its header gives (a money game is one
// game for the API: the spec gives a finished one no legal moves), tagged
// with the session's number of games; its states pass, in order, through
// the gnubg IDs gnubg showed while playing it (score bits included; the
// offers of declined resignations aside, which gnubg does not write), and
// it ends with gnubg's last winner and points and the running totals
// gnubg's headers and last "Wins" line add up to (rules/backgammon/mat's
// TestGnubgMoneySessions follows every game of the session). Exported as .mat and imported again, each ends in the
// same state. A tampered session is refused at its first bad move (index,
// line, column), at a game header whose score is not the running score,
// and at a "Wins" line that is not the game's end.
func TestRecordMatMoney(t *testing.T) {
	srv := New()
	ctx := context.Background()
	files, _ := filepath.Glob("../testdata/backgammon/mat/money-*.mat")
	if len(files) < 5 {
		t.Fatalf("%d money .mat files", len(files))
	}
	matched := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: string(data), IncludeStates: true})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m, err := mat.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		r := im.GetResult()
		last := m.Games[len(m.Games)-1]
		total := last.Score
		total[last.Winner] += last.Points
		bg := r.GetBackgammon()
		if !r.GetFinished() || int(r.GetWinner()) != last.Winner || int(r.GetPoints()[last.Winner]) != last.Points ||
			[2]int{int(bg.GetWhiteScore()), int(bg.GetBlackScore())} != total || !im.GetReplay().GetBackgammon().GetCube() {
			t.Errorf("%s: ends %s winner %d points %v score %v; gnubg: %d wins %d, %v", f, r.GetState().GetText(), r.GetWinner(), r.GetPoints(), bg, last.Winner, last.Points, total)
		}
		if n := strings.Count(strings.Join(im.GetReplay().GetMoves(), ","), "next game"); n != 0 || im.GetTags()["session_games"] != strconv.Itoa(len(m.Games)) {
			t.Errorf("%s: %d next games, tag session_games %q for %d games", f, n, im.GetTags()["session_games"], len(m.Games))
		}
		if o := im.GetReplay().GetBackgammon(); [2]int{int(o.GetWhiteScore()), int(o.GetBlackScore())} != last.Score {
			t.Errorf("%s: the replay starts at %d-%d; the last game's header says %v", f, o.GetWhiteScore(), o.GetBlackScore(), last.Score)
		}
		if off := strings.Contains(f, "jacoby-off"); im.GetReplay().GetBackgammon().Jacoby != nil != (off && !strings.Contains(f, "s3-") && !strings.Contains(f, "seed8")) {
			t.Errorf("%s: jacoby option %v", f, im.GetReplay().GetBackgammon().Jacoby)
		}
		// Jacoby off and nothing in the record says it: the import plays
		// with it on, so only bit 66 of the Match IDs differs; compare
		// with it set.
		unsaid := strings.Contains(f, "jacoby-off") && im.GetReplay().GetBackgammon().Jacoby == nil
		var seen []string
		for _, st := range append([]*gamerulesv1.GameState{r.GetStart()}, r.GetStates()...) {
			id, _, _ := strings.Cut(st.GetText(), " ")
			if unsaid {
				id = withBit66(t, id)
			}
			seen = append(seen, id)
		}
		raw, _ := os.ReadFile(strings.TrimSuffix(f, ".mat") + ".ids")
		gids := strings.Fields(string(raw))
		// gnubg's IDs of the last game: from the first of them the replay
		// reaches on (no state of an earlier game has the same ID: the
		// running score is in it).
		first := slices.IndexFunc(gids, func(id string) bool { return slices.Contains(seen, id) })
		if first < 0 {
			first = len(gids) - 1
		}
		gids = gids[first:]
		j := 0
		for i, id := range gids {
			k := slices.Index(seen[j:], id)
			if k < 0 && i > 0 && i+1 < len(gids) && gids[i+1] == gids[i-1] {
				continue // a declined resignation offer: not in the record
			}
			if k < 0 {
				t.Fatalf("%s: gnubg's %s (its %d of %d) is not among the replay's states from %d on", f, id, i, len(gids), j)
			}
			j += k
			matched++
		}
		ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: im.GetReplay(), Tags: im.GetTags()})
		if err != nil {
			t.Fatalf("%s: ExportRecord: %v", f, err)
		}
		again, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: ex.GetText()})
		if err != nil || again.GetResult().GetState().GetText() != r.GetState().GetText() {
			t.Errorf("%s: export re-imported: %v, %v", f, again.GetResult().GetState().GetText(), err)
		}
	}
	if matched < 100 {
		t.Errorf("%d gnubg IDs matched", matched)
	}
	t.Logf("%d gnubg IDs matched in order", matched)
	data, _ := os.ReadFile("../testdata/backgammon/mat/money-session-s1-jacoby-on-beavers.mat")
	im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: string(data)})
	if err != nil || im.GetTags()["session_games"] != "6" {
		t.Fatalf("the untampered session: %v, tags %v", err, im.GetTags())
	}
	for _, c := range []struct {
		name, from, to    string
		reason, field     string
		line, col, moveIx string
	}{
		// game 4, gnubg's 6-1: 8/1 is no 1
		{"illegal play", "61: 13/7 8/7 ", "61: 13/7 8/1 ", ReasonIllegalMove, "moves[%s]", "49", "6", "110"},
		{"header score", "root : 3\n  1)                             21: 13/11 24/23", "root : 4\n  1)                             21: 13/11 24/23", ReasonInvalidRequest, "text", "46", "1", ""},
		// game 4 was resigned: 4 points at cube 1 is no resignation
		{"resigned wins line", "22/16 \n                                  Wins 2 points", "22/16 \n                                  Wins 4 points", ReasonInvalidRequest, "text", "50", "1", ""},
		// game 6 was borne off, a single at cube 4
		{"borne-off wins line", "22: 1/0 \n                                  Wins 4 points", "22: 1/0 \n                                  Wins 8 points", ReasonInvalidRequest, "text", "87", "1", ""},
	} {
		tampered := strings.Replace(string(data), c.from, c.to, 1)
		if tampered == string(data) {
			t.Fatalf("%s: nothing tampered", c.name)
		}
		_, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: tampered})
		info, field := replayError(t, err)
		md := info.GetMetadata()
		want := c.field
		if c.moveIx != "" {
			want = fmt.Sprintf(c.field, c.moveIx)
		}
		if info.GetReason() != c.reason || field != want || md["line"] != c.line || md["column"] != c.col || md["moveIndex"] != c.moveIx {
			t.Errorf("%s: %v %s", c.name, info, field)
		}
	}
}

// withBit66 returns a gnubg ID with the Match ID's bit 66 (no Jacoby) set.
func withBit66(t *testing.T, id string) string {
	t.Helper()
	pos, mid, _ := strings.Cut(id, ":")
	k, err := base64.StdEncoding.DecodeString(mid)
	if err != nil || len(k) != 9 {
		t.Fatalf("Match ID %q: %v", mid, err)
	}
	k[66>>3] |= 1 << (66 & 7)
	return pos + ":" + base64.StdEncoding.EncodeToString(k)
}
