package gravitytrap

import "math"

// Layout returns where to draw each station, Layout()[i] for station i:
// the board's own coordinates when it gives any (the built-in boards do, in
// units where the outer ring has radius 3 around the central hole at 0,0,
// y pointing up), else an automatic layout. A board "gives no coordinates"
// when every station is at the same point (a custom board sent without
// x and y has them all at 0,0). The automatic layout puts the stations
// evenly on a circle of radius 3 in id order, station 0 at the top and the
// others clockwise, which keeps every station and line visible for any
// graph. The rules never look at coordinates. The result is a new slice.
func (b *Board) Layout() []Station {
	b = b.orDefault()
	out := append([]Station(nil), b.stations...)
	same := true
	for _, st := range out[1:] {
		if st.X != out[0].X || st.Y != out[0].Y {
			same = false
			break
		}
	}
	if !same {
		return out
	}
	for i := range out {
		a := math.Pi/2 - 2*math.Pi*float64(i)/float64(len(out))
		// + 0 turns a rounded -0 into 0: a coordinate is a position, and
		// -0 would print as "-0".
		out[i].X = math.Round(3*math.Cos(a)*1e4)/1e4 + 0
		out[i].Y = math.Round(3*math.Sin(a)*1e4)/1e4 + 0
	}
	return out
}
