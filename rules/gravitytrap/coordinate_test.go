package gravitytrap_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	gt "github.com/gamerules/gamerules/rules/gravitytrap"
)

// TestBoardCoordinateFinite: a station coordinate that is NaN or ±Inf is a
// *CoordinateError naming the field (stations[i].x or .y) and wrapping
// game.ErrInvalidState; a finite one, however large, is a board.
func TestBoardCoordinateFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, axis := range []string{"x", "y"} {
			def := gt.BoardDef{Stations: append([]gt.Station(nil), hexDef.Stations...), Lines: hexDef.Lines, Opposite: hexDef.Opposite}
			if axis == "x" {
				def.Stations[3].X = v
			} else {
				def.Stations[3].Y = v
			}
			_, err := gt.NewBoard(def)
			var ce *gt.CoordinateError
			if !errors.As(err, &ce) || !errors.Is(err, game.ErrInvalidState) || ce.Field() != "stations[3]."+axis {
				t.Errorf("%s = %v: %v; want a CoordinateError on stations[3].%s wrapping ErrInvalidState", axis, v, err, axis)
			}
		}
	}
	def := gt.BoardDef{Stations: append([]gt.Station(nil), hexDef.Stations...), Lines: hexDef.Lines, Opposite: hexDef.Opposite}
	def.Stations[0].X, def.Stations[1].Y = math.MaxFloat64, -math.MaxFloat64
	mustBoard(t, def)
}
