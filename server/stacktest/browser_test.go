package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// findChromium returns the browser to drive: $GAMERULES_CHROMIUM, else the
// first of chromium, chromium-browser, google-chrome on $PATH; "" if none.
func findChromium() string {
	if p := os.Getenv("GAMERULES_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// page drives the playground in headless Chromium and checks what it shows
// against the API.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string // http://host:port
	rng  *rand.Rand
}

// view is what the page shows, read from its DOM.
type view struct {
	Version  int      `json:"version"`
	Busy     bool     `json:"busy"`
	Text     string   `json:"text"`
	Moves    []string `json:"moves"`
	Chance   bool     `json:"chance"`
	Finished bool     `json:"finished"`
	Winner   string   `json:"winner"`
	Points   string   `json:"points"`
	Error    string   `json:"error"`
	Board    string   `json:"board"` // the SVG root's data-game
	Turn     string   `json:"turn"`
	History  int      `json:"history"`
	// Marks on the board by style ("destination", "last-to", ...): their
	// data-mark names, sorted.
	Marks     map[string][]string `json:"marks"`
	Last      string              `json:"last"` // the notation of the move that led to the shown state
	Selection int                 `json:"selection"`
	Computer  bool                `json:"computer"` // a computer move is scheduled
	Notice    string              `json:"notice"`
}

const readView = `(() => {
  const $ = (id) => document.getElementById(id);
  const svg = document.querySelector("#board svg");
  return JSON.stringify({
    version: Number($("app").dataset.version), busy: $("app").dataset.busy === "1",
    text: $("state-text").value,
    moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.dataset.notation),
    chance: !$("roll").hidden, finished: $("score").dataset.finished === "true",
    winner: $("score").dataset.winner || "", points: $("score").dataset.points || "",
    error: $("error").textContent, board: svg ? svg.dataset.game : "", turn: $("turn").textContent,
    history: document.querySelectorAll("#history li").length,
    marks: [...document.querySelectorAll("#board #marks [data-mark-style]")].reduce((o, m) => {
      (o[m.dataset.markStyle] = o[m.dataset.markStyle] || []).push(m.dataset.mark); o[m.dataset.markStyle].sort(); return o; }, {}),
    last: ((document.querySelector("#history li.current button") || {}).textContent || "").replace(/^start$/, ""),
    selection: Number($("app").dataset.selection || 0), computer: $("app").dataset.computer === "1",
    notice: $("notice").textContent,
  });
})()`

func (p *page) view() view {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](readView))
	if err != nil {
		p.t.Fatalf("reading the page: %v", err)
	}
	var v view
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		p.t.Fatalf("reading the page: %v (%s)", err, raw)
	}
	return v
}

// settle waits until the page has shown a state newer than version.
func (p *page) settle(version int) view {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := p.view()
		if v.Version > version && !v.Busy && !v.Computer {
			if v.Error != "" {
				p.t.Fatalf("the page shows an error: %s (state %s)", v.Error, v.Text)
			}
			return v
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the page did not update within 20 s (version %d, busy %v, error %q)", v.Version, v.Busy, v.Error)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (p *page) click(sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		p.t.Fatalf("click %s: %v", sel, err)
	}
}

// api calls the REST API directly, for the answers the page must match.
func (p *page) api(game, rpc string, body any, out any) {
	p.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(p.base+"/v1/games/"+game+":"+rpc, "application/json", bytes.NewReader(b))
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		p.t.Fatalf("%s %s: HTTP %d", game, rpc, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		p.t.Fatal(err)
	}
}

// check compares the page's move list and result with LegalMoves and
// Score for the state it shows.
func (p *page) check(game string, v view) {
	p.t.Helper()
	if v.Board != game {
		p.t.Fatalf("the board shows game %q; want %q", v.Board, game)
	}
	var lm struct {
		Moves []struct {
			Notation string `json:"notation"`
		} `json:"moves"`
		Chance bool `json:"chance"`
	}
	p.api(game, "legalMoves", map[string]any{"state": map[string]string{"text": v.Text}}, &lm)
	want := make([]string, len(lm.Moves))
	for i, m := range lm.Moves {
		want[i] = m.Notation
	}
	if !slices.Equal(v.Moves, want) || v.Chance != lm.Chance {
		p.t.Fatalf("state %s: the page lists %d moves %.200q (chance %v); LegalMoves says %d %.200q (chance %v)", v.Text, len(v.Moves), v.Moves, v.Chance, len(want), want, lm.Chance)
	}
	var sc struct {
		Finished bool    `json:"finished"`
		Winner   *int    `json:"winner"`
		Points   []int32 `json:"points"`
	}
	p.api(game, "score", map[string]any{"state": map[string]string{"text": v.Text}}, &sc)
	winner := ""
	if sc.Winner != nil {
		winner = strconv.Itoa(*sc.Winner)
	}
	pts := make([]string, len(sc.Points))
	for i, x := range sc.Points {
		pts[i] = strconv.Itoa(int(x))
	}
	if v.Finished != sc.Finished || v.Winner != winner || v.Points != strings.Join(pts, ",") {
		p.t.Fatalf("state %s: the page shows finished %v, winner %q, points %q; Score says %v, %q, %v", v.Text, v.Finished, v.Winner, v.Points, sc.Finished, winner, pts)
	}
}

// newGame fills in the options, picks the game (the page starts it on the
// change) and then clicks "New game" (the same seed: the same start).
func (p *page) newGame(game string, set map[string]string) view {
	p.t.Helper()
	var actions []chromedp.Action[chromedp.Void]
	for sel, val := range set {
		actions = append(actions, chromedp.SetValue(chromedp.CSS(sel), val))
	}
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
	before := p.view().Version
	// SetValue fires "change", on which the page starts the chosen game.
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#game"), game)); err != nil {
		p.t.Fatal(err)
	}
	v := p.settle(before)
	p.click("#new-game")
	w := p.settle(v.Version)
	if w.Text != v.Text {
		p.t.Fatalf("New game with the same options and seed gave %s, then %s", v.Text, w.Text)
	}
	return w
}

// playToEnd plays until the game is over, each ply chosen by choose and made
// by clicks (it returns the number of plies).
func (p *page) playToEnd(game string, v view, maxPlies int, choose func(v view) func()) (view, int) {
	p.t.Helper()
	plies := 0
	prev := v
	for !v.Finished {
		p.check(game, v)
		p.checkMarks(game, prev, v)
		if plies >= maxPlies {
			p.t.Fatalf("%s: not over after %d plies (state %s)", game, plies, v.Text)
		}
		before := v.Version
		prev = v
		choose(v)()
		v = p.settle(before)
		plies++
		if testing.Verbose() && plies%50 == 0 {
			p.t.Logf("%s: %d plies", game, plies)
		}
	}
	p.check(game, v)
	p.checkMarks(game, prev, v)
	return v, plies
}

// checkMarks checks the marks with no selection: in Gravity Trap and
// Labyrinth every listed move's destination (station, square, insertion
// point) is marked, exactly; in every game the end of the last move (the
// move that led from prev to v) is marked last-to.
func (p *page) checkMarks(game string, prev, v view) {
	p.t.Helper()
	var want []string
	switch game {
	case "gravity_trap":
		for _, m := range v.Moves {
			want = append(want, strings.TrimPrefix(m, "place "))
		}
	case "labyrinth":
		for _, m := range v.Moves {
			m = strings.TrimPrefix(m, "V:")
			if i := strings.IndexByte(m, ':'); i >= 0 {
				m = m[:i]
			}
			want = append(want, m)
		}
	}
	if v.Finished {
		want = nil
	}
	if got := v.Marks["destination"]; !sameSet(got, want) {
		p.t.Fatalf("%s state %s: destinations marked %q; LegalMoves gives %q", game, v.Text, got, want)
	}
	if v.Last == "" {
		return
	}
	var to []string
	switch game {
	case "gravity_trap":
		to = []string{strings.TrimPrefix(v.Last, "place ")}
	case "labyrinth":
		m := strings.TrimPrefix(v.Last, "V:")
		if i := strings.IndexByte(m, ':'); i >= 0 {
			m = m[:i]
		}
		to = []string{m}
	case "abalone":
		to = []string{v.Last[len(v.Last)-2:]}
	case "backgammon":
		if !strings.Contains(v.Last, "/") {
			return // a roll: the last play stays marked, checked when it was made
		}
		mover := bgMover(prev.Turn)
		for _, path := range bgPaths(v.Last) {
			to = append(to, bgBoardName(mover, path[len(path)-1]))
		}
	}
	if got := v.Marks["last-to"]; !sameSet(got, to) {
		p.t.Fatalf("%s: after %q the last move's end is marked %q; want %q", game, v.Last, got, to)
	}
}

// sameSet reports whether a and b hold the same names (duplicates aside).
func sameSet(a, b []string) bool {
	set := func(x []string) []string {
		y := slices.Clone(x)
		slices.Sort(y)
		return slices.Compact(y)
	}
	return slices.Equal(set(a), set(b))
}

// bgMover is the backgammon player (0 White, 1 Black) a status line such
// as "White to play 3-1" names.
func bgMover(turn string) int {
	if strings.HasPrefix(turn, "Black") {
		return 1
	}
	return 0
}

// bgPaths are the checker paths of a backgammon play's notation.
func bgPaths(m string) [][]string {
	var out [][]string
	for _, tok := range strings.Fields(strings.ReplaceAll(m, "*", "")) {
		if i := strings.IndexByte(tok, '('); i >= 0 {
			tok = tok[:i]
		}
		out = append(out, strings.Split(tok, "/"))
	}
	return out
}

// bgBoardName is where a point in player's notation is on the board drawn
// from White's side (the page's default): the point's number from White's
// side, or the bar and tray of that side.
func bgBoardName(player int, name string) string {
	if player == 0 {
		return name
	}
	switch name {
	case "bar", "off":
		return name + "-opponent"
	}
	n, _ := strconv.Atoi(name)
	return strconv.Itoa(25 - n)
}

// clickSelect clicks a board element that selects (the page repaints the
// board with the selection's marks) and waits for the repaint or a move.
func (p *page) clickSelect(sel string) view {
	p.t.Helper()
	before := p.view()
	p.click(sel)
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := p.view()
		if !v.Busy && (v.Selection > before.Selection || v.Version > before.Version) {
			return v
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("click %s: no repaint within 20 s", sel)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// showcase plays a few listed moves of the game just started, selects a
// piece where the game has selections (its destinations marked) and saves
// a screenshot named <game>-<size>.
func (p *page) showcase(game, size string) {
	p.t.Helper()
	v := p.view()
	plies := map[string]int{"gravity_trap": 4, "abalone": 4, "labyrinth": 3, "backgammon": 5}[game]
	for i := 0; i < plies && !v.Finished; i++ {
		before := v.Version
		if v.Chance {
			p.click("#roll")
		} else {
			p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, v.Moves[p.rng.IntN(len(v.Moves))]))
		}
		v = p.settle(before)
	}
	switch game {
	case "abalone":
		for _, m := range v.Moves {
			if len(m) == 4 {
				p.clickSelect("#cell-" + m[:2])
				break
			}
		}
	case "backgammon":
		if v.Chance {
			before := v.Version
			p.click("#roll")
			v = p.settle(before)
		}
		p.bgShowcase(v) // diebydie_browser_test.go
	}
	p.screenshot(game + "-" + size)
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	dir := os.Getenv("GAMERULES_SCREENSHOTS")
	if dir == "" {
		dir = p.t.TempDir()
	}
	if os.Getenv("GAMERULES_UPDATE_SCREENSHOTS") != "" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	// The page as a visitor first sees it: scrolled to the top.
	if err := chromedp.Do(p.ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
		p.t.Fatal(err)
	}
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s (%d bytes)", path, len(png))
}

// TestPlaygroundInBrowser opens the playground in headless Chromium at
// 1280×900 and plays a whole game of each of the four games by clicking the
// board (and, for backgammon, the roll button and the move list), checking
// at every ply that the move list shown is LegalMoves', that the marked
// destinations are exactly the legal ones (Gravity Trap and Labyrinth
// always, Abalone and backgammon after selecting a piece) and that the
// last move's end is marked, and at the end that the result is Score's;
// then undo and redo. It checks that backgammon and Abalone boards do not
// turn between moves unless Flip is pressed (and that the permalink keeps
// the side), that a Gravity Trap game against the computer reaches its end,
// that a bad permalink says what is wrong and keeps its text in the paste
// box, that editing the hash loads the new state, and that at 390×844 the
// page does not scroll sideways and no point, cell, arrow or station is
// under 32 CSS pixels. It saves screenshots of each game at both sizes in
// $GAMERULES_SCREENSHOTS (else a temporary directory), or with
// GAMERULES_UPDATE_SCREENSHOTS set in docs/screenshots (the README's).
// Without Chromium it is skipped; CI installs Debian's chromium.
func TestPlaygroundInBrowser(t *testing.T) {
	bin := requireChromium(t, "the browser test")
	a := startServer(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(browserProfile(t)),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 6*time.Minute)
	defer cancelT()
	base := "http://" + a.HTTP
	p := &page{t: t, ctx: ctx, base: base, rng: rand.New(rand.NewPCG(11, 0))}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatalf("open %s/: %v", base, err)
	}
	// The page opens on a game already set up: a board and moves, no click.
	v := p.settle(0)
	if v.Board == "" || len(v.Moves) == 0 {
		t.Fatalf("the page opened without a board or moves: %+v", v)
	}

	t.Run("gravity_trap", func(t *testing.T) {
		p.t = t
		v := p.newGame("gravity_trap", nil)
		v, n := p.playToEnd("gravity_trap", v, 30, func(v view) func() {
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			return func() { p.click("#station-" + strings.TrimPrefix(m, "place ")) }
		})
		t.Logf("gravity trap: %d plies by clicking stations; %s", n, v.Turn)
		p.undoRedo(v)
	})

	t.Run("abalone", func(t *testing.T) {
		p.t = t
		v := p.newGame("abalone", map[string]string{"#ab-maxplies": "12", "#ab-layout": "belgian_daisy"})
		v, n := p.playToEnd("abalone", v, 12, func(v view) func() {
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			// After the first click, the marked destinations are exactly
			// where LegalMoves' in-line moves from that marble go.
			first := func() {
				w := p.clickSelect("#cell-" + m[:2])
				var want []string
				for _, n := range v.Moves {
					if len(n) == 4 && n[:2] == m[:2] {
						want = append(want, n[2:])
					}
				}
				if got := w.Marks["destination"]; !sameSet(got, want) || !slices.Equal(w.Marks["selected"], []string{m[:2]}) {
					t.Fatalf("abalone %s: after selecting %s the board marks destinations %q, selected %q; LegalMoves gives %q", v.Text, m[:2], got, w.Marks["selected"], want)
				}
			}
			if len(m) == 4 { // in line: the trailing marble, then where it goes
				return func() { first(); p.click("#cell-" + m[2:]) }
			}
			// A broadside of three: both ends of the group, then where the
			// first goes. (The ends of a pair are neighbours, so two clicks
			// on them spell an in-line move: pairs are picked from the list.)
			if !abaloneNeighbours(m[:2], m[2:4]) {
				return func() { first(); p.clickSelect("#cell-" + m[2:4]); p.click("#cell-" + m[4:]) }
			}
			return func() { p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, m)) }
		})
		t.Logf("abalone: %d plies by clicking cells; %s", n, v.Turn)
	})

	t.Run("labyrinth", func(t *testing.T) {
		p.t = t
		v := p.newGame("labyrinth", map[string]string{"#lb-players": "2", "#seed": "7"})
		v, n := p.playToEnd("labyrinth", v, 600, func(v view) func() {
			s, err := labyrinth.ParseState(v.Text)
			if err != nil {
				t.Fatal(err)
			}
			m := labyrinthGreedy(s, p.rng)
			if m.IsShift() {
				return func() {
					for range m.Rotation {
						p.click("#rotate")
					}
					p.click("#insert-" + m.Point.String())
				}
			}
			return func() { p.click("#square-" + m.To.String()) }
		})
		t.Logf("labyrinth: %d plies by clicking arrows, the rotate button and squares; %s", n, v.Turn)
	})

	t.Run("backgammon", func(t *testing.T) {
		p.t = t
		v := p.newGame("backgammon", map[string]string{"#seed": "3"})
		var c bgCounts
		v, n := p.playToEnd("backgammon", v, 2000, func(v view) func() {
			if v.Chance {
				return func() { p.click("#roll") }
			}
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			if !strings.Contains(m, "/") {
				return func() { p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, m)) }
			}
			// The play die by die on the board (diebydie_browser_test.go).
			return func() {
				s, err := backgammon.ParseState(v.Text)
				if err != nil {
					t.Fatal(err)
				}
				bgCount(s, m, &c)
				p.bgPlayByClicks(v, m, bgHops(t, s, m, ""), &c)
			}
		})
		t.Logf("backgammon: %d plies (rolls by the button, passes from the list); %s; %s", n, c, v.Turn)
	})

	// Screenshots at 1280×900 (the phone's are taken below): each game a
	// few moves in, with a selection where the game has one.
	t.Run("screenshots", func(t *testing.T) {
		p.t = t
		for _, game := range []string{"gravity_trap", "abalone", "labyrinth", "backgammon"} {
			p.newGame(game, map[string]string{"#seed": "5"})
			p.showcase(game, "1280x900")
		}
	})

	// The board stays put: backgammon is drawn from White's side and
	// Abalone from Black's between moves, until Flip, which the permalink
	// keeps.
	t.Run("board stays put", func(t *testing.T) {
		p.t = t
		for _, c := range []struct{ game, probe, attr, want, flipped string }{
			{"backgammon", "#point-1", "data-point-0", "1", "24"},
			{"abalone", "#cell-a1 circle", "cy", "", ""},
		} {
			v := p.newGame(c.game, nil)
			read := func() string {
				out, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => { const e = document.querySelector("#board %s"); return e ? e.getAttribute(%q) : ""; })()`, c.probe, c.attr)))
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			first := read()
			for i := 0; i < 6 && !v.Finished; i++ {
				before := v.Version
				if v.Chance {
					p.click("#roll")
				} else {
					p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, v.Moves[p.rng.IntN(len(v.Moves))]))
				}
				v = p.settle(before)
				if got := read(); got != first {
					t.Fatalf("%s: after %d moves %s %s is %q; it was %q (the board turned)", c.game, i+1, c.probe, c.attr, got, first)
				}
			}
			if c.game == "backgammon" && first != c.want {
				t.Errorf("backgammon: point-1 is %q from White's side; want %q (White at the bottom)", first, c.want)
			}
			before := v.Version
			p.click("#flip")
			v = p.settle(before)
			if got := read(); got == first {
				t.Errorf("%s: Flip left %s %s at %q", c.game, c.probe, c.attr, got)
			}
			link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("permalink").getAttribute("href")`))
			if err != nil || !strings.Contains(link, "side=1") {
				t.Fatalf("%s: after Flip the permalink is %q (%v); want side=1 in it", c.game, link, err)
			}
			// Opening the permalink shows the flipped board.
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?flip="+c.game+link)); err != nil {
				t.Fatal(err)
			}
			w := p.settle(0)
			if w.Text != v.Text || read() == first {
				t.Errorf("%s: the permalink %s opened %s (probe %q); want %s flipped", c.game, link, w.Text, read(), v.Text)
			}
		}
	})

	// Games against the computer reach their end: the person clicks
	// stations, the computer answers after a visible pause. "Server
	// playouts": the computer plays the first move of Playout's firstMoves
	// (greedy games) that won most often for it; "greedy": the move of
	// the server's greedy policy (issue 21).
	for _, kind := range []string{"playout", "greedy"} {
		t.Run("against the computer "+kind, func(t *testing.T) {
			p.t = t
			p.againstComputer(kind)
		})
	}

	// A bad permalink says what is wrong and keeps its text in the paste
	// box; editing the #… of the open page loads the new state.
	t.Run("bad permalink and hashchange", func(t *testing.T) {
		p.t = t
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?bad=1#game=abalone&text=not-a-state")); err != nil {
			t.Fatal(err)
		}
		var v view
		for deadline := time.Now().Add(20 * time.Second); ; {
			v = p.view()
			if !v.Busy && v.Board == "abalone" && v.Error != "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("a bad permalink: no error within 20 s: %+v", v)
			}
			time.Sleep(20 * time.Millisecond)
		}
		pasted, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("load-text").value`))
		if err != nil || pasted != "not-a-state" || !strings.Contains(v.Error, "could not be opened") {
			t.Errorf("a bad permalink: error %q, paste box %q; want the reason and the text kept", v.Error, pasted)
		}
		const gt = "RoooBooooooooooooooooo r"
		before := v.Version
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`location.hash = "game=gravity_trap&text=" + encodeURIComponent(`+strconv.Quote(gt)+`)`)); err != nil {
			t.Fatal(err)
		}
		if w := p.settle(before); w.Text != gt || w.Board != "gravity_trap" {
			t.Errorf("after editing the hash the page shows %s %s; want gravity_trap %s", w.Board, w.Text, gt)
		}
	})

	// A phone-sized viewport, every game: the page does not scroll
	// sideways, no element of it does, what a player needs is in view, and
	// every point, cell, arrow and station is at least 32 CSS pixels each
	// way (backgammon's points: 20 wide, 90 tall; checkPhone).
	t.Run("phone viewport", func(t *testing.T) {
		p.t = t
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(ctx, chromedp.EmulateReset())
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?phone=1")); err != nil {
			t.Fatal(err)
		}
		p.settle(0)
		for _, game := range []string{"gravity_trap", "abalone", "labyrinth", "backgammon"} {
			v := p.newGame(game, nil)
			p.check(game, v)
			p.checkPhone(game) // diebydie_browser_test.go
			p.showcase(game, "390x844")
		}
		v := p.newGame("gravity_trap", nil)
		p.click("#station-3") // a tap places the ship
		if w := p.settle(v.Version); !strings.HasPrefix(w.Text, "...R") {
			t.Errorf("after tapping station 3 the state is %s; want red placed on 3", w.Text)
		}
	})

	// A link naming no game, including names of Object's own properties
	// (optKey["__proto__"] is Object.prototype: truthy), opens the default
	// game with an error naming it, instead of hanging.
	t.Run("unknown game in the link", func(t *testing.T) {
		p.t = t
		for _, name := range []string{"__proto__", "constructor", "toString", "chess"} {
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?case="+name+"#game="+name)); err != nil {
				t.Fatal(err)
			}
			var v view
			for deadline := time.Now().Add(20 * time.Second); ; {
				v = p.view()
				if !v.Busy && v.Board != "" && len(v.Moves) > 0 && strings.Contains(v.Error, "unknown game") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("#game=%s: the page did not open a game with an error within 20 s: %+v", name, v)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if !strings.Contains(v.Error, `"`+name+`"`) {
				t.Errorf("#game=%s: error %q does not name the game", name, v.Error)
			}
		}
	})
}

// abaloneNeighbours reports whether two cells are next to each other.
func abaloneNeighbours(a, b string) bool {
	ca, err1 := abalone.ParseCell(a)
	cb, err2 := abalone.ParseCell(b)
	for d := abalone.Direction(0); d < 6 && err1 == nil && err2 == nil; d++ {
		if ca.Neighbor(d) == cb {
			return true
		}
	}
	return false
}

// bgSelector is the board element of a backgammon board name.
func bgSelector(name string) string {
	if strings.HasPrefix(name, "bar") || strings.HasPrefix(name, "off") {
		return "#" + name
	}
	return "#point-" + name
}

// undoRedo clicks Undo and Redo and checks the states they show.
func (p *page) undoRedo(end view) {
	p.t.Helper()
	p.click("#undo")
	v := p.settle(end.Version)
	if v.Text == end.Text || v.Finished {
		p.t.Fatalf("after Undo the page shows %s (finished %v); want the state before the last move", v.Text, v.Finished)
	}
	p.check(end.Board, v)
	p.click("#redo")
	if w := p.settle(v.Version); w.Text != end.Text {
		p.t.Fatalf("after Redo the page shows %s; want %s", w.Text, end.Text)
	}
}

// labyrinthGreedy picks a move that finds the current target (or wins)
// when one can, else one that brings the figure nearer: shifts are tried
// for a following figure move that finds the target. It keeps the browser
// game short (about a hundred plies) without any game logic on the page.
func labyrinthGreedy(s labyrinth.State, rng *rand.Rand) labyrinth.Move {
	moves := s.LegalMoves()
	me := s.Turn()
	finds := func(n labyrinth.State) bool {
		return n.Phase() == labyrinth.PhaseOver || len(n.Found(me)) > len(s.Found(me))
	}
	if s.Phase() == labyrinth.PhaseShift {
		for _, m := range moves {
			n, _ := s.Apply(m)
			for _, f := range n.LegalMoves() {
				if after, _ := n.Apply(f); finds(after) {
					return m
				}
			}
		}
		return moves[rng.IntN(len(moves))]
	}
	// The target's square: the tile showing it, or the start when all found.
	goal := s.Color(me).Start()
	board := s.Board()
	for q, t := range board {
		if t.Target != 0 && t.Target == s.Target(me) {
			goal = labyrinth.Square(q)
		}
	}
	best, bestD := moves[0], 1<<30
	for _, m := range moves {
		if n, _ := s.Apply(m); finds(n) {
			return m
		}
		d := abs(m.To.Row()-goal.Row()) + abs(m.To.Col()-goal.Col())
		if d < bestD {
			best, bestD = m, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// browserProfile is a fresh Chromium profile directory, removed after the
// test as far as it can be: Chromium's helper processes may still write
// into it for a moment after the browser is closed, which would fail
// t.TempDir's strict cleanup on a loaded machine.
func browserProfile(t *testing.T) string {
	dir, err := os.MkdirTemp("", "gamerules-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 5 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
	return dir
}

// requireChromium returns the Chromium to run, or skips the test (what
// names it) when there is none; with GAMERULES_REQUIRE_BROWSER set (CI) a
// missing browser fails instead.
func requireChromium(t *testing.T, what string) string {
	t.Helper()
	bin := findChromium()
	if bin == "" {
		if os.Getenv("GAMERULES_REQUIRE_BROWSER") != "" {
			t.Fatal("GAMERULES_REQUIRE_BROWSER is set but no Chromium was found")
		}
		t.Skip("no Chromium found (looked for $GAMERULES_CHROMIUM, chromium, chromium-browser, google-chrome): skipping " + what + "; install Debian's chromium package to run it")
	}
	return bin
}

// againstComputer plays a Gravity Trap game, the person (Red) at random
// against the computer of seat kind kind (Blue) to its end, checking each
// ply; the computer must have moved.
func (p *page) againstComputer(kind string) {
	t := p.t
	t.Helper()
	v := p.newGame("gravity_trap", nil)
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#seat-1"), kind)); err != nil {
		t.Fatal(err)
	}
	computerPlies := 0
	for ply := 0; !v.Finished; ply++ {
		if ply > 40 {
			t.Fatalf("not over after %d plies: %s", ply, v.Text)
		}
		// The page settles only when no computer move is pending: Red,
		// the person, is to act.
		if !strings.HasPrefix(v.Turn, "Red") {
			t.Fatalf("the page waits with %q (state %s); Blue is the computer's", v.Turn, v.Text)
		}
		before := v
		m := v.Moves[p.rng.IntN(len(v.Moves))]
		p.click("#station-" + strings.TrimPrefix(m, "place "))
		v = p.settle(before.Version)
		computerPlies += v.History - before.History - 1
		p.check("gravity_trap", v)
	}
	if computerPlies == 0 {
		t.Fatalf("the computer (%s) never moved", kind)
	}
	t.Logf("against the computer (%s): over after %d computer moves; %s", kind, computerPlies, v.Turn)
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#seat-1"), "person")); err != nil {
		t.Fatal(err)
	}
}
