package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/gravitytrap"
)

// Gravity Trap geometry, in viewBox units.
const (
	gtW      = 600.0
	gtH      = 640.0
	gtMargin = 40.0
)

const gtStyle = commonStyle + `.frame{fill:#101a2e}.line{fill:none;stroke-width:5;stroke-linecap:butt}.lc0{stroke:#8fa8d8}.lc1{stroke:#e0b04a}.lc2{stroke:#6fcf97}.lc3{stroke:#d98ad9}` +
	`.lend{stroke:#101a2e;stroke-width:3}.bname{fill:#ccd}` +
	`.stn{fill:#1f2d4d;stroke:#8fa8d8;stroke-width:2}.marble{fill:#d8dde6;stroke:#fff;stroke-width:1}` +
	`.ship-red{fill:#e0453a;stroke:#fff;stroke-width:2}.ship-blue{fill:#3a7be0;stroke:#fff;stroke-width:2}` +
	`.hole{fill:#000;stroke:#445;stroke-width:2}.hit{fill:transparent;stroke:none}.coord{fill:#9ab}.info{fill:#eee}.sl{fill:#fff}`

// GravityTrap draws s on its board: the curved lines (consecutive
// stations on one circle around 0,0 are joined by an arc of that circle, a
// ring line that goes all the way round is closed, anything else by a
// straight segment), each in one of four colours (the first that no earlier
// line sharing a station has) with a notch where it ends, so that where one
// line ends and the next begins is visible; the central hole on a built-in
// board, the stations with their ids (each placed in the direction
// farthest from the lines leaving its station), the marbles and both ships,
// the board's name, and whose turn it is (placing or moving) with the
// marbles left, or the result. Station positions come from Board.Layout
// (the board's coordinates, or an automatic layout). Options.Side is
// checked but changes nothing. Options.From and To name stations ("7").
// Errors are *OptionError.
//
// Stable element ids: id="station-7" data-station="7" (data-marble="true",
// data-ship="red"/"blue"), id="line-<i>" for each line (class
// "lc0".."lc3": its colour), id="board-name" data-board (the built-in
// board's name, "" for a custom board).
func GravityTrap(s gravitytrap.State, o Options) ([]byte, error) {
	size, err := checkCommon(o, 2, false)
	if err != nil {
		return nil, err
	}
	b := s.Board()
	n := b.NumStations()
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v == "" {
			continue
		}
		if k, err := strconv.Atoi(f.v); err != nil || k < 0 || k >= n || strconv.Itoa(k) != f.v {
			return nil, optErr(f.field, "%s is not a station; want 0..%d", game.Quote(f.v), n-1)
		}
	}
	lay := gtFinite(b.Layout())
	// Fit the layout into the drawing area (y up on the board, down in SVG).
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, st := range lay {
		minX, maxX = math.Min(minX, st.X), math.Max(maxX, st.X)
		minY, maxY = math.Min(minY, st.Y), math.Max(maxY, st.Y)
	}
	span := math.Max(math.Max(maxX-minX, maxY-minY), 1e-9)
	area := gtW - 2*gtMargin
	scale := area / span
	ox := gtMargin + (area-(maxX-minX)*scale)/2
	oy := gtMargin + (area-(maxY-minY)*scale)/2
	pt := func(x, y float64) (float64, float64) { return ox + (x-minX)*scale, oy + (maxY-y)*scale }
	stR := math.Min(18, area/float64(n)*1.2)
	boxes, styles, err := checkMarks(o, func(name string) markBox {
		k, err := strconv.Atoi(name)
		if err != nil || k < 0 || k >= n || strconv.Itoa(k) != name {
			return markBox{wantFormat: "a station 0.." + strconv.Itoa(n-1)}
		}
		x, y := pt(lay[k].X, lay[k].Y)
		return markBox{name: name, x: x, y: y, rx: stR + 4, ry: stR + 4, round: true, valid: true}
	})
	if err != nil {
		return nil, err
	}

	var g svg
	g.open("gravity_trap", s.String(), size, gtW, gtH, gtStyle)
	g.printf(`<rect x="0" y="0" width="%s" height="%s" class="frame"/>`+"\n", num(gtW), num(gtH))
	if b.Builtin() {
		x, y := pt(0, 0)
		g.printf(`<circle id="hole" cx="%s" cy="%s" r="%s" class="hole"/>`+"\n", num(x), num(y), num(0.45*scale))
	}
	// Each line in its own colour (four, cycled: neighbouring lines of a
	// built-in board differ), with a dark notch where it ends, so that
	// where one line ends and the next begins is visible: a ship flies
	// along one line only.
	lines := b.Lines()
	colours := gtLineColours(lines)
	closed := make([]bool, len(lines))
	for i, line := range lines {
		closed[i] = gtClosed(line, lay)
	}
	for i, line := range lines {
		g.printf(`<path id="line-%d" data-stations="%s" d="%s" class="line lc%d"/>`+"\n", i, gtJoin(line), gtPath(line, lay, pt, scale), colours[i])
	}
	for i, line := range lines {
		if closed[i] {
			continue
		}
		for _, end := range [2][2]int{{line[0], line[1]}, {line[len(line)-1], line[len(line)-2]}} {
			// A notch across the line just outside the end station's disc.
			x0, y0 := pt(lay[end[0]].X, lay[end[0]].Y)
			x1, y1 := gtToward(line, end, lay, pt)
			dx, dy := x1-x0, y1-y0
			d := math.Hypot(dx, dy)
			if d < 1e-9 {
				continue
			}
			dx, dy = dx/d, dy/d
			cx, cy := x0+dx*(stR+3), y0+dy*(stR+3)
			g.printf(`<path d="M%s %s L%s %s" class="lend"/>`, num(cx-dy*5), num(cy+dx*5), num(cx+dy*5), num(cy-dx*5))
		}
	}
	g.printf("\n")
	for i, st := range lay {
		x, y := pt(st.X, st.Y)
		name := strconv.Itoa(i)
		g.printf(`<g id="station-%d" data-station="%d" class="%s"`, i, i, cls("station", hl(o, name)))
		ship := ""
		switch i {
		case s.Ship(gravitytrap.Red):
			ship = "red"
		case s.Ship(gravitytrap.Blue):
			ship = "blue"
		}
		if s.HasMarble(i) {
			g.printf(` data-marble="true"`)
		}
		if ship != "" {
			g.printf(` data-ship="%s"`, ship)
		}
		g.printf(`><circle cx="%s" cy="%s" r="%s" class="stn"/>`, num(x), num(y), num(stR))
		if s.HasMarble(i) {
			g.printf(`<circle cx="%s" cy="%s" r="%s" class="marble"/>`, num(x), num(y), num(stR*0.55))
		}
		if ship != "" {
			g.printf(`<circle cx="%s" cy="%s" r="%s" class="ship-%s"/>`, num(x), num(y), num(stR*0.9), ship)
			g.text(x, y, stR, "sl", strings.ToUpper(ship[:1]))
		}
		// The click area reaches beyond the disc: 56 units across on a
		// built-in board, at least 32 CSS pixels on a 390-pixel phone.
		g.printf(`<circle cx="%s" cy="%s" r="%s" class="hit"/></g>`+"\n", num(x), num(y), num(stR+10))
	}
	if !o.HideCoordinates {
		// Station ids beside their discs, in the direction farthest from
		// every line leaving the station (and from the other discs).
		for i, st := range lay {
			x, y := pt(st.X, st.Y)
			lx, ly := gtLabelAt(i, lines, closed, lay, pt, stR)
			_ = st
			g.text(x+lx, y+ly, 14, "coord", strconv.Itoa(i))
		}
	}
	name := "custom board"
	if b.Builtin() {
		name = b.Name() + " board"
	}
	g.printf(`<text id="board-name" data-board="%s" x="14" y="22" font-size="15" class="bname">%s</text>`+"\n", esc(b.Name()), esc(name))
	g.marks(boxes, styles)
	g.printf(`<text id="status" data-to-act="%d" x="%s" y="%s" font-size="16" text-anchor="middle" class="info">%s</text>`+"\n", s.ToAct(), num(gtW/2), num(gtH-20), esc(gtStatus(s)))
	return g.close(), nil
}

// gtLineColours picks each line's colour (0..3), greedily in line order:
// line i takes the lowest colour no earlier line sharing a station with it
// has, or i%4 when all four are taken. Each line's colour is computed once
// from the earlier lines' (a recursion that recomputed them doubled its
// cost with every line sharing a station: 40 such lines never finished),
// and "shares a station" is one AND of two station sets: O(lines²) for at
// most MaxLines (256) lines of at most MaxStations (64) stations.
func gtLineColours(lines [][]int) []int {
	sets := make([]uint64, len(lines))
	for i, line := range lines {
		for _, id := range line {
			sets[i] |= 1 << uint(id)
		}
	}
	colours := make([]int, len(lines))
	for i := range lines {
		used := [4]bool{}
		for j := 0; j < i; j++ {
			if sets[i]&sets[j] != 0 {
				used[colours[j]] = true
			}
		}
		colours[i] = i % 4
		for c := 0; c < 4; c++ {
			if !used[c] {
				colours[i] = c
				break
			}
		}
	}
	return colours
}

// gtClosed reports whether a line is drawn as a closed ring (gtPath).
func gtClosed(line []int, lay []gravitytrap.Station) bool {
	return strings.Count(gtPath(line, lay, func(x, y float64) (float64, float64) { return x, y }, 1), " A") == len(line)
}

// gtToward is a point a little along the line from its end station
// end[0] towards its neighbour end[1] (along the arc when it is one).
func gtToward(line []int, end [2]int, lay []gravitytrap.Station, pt func(x, y float64) (float64, float64)) (float64, float64) {
	a, b := lay[end[0]], lay[end[1]]
	r0, r1 := math.Hypot(a.X, a.Y), math.Hypot(b.X, b.Y)
	if r0 > 1e-6 && math.Abs(r0-r1) < 1e-3 && gtOnCircle(line, lay) {
		t0, t1 := math.Atan2(a.Y, a.X), math.Atan2(b.Y, b.X)
		d := t1 - t0
		for d > math.Pi {
			d -= 2 * math.Pi
		}
		for d < -math.Pi {
			d += 2 * math.Pi
		}
		t := t0 + d*0.05
		return pt(r0*math.Cos(t), r0*math.Sin(t))
	}
	return pt(a.X+(b.X-a.X)*0.05, a.Y+(b.Y-a.Y)*0.05)
}

func gtOnCircle(line []int, lay []gravitytrap.Station) bool {
	r0 := math.Hypot(lay[line[0]].X, lay[line[0]].Y)
	if r0 <= 1e-6 {
		return false
	}
	for _, id := range line {
		if math.Abs(math.Hypot(lay[id].X, lay[id].Y)-r0) > 1e-3 {
			return false
		}
	}
	return true
}

// gtLabelAt is the offset from station i's centre of its id label: of 24
// directions, the one farthest (in angle) from the lines leaving i, ties
// broken towards the outside of the board, at a distance that keeps the
// label clear of the disc. closed[li] is gtClosed of lines[li], computed
// once per line rather than once per station on it.
func gtLabelAt(i int, lines [][]int, closed []bool, lay []gravitytrap.Station, pt func(x, y float64) (float64, float64), stR float64) (float64, float64) {
	x0, y0 := pt(lay[i].X, lay[i].Y)
	var dirs []float64
	for li, line := range lines {
		for k, id := range line {
			if id != i {
				continue
			}
			for _, nb := range []int{k - 1, k + 1} {
				if nb < 0 || nb >= len(line) {
					if closed[li] {
						nb = (nb + len(line)) % len(line)
					} else {
						continue
					}
				}
				x1, y1 := gtToward(line, [2]int{i, line[nb]}, lay, pt)
				dirs = append(dirs, math.Atan2(y1-y0, x1-x0))
			}
		}
	}
	cx, cy := pt(0, 0)
	out := math.Atan2(y0-cy, x0-cx)
	best, bestScore := 0.0, math.Inf(-1)
	for k := 0; k < 24; k++ {
		a := float64(k) * math.Pi / 12
		score := math.Pi
		for _, d := range dirs {
			score = math.Min(score, gtAngle(a, d))
		}
		score -= 0.01 * gtAngle(a, out)
		if score > bestScore+1e-9 {
			best, bestScore = a, score
		}
	}
	dist := stR + 13
	return dist * math.Cos(best), dist * math.Sin(best)
}

// gtAngle is the angle between two directions, 0..π.
func gtAngle(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 2*math.Pi)
	if d > math.Pi {
		d = 2*math.Pi - d
	}
	return d
}

func gtJoin(line []int) string {
	parts := make([]string, len(line))
	for i, id := range line {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, " ")
}

// gtFinite returns lay, scaled down when its coordinates are so large
// (finite, but near the float64 maximum) that a span, a radius or a
// scaled position computed from them would overflow into ±Inf and a NaN:
// the drawing is the same (it is fitted to the area) and every number in
// it finite. NewBoard refuses a coordinate that is not finite.
func gtFinite(lay []gravitytrap.Station) []gravitytrap.Station {
	m := 0.0
	for _, st := range lay {
		m = math.Max(m, math.Max(math.Abs(st.X), math.Abs(st.Y)))
	}
	if m <= 1e100 {
		return lay
	}
	out := make([]gravitytrap.Station, len(lay))
	for i, st := range lay {
		out[i] = gravitytrap.Station{ID: st.ID, X: st.X / m, Y: st.Y / m}
	}
	return out
}

// gtPath is the SVG path of a line through stations.
func gtPath(line []int, lay []gravitytrap.Station, pt func(x, y float64) (float64, float64), scale float64) string {
	r0 := math.Hypot(lay[line[0]].X, lay[line[0]].Y)
	onCircle := r0 > 1e-6
	for _, id := range line {
		if math.Abs(math.Hypot(lay[id].X, lay[id].Y)-r0) > 1e-3 {
			onCircle = false
		}
	}
	var d strings.Builder
	x, y := pt(lay[line[0]].X, lay[line[0]].Y)
	d.WriteString("M" + num(x) + " " + num(y))
	if !onCircle {
		for _, id := range line[1:] {
			x, y := pt(lay[id].X, lay[id].Y)
			d.WriteString(" L" + num(x) + " " + num(y))
		}
		return d.String()
	}
	// Arcs the short way round between consecutive stations; the ring is
	// closed when those arcs (and the closing one) go all the way round in
	// one direction.
	ang := func(id int) float64 { return math.Atan2(lay[id].Y, lay[id].X) }
	delta := func(a, b int) float64 {
		d := ang(b) - ang(a)
		for d > math.Pi {
			d -= 2 * math.Pi
		}
		for d < -math.Pi {
			d += 2 * math.Pi
		}
		return d
	}
	stops := append([]int(nil), line...)
	total := 0.0
	for i := 1; i < len(line); i++ {
		total += delta(line[i-1], line[i])
	}
	if len(line) >= 3 && math.Abs(math.Abs(total+delta(line[len(line)-1], line[0]))-2*math.Pi) < 1e-3 {
		stops = append(stops, line[0])
	}
	r := num(r0 * scale)
	for i := 1; i < len(stops); i++ {
		// On the board y points up, in SVG down: a counterclockwise step on
		// the board is clockwise on screen, sweep flag 0.
		sweep := "1"
		if delta(stops[i-1], stops[i]) > 0 {
			sweep = "0"
		}
		x, y := pt(lay[stops[i]].X, lay[stops[i]].Y)
		d.WriteString(" A" + r + " " + r + " 0 0 " + sweep + " " + num(x) + " " + num(y))
	}
	return d.String()
}

// gtStatus says who places or moves, or how the game ended.
func gtStatus(s gravitytrap.State) string {
	names := [2]string{"Red", "Blue"}
	out := s.Outcome()
	if out.Finished {
		if out.Winner >= 0 && out.Winner < 2 {
			return names[out.Winner] + " wins, score " + strconv.Itoa(out.Points[out.Winner])
		}
		return "Game over"
	}
	who := names[s.ToAct()]
	if s.Placing() {
		return who + " to place his ship"
	}
	return who + " to move · " + strconv.Itoa(s.Marbles()) + " marbles left"
}
