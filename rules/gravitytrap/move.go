package gravitytrap

import (
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// Move is one ply (spec "Moving", "Set-up"): a placement of the ship during
// set-up, or a flight to a destination station. Move is a small comparable
// value; its zero value is "fly to station 0".
type Move struct {
	// Place is true for a set-up placement.
	Place bool
	// Station is the placement or destination station, 0..NumStations-1.
	Station int
}

// String returns the move's notation: the destination id ("7") for a
// flight, "place 7" for a placement.
func (m Move) String() string {
	if m.Place {
		return "place " + strconv.Itoa(m.Station)
	}
	return strconv.Itoa(m.Station)
}

// ParseMove reads a move in s's notation: "place N" (a placement) or "N",
// which during set-up also means a placement and otherwise a flight to
// station N. N is a decimal station id of s's board. ParseMove checks the
// syntax and the station range only; whether the move is legal is Apply's
// question (a "place N" after set-up parses and Apply refuses it).
//
// Errors: a *game.ParseError with Kind game.ErrIllegalMove for malformed
// text or a station not on the board; an error wrapping
// game.ErrInvalidState for the zero State.
func ParseMove(s State, text string) (Move, error) {
	if s.board == nil {
		return Move{}, stateErr("zero State has no board; use New, ParseState or FromPosition")
	}
	m := Move{Place: s.placing}
	num, off := text, 0
	if rest, ok := strings.CutPrefix(text, "place "); ok {
		m.Place, num, off = true, rest, len("place ")
	}
	if num == "" {
		return Move{}, moveErr(text, off, "want a station id, e.g. \"7\" or \"place 7\"")
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return Move{}, moveErr(text, off+i, "want a station id, e.g. \"7\" or \"place 7\"")
		}
	}
	n := s.board.n
	v, err := strconv.Atoi(num)
	if err != nil {
		// Too many digits for an int: the error does not repeat them (the
		// ParseError quotes the input, cut to 80 bytes).
		return Move{}, moveErr(text, off, "no station that large on this board (0.."+strconv.Itoa(n-1)+")")
	}
	if v >= n {
		return Move{}, moveErr(text, off, "no station "+strconv.Itoa(v)+" on this board (0.."+strconv.Itoa(n-1)+")")
	}
	m.Station = v
	return m, nil
}

func moveErr(input string, off int, reason string) error {
	return &game.ParseError{Game: "gravitytrap", What: "move", Input: input, Offset: off, Reason: reason, Kind: game.ErrIllegalMove}
}
