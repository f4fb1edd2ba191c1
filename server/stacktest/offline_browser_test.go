package stacktest

import (
	"context"
	"fmt"
	"github.com/gamerules/gamerules/server"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/gamerules/gamerules/rules/labyrinth"
)

// buildWasmDir builds what Options.PlaygroundWasmDir serves, as
// js/build.sh lays it out in js/dist (without its npm part): the wasm
// (GOOS=js GOARCH=wasm go build -o gamerules.wasm ./wasm), the toolchain's wasm_exec.js and
// js/src/index.js.
func buildWasmDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "gamerules.wasm"), "./wasm")
	build.Dir = "../.."
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the wasm: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile("../../js/src/index.js")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"wasm_exec.js": execJS, "index.js": index} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPlaygroundOffline opens the playground with ?offline=1 in headless
// Chromium, with the wasm served (Options.PlaygroundWasmDir), and plays a
// whole game of each of the four games there, checking every ply against
// the server's LegalMoves and Score (called by the test, not the page),
// and a Gravity Trap game against the greedy computer, whose Playout the
// wasm answers; the browser must have fetched the wasm and made no /v1
// request at all.
// Without Chromium it is skipped; CI installs Debian's chromium.
func TestPlaygroundOffline(t *testing.T) {
	bin := requireChromium(t, "the offline browser test")
	dir := buildWasmDir(t)
	a := startServerWith(t, func(c *server.Options) { c.PlaygroundWasmDir = dir })
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
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()

	var mu sync.Mutex
	var requested []string // the paths the browser asked for
	// chromedp enables the Network domain on its targets.
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			if u, err := url.Parse(e.Request.URL); err == nil {
				mu.Lock()
				requested = append(requested, u.Path)
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	base := "http://" + a.HTTP
	p := &page{t: t, ctx: ctx, base: base, rng: rand.New(rand.NewPCG(12, 0))}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?offline=1")); err != nil {
		t.Fatalf("open %s/?offline=1: %v", base, err)
	}
	v := p.settle(0)
	if v.Board == "" || len(v.Moves) == 0 {
		t.Fatalf("the offline page opened without a board or moves: %+v", v)
	}
	on, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("offline").checked`))
	if err != nil || !on {
		t.Fatalf("the offline switch is not on (%v, %v)", on, err)
	}
	listed := func(m string) func() {
		return func() { p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, m)) }
	}
	plays := []struct {
		game     string
		set      map[string]string
		maxPlies int
		choose   func(v view) func()
	}{
		{"gravity_trap", nil, 30, func(v view) func() {
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			return func() { p.click("#station-" + strings.TrimPrefix(m, "place ")) }
		}},
		{"abalone", map[string]string{"#ab-maxplies": "12", "#ab-layout": "classic"}, 12, func(v view) func() {
			return listed(v.Moves[p.rng.IntN(len(v.Moves))])
		}},
		{"labyrinth", map[string]string{"#lb-players": "2", "#seed": "7"}, 600, func(v view) func() {
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
		}},
		{"backgammon", map[string]string{"#seed": "5"}, 2000, func(v view) func() {
			if v.Chance {
				return func() { p.click("#roll") }
			}
			return listed(v.Moves[p.rng.IntN(len(v.Moves))])
		}},
	}
	for _, pl := range plays {
		t.Run(pl.game, func(t *testing.T) {
			p.t = t
			v := p.newGame(pl.game, pl.set)
			v, n := p.playToEnd(pl.game, v, pl.maxPlies, pl.choose)
			t.Logf("%s offline: %d plies; %s", pl.game, n, v.Turn)
		})
	}
	// The greedy computer offline: the wasm answers its Playout.
	t.Run("against the greedy computer", func(t *testing.T) {
		p.t = t
		p.againstComputer("greedy")
	})
	p.t = t
	mu.Lock()
	defer mu.Unlock()
	wasm := false
	for _, path := range requested {
		if strings.HasPrefix(path, "/v1/") || path == "/v1" {
			t.Errorf("the offline page requested %s", path)
		}
		wasm = wasm || path == "/wasm/gamerules.wasm"
	}
	if !wasm {
		t.Errorf("the offline page never fetched /wasm/gamerules.wasm (requests: %v)", requested)
	}
	t.Logf("%d requests by the page, none to /v1", len(requested))
}
