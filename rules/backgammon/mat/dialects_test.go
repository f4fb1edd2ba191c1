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
	return out
}

// gnubgResult is game gi's result as gnubg records it (SGF's RE), from
// the state at its end: the points the game scored, also where a match's
// last "Wins" line gives only the points the winner needed (gnubg records
// the stake of the resignation it restores).
func (m Match) gnubgResult(gi int, s backgammon.State) string {
	if s.Phase() != backgammon.PhaseOver {
		return "-"
	}
	o := s.Outcome()
	return fmt.Sprintf("%s+%d", [2]string{"W", "B"}[o.Winner], o.Points[o.Winner])
}

// oracleFile is what gnubg made of one file: its games as gameSummaries
// writes them (none when gnubg imported nothing) and the gnubg ID it shows
// after the import.
type oracleFile struct {
	games []string
	id    string
}

// readOracle reads the oracle's lines (scripts/gnubg-mat-dialects.sh):
// file name -> what gnubg made of it.
func readOracle(t *testing.T, path string) map[string]oracleFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]oracleFile{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 4 {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		var games []string
		for _, g := range strings.Fields(parts[2]) {
			games = append(games, strings.TrimSuffix(g, "R")) // "R": by resignation
		}
		out[parts[0]] = oracleFile{games, parts[3]}
	}
	return out
}

// importSummary imports a file as ImportRecord does (read, replay) and
// sums its games up as the oracle does, with the replay's final state.
func importSummary(data []byte) ([]string, backgammon.State, error) {
	m, err := Read(data)
	if err != nil {
		return nil, backgammon.State{}, err
	}
	moves, err := m.Replay()
	if err != nil || len(moves) == 0 {
		return nil, backgammon.State{}, err
	}
	return gameSummaries(m, moves), moves[len(moves)-1].After, nil
}

// TestDialectsAgreeWithGnubg: every sample of each dialect
// (testdata/backgammon/mat/dialects/<dialect>/, written for this test from
// the dialects' descriptions) imports with the games gnubg 1.07's "import
// mat" gives (gnubg.tsv, made by scripts/gnubg-mat-dialects.sh): each
// game's starting score, winner and points, and an unfinished last game
// where gnubg has one, in the position gnubg ends in (the dice still to
// play kept, as gnubg keeps them). Samples gnubg does not import (no games) must be
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
		o, ok := want[name]
		w := o.games
		if !ok || strings.HasSuffix(name, ".tsv") {
			continue
		}
		dialect := filepath.Base(filepath.Dir(f))
		tried[dialect]++
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, final, err := importSummary(data)
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
		case len(w) > 0 && w[len(w)-1] == "-" && final.String() != o.id:
			// An unfinished last game: the position and the dice to play
			// (or none) as gnubg keeps them.
			t.Errorf("%s/%s: ends in %s; gnubg in %s", dialect, name, final, o.id)
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
