package gravitytrap_test

import (
	"math"
	"testing"

	gt "github.com/gamerules/gamerules/rules/gravitytrap"
)

func TestLayout(t *testing.T) {
	// Built-in boards keep their shipped coordinates.
	if got, want := gt.DefaultBoard().Layout()[2], (gt.Station{ID: 2, X: 3, Y: 0}); got != want {
		t.Errorf("DefaultBoard().Layout()[2] = %+v; want %+v", got, want)
	}
	// A custom board without coordinates is laid out on a circle of radius 3,
	// station 0 at the top, clockwise.
	b, err := gt.NewBoard(gt.BoardDef{Stations: []gt.Station{{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}}, Lines: [][]int{{0, 1, 2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []gt.Station{{ID: 0, X: 0, Y: 3}, {ID: 1, X: 3, Y: 0}, {ID: 2, X: 0, Y: -3}, {ID: 3, X: -3, Y: 0}}
	for i, got := range b.Layout() {
		if math.Abs(got.X-want[i].X) > 1e-9 || math.Abs(got.Y-want[i].Y) > 1e-9 || got.ID != i {
			t.Errorf("Layout()[%d] = %+v; want %+v", i, got, want[i])
		}
	}
	// A custom board with coordinates keeps them.
	b, err = gt.NewBoard(gt.BoardDef{Stations: []gt.Station{{ID: 0, X: 1, Y: 1}, {ID: 1, X: 2, Y: 1}, {ID: 2, X: 2, Y: 2}, {ID: 3, X: 1, Y: 2}}, Lines: [][]int{{0, 1, 2, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Layout()[3]; got != (gt.Station{ID: 3, X: 1, Y: 2}) {
		t.Errorf("Layout()[3] = %+v; want {3 1 2}", got)
	}
}

// TestBuiltinCoordinatesHaveNoNegativeZero: no station of a built-in board
// sits at -0 (a position; -0 would print as "-0").
func TestBuiltinCoordinatesHaveNoNegativeZero(t *testing.T) {
	for _, b := range []*gt.Board{gt.DefaultBoard(), gt.RingsBoard()} {
		for i, st := range b.Def().Stations {
			if (st.X == 0 && math.Signbit(st.X)) || (st.Y == 0 && math.Signbit(st.Y)) {
				t.Errorf("%s station %d at (%v, %v): -0", b.Name(), i, st.X, st.Y)
			}
		}
	}
}
