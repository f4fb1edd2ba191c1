package gravitytrap

import (
	"slices"
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
// flight, "place 7" for a placement. No allocation for a station of a board
// (0..MaxStations-1); AppendText writes the same bytes into a caller's
// buffer, and AppendNotations the notation of a whole list into one string.
func (m Move) String() string {
	if m.Place {
		if m.Station >= 0 && m.Station < MaxStations {
			return placeNames[m.Station]
		}
		return "place " + strconv.Itoa(m.Station)
	}
	return strconv.Itoa(m.Station) // small numbers come from strconv's table
}

// placeNames[i] is "place i".
var placeNames = func() (t [MaxStations]string) {
	for i := range t {
		t[i] = "place " + strconv.Itoa(i)
	}
	return t
}()

// AppendText appends m's notation (exactly the bytes of m.String()) to b
// and returns the extended buffer; it does not allocate when b has room,
// and the error is always nil (Move implements encoding.TextAppender).
func (m Move) AppendText(b []byte) ([]byte, error) {
	if m.Place {
		b = append(b, "place "...)
	}
	return strconv.AppendInt(b, int64(m.Station), 10), nil
}

// AppendNotations appends the notation of each of moves to dst, in order
// (dst[len(dst)+i] == moves[i].String(), byte for byte), and returns the
// extended slice. Every move of a board's stations has a constant text, so
// this costs no allocation beyond dst's growth when it lacks capacity. It
// is here so that every game offers the same call for listing moves (e.g.
// LegalMoves' notation).
func AppendNotations(dst []string, moves []Move) []string {
	dst = slices.Grow(dst, len(moves))
	for _, m := range moves {
		dst = append(dst, m.String())
	}
	return dst
}

// Notations returns the notation of each of moves: AppendNotations into a
// new slice (one allocation for the whole list).
func Notations(moves []Move) []string {
	return AppendNotations(make([]string, 0, len(moves)), moves)
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
