package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/game"
)

// Backgammon geometry, in viewBox units.
const (
	bgW      = 660.0
	bgH      = 560.0
	bgMargin = 20.0
	bgPointW = 40.0
	bgBarW   = 40.0
	bgTop    = 30.0  // top edge of the playing area
	bgBottom = 490.0 // bottom edge of the playing area
	bgPointH = 190.0
	bgR      = 18.0 // checker radius
	bgTrayX  = 560.0
	bgTrayW  = 60.0
)

const bgStyle = commonStyle + `.felt{fill:#2e6b3f}.frame{fill:#6b4a2b}.pt-dark{fill:#a33b2b}.pt-light{fill:#e8d9b5}` +
	`.ck0{fill:#f7f4ea;stroke:#333;stroke-width:1.5}.ck1{fill:#2b2b2b;stroke:#ddd;stroke-width:1.5}` +
	`.n0{fill:#222}.n1{fill:#eee}.die{fill:#fff;stroke:#222;stroke-width:2}.pip{fill:#222}.die.used{fill:#9a9a9a;stroke:#555}.pip.used{fill:#555}` +
	`.cube{fill:#fffbe6;stroke:#222;stroke-width:2}.hit{fill:transparent;stroke:none}.coord{fill:#f3e6c8}.info{fill:#fff}.ct{fill:#222}`

// Backgammon draws s from the side of a player: his home board at the
// bottom right, his points numbered 1..24 from his side in the ids (as his
// move notation counts them; the coordinate labels are the numbers of the
// player on turn, as the move list writes them, so they agree whichever
// side is drawn), his bar and borne-off tray at the bottom (ids
// "bar", "off"), the opponent's at the top ("bar-opponent",
// "off-opponent"). The default side is the player on turn (Turn). It also
// draws the dice in PhaseMove, the doubling cube when it is in use (id
// "cube", data-value, data-owner "centre", "0" or "1", data-offered while a
// double awaits an answer), both pip counts and whose turn it is and what
// he must do, or the result of a finished game.
//
// Options.From and To name points from the drawn side: "1".."24", "bar",
// "off". With Options.HasPartial (PhaseMove only) the board is drawn after
// Options.Partial, the hops of a play in progress (State.PartialPlay), the
// dice used greyed (class "die used"; a double as four dice), and an
// empty group id="partial" carries data-hops, data-used ("3 1"),
// data-plays (the legal plays left, notations separated by "|"),
// data-next (the hops that may come next, "8/5 6/5*") and data-complete.
// Errors are *OptionError.
//
// Stable element ids: id="point-N" data-point="N" for points 1..24
// counted from the drawn side, id="bar" data-point="bar" (the drawn side's
// bar), id="off" data-point="off" (its borne-off tray), id="bar-opponent",
// id="off-opponent", id="dice" data-dice="6-5", id="cube" data-value,
// id="pips-0"/"pips-1" data-pips; each point, bar and tray also has
// data-point-0 and/or data-point-1: its name in that player's move
// notation (point 7 from White's side is data-point-0="7"
// data-point-1="18"; White's bar data-point-0="bar"), so a client can map
// notation to the board whatever side is drawn.
func Backgammon(s backgammon.State, o Options) ([]byte, error) {
	common := o
	common.HasPartial = false
	size, err := checkCommon(common, 2, false)
	if err != nil {
		return nil, err
	}
	var partial *backgammon.Partial
	if o.HasPartial {
		if err := s.Validate(); err != nil {
			return nil, err
		}
		if s.Phase() != backgammon.PhaseMove {
			return nil, optErr("partial_play", "the game is in the %s phase; a play in progress needs the dice rolled", s.Phase())
		}
		p, err := s.PartialPlay(o.Partial)
		if err != nil {
			return nil, optErr("partial_play", "%s", strings.TrimPrefix(err.Error(), "backgammon: "))
		}
		partial = &p
		s = p.State
	}
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v == "" {
			continue
		}
		if !bgValidPoint(f.v) {
			return nil, optErr(f.field, "%s is not a point; want 1..24, bar or off", game.Quote(f.v))
		}
	}
	side := s.Turn()
	if o.HasSide {
		side = o.Side
	}
	opp := 1 - side
	boxes, styles, err := checkMarks(o, bgLocate)
	if err != nil {
		return nil, err
	}
	var g svg
	g.open("backgammon", s.String(), size, bgW, bgH, bgStyle)
	g.printf(`<rect x="0" y="0" width="%s" height="%s" class="frame"/>`+"\n", num(bgW), num(bgH))
	g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="felt"/>`+"\n", num(bgMargin), num(bgTop), num(12*bgPointW+bgBarW), num(bgBottom-bgTop))
	// Trays (borne-off checkers): the drawn side's at the bottom.
	for _, t := range [...]struct {
		id     string
		player int
		y      float64
	}{{"off-opponent", opp, bgTop}, {"off", side, (bgTop + bgBottom) / 2}} {
		h := (bgBottom - bgTop) / 2
		n := s.Checkers(t.player, backgammon.Off)
		g.printf(`<g id="%s" data-point="%s" data-point-%d="off" data-player="%d" data-checkers="%d" class="%s">`, t.id, strings.TrimSuffix(t.id, "-opponent"), t.player, t.player, n, cls("tray", hl(o, bgName(t.id))))
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="felt"/>`, num(bgTrayX), num(t.y), num(bgTrayW), num(h))
		for i := 0; i < n; i++ {
			// Borne-off checkers are drawn edge-on, as thin bars.
			y := t.y + 6 + float64(i)*14
			if t.id == "off" {
				y = t.y + h - 18 - float64(i)*14
			}
			g.printf(`<rect x="%s" y="%s" width="%s" height="12" rx="3" class="ck%d"/>`, num(bgTrayX+6), num(y), num(bgTrayW-12), t.player)
		}
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="hit"/></g>`+"\n", num(bgTrayX), num(t.y), num(bgTrayW), num(h))
	}
	// Points, numbered from the drawn side.
	for p := 1; p <= 24; p++ {
		x, top := bgPointPos(p)
		base, tip := bgBottom, bgBottom-bgPointH
		if top {
			base, tip = bgTop, bgTop+bgPointH
		}
		ptClass := "pt-light"
		if p%2 == 1 {
			ptClass = "pt-dark"
		}
		owner, n := -1, 0
		if c := s.Checkers(side, p); c > 0 {
			owner, n = side, c
		} else if c := s.Checkers(opp, 25-p); c > 0 {
			owner, n = opp, c
		}
		g.printf(`<g id="point-%d" data-point="%d" data-point-%d="%d" data-point-%d="%d" class="%s"`, p, p, side, p, opp, 25-p, cls("point", hl(o, strconv.Itoa(p))))
		if owner >= 0 {
			g.printf(` data-player="%d" data-checkers="%d"`, owner, n)
		}
		g.printf(`><polygon points="%s,%s %s,%s %s,%s" class="%s"/>`, num(x), num(base), num(x+bgPointW), num(base), num(x+bgPointW/2), num(tip), ptClass)
		bgStack(&g, owner, n, x+bgPointW/2, base, top)
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="hit"/></g>`+"\n", num(x), num(min(base, tip)), num(bgPointW), num(bgPointH))
		if !o.HideCoordinates {
			ly := bgTop - 10
			if !top {
				ly = bgBottom + 10
			}
			// The number in the notation of the player on turn (the
			// move list's), whichever side is drawn, as gnubg's board.
			label := p
			if s.Turn() != side {
				label = 25 - p
			}
			g.text(x+bgPointW/2, ly, 12, "coord", strconv.Itoa(label))
		}
	}
	// The bar: the drawn side's checkers in the upper half (they enter in
	// the opponent's home board, at the top right), the opponent's below.
	barX := bgMargin + 6*bgPointW
	g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="frame"/>`+"\n", num(barX), num(bgTop), num(bgBarW), num(bgBottom-bgTop))
	for _, b := range [...]struct {
		id     string
		player int
		top    bool
	}{{"bar", side, true}, {"bar-opponent", opp, false}} {
		n := s.Checkers(b.player, backgammon.Bar)
		y0, base := bgTop, bgTop+40
		if !b.top {
			y0, base = (bgTop+bgBottom)/2+20, bgBottom-40
		}
		g.printf(`<g id="%s" data-point="%s" data-point-%d="bar" data-player="%d" data-checkers="%d" class="%s">`, b.id, strings.TrimSuffix(b.id, "-opponent"), b.player, b.player, n, cls("bar", hl(o, bgName(b.id))))
		bgStack(&g, b.player, n, barX+bgBarW/2, base, b.top)
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="hit"/></g>`+"\n", num(barX), num(y0), num(bgBarW), num((bgBottom-bgTop)/2-20))
	}
	// The cube: in the middle of the bar when centred (showing 64 at 1, as
	// boards do), at the owner's end of the bar otherwise (the drawn side's
	// at the bottom); data-offered while a double awaits an answer.
	if s.CubeInUse() || s.CubeValue() > 1 {
		owner, cy := "centre", (bgTop+bgBottom)/2
		switch s.CubeOwner() {
		case side:
			owner, cy = strconv.Itoa(side), bgBottom-22
		case opp:
			owner, cy = strconv.Itoa(opp), bgTop+22
		}
		face := strconv.Itoa(s.CubeValue())
		if s.CubeValue() == 1 && s.CubeOwner() < 0 {
			face = "64"
		}
		g.printf(`<g id="cube" data-value="%d" data-owner="%s"`, s.CubeValue(), owner)
		if s.DoubleOffered() {
			g.printf(` data-offered="true"`)
		}
		g.printf(`><rect x="%s" y="%s" width="32" height="32" rx="4" class="cube"/>`, num(barX+4), num(cy-16))
		g.text(barX+20, cy, 16, "ct", face)
		g.printf("</g>\n")
	}
	// Dice, on the right half when the drawn side is to move, else left;
	// with a play in progress the dice used greyed (a double as four dice).
	if d1, d2 := s.Dice(); d1 > 0 {
		cx := bgMargin + 6*bgPointW + bgBarW + 3*bgPointW
		if s.Turn() != side {
			cx = bgMargin + 3*bgPointW
		}
		g.printf(`<g id="dice" data-dice="%d-%d" data-player="%d">`, d1, d2, s.Turn())
		faces := []int{d1, d2}
		if partial != nil && d1 == d2 {
			faces = []int{d1, d1, d1, d1}
		}
		var used []int
		if partial != nil {
			used = slices.Clone(partial.Used)
		}
		// The dice used are the last faces of their value (so a 3-1 with the
		// 3 used greys the first die, and a double greys from the right).
		grey := make([]bool, len(faces))
		for _, u := range used {
			for i := len(faces) - 1; i >= 0; i-- {
				if faces[i] == u && !grey[i] {
					grey[i] = true
					break
				}
			}
		}
		step := 56.0
		if len(faces) == 4 {
			step = 46
		}
		x0 := cx - step*float64(len(faces)-1)/2
		for i, v := range faces {
			bgDie(&g, x0+step*float64(i), (bgTop+bgBottom)/2, v, grey[i])
		}
		g.printf("</g>\n")
	}
	if partial != nil {
		plays := make([]string, len(partial.Plays))
		for i, m := range partial.Plays {
			plays[i] = m.String()
		}
		next := make([]string, len(partial.Next))
		for i, st := range partial.Next {
			next[i] = st.String()
		}
		used := make([]string, len(partial.Used))
		for i, u := range partial.Used {
			used[i] = strconv.Itoa(u)
		}
		g.printf(`<g id="partial" data-player="%d" data-hops="%s" data-used="%s" data-plays="%s" data-next="%s" data-complete="%t"/>`+"\n",
			s.Turn(), esc(strings.Join(strings.Fields(o.Partial), " ")), strings.Join(used, " "), esc(strings.Join(plays, "|")), esc(strings.Join(next, " ")), partial.Complete)
	}
	g.marks(boxes, styles)
	// Pip counts and the state of play.
	names := [2]string{"White", "Black"}
	for i, p := range [...]int{side, opp} {
		x := bgMargin + 10
		anchor := "start"
		if i == 1 {
			x, anchor = bgTrayX+bgTrayW, "end"
		}
		g.printf(`<text id="pips-%d" data-pips="%d" x="%s" y="%s" font-size="15" text-anchor="%s" class="info">%s: %d pips</text>`+"\n",
			p, s.Pips(p), num(x), num(bgH-32), anchor, names[p], s.Pips(p))
	}
	g.printf(`<text id="status" x="%s" y="%s" font-size="15" text-anchor="middle" class="info">%s</text>`+"\n", num(bgW/2), num(bgH-12), esc(bgStatus(s)))
	return g.close(), nil
}

// bgName is the highlight name of a bar or tray element: "bar" and "off"
// for the drawn side's; the opponent's cannot be highlighted.
func bgName(id string) string {
	if strings.HasSuffix(id, "-opponent") {
		return "\x00"
	}
	return id
}

// bgLocate is where a mark on a backgammon name is drawn: "1".."24" (the
// point's middle), "bar", "off" and their "-opponent" forms.
func bgLocate(name string) markBox {
	barX := bgMargin + 6*bgPointW
	h := (bgBottom - bgTop) / 2
	switch strings.ToLower(name) {
	case "bar":
		return markBox{name: "bar", x: barX + bgBarW/2, y: bgTop + (h-20)/2, rx: bgBarW / 2, ry: (h - 20) / 2, valid: true}
	case "bar-opponent":
		return markBox{name: "bar-opponent", x: barX + bgBarW/2, y: bgBottom - (h-20)/2, rx: bgBarW / 2, ry: (h - 20) / 2, valid: true}
	case "off":
		return markBox{name: "off", x: bgTrayX + bgTrayW/2, y: bgTop + 1.5*h, rx: bgTrayW / 2, ry: h / 2, valid: true}
	case "off-opponent":
		return markBox{name: "off-opponent", x: bgTrayX + bgTrayW/2, y: bgTop + h/2, rx: bgTrayW / 2, ry: h / 2, valid: true}
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 1 || n > 24 || strconv.Itoa(n) != name {
		return markBox{wantFormat: "a point 1..24, bar, off, bar-opponent or off-opponent"}
	}
	x, top := bgPointPos(n)
	y := bgBottom - bgPointH/2
	if top {
		y = bgTop + bgPointH/2
	}
	return markBox{name: name, x: x + bgPointW/2, y: y, rx: bgPointW / 2, ry: bgPointH / 2, valid: true}
}

// bgValidPoint reports whether v names a point of the drawn side.
func bgValidPoint(v string) bool {
	switch strings.ToLower(v) {
	case "bar", "off":
		return true
	}
	n, err := strconv.Atoi(v)
	return err == nil && n >= 1 && n <= 24 && strconv.Itoa(n) == v
}

// bgPointPos returns the left edge of point p (1..24 from the drawn side)
// and whether it is in the top half.
func bgPointPos(p int) (float64, bool) {
	right := bgMargin + 6*bgPointW + bgBarW
	switch {
	case p <= 6: // bottom right, 1 at the far right
		return right + float64(6-p)*bgPointW, false
	case p <= 12: // bottom left
		return bgMargin + float64(12-p)*bgPointW, false
	case p <= 18: // top left, 13 at the far left
		return bgMargin + float64(p-13)*bgPointW, true
	default: // top right, 24 at the far right
		return right + float64(p-19)*bgPointW, true
	}
}

// bgStack draws n checkers of player from base towards the centre; past
// five the last shows the count.
func bgStack(g *svg, player, n int, cx, base float64, top bool) {
	shown := min(n, 5)
	for i := 0; i < shown; i++ {
		cy := base - bgR - float64(i)*2*bgR
		if top {
			cy = base + bgR + float64(i)*2*bgR
		}
		g.printf(`<circle cx="%s" cy="%s" r="%s" class="ck%d"/>`, num(cx), num(cy), num(bgR-1), player)
		if i == shown-1 && n > 5 {
			g.text(cx, cy, 16, fmt.Sprintf("n%d", player), strconv.Itoa(n))
		}
	}
}

// bgDie draws one die showing v centred on cx, cy; a die used by a play
// in progress is grey (class "die used", data-used).
func bgDie(g *svg, cx, cy float64, v int, used bool) {
	if used {
		g.printf(`<rect x="%s" y="%s" width="40" height="40" rx="6" class="die used" data-value="%d" data-used="true"/>`, num(cx-20), num(cy-20), v)
	} else {
		g.printf(`<rect x="%s" y="%s" width="40" height="40" rx="6" class="die" data-value="%d"/>`, num(cx-20), num(cy-20), v)
	}
	pips := map[int][][2]float64{
		1: {{0, 0}}, 2: {{-1, -1}, {1, 1}}, 3: {{-1, -1}, {0, 0}, {1, 1}},
		4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}, 5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
		6: {{-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}},
	}[v]
	pip := "pip"
	if used {
		pip = "pip used"
	}
	for _, p := range pips {
		g.printf(`<circle cx="%s" cy="%s" r="4" class="%s"/>`, num(cx+p[0]*10), num(cy+p[1]*10), pip)
	}
}

// bgStatus says whose turn it is and what he must do, or how the game ended.
func bgStatus(s backgammon.State) string {
	names := [2]string{"White", "Black"}
	switch s.Phase() {
	case backgammon.PhaseOpening:
		return "Opening roll: each player rolls one die"
	case backgammon.PhaseRoll:
		return names[s.Turn()] + " to roll"
	case backgammon.PhaseMove:
		d1, d2 := s.Dice()
		return fmt.Sprintf("%s to play %d-%d", names[s.Turn()], d1, d2)
	case backgammon.PhaseDouble:
		return fmt.Sprintf("%s is doubled to %d: take or drop", names[s.Turn()], 2*s.CubeValue())
	case backgammon.PhaseResign:
		return names[s.Turn()] + " to accept or decline a resignation"
	}
	out := s.Outcome()
	if out.Winner >= 0 && out.Winner < 2 {
		pts := out.Points[out.Winner]
		unit := "points"
		if pts == 1 {
			unit = "point"
		}
		return fmt.Sprintf("%s wins (%s): %d %s", names[out.Winner], out.Detail, pts, unit)
	}
	return "Game over"
}
