package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// Labyrinth geometry, in viewBox units.
const (
	lbT      = 64.0 // tile size
	lbM      = 44.0 // margin around the board, where the insertion arrows are
	lbPanelX = lbM*2 + 7*lbT
	lbW      = lbPanelX + 220
	lbH      = lbM*2 + 7*lbT
)

const lbStyle = commonStyle + `.frame{fill:#23324a}.wall{fill:#5b4a36}.wall.fixed{fill:#3f3224}.path{fill:#efe3c4}` +
	`.tgt{fill:#fff7d6;stroke:#8a6d1f;stroke-width:1.5}.tgt.vs{fill:#3a3a3a;stroke:#000}.tl{fill:#5a3d00}.tgt.vs+.tl{fill:#ffd75e}` +
	`.vader{fill:#b00000;stroke:#fff;stroke-width:2.5}.tl-v{fill:#fff;font-weight:bold}.lg{fill:#dde}.cur-bg{stroke:#000;stroke-width:6;fill:none}.ship{stroke:#000;stroke-width:2}` +
	`.arrow{fill:#9fb4d8;stroke:#eaf0ff;stroke-width:1}.arrow.forbidden{fill:#555;stroke:#999}.x{stroke:#e33;stroke-width:3}` +
	`.hit{fill:transparent;stroke:none}.coord{fill:#ccd}.info{fill:#eee}.current{stroke-width:3;fill:none}`

// lbColors are the ships' fill colours by labyrinth.Color.
var lbColors = [labyrinth.NumColors]string{"#d33", "#f2c40f", "#2a2", "#27d"}

// Labyrinth draws s: the 7×7 tiles with their corridors, the fixed tiles
// darker, targets (letters A..X; the four Vader cards' targets, 21..24,
// on dark discs) and the Darth Vader symbol, the ships and Darth Vader,
// the twelve insertion arrows (the one that would reverse the previous push
// marked forbidden), and a panel with the spare tile in its current
// orientation, whose turn and phase, and per player the cards found and the
// current target, which is also ringed on the board in that player's
// colour; Darth Vader is a red diamond with a white V (unlike the dark
// discs of the Vader cards' targets), and a legend explains the figures
// and symbols.
//
// With Options.HasSide the image shows only what that player may see
// (State.View: his own current target; -1 a spectator, no targets);
// without it, every current target the state holds. A per-player view
// itself (State.IsView) is drawn as it is. Options.From and To name
// squares ("r3c5") or insertion points ("N2"). Errors are *OptionError.
//
// Stable element ids: id="square-r3c5" data-square="r3c5",
// id="insert-N2" data-insertion="N2" (the forbidden one also
// data-forbidden="true"), id="spare" (the caption and id="spare-tile", the
// tile a client may turn to preview a rotation), id="ship-<colour>",
// id="vader", id="target-<player>", id="legend".
func Labyrinth(s labyrinth.State, o Options) ([]byte, error) {
	size, err := checkCommon(o, s.Players(), true)
	if err != nil {
		return nil, err
	}
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v != "" && !lbValidName(f.v) {
			return nil, optErr(f.field, "%s is not a square (r1c1..r7c7) or an insertion point (N2..W6)", game.Quote(f.v))
		}
	}
	if o.HasSide {
		s = s.View(o.Side)
	}
	boxes, styles, err := checkMarks(o, lbLocate)
	if err != nil {
		return nil, err
	}
	var g svg
	g.open("labyrinth", s.String(), size, lbW, lbH, lbStyle)
	g.printf(`<rect x="0" y="0" width="%s" height="%s" class="frame"/>`+"\n", num(lbW), num(lbH))
	// The squares to ring: every shown player's current target.
	current := map[uint8]int{}
	for p := 0; p < s.Players(); p++ {
		if t := s.Target(p); t > 0 {
			current[t] = p
		}
	}
	board := s.Board()
	for q := labyrinth.Square(0); q < labyrinth.NumSquares; q++ {
		x := lbM + float64(q.Col()-1)*lbT
		y := lbM + float64(q.Row()-1)*lbT
		_, fixed := labyrinth.FixedTile(q)
		name := q.String()
		t := board[q]
		g.printf(`<g id="square-%s" data-square="%s" data-tile="%s" class="%s"`, name, name, t.String(), cls("square", hl(o, name)))
		if t.Target > 0 {
			g.printf(` data-target="%c"`, labyrinth.TargetLetter(t.Target))
		}
		g.printf(">")
		lbTile(&g, t, x, y, lbT, fixed)
		if p, ok := current[t.Target]; ok && t.Target > 0 {
			// Ringed in the colour of the player whose target it is.
			g.printf(`<circle cx="%s" cy="%s" r="%s" class="cur-bg"/>`, num(x+lbT/2), num(y+lbT/2), num(lbT*0.28))
			g.printf(`<circle cx="%s" cy="%s" r="%s" class="current" stroke="%s" data-player="%d"/>`, num(x+lbT/2), num(y+lbT/2), num(lbT*0.28), lbColour(s, p), p)
		}
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="hit"/></g>`+"\n", num(x), num(y), num(lbT), num(lbT))
	}
	// Figures: Darth Vader in the middle of his square, the ships in its
	// corners (by colour), so that several fit on one square.
	if v := s.Vader(); v.Valid() {
		x, y := lbM+float64(v.Col()-1)*lbT+lbT/2, lbM+float64(v.Row()-1)*lbT+lbT/2
		g.printf(`<g id="vader" data-square="%s">`, v)
		lbVaderToken(&g, x, y)
		g.printf("</g>\n")
	}
	corner := [labyrinth.NumColors][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	for p := 0; p < s.Players(); p++ {
		c, q := s.Color(p), s.Ship(p)
		if !q.Valid() || int(c) >= labyrinth.NumColors {
			continue
		}
		x := lbM + float64(q.Col()-1)*lbT + lbT/2 + corner[c][0]*lbT*0.27
		y := lbM + float64(q.Row()-1)*lbT + lbT/2 + corner[c][1]*lbT*0.27
		g.printf(`<circle id="ship-%s" data-player="%d" data-square="%s" cx="%s" cy="%s" r="9" fill="%s" class="ship"/>`+"\n", c, p, q, num(x), num(y), lbColors[c])
	}
	// Insertion arrows; the reversal of the previous push is forbidden.
	forbidden := s.Last().Opposite()
	for p := labyrinth.N2; p <= labyrinth.W6; p++ {
		name := p.String()
		cx, cy := lbArrowAt(name)
		var pts [3][2]float64
		switch name[0] {
		case 'N':
			pts = [3][2]float64{{-12, -10}, {12, -10}, {0, 12}}
		case 'S':
			pts = [3][2]float64{{-12, 10}, {12, 10}, {0, -12}}
		case 'E':
			pts = [3][2]float64{{10, -12}, {10, 12}, {-12, 0}}
		default: // W
			pts = [3][2]float64{{-10, -12}, {-10, 12}, {12, 0}}
		}
		class := "arrow"
		extra := ""
		if p == forbidden {
			class += " forbidden"
			extra = ` data-forbidden="true"`
		}
		g.printf(`<g id="insert-%s" data-insertion="%s"%s class="%s">`, name, name, extra, cls("insertion", hl(o, name)))
		g.printf(`<polygon points="%s,%s %s,%s %s,%s" class="%s"/>`, num(cx+pts[0][0]), num(cy+pts[0][1]), num(cx+pts[1][0]), num(cy+pts[1][1]), num(cx+pts[2][0]), num(cy+pts[2][1]), class)
		if p == forbidden {
			g.printf(`<path d="M%s %sl16 16m0 -16l-16 16" class="x"/>`, num(cx-8), num(cy-8))
		}
		// The click area covers the margin beside the row or column (a
		// 44×64 box: at least 32 CSS pixels when the board is 580 wide).
		hw, hh := lbT/2, lbM/2
		if name[0] == 'E' || name[0] == 'W' {
			hw, hh = lbM/2, lbT/2
		}
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="hit"/></g>`+"\n", num(cx-hw), num(cy-hh), num(2*hw), num(2*hh))
	}
	g.marks(boxes, styles)
	if !o.HideCoordinates {
		for i := 1; i <= 7; i++ {
			if i%2 == 1 { // even rows/columns have arrows where labels would go
				g.text(lbM+(float64(i)-0.5)*lbT, lbM/2, 13, "coord", "c"+strconv.Itoa(i))
				g.text(lbM/2, lbM+(float64(i)-0.5)*lbT, 13, "coord", "r"+strconv.Itoa(i))
			}
		}
	}
	// The panel: spare tile, turn, players.
	px := lbPanelX
	// The caption stays upright when a client turns the tile (id
	// "spare-tile") to preview a rotation.
	g.printf(`<g id="spare" data-tile="%s">`, s.Spare().String())
	g.text(px+100, lbM-14, 15, "info", "Spare tile")
	g.printf(`<g id="spare-tile">`)
	lbTile(&g, s.Spare(), px+68, lbM, lbT, false)
	g.printf("</g></g>\n")
	g.printf(`<text id="status" x="%s" y="%s" font-size="15" class="info">%s</text>`+"\n", num(px), num(lbM+lbT+34), esc(lbStatus(s)))
	for p := 0; p < s.Players(); p++ {
		y := lbM + lbT + 70 + float64(p)*58
		c := s.Color(p)
		col := lbColour(s, p)
		turn := ""
		if p == s.Turn() && s.Phase() != labyrinth.PhaseOver {
			turn = " ◀"
		}
		found, left := len(s.Found(p)), len(s.Stack(p))
		target := "?"
		switch t := s.Target(p); {
		case t > 0:
			target = string(labyrinth.TargetLetter(t))
		case left == 0:
			target = "home"
		}
		g.printf(`<g id="target-%d" data-player="%d" data-color="%s" data-found="%d" data-left="%d" data-target="%s">`, p, p, c, found, left, target)
		g.printf(`<circle cx="%s" cy="%s" r="9" fill="%s" class="ship"/>`, num(px+10), num(y), col)
		g.printf(`<text x="%s" y="%s" font-size="15" dominant-baseline="central" class="info">%s: %d of %d found%s</text>`, num(px+26), num(y), esc(capitalize(c.String())), found, found+left, turn)
		g.printf(`<text x="%s" y="%s" font-size="13" dominant-baseline="central" class="info">target: %s</text></g>`+"\n", num(px+26), num(y+20), esc(target))
	}
	lbLegend(&g, px, lbM+lbT+70+float64(s.Players())*58)
	return g.close(), nil
}

// lbColour is player p's colour.
func lbColour(s labyrinth.State, p int) string {
	if c := s.Color(p); int(c) < labyrinth.NumColors {
		return lbColors[c]
	}
	return "#888"
}

// lbVaderToken draws Darth Vader's figure centred on x, y: a red diamond
// with a white V, unlike any target disc.
func lbVaderToken(g *svg, x, y float64) {
	g.printf(`<path d="M%s %sl13 13l-13 13l-13 -13z" class="vader"/>`, num(x), num(y-13))
	g.text(x, y+1, 13, "tl-v", "V")
}

// lbLegend explains the figures and symbols, from y down.
func lbLegend(g *svg, px, y float64) {
	g.printf(`<g id="legend">`)
	g.printf(`<text x="%s" y="%s" font-size="14" font-weight="bold" class="lg">Legend</text>`, num(px), num(y))
	row := func(i int) float64 { return y + 22 + float64(i)*22 }
	g.printf(`<circle cx="%s" cy="%s" r="8" fill="#bbb" class="ship"/>`, num(px+10), num(row(0)))
	g.printf(`<text x="%s" y="%s" font-size="12" dominant-baseline="central" class="lg">a ship, in its player's colour</text>`, num(px+26), num(row(0)))
	lbVaderToken(g, px+10, row(1))
	g.printf(`<text x="%s" y="%s" font-size="12" dominant-baseline="central" class="lg">Darth Vader (the figure)</text>`, num(px+26), num(row(1)))
	g.printf(`<path d="M%s %s l6 -8 l6 8 z" fill="#111" stroke="#c00"/>`, num(px+4), num(row(2)+4))
	g.printf(`<text x="%s" y="%s" font-size="12" dominant-baseline="central" class="lg">Vader symbol (his start tile)</text>`, num(px+26), num(row(2)))
	g.printf(`<circle cx="%s" cy="%s" r="9" class="tgt vs"/>`, num(px+10), num(row(3)))
	g.printf(`<text x="%s" y="%s" font-size="12" dominant-baseline="central" class="lg">target of a Vader card (21–24)</text>`, num(px+26), num(row(3)))
	g.printf(`<circle cx="%s" cy="%s" r="8" stroke="#d33" stroke-width="3" fill="none"/>`, num(px+10), num(row(4)))
	g.printf(`<text x="%s" y="%s" font-size="12" dominant-baseline="central" class="lg">current target (ring: its player)</text>`, num(px+26), num(row(4)))
	g.printf("</g>\n")
}

// lbTile draws tile t with its top-left corner at x, y.
func lbTile(g *svg, t labyrinth.Tile, x, y, size float64, fixed bool) {
	wall := "wall"
	if fixed {
		wall = "wall fixed"
	}
	g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="%s"/>`, num(x+1), num(y+1), num(size-2), num(size-2), wall)
	w := size * 0.38
	a := (size - w) / 2
	g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="path"/>`, num(x+a), num(y+a), num(w), num(w))
	if t.Sides&labyrinth.North != 0 {
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="path"/>`, num(x+a), num(y+1), num(w), num(a))
	}
	if t.Sides&labyrinth.South != 0 {
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="path"/>`, num(x+a), num(y+a+w-1), num(w), num(a))
	}
	if t.Sides&labyrinth.West != 0 {
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="path"/>`, num(x+1), num(y+a), num(a), num(w))
	}
	if t.Sides&labyrinth.East != 0 {
		g.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="path"/>`, num(x+a+w-1), num(y+a), num(a), num(w))
	}
	if t.Target > 0 {
		c := "tgt"
		if t.Target > 20 {
			c = "tgt vs"
		}
		g.printf(`<circle cx="%s" cy="%s" r="%s" class="%s"/>`, num(x+size/2), num(y+size/2), num(size*0.17), c)
		g.text(x+size/2, y+size/2, 13, "tl", string(labyrinth.TargetLetter(t.Target)))
	}
	if t.Vader {
		g.printf(`<path d="M%s %s l6 -8 l6 8 z" fill="#111" stroke="#c00" class="vsym"/>`, num(x+size-18), num(y+size-6))
	}
}

// lbArrowAt is the centre of insertion point name's arrow.
func lbArrowAt(name string) (float64, float64) {
	k := float64(name[1] - '0') // column or row 2, 4, 6
	switch name[0] {
	case 'N':
		return lbM + (k-0.5)*lbT, lbM / 2
	case 'S':
		return lbM + (k-0.5)*lbT, lbH - lbM/2
	case 'E':
		return lbM*1.5 + 7*lbT, lbM + (k-0.5)*lbT
	}
	return lbM / 2, lbM + (k-0.5)*lbT
}

// lbLocate is where a mark on a square or insertion point is drawn.
func lbLocate(v string) markBox {
	for q := labyrinth.Square(0); q < labyrinth.NumSquares; q++ {
		if strings.EqualFold(v, q.String()) {
			x := lbM + (float64(q.Col())-0.5)*lbT
			y := lbM + (float64(q.Row())-0.5)*lbT
			// The dot below the middle: clear of the target letter (in
			// the middle) and of the ships (in the corners).
			return markBox{name: q.String(), x: x, y: y, rx: lbT/2 - 3, ry: lbT/2 - 3, valid: true, dotDY: lbT * 0.3, dotR: 8}
		}
	}
	for p := labyrinth.N2; p <= labyrinth.W6; p++ {
		if strings.EqualFold(v, p.String()) {
			x, y := lbArrowAt(p.String())
			return markBox{name: p.String(), x: x, y: y, rx: 17, ry: 17, round: true, valid: true}
		}
	}
	return markBox{wantFormat: "a square (r1c1..r7c7) or an insertion point (N2..W6)"}
}

// lbValidName reports whether v is a square or an insertion point.
func lbValidName(v string) bool {
	for q := labyrinth.Square(0); q < labyrinth.NumSquares; q++ {
		if strings.EqualFold(v, q.String()) {
			return true
		}
	}
	for p := labyrinth.N2; p <= labyrinth.W6; p++ {
		if strings.EqualFold(v, p.String()) {
			return true
		}
	}
	return false
}

// lbStatus says who acts and how, or who won.
func lbStatus(s labyrinth.State) string {
	if s.Phase() == labyrinth.PhaseOver {
		out := s.Outcome()
		if out.Winner >= 0 && out.Winner < s.Players() {
			return fmt.Sprintf("%s wins", capitalize(s.Color(out.Winner).String()))
		}
		return "Game over"
	}
	who := capitalize(s.Color(s.Turn()).String())
	if s.Phase() == labyrinth.PhaseShift {
		return who + " to insert the spare tile"
	}
	if t := s.Target(s.Turn()); t > 20 && s.Vader().Valid() && !s.Variants().OpenCards {
		return who + " to move Darth Vader"
	}
	return who + " to move his ship"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
