package stacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// bgCounts counts what the die-by-die clicks covered.
type bgCounts struct {
	plays, hops, combined, reordered  int
	bar, hits, bearOff, doubles, part int
}

func (c bgCounts) String() string {
	return fmt.Sprintf("%d plays by %d hops (%d hops of two or more dice, %d plays in another order than the list's); %d entering from the bar, %d hitting, %d bearing off, %d doubles, %d forced partial plays",
		c.plays, c.hops, c.combined, c.reordered, c.bar, c.hits, c.bearOff, c.doubles, c.part)
}

// partialView is the board's #partial group (RenderState's partial_play).
type partialView struct {
	Hops, Used, Plays, Next string
	Complete                bool
	Grey                    int // dice drawn grey
}

func (p *page) partial() partialView {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(() => {
	  const e = document.querySelector("#board #partial");
	  const a = (n) => (e ? e.getAttribute(n) || "" : "");
	  return JSON.stringify({Hops: a("data-hops"), Used: a("data-used"), Plays: a("data-plays"), Next: a("data-next"),
	    Complete: a("data-complete") === "true", Grey: document.querySelectorAll("#board #dice .die.used").length});
	})()`))
	if err != nil {
		p.t.Fatal(err)
	}
	var v partialView
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		p.t.Fatal(err)
	}
	return v
}

// bgPoint is a step's point in the notation: "bar", "off" or the number.
func bgPoint(n int) string {
	switch n {
	case backgammon.Bar:
		return "bar"
	case backgammon.Off:
		return "off"
	}
	return strconv.Itoa(n)
}

// bgPlayByClicks makes the listed play m of the state v shows by clicks on
// the board alone, board drawn from White's side: the hops (each a
// checker's from and to; consecutive steps of one checker joined when
// join) in order. After each hop that does not end the play it checks the
// board the server drew: the hops so far, as many dice greyed as used,
// the play among those left. It returns the state shown after the play.
func (p *page) bgPlayByClicks(v view, m string, hops [][2]int, c *bgCounts) view {
	p.t.Helper()
	mover := bgMover(v.Turn)
	var done []string
	used := 0
	for i, h := range hops {
		from, to := bgPoint(h[0]), bgPoint(h[1])
		w := p.clickSelect(bgSelector(bgBoardName(mover, from)))
		if w.Version > v.Version {
			p.t.Fatalf("%s: selecting %s made a move", v.Text, from)
		}
		if !slices.Contains(w.Marks["destination"], bgBoardName(mover, to)) || !slices.Equal(w.Marks["selected"], []string{bgBoardName(mover, from)}) {
			p.t.Fatalf("%s, play %s after %q: selecting %s marks %q (selected %q); want %s among the destinations", v.Text, m, done, from, w.Marks["destination"], w.Marks["selected"], to)
		}
		w = p.clickSelect(bgSelector(bgBoardName(mover, to)))
		done = append(done, from+"/"+to)
		c.hops++
		d1, d2 := bgDice(v.Turn)
		pips := h[0] - h[1]
		if h[1] == backgammon.Off {
			pips = 0
		}
		if pips > max(d1, d2) && d1 != d2 || d1 == d2 && pips > d1 {
			c.combined++
		}
		if w.Version > v.Version {
			if w.Last != m {
				p.t.Fatalf("%s: the hops %q made the play %q; want %q", v.Text, done, w.Last, m)
			}
			w = p.settle(v.Version)
			c.plays++
			return w
		}
		if i == len(hops)-1 {
			p.t.Fatalf("%s: the hops %q of %s made no play", v.Text, done, m)
		}
		pv := p.partial()
		used = len(strings.Fields(pv.Used))
		if pv.Hops != strings.Join(done, " ") || pv.Grey != used || used < i+1 || !slices.Contains(strings.Split(pv.Plays, "|"), m) {
			p.t.Fatalf("%s, play %s: after %q the board shows hops %q, dice used %q (%d grey), plays %q", v.Text, m, done, pv.Hops, pv.Used, pv.Grey, pv.Plays)
		}
	}
	p.t.Fatalf("unreachable")
	return v
}

// bgDice reads the dice of a status line "White to play 3-1".
func bgDice(turn string) (int, int) {
	var a, b int
	if i := strings.LastIndex(turn, " "); i >= 0 {
		fmt.Sscanf(turn[i+1:], "%d-%d", &a, &b)
	}
	return a, b
}

// bgHops are the hops of the listed play m of s, single-die steps in the
// canonical order (order ""), "reversed" (when that order can be
// played), or "joined": a checker's consecutive steps joined into one hop
// where the server takes that hop.
func bgHops(t *testing.T, s backgammon.State, m string, order string) [][2]int {
	t.Helper()
	var mv backgammon.Move
	for _, x := range s.LegalMoves() {
		if x.String() == m {
			mv = x
		}
	}
	if mv.Kind() != backgammon.KindPlay {
		t.Fatalf("%s: no listed play %q", s, m)
	}
	var hops [][2]int
	for _, st := range mv.Steps() {
		hops = append(hops, [2]int{st.From, st.To})
	}
	switch order {
	case "reversed":
		r := slices.Clone(hops)
		slices.Reverse(r)
		if p, err := s.PartialPlay(bgHopText(r)); err == nil && p.Complete {
			return r
		}
	case "joined":
		var out [][2]int
		for _, h := range hops {
			if n := len(out); n > 0 && out[n-1][1] == h[0] {
				try := append(slices.Clone(out[:n-1]), [2]int{out[n-1][0], h[1]})
				if _, err := s.PartialPlay(bgHopText(try)); err == nil {
					out = try
					continue
				}
			}
			out = append(out, h)
		}
		return out
	}
	return hops
}

// bgHopText is hops in the notation: "8/5 6/5".
func bgHopText(hops [][2]int) string {
	text := make([]string, len(hops))
	for i, h := range hops {
		text[i] = bgPoint(h[0]) + "/" + bgPoint(h[1])
	}
	return strings.Join(text, " ")
}

// bgCount adds what the listed play m of s covers to c.
func bgCount(s backgammon.State, m string, c *bgCounts) {
	d1, d2 := s.Dice()
	for _, x := range s.LegalMoves() {
		if x.String() != m {
			continue
		}
		for _, st := range x.Steps() {
			if st.From == backgammon.Bar {
				c.bar++
			}
			if st.Hit {
				c.hits++
			}
			if st.To == backgammon.Off {
				c.bearOff++
			}
		}
		if d1 == d2 {
			c.doubles++
		}
		if want := map[bool]int{true: 4, false: 2}[d1 == d2]; x.Len() < want {
			c.part++
		}
	}
}

// bgCovering picks n of the listed plays of s: each in turn the one that
// adds most to what c has covered (a count still zero: the bar, a hit, a
// bear-off, a forced partial play; a hop of two dice or another order when
// those orders are played), the list's first among equals.
func bgCovering(t *testing.T, s backgammon.State, plays []string, c bgCounts, n int, orders []string) []string {
	t.Helper()
	var out []string
	for len(out) < n && len(plays) > 0 {
		best, bestScore := 0, -1
		for i, m := range plays {
			var d bgCounts
			bgCount(s, m, &d)
			score := 0
			for _, f := range [][2]int{{c.bar, d.bar}, {c.hits, d.hits}, {c.bearOff, d.bearOff}, {c.part, d.part}, {c.doubles, d.doubles}} {
				if f[0] == 0 && f[1] > 0 {
					score++
				}
			}
			for _, order := range orders {
				hops := bgHops(t, s, m, order)
				if order == "joined" && c.combined == 0 && len(hops) < len(bgHops(t, s, m, "")) {
					score++
				}
				if order == "reversed" && c.reordered == 0 && hops[0] != bgHops(t, s, m, "")[0] {
					score++
				}
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		m := plays[best]
		out = append(out, m)
		bgCount(s, m, &c)
		canonical := bgHops(t, s, m, "")
		if slices.Contains(orders, "joined") && len(bgHops(t, s, m, "joined")) < len(canonical) {
			c.combined++
		}
		if slices.Contains(orders, "reversed") && bgHops(t, s, m, "reversed")[0] != canonical[0] {
			c.reordered++
		}
		plays = slices.Delete(plays, best, best+1)
	}
	return out
}

// openDieByDie starts a server and Chromium at size w×h and returns the
// page, the backgammon playground open.
func openDieByDie(t *testing.T, w, h int) *page {
	bin := requireChromium(t, "the die-by-die browser test")
	a := startServer(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(browserProfile(t)),
		chromedp.WindowSize(w, h),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 8*time.Minute)
	t.Cleanup(cancelT)
	p := &page{t: t, ctx: ctx, base: "http://" + a.HTTP, rng: rand.New(rand.NewPCG(34, 1))}
	if err := chromedp.Do(ctx, chromedp.Navigate(p.base+"/")); err != nil {
		t.Fatal(err)
	}
	p.settle(0)
	return p
}

// openState opens a backgammon state by its link (both seats persons).
func (p *page) openState(text string) view {
	p.t.Helper()
	before := p.view().Version
	link := "#game=backgammon&text=" + url.QueryEscape(text)
	if err := chromedp.Do(p.ctx, chromedp.Evaluate[chromedp.Void](`location.hash = `+strconv.Quote(link))); err != nil {
		p.t.Fatal(err)
	}
	v := p.settle(before)
	if v.Text != text {
		p.t.Fatalf("the link opened %s; want %s", v.Text, text)
	}
	return v
}

// bgFind plays random games (seeded) until a move-phase state that ok
// accepts, with at most maxPlays plays.
func bgFind(t *testing.T, seed uint64, maxPlays int, ok func(s backgammon.State, plays []backgammon.Move) bool) backgammon.State {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 34))
	start, err := backgammon.New(backgammon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := start
	for ply := 0; ply < 200000; ply++ {
		if s.Phase() == backgammon.PhaseOver {
			s = start
		}
		moves := s.LegalMoves()
		if s.Phase() == backgammon.PhaseMove && moves[0].Kind() == backgammon.KindPlay && len(moves) <= maxPlays && ok(s, moves) {
			return s
		}
		var m backgammon.Move
		if s.Phase() == backgammon.PhaseMove {
			m = moves[r.IntN(len(moves))]
		} else {
			m, _ = backgammon.RollDice(s, r)
		}
		if s, err = s.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no such position found")
	return s
}

// TestBackgammonDieByDie plays backgammon on the board die by die, in
// headless Chromium (issue 34). The default run is short: two plays of the
// opening 3-1 by clicks alone, each in the list's order of steps, in
// reverse order where that can be played, and with a checker's two dice
// joined into one hop; one play of each of four other positions (entering
// from the bar with a hit, bearing off, a double, a forced partial play),
// the play chosen for what it covers; the undo of a step (and that a
// link's state has persons in both seats); and three turns against the
// computer (random). Under GAMERULES_LONG=1 it makes every play of each of
// those positions (all 16 of the opening 3-1, three ways each) and the
// whole game against the computer, each of the person's plays made by
// clicks. After every hop that does not end the play the board is the
// server's drawing of the play so far (its hops, the dice used greyed, the
// play among the plays left). Either way the clicks must have covered the
// bar, a hit, a bear-off, a double, a forced partial play, a hop of two
// dice and a play in another order than the list's.
func TestBackgammonDieByDie(t *testing.T) {
	p := openDieByDie(t, 1280, 900)
	var c bgCounts
	// playAll makes every listed play of text by clicks (under
	// GAMERULES_LONG; else the `few` plays that add most to what the clicks
	// have covered so far), each order given.
	playAll := func(text string, few int, orders ...string) int {
		s, err := backgammon.ParseState(text)
		if err != nil {
			t.Fatal(err)
		}
		v := p.openState(text)
		plays := slices.DeleteFunc(slices.Clone(v.Moves), func(m string) bool { return !strings.Contains(m, "/") })
		if !long() {
			plays = bgCovering(t, s, plays, c, few, orders)
		}
		n := 0
		for _, m := range plays {
			for _, order := range orders {
				hops := bgHops(t, s, m, order)
				if order == "reversed" && hops[0] != bgHops(t, s, m, "")[0] {
					c.reordered++
				}
				w := p.bgPlayByClicks(v, m, hops, &c)
				bgCount(s, m, &c)
				p.check("backgammon", w)
				p.click("#undo")
				if v = p.settle(w.Version); v.Text != text {
					t.Fatalf("Undo after %s shows %s; want %s", m, v.Text, text)
				}
			}
			n++
		}
		return n
	}
	t.Run("opening 3-1", func(t *testing.T) {
		p.t = t
		n := playAll("4HPwATDgc/ABMA:MIEFAAAAAAAE", 2, "", "reversed", "joined")
		if want := map[bool]int{true: 16, false: 2}[long()]; n != want {
			t.Fatalf("the opening 3-1 has %d plays made by clicks; want %d", n, want)
		}
		t.Logf("opening 3-1: %d plays by clicks, three ways each", n)
	})
	positions := []struct {
		name string
		ok   func(s backgammon.State, plays []backgammon.Move) bool
	}{
		{"entering from the bar with a hit", func(s backgammon.State, plays []backgammon.Move) bool {
			return s.Checkers(s.Turn(), backgammon.Bar) > 0 && slices.ContainsFunc(plays, func(m backgammon.Move) bool { return m.Step(0).Hit })
		}},
		{"bearing off", func(s backgammon.State, plays []backgammon.Move) bool {
			return len(plays) > 2 && slices.ContainsFunc(plays, func(m backgammon.Move) bool { return m.Step(m.Len()-1).To == backgammon.Off })
		}},
		{"a double", func(s backgammon.State, plays []backgammon.Move) bool {
			d1, d2 := s.Dice()
			return d1 == d2 && len(plays) >= 8 && plays[0].Len() == 4
		}},
		{"a forced partial play", func(s backgammon.State, plays []backgammon.Move) bool {
			d1, d2 := s.Dice()
			return d1 != d2 && len(plays) >= 2 && plays[0].Len() == 1
		}},
	}
	for i, pos := range positions {
		t.Run(pos.name, func(t *testing.T) {
			p.t = t
			s := bgFind(t, uint64(i+1), 30, pos.ok)
			n := playAll(s.String(), 1, "")
			t.Logf("%s (%s): %d plays by clicks", pos.name, s, n)
		})
	}
	t.Run("undo a step", func(t *testing.T) {
		p.t = t
		// A state opened by a link has persons in both seats.
		if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#seat-1"), "greedy")); err != nil {
			t.Fatal(err)
		}
		v := p.openState("4HPwATDgc/ABMA:MIEFAAAAAAAE")
		seats, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#seats select.seat")].map((s) => s.value).join(" ")`))
		if err != nil || seats != "person person" {
			t.Fatalf("after opening a link the seats are %q (%v); want person person", seats, err)
		}
		p.clickSelect("#point-8")
		p.clickSelect("#point-5")
		if pv := p.partial(); pv.Hops != "8/5" || pv.Grey != 1 {
			t.Fatalf("after 8/5: %+v", pv)
		}
		p.clickSelect("#bg-undo-step")
		if pv := p.partial(); pv.Hops != "" || pv.Grey != 0 {
			t.Fatalf("after undoing 8/5: %+v", pv)
		}
		w := p.bgPlayByClicks(v, "8/5 6/5", [][2]int{{6, 5}, {8, 5}}, &c)
		if w.Last != "8/5 6/5" {
			t.Fatalf("6/5 then 8/5 played %q", w.Last)
		}
	})
	t.Run("a game against the computer", func(t *testing.T) {
		p.t = t
		v := p.newGame("backgammon", map[string]string{"#seed": "34"})
		if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#seat-1"), "random")); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#seat-1"), "person"))
		// The opening roll may give Black, the computer, the first play.
		if v.Chance {
			p.click("#roll")
			v = p.settle(v.Version)
		}
		mine := 0
		for turns := 0; !v.Finished && (long() || mine < 3); turns++ {
			if turns > 400 {
				t.Fatalf("not over after %d turns: %s", turns, v.Text)
			}
			if !strings.HasPrefix(v.Turn, "White") {
				t.Fatalf("the page waits with %q (%s); Black is the computer's", v.Turn, v.Text)
			}
			p.check("backgammon", v)
			if v.Chance {
				p.click("#roll")
				v = p.settle(v.Version)
				continue
			}
			m := v.Moves[p.rng.IntN(len(v.Moves))]
			if !strings.Contains(m, "/") {
				p.click(fmt.Sprintf(`#moves button[data-notation="%s"]`, m)) // pass
				v = p.settle(v.Version)
				continue
			}
			s, err := backgammon.ParseState(v.Text)
			if err != nil {
				t.Fatal(err)
			}
			bgCount(s, m, &c)
			v = p.bgPlayByClicks(v, m, bgHops(t, s, m, ""), &c)
			mine++
		}
		p.check("backgammon", v)
		if long() && !v.Finished || !long() && mine < 3 {
			t.Fatalf("against the computer: %d plays of the person, finished %v", mine, v.Finished)
		}
		t.Logf("against the computer: %d plays of the person by clicks (the whole game under GAMERULES_LONG); %s", mine, v.Turn)
	})
	t.Logf("by clicks alone: %s", c)
	if c.bar == 0 || c.hits == 0 || c.bearOff == 0 || c.doubles == 0 || c.part == 0 || c.combined == 0 || c.reordered == 0 {
		t.Errorf("the clicks did not cover everything: %s", c)
	}
}

// checkPhone checks the game the page shows at a phone's width (issue 34):
// the page does not scroll sideways and no element of it does (an element
// with overflow-x auto or scroll and more content than width); the board
// and what a player needs (whose turn, the score; backgammon's dice;
// Labyrinth's spare tile and every player's target, in the panel under
// the board) lie within the width; every touch target (a point's, cell's,
// arrow's or station's hit area) is at least 32 CSS px each way, except
// backgammon's points, which at 390 px cannot be (24 points and the bar
// across): there they must be at least 20 px wide and 90 px tall (the
// whole column is the target).
func (p *page) checkPhone(game string) {
	p.t.Helper()
	need := map[string][]string{
		"backgammon": {"?#board #dice", "#board #off", "#board #bar"},
		"labyrinth":  {`#board [data-copy-of="spare-tile"]`, `#board [data-copy-of="target-0"]`, `#board [data-copy-of="target-1"]`},
		"abalone":    {"#board #lost-0", "#board #lost-1"},
	}[game]
	need = append(need, "#turn", "#score", "#board svg", "#moves", "#undo")
	sel, _ := json.Marshal(need)
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(() => {
	  const W = window.innerWidth;
	  let small = "", n = 0, minW = 1e9, minH = 1e9;
	  const bg = `+strconv.Quote(game)+` === "backgammon";
	  for (const el of document.querySelectorAll("#board :is([data-point],[data-cell],[data-square],[data-insertion],[data-station]) > .hit")) {
	    const r = el.getBoundingClientRect(); n++;
	    minW = Math.min(minW, r.width); minH = Math.min(minH, r.height);
	    // (31.5: Labyrinth's arrows are 32 px deep, edge to edge, at 390 px.)
	    const ok = bg && el.parentElement.dataset.point !== "off" ? r.width >= 20 && r.height >= 90 : Math.min(r.width, r.height) >= 31.5;
	    if (!ok && !small) small = el.parentElement.id + " " + r.width.toFixed(1) + "x" + r.height.toFixed(1);
	  }
	  const scrollers = [];
	  for (const el of document.querySelectorAll("body *")) {
	    const o = getComputedStyle(el).overflowX;
	    if ((o === "auto" || o === "scroll") && el.scrollWidth > el.clientWidth + 1) scrollers.push(el.id || el.tagName);
	  }
	  const out = [];
	  for (let s of `+string(sel)+`) {
	    const optional = s.startsWith("?"); // only when drawn (dice in the move phase)
	    s = s.replace(/^[?]/, "");
	    const el = document.querySelector(s);
	    if (!el) { if (!optional) out.push(s + " missing"); continue; }
	    const r = el.getBoundingClientRect();
	    if (r.width === 0 || r.left < -0.5 || r.right > W + 0.5) out.push(s + " at " + r.left.toFixed(0) + ".." + r.right.toFixed(0));
	  }
	  return JSON.stringify({scroll: document.documentElement.scrollWidth, inner: W, n, small, minW, minH, scrollers, out});
	})()`))
	if err != nil {
		p.t.Fatal(err)
	}
	var f struct {
		Scroll, Inner, N int
		Small            string
		MinW, MinH       float64
		Scrollers, Out   []string
	}
	if err := json.Unmarshal([]byte(raw), &f); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("%s at %d px: %d touch targets, the narrowest %.1f CSS px, the shortest %.1f", game, f.Inner, f.N, f.MinW, f.MinH)
	if f.Scroll > f.Inner {
		p.t.Errorf("%s at %d px wide: the page is %d px wide; want no sideways scrolling", game, f.Inner, f.Scroll)
	}
	if len(f.Scrollers) > 0 {
		p.t.Errorf("%s at %d px wide: these scroll sideways: %q", game, f.Inner, f.Scrollers)
	}
	if len(f.Out) > 0 {
		p.t.Errorf("%s at %d px wide: not within the width: %q", game, f.Inner, f.Out)
	}
	if f.N == 0 || f.Small != "" {
		p.t.Errorf("%s at %d px wide: of %d touch targets, %s is too small", game, f.Inner, f.N, f.Small)
	}
}

// bgShowcase sets up the backgammon screenshot: the first hop of the
// first listed play made on the board (the play in progress drawn, a die
// greyed) and the next hop's checker selected, its destinations marked.
func (p *page) bgShowcase(v view) {
	p.t.Helper()
	if len(v.Moves) == 0 || !strings.Contains(v.Moves[0], "/") {
		return
	}
	s, err := backgammon.ParseState(v.Text)
	if err != nil {
		p.t.Fatal(err)
	}
	hops := bgHops(p.t, s, v.Moves[0], "")
	mover := bgMover(v.Turn)
	sel := func(n int) string { return bgSelector(bgBoardName(mover, bgPoint(n))) }
	if len(hops) > 1 {
		p.clickSelect(sel(hops[0][0]))
		if w := p.clickSelect(sel(hops[0][1])); w.Version > v.Version {
			return // the play was decided
		}
		hops = hops[1:]
	}
	p.clickSelect(sel(hops[0][0]))
}

// dragSelect drags the board element from onto to with the mouse and
// waits for the repaint or a move.
func (p *page) dragSelect(from, to string) view {
	p.t.Helper()
	before := p.view()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.DragAndDrop(chromedp.CSS(from), chromedp.CSS(to))); err != nil {
		p.t.Fatalf("drag %s to %s: %v", from, to, err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := p.view()
		if !v.Busy && (v.Selection > before.Selection || v.Version > before.Version) {
			return v
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("drag %s to %s: no repaint within 20 s", from, to)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBackgammonDragAndDrop plays the opening 3-1's 8/5 6/5 by dragging
// with the mouse (8 to 5, then 6 to 5), and 24/20 by one drag.
func TestBackgammonDragAndDrop(t *testing.T) {
	p := openDieByDie(t, 1280, 900)
	const open31 = "4HPwATDgc/ABMA:MIEFAAAAAAAE"
	v := p.openState(open31)
	w := p.dragSelect("#point-8", "#point-5")
	if pv := p.partial(); w.Version != v.Version || pv.Hops != "8/5" || pv.Grey != 1 {
		t.Fatalf("after dragging 8 to 5: version %d (was %d), board %+v", w.Version, v.Version, pv)
	}
	if w = p.dragSelect("#point-6", "#point-5"); w.Last != "8/5 6/5" {
		t.Fatalf("dragging 8 to 5 and 6 to 5 played %q", w.Last)
	}
	p.click("#undo")
	v = p.settle(w.Version)
	if w = p.dragSelect("#point-24", "#point-20"); w.Last != "24/20" {
		t.Fatalf("dragging 24 to 20 played %q", w.Last)
	}
}
