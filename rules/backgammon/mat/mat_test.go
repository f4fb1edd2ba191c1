package mat

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/record"
)

// replay plays a match's moves from its options and returns the moves
// applied (canonical) and the final state.
func replay(t *testing.T, name string, m Match) ([]string, backgammon.State) {
	t.Helper()
	return replayWith(t, name, m, false)
}

// replayWith is replay, with the Jacoby rule off in a money game when
// noJacoby (the .mat format does not record it).
func replayWith(t *testing.T, name string, m Match, noJacoby bool) ([]string, backgammon.State) {
	t.Helper()
	o := m.Options()
	o.NoJacoby = o.NoJacoby || noJacoby
	s, err := backgammon.New(o)
	if err != nil {
		t.Fatal(err)
	}
	var applied []string
	gi := 0
	mvs, err := m.Replay()
	if err != nil {
		t.Fatalf("%s: Replay: %v", name, err)
	}
	for _, mv := range mvs {
		if mv.Notation == "next game" {
			out := s.Outcome()
			if g := m.Games[gi]; g.Winner >= 0 && (int(out.Winner) != g.Winner || out.Points[out.Winner] != g.Points) {
				t.Errorf("%s game %d: %v; the record says player %d wins %d", name, gi+1, out, g.Winner, g.Points)
			}
			gi++
		}
		next, am, err := applyText(s, mv.Notation)
		if err != nil {
			t.Fatalf("%s line %d column %d: %q: %v (state %s)", name, mv.Line, mv.Column, mv.Notation, err, s)
		}
		if mv.Notation == "next game" {
			if w, b := next.Score(); [2]int{w, b} != m.Games[gi].Score {
				t.Errorf("%s game %d starts at %d-%d; the record says %v", name, gi+1, w, b, m.Games[gi].Score)
			}
		}
		applied = append(applied, am.String())
		s = next
	}
	return applied, s
}

// TestGnubgMatches: matches exported by gnubg 1.07 (testdata/backgammon/mat,
// made by scripts/gnubg-mat.sh) replay to the end with every game won by
// the player and points the record says, every game starting at the
// record's score; written again and read back, they replay the same.
func TestGnubgMatches(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/backgammon/mat/seed*.mat")
	if len(files) < 4 {
		t.Fatalf("%d .mat files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		moves, final := replay(t, f, m)
		last := m.Games[len(m.Games)-1]
		if out := final.Outcome(); !final.MatchOver() || int(out.Winner) != last.Winner || out.Points[out.Winner] != last.Points {
			t.Errorf("%s: ends %s %v, match over %v; the record says %d wins %d", f, final, out, final.MatchOver(), last.Winner, last.Points)
		}
		start, _ := backgammon.New(m.Options())
		out, err := Write(start, moves, m.Players)
		if err != nil {
			t.Fatalf("%s: Write: %v", f, err)
		}
		m2, err := Read(out)
		if err != nil {
			t.Fatalf("%s: reading what Write wrote: %v\n%s", f, err, out)
		}
		moves2, final2 := replay(t, f+" (rewritten)", m2)
		if final2 != final || len(moves2) != len(moves) {
			t.Errorf("%s: rewritten, ends %s; want %s", f, final2, final)
		}
		if dir := os.Getenv("GAMERULES_MAT_DUMP"); dir != "" { // for scripts/gnubg-mat.sh
			if err := os.WriteFile(filepath.Join(dir, "ours-"+filepath.Base(f)), out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Write(start, moves2, m2.Players)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: Write is not stable:\n%s\n%s", f, out, again)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		in        string
		line, col int
	}{
		{"hello\n", 1, 1},
		{" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5   Resigns\n", 5, 20},
		{" 3 point match\n\n Game 2\n", 3, 2},
		{" 3 point match\n\n Game 1\n  1) 31: 8/5\n", 4, 1},
		{" 3 point match\n\n Game 1\n a : 0  b : 0\n  1)  Doubles => x\n", 5, 18},
	} {
		_, err := Read([]byte(c.in))
		var re *record.Error
		if !errors.As(err, &re) || re.Line != c.line || re.Column != c.col {
			t.Errorf("Read(%q) = %v; want line %d column %d", c.in, err, c.line, c.col)
		}
	}
}

// TestGnubgReadsOurExports: what Write writes for each gnubg match and money
// session (the declined resignations left out, as gnubg leaves them out),
// imported
// into gnubg and exported by it again (testdata/backgammon/mat/
// gnubg-reimport, by scripts/gnubg-mat.sh), replays to the same moves as
// ours, and ends in the gnubg ID gnubg showed after importing our file.
// One known difference: after a resignation is accepted, the Match ID
// gnubg shows after "import mat" says the loser is to act and ours the
// winner (the position agrees). It is gnubg's import that differs: while
// playing, gnubg's own Match ID right after the accept says the winner,
// exactly as ours (TestGnubgInPlayResignation).
func TestGnubgReadsOurExports(t *testing.T) {
	raw, err := os.ReadFile("../../../testdata/backgammon/mat/gnubg-reimport/gnubg-final.txt")
	if err != nil {
		t.Fatal(err)
	}
	resigned := map[string]bool{"ours-seed11-match3.mat": true}
	n, gaveUp := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(line)
		name, wantID := f[0], f[1]
		money := strings.HasPrefix(name, "ours-money-")
		if money {
			// gnubg imports our export of a session to the same position
			// as its own export of it; on money-session-s3 its import
			// gives up on both (a take followed by a resignation, a few
			// games in: "Take record found but doesn't follow a double").
			if len(f) != 3 || f[2] != wantID {
				t.Errorf("%s: gnubg imports ours to %s, its own to %v", name, wantID, f[2:])
			}
			if wantID == ":" {
				gaveUp++
				continue
			}
		}
		orig, err := os.ReadFile("../../../testdata/backgammon/mat/" + strings.TrimPrefix(name, "ours-"))
		if err != nil {
			t.Fatal(err)
		}
		om, err := Read(orig)
		if err != nil {
			t.Fatal(err)
		}
		noJacoby := strings.Contains(name, "jacoby-off")
		ourMoves, ourFinal := replayWith(t, name, om, noJacoby)
		ourMoves = withoutDeclined(ourMoves) // not in the format
		if money {
			// gnubg's re-export of a session loses games and rolls next
			// to resignations (its import does the same to its own file),
			// so only the final state is compared: the gnubg ID gnubg
			// reaches importing our file and its own, score bits included.
			// After an accepted resignation only the position (the turn
			// bit of gnubg's import differs, as in the matches).
			if pos, _, _ := strings.Cut(wantID, ":"); ourFinal.PositionID() != pos || ourFinal.End() != "resigned" && gnubgID(ourFinal) != wantID {
				t.Errorf("%s: ends %s; gnubg's import of it and of its own file %s", name, gnubgID(ourFinal), wantID)
			}
			t.Logf("%s: ours %s (%s), gnubg's import %s", name, gnubgID(ourFinal), ourFinal.End(), wantID)
			n++
			continue
		}
		back, err := os.ReadFile("../../../testdata/backgammon/mat/gnubg-reimport/" + name)
		if err != nil {
			t.Fatal(err)
		}
		bm, err := Read(back)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		moves, final := replayWith(t, name+" (gnubg)", bm, noJacoby)
		if !slices.Equal(moves, ourMoves) || final != ourFinal {
			t.Errorf("%s: gnubg's re-export replays to %s; ours to %s", name, final, ourFinal)
		}
		got := gnubgID(final)
		if resigned[name] {
			got, wantID = final.PositionID(), strings.Split(wantID, ":")[0]
		}
		if got != wantID {
			t.Errorf("%s: ends %s; gnubg shows %s", name, got, wantID)
		}
		n++
	}
	if n < 9 || gaveUp > 1 {
		t.Errorf("%d records checked, %d given up by gnubg", n, gaveUp)
	}
}

// TestGnubgPositionsEveryMove: the gnubg IDs gnubg showed while it played
// each match (its board after every action, captured from "play" by
// scripts/gnubg-mat.sh into <record>.ids) all appear, in order, among the
// states the record's replay passes through.
func TestGnubgPositionsEveryMove(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/backgammon/mat/seed*.ids")
	if len(files) < 5 {
		t.Fatalf("%d .ids files", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(string(raw))
		data, err := os.ReadFile(strings.TrimSuffix(f, ".ids") + ".mat")
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		mvs, err := m.Replay()
		if err != nil {
			t.Fatal(err)
		}
		s, _ := backgammon.New(m.Options())
		seen := []string{s.String()}
		for _, mv := range mvs {
			s, _, err = applyText(s, mv.Notation)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, s.String())
		}
		j := 0
		for _, id := range want {
			k := slices.Index(seen[j:], id)
			if k < 0 {
				t.Errorf("%s: gnubg's %s (after %d of its %d positions matched) is not among the replay's states from %d on", filepath.Base(f), id, j, len(want), j)
				break
			}
			j += k
		}
		t.Logf("%s: %d gnubg positions matched in order among %d states", filepath.Base(f), len(want), len(seen))
	}
}

// TestGnubgMoneySessions: money sessions gnubg 1.07 played with the cube
// (money-*.mat, exported by gnubg as a "0 point match" with the running
// totals in the game headers; made by scripts/gnubg-mat.sh and session.py:
// two of 2 games, Jacoby on and off, and three of 6 to 8 games with
// beavers, raccoons and declined resignations) replay as one session, each
// game won by the player and points gnubg wrote and each starting at the
// running score gnubg wrote; every gnubg ID gnubg showed while playing them,
// score bits included, appears in order among the replay's states, but
// the offers of resignations that were declined (gnubg does not write
// them). The Jacoby rule is found as the file name says: from the record's
// points where a gammon was won with the cube in the middle, else given.
// Written by Write and read back, each replays to the same moves but the
// declined resignations, and Write is stable.
func TestGnubgMoneySessions(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/backgammon/mat/money-*.mat")
	if len(files) < 5 {
		t.Fatalf("%d money .mat files", len(files))
	}
	// Sessions whose points prove the Jacoby rule off (a gammon borne off
	// with the cube in the middle, scored 2).
	inferred := map[string]bool{"money-session-s2-jacoby-off.mat": true}
	total := 0
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if m.Length != 0 || len(m.Games) < 2 {
			t.Fatalf("%s: length %d, %d games", f, m.Length, len(m.Games))
		}
		mvs, err := m.Replay()
		if err != nil {
			t.Fatalf("%s: Replay: %v", f, err)
		}
		noJacoby := strings.Contains(name, "jacoby-off")
		if m.NoJacoby != (noJacoby && inferred[name]) {
			t.Errorf("%s: NoJacoby %v after Replay; want %v", name, m.NoJacoby, noJacoby && inferred[name])
		}
		if m.Beavers != strings.Contains(name, "beavers") {
			t.Errorf("%s: Beavers %v", name, m.Beavers)
		}
		if noJacoby && !m.NoJacoby { // nothing in the record says it: the caller does
			m.NoJacoby = true
			if mvs, err = m.Replay(); err != nil {
				t.Fatal(err)
			}
		}
		moves, final := replay(t, name, m)
		if len(moves) != len(mvs) {
			t.Fatalf("%s: %d moves, %d replayed", name, len(mvs), len(moves))
		}
		last := m.Games[len(m.Games)-1]
		if out := final.Outcome(); int(out.Winner) != last.Winner || out.Points[out.Winner] != last.Points {
			t.Errorf("%s: ends %s %v; gnubg says %d wins %d", name, final, out, last.Winner, last.Points)
		}
		start, _ := backgammon.New(m.Options())
		seen := []string{gnubgID(start)}
		s := start
		kinds := map[string]int{}
		for _, mv := range moves {
			next, am, err := applyText(s, mv)
			if err != nil {
				t.Fatal(err)
			}
			kinds[am.Kind().String()]++
			s = next
			seen = append(seen, gnubgID(s))
		}
		raw, err := os.ReadFile(strings.TrimSuffix(f, ".mat") + ".ids")
		if err != nil {
			t.Fatal(err)
		}
		j, matched, declined := 0, 0, 0
		gids := strings.Fields(string(raw))
		for i, id := range gids {
			k := slices.Index(seen[j:], id)
			if k < 0 && resignOffered(t, id) && i > 0 && i+1 < len(gids) && gids[i+1] == gids[i-1] {
				declined++ // a resignation declined (gnubg's next ID is the one before it): not written
				continue
			}
			if k < 0 {
				t.Fatalf("%s: gnubg's %s (after %d of its positions matched) is not among the replay's states from %d on", name, id, matched, j)
			}
			j += k
			matched++
		}
		total += matched
		t.Logf("%s: %d games, %v; %d gnubg IDs matched in order among %d states, %d declined resignation offers skipped", name, len(m.Games), kinds, matched, len(seen), declined)

		out, err := Write(start, moves, m.Players)
		if err != nil {
			t.Fatalf("%s: Write: %v", name, err)
		}
		m2, err := Read(out)
		if err != nil {
			t.Fatalf("%s: reading what Write wrote: %v\n%s", name, err, out)
		}
		if m2.NoJacoby != m.NoJacoby || m2.Beavers != m.Beavers || len(m2.Games) != len(m.Games) {
			t.Errorf("%s: rewritten: NoJacoby %v, Beavers %v, %d games", name, m2.NoJacoby, m2.Beavers, len(m2.Games))
		}
		moves2, final2 := replay(t, name+" (rewritten)", m2)
		if final2 != final || !slices.Equal(moves2, withoutDeclined(moves)) {
			t.Errorf("%s: rewritten, ends %s; want %s", name, final2, final)
		}
		if again, err := Write(start, moves2, m2.Players); err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: Write is not stable: %v", name, err)
		}
		if dir := os.Getenv("GAMERULES_MAT_DUMP"); dir != "" { // for scripts/gnubg-mat.sh
			if err := os.WriteFile(filepath.Join(dir, "ours-"+name), out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d gnubg IDs matched", total)
}

// gnubgID is a state's gnubg ID as gnubg shows it (the text form without
// the settings words).
func gnubgID(s backgammon.State) string { return s.PositionID() + ":" + s.MatchID() }

// resignOffered says whether a gnubg ID's Match ID has a resignation
// offered (bits 13-14) while the game goes on (game state 1).
func resignOffered(t *testing.T, id string) bool {
	t.Helper()
	_, mid, _ := strings.Cut(id, ":")
	k, err := base64.StdEncoding.DecodeString(mid)
	if err != nil || len(k) != 9 {
		t.Fatalf("Match ID %q: %v", mid, err)
	}
	bit := func(b int) int { return int(k[b>>3]>>(b&7)) & 1 }
	return bit(13)|bit(14) != 0 && bit(8)|bit(9)<<1|bit(10)<<2 == 1
}

// withoutDeclined drops the resignations that were declined (each
// "resign ..." followed by "decline") from moves.
func withoutDeclined(moves []string) []string {
	var out []string
	for i := 0; i < len(moves); i++ {
		if strings.HasPrefix(moves[i], "resign ") && i+1 < len(moves) && moves[i+1] == "decline" {
			i++
			continue
		}
		out = append(out, moves[i])
	}
	return out
}

// TestGnubgInPlayResignation: the gnubg ID gnubg 1.07 shows while playing,
// right after a resignation is accepted (testdata/backgammon/mat/
// gnubg-inplay-resigned.txt, by scripts/gnubg-mat.sh), is the one our
// replay of the record ends in: game state 3 (resigned), the resignation
// level kept and the turn bit on the winner — what gnubg's "import mat"
// shows instead (turn bit on the loser, TestGnubgReadsOurExports) is its
// import's, not its play's. A money session replays as one, so the score
// bits (the session's running totals) agree too.
func TestGnubgInPlayResignation(t *testing.T) {
	raw, err := os.ReadFile("../../../testdata/backgammon/mat/gnubg-inplay-resigned.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		name, want, _ := strings.Cut(line, " ")
		data, err := os.ReadFile("../../../testdata/backgammon/mat/" + name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		_, final := replayWith(t, name, m, strings.Contains(name, "jacoby-off"))
		got := final.PositionID() + ":" + final.MatchID()
		if got != want {
			t.Errorf("%s: ends %s; gnubg showed %s after the accept", name, got, want)
		}
		if final.Turn() != m.Games[len(m.Games)-1].Winner {
			t.Errorf("%s: %d to act after the accept; the winner is %d", name, final.Turn(), m.Games[len(m.Games)-1].Winner)
		}
		n++
	}
	if n < 2 {
		t.Errorf("%d records checked", n)
	}
}

// TestCrawfordAtMatchPoint: a match record that starts with one player at
// match length - 1 starts with the Crawford game, unless its first game has
// a double (then it is post-Crawford). The hand-made record
// (testdata/backgammon/mat/handmade/postcrawford-4-2.mat, a gnubg game
// with its header score set to 4-2) doubles in its first game: it replays
// post-Crawford to gnubg's final position; gnubg's "import mat" (its ID in
// handmade/gnubg-import.txt) takes the game for the Crawford game by the
// score and keeps the Match ID's Crawford bit (7) set although a double
// was played — the only bit that differs.
func TestCrawfordAtMatchPoint(t *testing.T) {
	data, err := os.ReadFile("../../../testdata/backgammon/mat/handmade/postcrawford-4-2.mat")
	if err != nil {
		t.Fatal(err)
	}
	want := handmadeImport(t)["postcrawford-4-2.mat"]
	m, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if o := m.Options(); o.Crawford || o.Score != [2]int{4, 2} || o.MatchLength != 5 {
		t.Errorf("options %+v; want post-Crawford at 4-2", o)
	}
	_, final := replay(t, "postcrawford", m)
	k, _ := base64.StdEncoding.DecodeString(strings.Split(want, ":")[1])
	k[0] &^= 1 << 7 // gnubg's import: the Crawford flag
	if got := gnubgID(final); got != strings.Split(want, ":")[0]+":"+base64.StdEncoding.EncodeToString(k) || final.Crawford() {
		t.Errorf("ends %s; gnubg's import %s (Crawford bit aside)", got, want)
	}
	if a, b := final.Score(); a != 4 || b != 3 || final.Outcome().Points[1] != 1 {
		t.Errorf("ends at %d-%d, %v", a, b, final.Outcome())
	}
	// Without a double it is the Crawford game, where a double is illegal.
	const crawford = " 5 point match\n\n Game 1\n a : 2                          b : 4\n  1) 31: 8/5 6/5                42: 8/4 6/4\n"
	m, err = Read([]byte(crawford))
	if err != nil {
		t.Fatal(err)
	}
	if o := m.Options(); !o.Crawford || o.Score != [2]int{2, 4} {
		t.Errorf("options %+v; want the Crawford game at 2-4", o)
	}
	if _, final := replay(t, "crawford", m); !final.Crawford() || slices.ContainsFunc(final.LegalMoves(), func(mv backgammon.Move) bool { return mv.Kind() == backgammon.KindDouble }) {
		t.Errorf("%s: not the Crawford game", final)
	}
}

// TestMoneySettingsTags: Write writes the money settings the format lacks
// as gnubg's tags (`; [Jacoby "Off"]`, `; [Beaver "On"]`), Read reads them
// back (any case), and a record without them plays with the Jacoby rule on
// and without beavers, as gnubg's import does by default.
func TestMoneySettingsTags(t *testing.T) {
	start, _ := backgammon.New(backgammon.Options{Cube: true, NoJacoby: true, Beavers: true, Score: [2]int{3, 5}})
	out, err := Write(start, []string{"roll 3-1", "8/5 6/5", "roll 6-4", "24/18 13/9", "double", "beaver", "take", "roll 2-1", "13/11 6/5", "resign single", "decline", "double", "drop"}, [2]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	const want = "; [Jacoby \"Off\"]\n; [Beaver \"On\"]\n 0 point match\n\n Game 1\n a : 3                        b : 5\n" +
		"  1) 31: 8/5 6/5                 64: 24/18 13/9 \n  2)  Doubles => 2                Beavers => 4\n" +
		"  3) 21: 13/11 6/5                Doubles => 8\n  4)  Drops                       Wins 4 points\n"
	if string(out) != want {
		t.Errorf("Write:\n%s\nwant\n%s", out, want)
	}
	// gnubg 1.07 imports it (set jacoby off, set beavers 3) to our end.
	if hm, err := os.ReadFile("../../../testdata/backgammon/mat/handmade/money-tags-beaver.mat"); err != nil || string(hm) != want {
		t.Errorf("handmade/money-tags-beaver.mat is not what Write writes: %v", err)
	}
	s := start
	for _, mv := range []string{"roll 3-1", "8/5 6/5", "roll 6-4", "24/18 13/9", "double", "beaver", "take", "roll 2-1", "13/11 6/5", "double", "drop"} {
		if s, _, err = s.ApplyText(mv); err != nil {
			t.Fatal(err)
		}
	}
	if g := handmadeImport(t)["money-tags-beaver.mat"]; gnubgID(s) != g {
		t.Errorf("ends %s; gnubg's import %s", gnubgID(s), g)
	}
	m, err := Read(out)
	if err != nil || !m.NoJacoby || !m.Beavers || m.Games[0].Score != [2]int{3, 5} {
		t.Fatalf("Read: %+v, %v", m, err)
	}
	mvs, err := m.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mv := range mvs {
		got = append(got, mv.Notation)
	}
	// The take after the beaver comes back; the declined resignation does not.
	if w := "roll 3-1,8/5 6/5,roll 6-4,24/18 13/9,double,beaver,take,roll 2-1,13/11 6/5,double,drop"; strings.Join(got, ",") != w {
		t.Errorf("replay %v\nwant %s", got, w)
	}
	for _, c := range []struct {
		tag           string
		noJacoby, bvs bool
	}{{"", false, false}, {"; [Jacoby \"on\"]\n", false, false}, {"; [Jacoby \"OFF\"]\n; [Beaver \"off\"]\n", true, false}} {
		m, err := Read([]byte(c.tag + " 0 point match\n"))
		if err != nil || m.NoJacoby != c.noJacoby || m.Beavers != c.bvs {
			t.Errorf("Read(%q): NoJacoby %v, Beavers %v, %v", c.tag, m.NoJacoby, m.Beavers, err)
		}
	}
}

// handmadeImport reads testdata/backgammon/mat/handmade/gnubg-import.txt:
// the gnubg ID gnubg shows after importing each hand-made record.
func handmadeImport(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../../../testdata/backgammon/mat/handmade/gnubg-import.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		name, id, _ := strings.Cut(line, " ")
		out[name] = id
	}
	return out
}
