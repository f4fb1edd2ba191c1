package apgn

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/gamerules/gamerules/rules/record"
)

// TestArchive: every game of the MIGS archive reads (tags, moves, result as
// the file has them), and each written and read back is the same game,
// written again the same bytes.
func TestArchive(t *testing.T) {
	f, err := os.Open("../../../testdata/abalone/migs-games.apgn.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	games, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1941 {
		t.Fatalf("%d games; want 1941", len(games))
	}
	for _, g := range games {
		if g.Tag("Result") != g.Result || g.Tag("Plies") != "" && g.Tag("Plies") != strconv.Itoa(len(g.Moves)) {
			t.Errorf("%s: result %s, %d moves; tags %v", g.Tag("Event"), g.Result, len(g.Moves), g.Tags)
		}
		out := Write(g)
		back, err := Read(out)
		if err != nil || len(back) != 1 || !reflect.DeepEqual(back[0], g) {
			t.Fatalf("%s: read back %v, %v\n%s", g.Tag("Event"), back, err, out)
		}
		if string(Write(back[0])) != string(out) {
			t.Fatalf("%s: Write not stable", g.Tag("Event"))
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		in        string
		line, col int
	}{
		{"1. a1b2\n", 1, 1},
		{"[Event \"x\"]\n[Bad tag]\n", 2, 1},
		{"[Event \"x\"]\n\n1. a1b2 a5b5 3. a2b3\n", 3, 14},
		{"[Event \"x\"]\n\n1. a1b2 a5b5\n2. a2b3 z9z9 *\n", 4, 9},
		{"[Event \"x\"]\n\n1. a1b2 * a5b5\n", 3, 11},
	} {
		_, err := Read([]byte(c.in))
		var re *record.Error
		if !errors.As(err, &re) || re.Line != c.line || re.Column != c.col {
			t.Errorf("Read(%q) = %v; want line %d column %d", c.in, err, c.line, c.col)
		}
	}
}
