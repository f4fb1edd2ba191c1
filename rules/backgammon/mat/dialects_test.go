package mat

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// gameSummaries are the games of a replay as the gnubg oracle lists them
// (scripts/gnubg-mat-dialects.sh): per game "<left>-<right>:<result>", the
// score at its start and "W+<points>" (the left player won), "B+<points>"
// or "-" (unfinished).
func gameSummaries(m Match, moves []Move) []string {
	out := make([]string, 0, len(m.Games))
	gi := 0
	result := func(s backgammon.State) string {
		if s.Phase() != backgammon.PhaseOver {
			return "-"
		}
		o := s.Outcome()
		return fmt.Sprintf("%s+%d", [2]string{"W", "B"}[o.Winner], o.Points[o.Winner])
	}
	var last backgammon.State
	for i, mv := range moves {
		if mv.Played.Kind() == backgammon.KindNextGame && i > 0 {
			out = append(out, fmt.Sprintf("%d-%d:%s", m.Games[gi].Score[0], m.Games[gi].Score[1], m.gnubgResult(gi, last)))
			gi++
		}
		last = mv.After
	}
	if gi < len(m.Games) {
		out = append(out, fmt.Sprintf("%d-%d:%s", m.Games[gi].Score[0], m.Games[gi].Score[1], m.gnubgResult(gi, last)))
	}
	_ = result
	return out
}

// gnubgResult is game gi's result as gnubg records it, from the state at
// its end: the points the game scored, or at the match's end what the
// "Wins" line gave when it gives the points the winner needed (gnubg
// keeps the record's figure).
func (m Match) gnubgResult(gi int, s backgammon.State) string {
	if s.Phase() != backgammon.PhaseOver {
		return "-"
	}
	o := s.Outcome()
	pts := o.Points[o.Winner]
	if g := m.Games[gi]; g.Winner == o.Winner && m.capped(g, pts) {
		pts = g.Points
	}
	return fmt.Sprintf("%s+%d", [2]string{"W", "B"}[o.Winner], pts)
}

// readOracle reads the oracle's lines: file name -> games ("" when gnubg
// imported nothing).
func readOracle(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		var games []string
		for _, g := range strings.Fields(parts[2]) {
			games = append(games, strings.TrimSuffix(g, "R")) // "R": by resignation
		}
		out[parts[0]] = games
	}
	return out
}

// importSummary imports a file as ImportRecord does (read, replay) and
// sums its games up as the oracle does.
func importSummary(data []byte) ([]string, error) {
	m, err := Read(data)
	if err != nil {
		return nil, err
	}
	moves, err := m.Replay()
	if err != nil {
		return nil, err
	}
	return gameSummaries(m, moves), nil
}

// TestDialectsAgreeWithGnubg: every sample of each dialect
// (testdata/backgammon/mat/dialects/<dialect>/, written for this test from
// the dialects' descriptions) imports with the games gnubg 1.07's "import
// mat" gives (gnubg.tsv, made by scripts/gnubg-mat-dialects.sh): each
// game's starting score, winner and points, and an unfinished last game
// where gnubg has one. Samples gnubg does not import (no games) must be
// refused. With GAMERULES_MAT_DIR and GAMERULES_MAT_ORACLE set, the same
// runs over a directory of public files and the oracle made from them
// (not committed), and reports how many agree per subdirectory.
func TestDialectsAgreeWithGnubg(t *testing.T) {
	dir, oracle := "../../../testdata/backgammon/mat/dialects", "../../../testdata/backgammon/mat/dialects/gnubg.tsv"
	public := os.Getenv("GAMERULES_MAT_DIR") != ""
	if public {
		dir, oracle = os.Getenv("GAMERULES_MAT_DIR"), os.Getenv("GAMERULES_MAT_ORACLE")
	}
	want := readOracle(t, oracle)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	tried, agree := map[string]int{}, map[string]int{}
	for _, f := range files {
		name := filepath.Base(f)
		w, ok := want[name]
		if !ok || strings.HasSuffix(name, ".tsv") {
			continue
		}
		dialect := filepath.Base(filepath.Dir(f))
		tried[dialect]++
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := importSummary(data)
		switch {
		case len(w) == 0 && err != nil:
			agree[dialect]++
		case err != nil:
			if !public {
				t.Errorf("%s/%s: %v; gnubg imports %v", dialect, name, err, w)
			} else {
				t.Logf("%s/%s: %v; gnubg imports %v", dialect, name, err, w)
			}
		case strings.Join(got, " ") != strings.Join(w, " "):
			if !public {
				t.Errorf("%s/%s: %v; gnubg %v", dialect, name, got, w)
			} else {
				t.Logf("%s/%s: %v; gnubg %v", dialect, name, got, w)
			}
		default:
			agree[dialect]++
		}
	}
	total := 0
	for d, n := range tried {
		t.Logf("%s: %d of %d files agree with gnubg", d, agree[d], n)
		total += n
	}
	if total == 0 {
		t.Fatalf("no sample found in %s", dir)
	}
}
