package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/game"
)

// Abalone geometry, in viewBox units.
const (
	abW    = 600.0
	abH    = 620.0
	abStep = 56.0 // distance between neighbouring cells
	abR    = 25.0 // marble radius
)

const abStyle = commonStyle + `.frame{fill:#3b3f5c}.hole{fill:#c9c2ae;stroke:#8a8270;stroke-width:1}` +
	`.m0{fill:#1e1e1e;stroke:#000;stroke-width:1}.m1{fill:#f5f5f0;stroke:#777;stroke-width:1}` +
	`.hit{fill:transparent;stroke:none}.coord{fill:#ddd}.info{fill:#eee}`

// Abalone draws s on the hexagonal board: rows A (bottom) to I with their
// letters and the diagonal numbers 1..9 as coordinates, the marbles, each
// side's pushed-off marbles beside the board, the side to move and the ply
// count when there is a ply limit, or the result. The drawn side (default
// Black, 0) has its starting rows at the bottom; side 1 turns the board
// half a turn.
//
// Options.From and To name cells ("e5"). Errors are *OptionError.
//
// Stable element ids: id="cell-e5" data-cell="e5" for each of the 61
// cells, with data-marble="black"/"white" when occupied;
// id="lost-0"/"lost-1".
func Abalone(s abalone.State, o Options) ([]byte, error) {
	size, err := checkCommon(o, 2, false)
	if err != nil {
		return nil, err
	}
	for _, f := range [...]struct{ field, v string }{{"highlight_from", o.From}, {"highlight_to", o.To}} {
		if f.v == "" {
			continue
		}
		if _, err := abalone.ParseCell(f.v); err != nil {
			return nil, optErr(f.field, "%s is not a cell; want a1..i9 on the board", game.Quote(f.v))
		}
	}
	flip := o.HasSide && o.Side == 1
	cx, cy := abW/2, abH/2+5
	pos := func(row, n float64) (float64, float64) {
		x := (n - 1 - row/2 - 2) * abStep // E5 (row 4, n 5) at 0
		y := -(row - 4) * abStep * math.Sqrt(3) / 2
		if flip {
			x, y = -x, -y
		}
		return cx + x, cy + y
	}
	boxes, styles, err := checkMarks(o, func(name string) markBox {
		c, err := abalone.ParseCell(name)
		if err != nil {
			return markBox{wantFormat: "a cell a1..i9 on the board"}
		}
		x, y := pos(float64(c.Row()-'A'), float64(c.Num()))
		return markBox{name: c.String(), x: x, y: y, rx: abR + 2, ry: abR + 2, round: true, valid: true}
	})
	if err != nil {
		return nil, err
	}
	var g svg
	g.open("abalone", s.String(), size, abW, abH, abStyle)
	g.printf(`<rect x="0" y="0" width="%s" height="%s" class="frame"/>`+"\n", num(abW), num(abH))
	// The hexagon's outline.
	var hex []string
	for k := 0; k < 6; k++ {
		a := math.Pi/6 + float64(k)*math.Pi/3
		hex = append(hex, num(cx+4.75*abStep*math.Cos(a))+","+num(cy+4.75*abStep*math.Sin(a)))
	}
	g.printf(`<polygon points="%s" fill="#5a5f86"/>`+"\n", joinSpace(hex))
	for c := abalone.Cell(1); c <= abalone.NumCells; c++ {
		row := float64(c.Row() - 'A')
		x, y := pos(row, float64(c.Num()))
		name := c.String()
		g.printf(`<g id="cell-%s" data-cell="%s" class="%s"`, name, name, cls("cell", hl(o, name)))
		who := s.At(c)
		if who >= 0 {
			g.printf(` data-marble="%s"`, [2]string{"black", "white"}[who])
		}
		g.printf(`><circle cx="%s" cy="%s" r="%s" class="hole"/>`, num(x), num(y), num(abR-6))
		if who >= 0 {
			g.printf(`<circle cx="%s" cy="%s" r="%s" class="m%d"/>`, num(x), num(y), num(abR), who)
		}
		g.printf(`<circle cx="%s" cy="%s" r="%s" class="hit"/></g>`+"\n", num(x), num(y), num(abR+2))
	}
	if !o.HideCoordinates {
		for r := 0; r < 9; r++ {
			first := 1
			if r > 4 {
				first = r - 3
			}
			x, y := pos(float64(r), float64(first)-1)
			g.text(x, y, 16, "coord", string(rune('A'+r)))
		}
		for n := 1; n <= 9; n++ {
			r := max(-1, n-6)
			x, y := pos(float64(r), float64(n))
			g.text(x, y, 16, "coord", strconv.Itoa(n))
		}
	}
	g.marks(boxes, styles)
	// Pushed-off marbles, and the state of play.
	names := [2]string{"Black", "White"}
	for p := 0; p < 2; p++ {
		x, y := 20.0, abH-24
		anchor := "start"
		if (p == 1) != flip {
			y = 24
		}
		g.printf(`<g id="lost-%d" data-lost="%d"><text x="%s" y="%s" font-size="15" text-anchor="%s" dominant-baseline="central" class="info">%s lost %d</text>`,
			p, s.Lost(p), num(x), num(y), anchor, names[p], s.Lost(p))
		for i := 0; i < s.Lost(p); i++ {
			mx := x + 100 + float64(i)*18
			g.printf(`<circle cx="%s" cy="%s" r="7" class="m%d"/>`, num(mx), num(y), p)
		}
		g.printf("</g>\n")
	}
	status := names[s.ToMove()] + " to move"
	if out := s.Outcome(); out.Finished {
		status = "Draw"
		if out.Winner >= 0 {
			status = names[out.Winner] + " wins"
		}
		if out.Detail != "" {
			status += " (" + out.Detail + ")"
		}
	} else if s.MaxPlies() > 0 {
		status += fmt.Sprintf(" · ply %d of %d", s.Plies()+1, s.MaxPlies())
	}
	g.printf(`<text id="status" x="%s" y="%s" font-size="15" text-anchor="end" dominant-baseline="central" class="info">%s</text>`+"\n", num(abW-20), num(abH-24), esc(status))
	return g.close(), nil
}

func joinSpace(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += " "
		}
		out += p
	}
	return out
}
