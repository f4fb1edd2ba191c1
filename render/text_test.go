package render_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/gravitytrap"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// gnubgBoards are the states of testdata/gnubg/<name>.txt.
var gnubgBoards = map[string]string{
	"white-3-1":          "4HPwATDgc/ABMA:MIEFAAAAAAAE",
	"roll":               "LoY4oFGMs3BAUQ:cAkAAAAAAAAE",
	"midgame":            "wbniARGUR3gQRQ:MIEGAAAAAAAE",
	"tall-stack":         "3vEHgAB9BAaMMQ:cIkGAAAAAAAE",
	"bearing-off":        "/xkAAHB/WYAAAA:MAEKAAAAAAAE",
	"cube-centred-match": "sGfwATDgc/ABMA:cAmgAAAAAAAE",
	"bar-and-off":        "g8/hAUDgcxgADA:MAEXAAAAAAAE",
	"cube-owned-match":   "UufgATDgc/ABUA:QQnzADAAEAAE",
	"cube-owned-roll":    "4HPwCSCic/AAWA:AQHgADAAEAAE",
	"bar-match":          "UufgATDgc/ABUA:cAn7ADAAEAAE",
}

// TestBackgammonTextGnubg compares BackgammonText's board with gnubg 1.07's
// own "show board" output for the same state (testdata/gnubg/README.md),
// byte for byte.
func TestBackgammonTextGnubg(t *testing.T) {
	files, _ := filepath.Glob("testdata/gnubg/*.txt")
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "random-boards.txt") })
	if len(files) != len(gnubgBoards) {
		t.Fatalf("%d gnubg boards in testdata, %d states listed", len(files), len(gnubgBoards))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := render.BackgammonText(must(backgammon.ParseState(gnubgBoards[name])), render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(got, "\n")
		if len(lines) < 15 {
			t.Fatalf("%s: %d lines", name, len(lines))
		}
		if board := strings.Join(lines[:15], ""); board != string(want) {
			t.Errorf("%s: BackgammonText's board differs from gnubg's:\n%s\ngnubg:\n%s", name, board, want)
		}
	}
}

type textGolden struct {
	name string
	draw func() (string, error)
}

func bgText(name, text string, o render.Options) textGolden {
	return textGolden{"backgammon-" + name, func() (string, error) {
		return render.BackgammonText(must(backgammon.ParseState(text)), o)
	}}
}

var textGoldens = []textGolden{
	bgText("white-3-1", "4HPwATDgc/ABMA:MIEFAAAAAAAE", render.Options{}),
	bgText("white-3-1-black-side", "4HPwATDgc/ABMA:MIEFAAAAAAAE", side(1)),
	bgText("opening", "4HPwATDgc/ABMA:MAAAAAAAAAAE", render.Options{}),
	bgText("bar-and-off", "g8/hAUDgcxgADA:MAEXAAAAAAAE", render.Options{}),
	bgText("cube-owned-match", "UufgATDgc/ABUA:QQnzADAAEAAE", render.Options{}),
	bgText("double-offered", "4HPwCSCic/AAWA:ARngADAAEAAE", render.Options{}),
	bgText("resignation", "kmfwAQXCOXgAbA:MKnpADAAEAAE", render.Options{}),
	bgText("over-backgammon", "AAAA7jcBSAQAAA:cAoAADAAAAAE", render.Options{}),
	abText("classic", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", render.Options{}),
	abText("classic-white-side", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", side(1)),
	abText("midgame-ply-limit", "ww1b1/wwwbbb/2ww1bb/5b2/9/3b4/1bb1www/bbbwww/1b1w1 w 5/12", render.Options{}),
	abText("won", "wwwww/wwwwww/2www2/8/9/8/7/bbbbbb/3bb b", render.Options{}),
	abText("highlight-a1-b2-no-coordinates", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", render.Options{From: "a1", To: "b2", HideCoordinates: true}),
	lbTextGolden("start-3-players-vader", lbText(lbStart3), render.Options{}),
	lbTextGolden("move-phase", lbText("69eAceB5c/ca*7N9bQa9/7Ca7D9UeE9dF/9WabM53eR5/7G7ObHadI6VdJ/66aePcT6X3S/35bKabLa9 a R11,Y17,G77,V22 N4 Rm :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"), render.Options{}),
	lbTextGolden("view-of-yellow", lbText(lbStart3), side(1)),
	lbTextGolden("four-players", func() labyrinth.State { return must(labyrinth.New(labyrinth.Options{Players: 4, Seed: 3})) }, render.Options{}),
	lbTextGolden("over-no-coordinates", lbText("67NeA5eBa*c/53T9c9V5dR/7C3S7DbOeEeQdF/9W3U5dP95a/7G6bH9dIcdJ/53X3ceMa9/35bKabL59 5 R67,Y17,V42 N2 - OKTVUFBM:NILH,GXCPRWJAQSED: v"), render.Options{HideCoordinates: true}),
	gtTextGolden("red-to-move", gtText("RoooBooooooooooooooooo r"), render.Options{}),
	gtTextGolden("empty-red-places", gtText("...................... R"), render.Options{}),
	gtTextGolden("late", gtText("....B...ooo.oooo.o.Roo r"), render.Options{}),
	gtTextGolden("over", gtText(".........R..oooo.o...B b"), render.Options{}),
	gtTextGolden("rings-late-no-coordinates", gtText("oooooooooB.oooooooo.R. b rings"), render.Options{HideCoordinates: true}),
}

func abText(name, text string, o render.Options) textGolden {
	return textGolden{"abalone-" + name, func() (string, error) {
		return render.AbaloneText(must(abalone.ParseState(text)), o)
	}}
}

func lbTextGolden(name string, s func() labyrinth.State, o render.Options) textGolden {
	return textGolden{"labyrinth-" + name, func() (string, error) { return render.LabyrinthText(s(), o) }}
}

func gtTextGolden(name string, s func() gravitytrap.State, o render.Options) textGolden {
	return textGolden{"gravitytrap-" + name, func() (string, error) { return render.GravityTrapText(s(), o) }}
}

// TestTextGoldens compares each text board with testdata/text/<name>.txt;
// `go test ./render -update` rewrites them (look at the diff before
// committing).
func TestTextGoldens(t *testing.T) {
	for _, g := range textGoldens {
		got, err := g.draw()
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if !strings.HasSuffix(got, "\n") || strings.ContainsAny(got, "\t\r") {
			t.Errorf("%s: not plain lines", g.name)
		}
		for _, r := range got {
			if r > 126 || (r < 32 && r != '\n') {
				t.Fatalf("%s: non-ASCII %q", g.name, r)
			}
		}
		path := filepath.Join("testdata", "text", g.name+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./render -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from the golden file:\n%s\nwant:\n%s", path, got, want)
		}
	}
}

// TestTextOptions checks that the text functions refuse what the SVG ones
// refuse, with the same field.
func TestTextOptions(t *testing.T) {
	s := must(backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE"))
	for _, c := range []struct {
		o     render.Options
		field string
	}{
		{render.Options{HasSide: true, Side: 2}, "side"},
		{render.Options{From: "25"}, "highlight_from"},
		{render.Options{Size: 5}, "size"},
	} {
		_, err := render.BackgammonText(s, c.o)
		var oe *render.OptionError
		if !errors.As(err, &oe) || oe.Field != c.field || !errors.Is(err, game.ErrInvalidOptions) {
			t.Errorf("BackgammonText(%+v) = %v; want an OptionError on %s", c.o, err, c.field)
		}
		_, svgErr := render.Backgammon(s, c.o)
		if svgErr == nil || svgErr.Error() != err.Error() {
			t.Errorf("SVG error %v, text error %v", svgErr, err)
		}
	}
}

// TestBackgammonTextGnubgRandom compares BackgammonText's board with gnubg
// 1.07's for 81 states of seeded random games (money with and without the
// cube, matches of 3 to 11 points from random scores, cubes doubled and
// taken; PhaseRoll and PhaseMove): testdata/gnubg/random-boards.txt holds
// each state ("state <text>") and the 15 lines gnubg printed for it after
// "set matchid", "set board" (testdata/gnubg/README.md).
func TestBackgammonTextGnubgRandom(t *testing.T) {
	data, err := os.ReadFile("testdata/gnubg/random-boards.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	n := 0
	for i := 0; i+15 < len(lines); i += 16 {
		st, ok := strings.CutPrefix(lines[i], "state ")
		if !ok {
			t.Fatalf("line %d: %q is not a state line", i+1, lines[i])
		}
		got, err := render.BackgammonText(must(backgammon.ParseState(st)), render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(lines[i+1:i+16], "\n") + "\n"
		if board := strings.Join(strings.SplitAfter(got, "\n")[:15], ""); board != want {
			t.Errorf("%s: BackgammonText's board differs from gnubg's:\n%s\ngnubg:\n%s", st, board, want)
		}
		n++
	}
	if n != 81 {
		t.Errorf("%d boards compared; want 81", n)
	}
}

// TestTextBoardsFollowPlay plays seeded random games of Abalone and Gravity
// Trap and reads each text board back: Abalone's rows hold exactly the
// marbles of each colour on their cells, and Gravity Trap's line list gives
// every station's content.
func TestTextBoardsFollowPlay(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 5))
	checked := 0
	for g := 0; g < 4; g++ {
		s := must(abalone.New(abalone.Options{}))
		for ply := 0; ply < 60 && !s.Outcome().Finished; ply++ {
			txt := must(render.AbaloneText(s, render.Options{}))
			rows := strings.Split(txt, "\n")[:9]
			for i, row := range rows {
				f := strings.Fields(row)
				letter := byte('I' - i)
				if f[0] != string(letter) {
					t.Fatalf("row %d starts %q", i, f[0])
				}
				for k, ch := range f[1:] {
					if k >= 9 || ch[0] >= '0' && ch[0] <= '9' {
						break // the diagonal number
					}
					lo := 1
					if letter > 'E' {
						lo = int(letter-'E') + 1
					}
					c := abalone.CellAt(letter, lo+k)
					want := map[int]string{-1: ".", 0: "B", 1: "W"}[s.At(c)]
					if ch != want {
						t.Fatalf("%s: %s shows %q; want %q\n%s", s, c, ch, want, txt)
					}
					checked++
				}
			}
			moves := s.LegalMoves()
			s = must(s.Apply(moves[r.IntN(len(moves))]))
		}
	}
	for g := 0; g < 4; g++ {
		s := must(gravitytrap.New(gravitytrap.Options{}))
		for ply := 0; ply < 40 && !s.Outcome().Finished; ply++ {
			txt := must(render.GravityTrapText(s, render.Options{}))
			for _, l := range strings.Split(txt, "\n") {
				rest, ok := strings.CutPrefix(l, "line ")
				if !ok {
					continue
				}
				for _, w := range strings.Fields(rest)[1:] {
					i, err := strconv.Atoi(w[:len(w)-1])
					if err != nil {
						t.Fatal(err)
					}
					want := byte('.')
					switch {
					case s.Ship(0) == i:
						want = 'R'
					case s.Ship(1) == i:
						want = 'B'
					case s.HasMarble(i):
						want = 'o'
					}
					if w[len(w)-1] != want {
						t.Fatalf("%s: station %d shows %c; want %c", s, i, w[len(w)-1], want)
					}
					checked++
				}
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			s = must(s.Apply(moves[r.IntN(len(moves))]))
		}
	}
	if checked < 10000 {
		t.Errorf("only %d cells checked", checked)
	}
	t.Logf("%d cells and stations checked", checked)
}
