package render_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
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

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata/")

// golden is one picture: a name (the file testdata/<name>.svg), how to
// draw it, and ids the picture must contain.
type golden struct {
	name string
	draw func() ([]byte, error)
	ids  []string
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func bg(name, text string, o render.Options, ids ...string) golden {
	return golden{"backgammon-" + name, func() ([]byte, error) {
		return render.Backgammon(must(backgammon.ParseState(text)), o)
	}, append(ids, "point-1", "point-24", "bar", "off", "pips-0", "pips-1")}
}

func ab(name, text string, o render.Options, ids ...string) golden {
	return golden{"abalone-" + name, func() ([]byte, error) {
		return render.Abalone(must(abalone.ParseState(text)), o)
	}, append(ids, "cell-a1", "cell-e5", "cell-i9", "lost-0", "lost-1")}
}

func lb(name string, s func() labyrinth.State, o render.Options, ids ...string) golden {
	return golden{"labyrinth-" + name, func() ([]byte, error) {
		return render.Labyrinth(s(), o)
	}, append(ids, "square-r1c1", "square-r7c7", "insert-N2", "insert-W6", "spare", "target-0", "target-1")}
}

func lbText(text string) func() labyrinth.State {
	return func() labyrinth.State { return must(labyrinth.ParseState(text)) }
}

func gt(name string, s func() gravitytrap.State, o render.Options, ids ...string) golden {
	return golden{"gravitytrap-" + name, func() ([]byte, error) {
		return render.GravityTrap(s(), o)
	}, append(ids, "station-0", "line-0", "status")}
}

func gtText(text string) func() gravitytrap.State {
	return func() gravitytrap.State { return must(gravitytrap.ParseState(text)) }
}

func side(p int) render.Options { return render.Options{HasSide: true, Side: p} }

// marks builds Options.Marks from pairs of coordinate and style.
func marks(o render.Options, pairs ...any) render.Options {
	for i := 0; i < len(pairs); i += 2 {
		o.Marks = append(o.Marks, render.Mark{At: pairs[i].(string), Style: pairs[i+1].(render.MarkStyle)})
	}
	return o
}

const (
	dst  = render.MarkDestination
	sel  = render.MarkSelected
	from = render.MarkLastFrom
	to   = render.MarkLastTo
)

// barBoard is a position with checkers of both sides on the bar and some
// borne off: white (on roll, 6-5) has 2 on the bar and 3 off.
func barBoard() string {
	var b backgammon.Board
	b[0] = [25]int{0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}
	b[1] = [25]int{2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	return must(backgammon.FromBoard(b, 0, backgammon.PhaseMove, 6, 5)).String()
}

const lbStart3 = "69eA9eB5c/ca*7N9UbQa9/7Ca7D5eE9dF/9WabMa3eR5/7G7ObHePdI6VdJ/66aacT6X3S/35bKabLa9 9 R11,Y17,G77,V22 - Rs :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"

var goldens = []golden{
	bg("opening", "4HPwATDgc/ABMA:MAAAAAAAAAAE", render.Options{}),
	bg("white-3-1", "4HPwATDgc/ABMA:MIEFAAAAAAAE", render.Options{}, "dice"),
	bg("white-3-1-black-side", "4HPwATDgc/ABMA:MIEFAAAAAAAE", side(1), "dice"),
	bg("highlight-8-5", "4HPwATDgc/ABMA:MIEFAAAAAAAE", render.Options{From: "8", To: "5"}),
	bg("roll", "LoY4oFGMs3BAUQ:cAkAAAAAAAAE", render.Options{}),
	bg("midgame", "wbniARGUR3gQRQ:MIEGAAAAAAAE", render.Options{}, "dice"),
	bg("midgame-2", "PiiQ4DEaa+ICJA:cAkPAAAAAAAE", render.Options{}, "dice"),
	bg("tall-stack", "3vEHgAB9BAaMMQ:cIkGAAAAAAAE", render.Options{}, "dice"),
	bg("bearing-off", "/xkAAHB/WYAAAA:MAEKAAAAAAAE", render.Options{}, "dice"),
	bg("bar-and-off", barBoard(), render.Options{From: "bar", To: "off"}, "dice", "bar-opponent", "off-opponent"),
	bg("over-single", "AAAA/r0AAAAAAA:MAIAAAAACAAE", render.Options{}),
	bg("over-backgammon", "AAAA7jcBSAQAAA:cAoAADAAAAAE", render.Options{}),
	bg("cube-centred-match", "sGfwATDgc/ABMA:cAmgAAAAAAAE", render.Options{}, "cube"),
	bg("double-offered", "sGfwATDgc/ABMA:cBGgAAAAAAAE", render.Options{}, "cube"),
	{"backgammon-cube-2-taken", func() ([]byte, error) {
		s := must(backgammon.ParseState("sGfwATDgc/ABMA:cBGgAAAAAAAE"))
		return render.Backgammon(must(s.Apply(must(backgammon.ParseMove(s, "take")))), render.Options{})
	}, []string{"cube", "point-1", "bar", "off"}},
	// White 3-1 from the start with 8 selected (8/5, 8/7 and 8/7/4 reach
	// 5, 7 and 4); black's play 24/22 13/9 seen from white's side is 1->3
	// and 12->16 (16 listed twice: drawn once).
	bg("marks-white-3-1", "4HPwATDgc/ABMA:MIEFAAAAAAAE", marks(render.Options{}, "8", sel, "5", dst, "7", dst, "4", dst, "1", from, "3", to, "12", from, "16", to, "16", to),
		"mark-selected-8", "mark-destination-5", "mark-destination-7", "mark-destination-4", "mark-last-from-1", "mark-last-to-16"),
	bg("marks-bar-off-opponent", barBoard(), marks(side(1), "bar-opponent", sel, "off-opponent", dst, "off", to),
		"mark-selected-bar-opponent", "mark-destination-off-opponent", "mark-last-to-off"),
	bg("small-no-coordinates", "14IgSiV+gNQYQQ:MIEOAAAAAAAE", render.Options{Size: 300, HideCoordinates: true}, "dice"),
	bg("partial-3-1-8-5", "4HPwATDgc/ABMA:MIEFAAAAAAAE", render.Options{HasPartial: true, Partial: "8/5"}, "dice", "partial"),

	ab("classic", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", render.Options{}),
	ab("classic-white-side", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", side(1)),
	ab("belgian-daisy-ply-limit", "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0/12", render.Options{}),
	ab("midgame", "ww1b1/wwwbbb/2ww1bb/5b2/9/3b4/1bb1www/bbbwww/1b1w1 w 5/12", render.Options{}),
	ab("midgame-2", "1w1bb/wwwbb1/w4b1/3wwb1b/9/3b4/1bb1www/bbbwww/1b1w1 w 9/12", render.Options{}),
	ab("ply-limit-reached", "1w1bb/wwwb1b/w4b1/5b1b/4ww3/3b4/1bb1ww1/bbbwww/1b1ww b 12/12", render.Options{}),
	ab("three-lost", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/3bb w", render.Options{}),
	ab("won", "wwwww/wwwwww/2www2/8/9/8/7/bbbbbb/3bb b", render.Options{}),
	ab("highlight-a1-b2", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", render.Options{From: "a1", To: "b2"}),
	ab("marks-white-side", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", marks(side(1), "C3", sel, "d3", dst, "d4", dst, "h5", from, "g5", to),
		"mark-selected-c3", "mark-destination-d3", "mark-destination-d4", "mark-last-from-h5", "mark-last-to-g5"),
	ab("small-no-coordinates", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", render.Options{Size: 240, HideCoordinates: true}),

	lb("start-3-players-vader", lbText(lbStart3), render.Options{}, "vader", "ship-red", "target-2"),
	lb("move-phase", lbText("69eAceB5c/ca*7N9bQa9/7Ca7D9UeE9dF/9WabM53eR5/7G7ObHadI6VdJ/66aePcT6X3S/35bKabLa9 a R11,Y17,G77,V22 N4 Rm :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"), render.Options{}, "vader"),
	lb("shift-after-N4", lbText("69eAceB5c/ca*7N9bQa9/7Ca7D9UeE9dF/9WabM53eR5/7G7ObHadI6VdJ/66aePcT6X3S/35bKabLa9 a R11,Y17,G77,V22 N4 Ys :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"), render.Options{}),
	lb("shift-after-E6", lbText("69eAceB5c/ca*7N9bQa9/7Ca7D9UeE9dF/9WabM53eR5/7G7ObHadI6VdJ/6aePcT6X3Sa/35bKabLa9 6 R11,Y17,G77,V22 E6 Gs :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"), render.Options{}),
	lb("shift-after-S4", lbText("69eA9eBac/ca*7N9UbQ99/7Ca7D5eEeRdF/9WabMa36V5/7G7ObHcTdI3SdJ/6aePa6Xaa/35bKabL99 c R11,Y17,G77,V22 S4 Rm :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"), render.Options{}),
	lb("view-of-yellow", lbText(lbStart3), side(1)),
	lb("spectator", lbText(lbStart3), side(-1)),
	lb("two-players", lbText("63TeA5eB9c/9V5*cX5a55/7C57D3eEeMdF/6S56dP5eQ5/7G5bHbOdI5dJ/c3W3bR336/39bK7NbL3U9 a R11,Y17,V22 - Rs :OKTVUFBMNILH,:GXCPRWJAQSED v"), render.Options{}),
	lb("four-players", func() labyrinth.State { return must(labyrinth.New(labyrinth.Options{Players: 4, Seed: 3})) }, render.Options{}, "target-3", "ship-blue"),
	lb("over", lbText("67NeA5eBa*c/53T9c9V5dR/7C3S7DbOeEeQdF/9W3U5dP95a/7G6bH9dIcdJ/53X3ceMa9/35bK5bL59 5 R67,Y17,V42 N2 - OKTVUFBM:NILH,GXCPRWJAQSED: v"), render.Options{}),
	lb("highlight-N4-r3c5", lbText(lbStart3), render.Options{From: "N4", To: "r3c5"}),
	lb("marks-shift", lbText(lbStart3), marks(render.Options{}, "n2", dst, "E4", dst, "s6", from, "r7c6", to),
		"mark-destination-N2", "mark-destination-E4", "mark-last-from-S6", "mark-last-to-r7c6"),
	lb("marks-move-phase", lbText("69eAceB5c/ca*7N9bQa9/7Ca7D9UeE9dF/9WabM53eR5/7G7ObHadI6VdJ/66aePcT6X3S/35bKabLa9 a R11,Y17,G77,V22 N4 Rm :PLXCMNVA,:IUKBJGOF,:TSHEQRWD v"),
		marks(render.Options{}, "r1c1", dst, "r1c2", dst, "r2c1", dst, "r1c3", dst, "N4", from),
		"mark-destination-r1c1", "mark-destination-r1c3", "mark-last-from-N4"),
	lb("small-no-coordinates", lbText(lbStart3), render.Options{Size: 300, HideCoordinates: true}),

	gt("empty-red-places", gtText("...................... R"), render.Options{}),
	gt("blue-places", gtText("R..................... B"), render.Options{}),
	gt("red-to-move", gtText("RoooBooooooooooooooooo r"), render.Options{}),
	gt("midgame", gtText("...Ro...ooooooooBooooo r"), render.Options{}),
	gt("late", gtText("....B...ooo.oooo.o.Roo r"), render.Options{}),
	gt("over", gtText(".........R..oooo.o...B b"), render.Options{}),
	gt("rings-board", gtText("ooooooooooBooooooooRoo r rings"), render.Options{}),
	gt("rings-late", gtText("oooooooooB.oooooooo.R. b rings"), render.Options{}),
	gt("highlight-0-8", gtText("RoooBooooooooooooooooo r"), render.Options{From: "0", To: "8"}),
	gt("custom-with-coordinates", func() gravitytrap.State {
		b := must(gravitytrap.NewBoard(gravitytrap.BoardDef{
			Stations: []gravitytrap.Station{{ID: 0, X: 0, Y: 0}, {ID: 1, X: 2, Y: 0}, {ID: 2, X: 2, Y: 1}, {ID: 3, X: 0, Y: 1}, {ID: 4, X: 1, Y: 2}},
			Lines:    [][]int{{0, 1, 2}, {2, 3, 0}, {3, 4, 2}},
		}))
		return must(gravitytrap.New(gravitytrap.Options{Board: b}))
	}, render.Options{}),
	gt("custom-auto-layout", func() gravitytrap.State {
		b := must(gravitytrap.NewBoard(gravitytrap.BoardDef{
			Stations: []gravitytrap.Station{{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}, {ID: 5}},
			Lines:    [][]int{{0, 1, 2}, {3, 4, 5}, {0, 3}, {1, 4}, {2, 5}},
			Opposite: []int{3, 4, 5, 0, 1, 2},
		}))
		s := must(gravitytrap.New(gravitytrap.Options{Board: b}))
		s = must(s.Apply(must(gravitytrap.ParseMove(s, "place 0"))))
		return must(s.Apply(must(gravitytrap.ParseMove(s, "place 1"))))
	}, render.Options{}),
	gt("marks-rings", gtText("ooooooooooBooooooooRoo r rings"), marks(render.Options{}, "19", sel, "18", dst, "20", dst, "0", from, "10", to),
		"mark-selected-19", "mark-destination-18", "mark-destination-20", "mark-last-from-0", "mark-last-to-10"),
	gt("small-no-coordinates", gtText("RoooBooooooooooooooooo r"), render.Options{Size: 200, HideCoordinates: true}),
}

// TestGolden draws every position and compares it with its golden file;
// `go test ./render -update` rewrites them. Each picture must be
// well-formed XML with an <svg> root and the ids a page binds clicks to.
func TestGolden(t *testing.T) {
	perGame := map[string]int{}
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			got, err := g.draw()
			if err != nil {
				t.Fatalf("draw: %v", err)
			}
			checkSVG(t, got, g.ids)
			path := filepath.Join("testdata", g.name+".svg")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./render -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file; look at both and run go test ./render -update if the change is intended", path)
			}
		})
		perGame[strings.SplitN(g.name, "-", 2)[0]]++
	}
	for _, game := range []string{"backgammon", "abalone", "labyrinth", "gravitytrap"} {
		if perGame[game] < 10 {
			t.Errorf("%s has %d golden positions; want at least 10", game, perGame[game])
		}
	}
}

// checkSVG parses doc as XML and checks the root and the ids.
func checkSVG(t *testing.T, doc []byte, ids []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	seen := map[string]int{}
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			for _, a := range se.Attr {
				if a.Name.Local == "id" {
					seen[a.Value]++
				}
			}
		}
	}
	if root != "svg" {
		t.Errorf("root element is <%s>; want <svg>", root)
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("id %q appears %d times", id, n)
		}
	}
	for _, id := range ids {
		if seen[id] == 0 {
			t.Errorf("no element with id %q", id)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	bgs := must(backgammon.New(backgammon.Options{}))
	abs := must(abalone.New(abalone.Options{}))
	lbs := must(labyrinth.New(labyrinth.Options{Players: 2, Seed: 1}))
	gts := must(gravitytrap.New(gravitytrap.Options{}))
	cases := []struct {
		name  string
		err   error
		field string
	}{
		{"size too small", second(render.Backgammon(bgs, render.Options{Size: 99})), "size"},
		{"size too large", second(render.Abalone(abs, render.Options{Size: 4097})), "size"},
		{"side 2", second(render.Backgammon(bgs, render.Options{HasSide: true, Side: 2})), "side"},
		{"abalone side -1", second(render.Abalone(abs, render.Options{HasSide: true, Side: -1})), "side"},
		{"labyrinth side 2 of 2", second(render.Labyrinth(lbs, render.Options{HasSide: true, Side: 2})), "side"},
		{"backgammon point 25", second(render.Backgammon(bgs, render.Options{From: "25"})), "highlight_from"},
		{"backgammon point 07", second(render.Backgammon(bgs, render.Options{To: "07"})), "highlight_to"},
		{"abalone cell j1", second(render.Abalone(abs, render.Options{From: "j1"})), "highlight_from"},
		{"labyrinth N3", second(render.Labyrinth(lbs, render.Options{From: "N3"})), "highlight_from"},
		{"labyrinth r8c1", second(render.Labyrinth(lbs, render.Options{To: "r8c1"})), "highlight_to"},
		{"gravity trap 22", second(render.GravityTrap(gts, render.Options{To: "22"})), "highlight_to"},
		{"mark backgammon 0", second(render.Backgammon(bgs, marks(render.Options{}, "0", dst))), "marks"},
		{"mark backgammon bar-Opponent ok, 25 not", second(render.Backgammon(bgs, marks(render.Options{}, "bar-opponent", dst, "25", dst))), "marks"},
		{"mark abalone j1", second(render.Abalone(abs, marks(render.Options{}, "j1", sel))), "marks"},
		{"mark labyrinth N3", second(render.Labyrinth(lbs, marks(render.Options{}, "N3", to))), "marks"},
		{"mark gravity trap 22", second(render.GravityTrap(gts, marks(render.Options{}, "22", from))), "marks"},
		{"mark style 0", second(render.GravityTrap(gts, marks(render.Options{}, "2", render.MarkStyle(0)))), "marks"},
		{"mark style 5", second(render.Abalone(abs, marks(render.Options{}, "e5", render.MarkStyle(5)))), "marks"},
		{"too many marks", second(render.GravityTrap(gts, render.Options{Marks: make([]render.Mark, render.MaxMarks+1)})), "marks"},
		{"partial play, abalone", second(render.Abalone(abs, render.Options{HasPartial: true})), "partial_play"},
		{"partial play, opening phase", second(render.Backgammon(bgs, render.Options{HasPartial: true})), "partial_play"},
		{"partial play 8/3 with 3-1", second(render.Backgammon(must(backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE")), render.Options{HasPartial: true, Partial: "8/3"})), "partial_play"},
	}
	for _, c := range cases {
		var oe *render.OptionError
		if !errors.As(c.err, &oe) || oe.Field != c.field || !errors.Is(c.err, game.ErrInvalidOptions) {
			t.Errorf("%s: error %v; want an *OptionError on %s wrapping ErrInvalidOptions", c.name, c.err, c.field)
		}
	}
	// Labyrinth accepts the spectator, -1.
	if _, err := render.Labyrinth(lbs, render.Options{HasSide: true, Side: -1}); err != nil {
		t.Errorf("Labyrinth(side -1) = %v; want no error", err)
	}
}

func second(_ []byte, err error) error { return err }

// TestGravityTrapHugeCoordinates: finite station coordinates near the
// float64 maximum (whose span overflows) still draw every station, with no
// NaN or Inf in the picture.
func TestGravityTrapHugeCoordinates(t *testing.T) {
	b := must(gravitytrap.NewBoard(gravitytrap.BoardDef{
		Stations: []gravitytrap.Station{{ID: 0, X: -math.MaxFloat64, Y: 0}, {ID: 1, X: math.MaxFloat64, Y: 0}, {ID: 2, X: 0, Y: math.MaxFloat64}, {ID: 3, X: 0, Y: -math.MaxFloat64}, {ID: 4, X: 1e300, Y: 1e300}},
		Lines:    [][]int{{0, 1, 2}, {2, 3, 0}, {3, 4, 2}},
	}))
	svg, err := render.GravityTrap(must(gravitytrap.New(gravitytrap.Options{Board: b})), render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(svg); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") || !strings.Contains(s, `id="station-4"`) {
		t.Errorf("huge coordinates: %.600s", s)
	}
}

// TestGravityTrapLabelsClear: on both built-in boards every station id is
// drawn clear of every station's disc (the label's box, 8 units a digit
// wide and 14 high around its centre, does not meet any disc),
// and the two boards' lines are drawn differently (the rings board has
// fewer lines, each ring in one colour).
func TestGravityTrapLabelsClear(t *testing.T) {
	type disc struct{ x, y, r float64 }
	lines := map[string]int{}
	for _, board := range []string{"default", "rings"} {
		b := must(gravitytrap.BuiltinBoard(board))
		doc := must(render.GravityTrap(must(gravitytrap.New(gravitytrap.Options{Board: b})), render.Options{}))
		var discs []disc
		var labels [][3]float64 // x, y, station
		dec := xml.NewDecoder(bytes.NewReader(doc))
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			se, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			attr := map[string]string{}
			for _, a := range se.Attr {
				attr[a.Name.Local] = a.Value
			}
			num := func(k string) float64 { f, _ := strconv.ParseFloat(attr[k], 64); return f }
			switch {
			case se.Name.Local == "circle" && attr["class"] == "stn":
				discs = append(discs, disc{num("cx"), num("cy"), num("r")})
			case se.Name.Local == "text" && attr["class"] == "coord":
				var content string
				if cd, ok := must(dec.Token()).(xml.CharData); ok {
					content = string(cd)
				}
				labels = append(labels, [3]float64{num("x"), num("y"), float64(len(content))})
			case se.Name.Local == "path" && strings.HasPrefix(attr["id"], "line-"):
				lines[board]++
			}
		}
		if len(labels) != len(discs) || len(discs) != b.NumStations() {
			t.Fatalf("%s: %d labels, %d discs; want %d of each", board, len(labels), len(discs), b.NumStations())
		}
		for i, l := range labels {
			hw, hh := 4*l[2], 7.0
			for j, d := range discs {
				// The distance from the disc's centre to the nearest point
				// of the label's box.
				dx := math.Max(math.Abs(d.x-l[0])-hw, 0)
				dy := math.Max(math.Abs(d.y-l[1])-hh, 0)
				if dist := math.Hypot(dx, dy); dist < d.r {
					t.Errorf("%s board: the label of station %d comes within %.1f units of the centre of station %d's disc (radius %.1f)", board, i, dist, j, d.r)
				}
			}
		}
		if !bytes.Contains(doc, []byte(`id="board-name" data-board="`+board+`"`)) {
			t.Errorf("%s board: the picture does not name the board", board)
		}
	}
	if lines["default"] == lines["rings"] {
		t.Errorf("the default and rings boards draw %d lines each; want the lines as the boards define them", lines["default"])
	}
}

// TestBackgammonPointNames: from either side, each point carries its name
// in both players' notation (point p of one player is 25-p of the other),
// and each bar and tray its owner's "bar"/"off", so a client can map a
// play's notation onto a board drawn from a fixed side.
func TestBackgammonPointNames(t *testing.T) {
	s := must(backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE"))
	for drawn := 0; drawn < 2; drawn++ {
		doc := string(must(render.Backgammon(s, side(drawn))))
		for p := 1; p <= 24; p++ {
			want := fmt.Sprintf(`id="point-%d" data-point="%d" data-point-%d="%d" data-point-%d="%d"`, p, p, drawn, p, 1-drawn, 25-p)
			if !strings.Contains(doc, want) {
				t.Errorf("side %d: no %s", drawn, want)
			}
		}
		for _, w := range []string{
			fmt.Sprintf(`id="bar" data-point="bar" data-point-%d="bar"`, drawn),
			fmt.Sprintf(`id="bar-opponent" data-point="bar" data-point-%d="bar"`, 1-drawn),
			fmt.Sprintf(`id="off" data-point="off" data-point-%d="off"`, drawn),
			fmt.Sprintf(`id="off-opponent" data-point="off" data-point-%d="off"`, 1-drawn),
		} {
			if !strings.Contains(doc, w) {
				t.Errorf("side %d: no %s", drawn, w)
			}
		}
	}
}

// TestGravityTrapSharedLines draws a custom board of 12 stations and 64
// lines that all meet at station 0 (the worst case for line colouring:
// every line shares a station with every other) and checks each line's
// colour against the rule written out here: the lowest of the four colours
// no earlier line sharing a station has, else the line's index mod 4. A
// colouring that recomputes the earlier lines' colours recursively doubles
// its work per line and never finishes here.
func TestGravityTrapSharedLines(t *testing.T) {
	def := gravitytrap.BoardDef{}
	for i := 0; i < 12; i++ {
		def.Stations = append(def.Stations, gravitytrap.Station{ID: i})
	}
	for a := 1; a < 12; a++ {
		def.Lines = append(def.Lines, []int{0, a})
		for b := a + 1; b < 12 && len(def.Lines) < 64; b++ {
			def.Lines = append(def.Lines, []int{b, 0, a})
		}
	}
	def.Lines = def.Lines[:64]
	// Two lines away from station 0 (every colour is taken around them).
	def.Lines = append(def.Lines, []int{5, 6, 7, 8}, []int{9, 10, 11, 1})
	b := must(gravitytrap.NewBoard(def))
	svg, err := render.GravityTrap(must(gravitytrap.New(gravitytrap.Options{Board: b})), render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, len(def.Lines))
	for i, li := range def.Lines {
		used := map[int]bool{}
		for j := 0; j < i; j++ {
			for _, x := range li {
				if slices.Contains(def.Lines[j], x) {
					used[want[j]] = true
				}
			}
		}
		want[i] = i % 4
		for c := 3; c >= 0; c-- {
			if !used[c] {
				want[i] = c
			}
		}
	}
	for i, c := range want {
		tag := fmt.Sprintf(`id="line-%d" data-stations="%s"`, i, strings.Trim(fmt.Sprint(def.Lines[i]), "[]"))
		k := strings.Index(string(svg), tag)
		if k < 0 {
			t.Fatalf("no %s in the picture", tag)
		}
		rest := string(svg[k:])
		rest = rest[:strings.Index(rest, "/>")]
		if !strings.Contains(rest, fmt.Sprintf(`class="line lc%d"`, c)) {
			t.Errorf("line %d %v: %s; want colour lc%d", i, def.Lines[i], rest, c)
		}
	}
	if want[3] != 3 || want[4] != 0 || want[64] != 0 || want[65] != 1 {
		t.Errorf("the reference colours are not the case meant: %v", want)
	}
}

// attr is the value of attribute name of the element with id in doc ("" if none).
func attr(doc, id, name string) string {
	i := strings.Index(doc, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	el := doc[i:]
	el = el[:strings.Index(el, ">")]
	_, v, ok := strings.Cut(el, " "+name+`="`)
	if !ok {
		return ""
	}
	return v[:strings.Index(v, `"`)]
}

// TestBackgammonPartial checks a play in progress by hand: white's opening
// 3-1 after 8/5 has a checker on 5 and two on 8, the 3 greyed, four plays
// left (a 1 by 24/23, 8/7, 6/5 or 5/4) and those four hops next; after
// 8/5 6/5 it is complete. A double is drawn as four dice, greyed from the
// right as they are used.
func TestBackgammonPartial(t *testing.T) {
	s := must(backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE"))
	doc := string(must(render.Backgammon(s, render.Options{HasPartial: true, Partial: "8/5"})))
	for _, c := range [][3]string{
		{"point-5", "data-checkers", "1"}, {"point-8", "data-checkers", "2"}, {"point-6", "data-checkers", "5"},
		{"partial", "data-used", "3"}, {"partial", "data-complete", "false"}, {"partial", "data-hops", "8/5"},
		{"partial", "data-plays", "24/23 8/5|8/7 8/5|8/4|8/5 6/5"}, {"partial", "data-next", "24/23 8/7 6/5 5/4"},
	} {
		if got := attr(doc, c[0], c[1]); got != c[2] {
			t.Errorf("after 8/5: %s %s=%q, want %q", c[0], c[1], got, c[2])
		}
	}
	if n := strings.Count(doc, `class="die used"`); n != 1 || !strings.Contains(doc, `class="die used" data-value="3"`) {
		t.Errorf("after 8/5: %d dice greyed; want the 3", n)
	}
	doc = string(must(render.Backgammon(s, render.Options{HasPartial: true, Partial: "6/5 8/5"})))
	if attr(doc, "partial", "data-complete") != "true" || attr(doc, "partial", "data-plays") != "8/5(2)" && attr(doc, "partial", "data-plays") != "8/5 6/5" {
		t.Errorf("6/5 8/5: complete %q plays %q", attr(doc, "partial", "data-complete"), attr(doc, "partial", "data-plays"))
	}
	// Black to play 2-2 after white's 8/5 6/5.
	d := must(must(s.Apply(must(backgammon.ParseMove(s, "8/5 6/5")))).Apply(backgammon.RollMove(2, 2)))
	doc = string(must(render.Backgammon(d, render.Options{HasPartial: true, Partial: "13/11 13/11"})))
	if n, m := strings.Count(doc, `class="die`), strings.Count(doc, `class="die used"`); n != 4 || m != 2 {
		t.Errorf("2-2 after 13/11 13/11: %d dice, %d greyed; want 4, 2", n, m)
	}
	if got := attr(doc, "partial", "data-used"); got != "2 2" {
		t.Errorf("2-2 after 13/11 13/11: data-used %q", got)
	}
}

// TestBackgammonLabels: the coordinate labels are the numbers of the
// player on turn whichever side is drawn (white on turn: from black's side
// the bottom-right point, black's 1, is labelled 24).
func TestBackgammonLabels(t *testing.T) {
	s := must(backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE")) // white to play 3-1
	for drawn := 0; drawn < 2; drawn++ {
		doc := string(must(render.Backgammon(s, side(drawn))))
		var labels []string
		for _, part := range strings.Split(doc, `class="coord"`)[1:] {
			v := part[strings.Index(part, ">")+1:]
			labels = append(labels, v[:strings.Index(v, "<")])
		}
		if len(labels) != 24 {
			t.Fatalf("side %d: %d labels", drawn, len(labels))
		}
		// Labels follow the points 1..24 of the drawn side.
		want := "1"
		if drawn == 1 {
			want = "24"
		}
		if labels[0] != want {
			t.Errorf("side %d: the drawn side's point 1 is labelled %s; want %s (white's number)", drawn, labels[0], want)
		}
	}
}
