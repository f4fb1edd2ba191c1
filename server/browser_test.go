package server

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
		if v.Version > version && !v.Busy {
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
	for !v.Finished {
		p.check(game, v)
		if plies >= maxPlies {
			p.t.Fatalf("%s: not over after %d plies (state %s)", game, plies, v.Text)
		}
		before := v.Version
		choose(v)()
		v = p.settle(before)
		plies++
		if testing.Verbose() && plies%50 == 0 {
			p.t.Logf("%s: %d plies", game, plies)
		}
	}
	p.check(game, v)
	return v, plies
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	dir := os.Getenv("GAMERULES_SCREENSHOTS")
	if dir == "" {
		dir = p.t.TempDir()
	}
	png, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS("#play")))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s (%d bytes)", path, len(png))
}

// TestPlaygroundInBrowser opens the playground in headless Chromium and
// plays a whole game of each of the four games by clicking the board (and,
// for backgammon, the roll button and the move list), checking at every ply
// that the move list shown is LegalMoves' and, at the end, that the result
// is Score's; then undo and redo. It saves a screenshot per game in
// $GAMERULES_SCREENSHOTS (else a temporary directory). Without Chromium it
// is skipped; CI installs Debian's chromium.
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
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 1000),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 4*time.Minute)
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
		p.screenshot("gravity_trap")
		p.undoRedo(v)
	})

	t.Run("abalone", func(t *testing.T) {
		p.t = t
		v := p.newGame("abalone", map[string]string{"#ab-maxplies": "12", "#ab-layout": "belgian_daisy"})
		v, n := p.playToEnd("abalone", v, 12, func(v view) func() {
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			if len(m) == 4 { // in line: the trailing marble, then where it goes
				return func() { p.click("#cell-" + m[:2]); p.click("#cell-" + m[2:]) }
			}
			// A broadside of three: both ends of the group, then where the
			// first goes. (The ends of a pair are neighbours, so two clicks
			// on them spell an in-line move: pairs are picked from the list.)
			if !abaloneNeighbours(m[:2], m[2:4]) {
				return func() { p.click("#cell-" + m[:2]); p.click("#cell-" + m[2:4]); p.click("#cell-" + m[4:]) }
			}
			return func() { p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, m)) }
		})
		t.Logf("abalone: %d plies by clicking cells; %s", n, v.Turn)
		p.screenshot("abalone")
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
		p.screenshot("labyrinth")
	})

	t.Run("backgammon", func(t *testing.T) {
		p.t = t
		v := p.newGame("backgammon", map[string]string{"#seed": "3"})
		boardClicks := 0
		v, n := p.playToEnd("backgammon", v, 2000, func(v view) func() {
			if v.Chance {
				return func() { p.click("#roll") }
			}
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			return func() {
				// Click the first checker's path on the board (from, then
				// to); when that does not decide the play, pick it from
				// the (filtered) list.
				path := strings.Split(strings.NewReplacer("*", "").Replace(strings.Fields(m)[0]), "/")
				from, to := path[0], path[len(path)-1]
				if i := strings.IndexByte(to, '('); i >= 0 {
					to = to[:i]
				}
				if m != "pass" {
					before := p.view().Version
					p.click(bgSelector(from))
					p.click(bgSelector(to))
					if now := p.view(); now.Busy || now.Version > before {
						boardClicks++
						return
					}
				}
				p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, m))
			}
		})
		t.Logf("backgammon: %d plies (rolls by the button; %d plays decided by board clicks, the rest from the list); %s", n, boardClicks, v.Turn)
		p.screenshot("backgammon")
	})

	t.Run("phone viewport", func(t *testing.T) {
		p.t = t
		// A phone-sized viewport: the page must not scroll sideways, and
		// the board must fit the width.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(ctx, chromedp.EmulateReset())
		v := p.newGame("gravity_trap", nil)
		p.check("gravity_trap", v)
		fit, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		  const b = document.querySelector("#board svg").getBoundingClientRect();
		  return document.documentElement.scrollWidth + " " + window.innerWidth + " " + Math.round(b.right);
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		var scroll, inner, right int
		fmt.Sscan(fit, &scroll, &inner, &right)
		if scroll > inner || right > inner {
			t.Errorf("at 390 px wide: page %d px, viewport %d px, board right edge %d px; want no sideways scrolling", scroll, inner, right)
		}
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

// bgSelector is the board element of a backgammon point name.
func bgSelector(name string) string {
	switch name {
	case "bar", "off":
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
