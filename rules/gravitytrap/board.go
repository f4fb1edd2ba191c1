package gravitytrap

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/gamerules/gamerules/rules/game"
)

// Limits on a board's size. The text form has one character per station and
// the engine keeps marbles in a uint64 bitset, so a board has at most 64
// stations; the spec asks for at least 4.
const (
	MinStations = 4
	MaxStations = 64
)

// MaxLines is the most lines a board may have. The built-in boards have 16
// and 3; the cap keeps a caller's board, which every state and every result
// of LegalMoves carries, small (no two lines may join the same stations
// either, so a board cannot be inflated by repeating a line).
const MaxLines = 256

// Names of the built-in boards (spec "The board"). DefaultBoardName is the
// board a text form without a board token is on.
const (
	DefaultBoardName = "default"
	RingsBoardName   = "rings"
)

// Station is one station of a board: its id (0..NumStations-1, the position
// of its character in the text form) and where to draw it. The coordinates
// are for display only (the built-in boards use units where the outer ring
// has radius 3, centre hole at 0,0); the rules never look at them.
type Station struct {
	ID int     `json:"id"`
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
}

// BoardDef is a board as data, in the shape of the shipped board JSON files
// (board-default.json): the stations, the lines, and the opposite map.
//
//   - Stations lists every station once; Stations[i].ID must be i.
//   - Lines: at most MaxLines lines; each line is the list of station ids
//     along one curve, at least 2 stations, none twice, and no two lines on
//     the same set of stations (in any order or direction). Whether a curve is open or closed does not matter
//     to the rules (spec "The board": a ship flies over everything on its
//     line), so a line does not record it. A station may lie on several
//     lines, or on none (a ship there is stuck at once).
//   - Opposite: opposite[i] is the station opposite station i. It must be an
//     involution without fixed points (opposite[opposite[i]] == i and
//     opposite[i] != i), or empty when the board has no opposite map; then
//     there is no mirror placement to ban.
type BoardDef struct {
	Stations []Station `json:"stations"`
	Lines    [][]int   `json:"lines"`
	Opposite []int     `json:"opposite,omitempty"`
}

// Board is a validated, immutable board: the graph of stations and lines, the
// opposite map, and for each station the precomputed set of stations it
// shares a line with (its possible destinations).
//
// Boards come from DefaultBoard, RingsBoard, BuiltinBoard, NewBoard or
// ParseBoardJSON; a nil *Board means the default board wherever a *Board is
// accepted. A Board never changes after it is made, so States share one
// *Board freely and it is safe for concurrent use.
type Board struct {
	name     string // "default", "rings"; "" for a caller's board
	note     string
	n        int
	all      uint64 // bits of all stations
	stations []Station
	lines    [][]int
	opposite []int // nil: no opposite map
	reach    [MaxStations]uint64
}

//go:embed boards/*.json
var boardFiles embed.FS

// The built-in boards, loaded once from the embedded JSON at package init.
var (
	defaultBoard = mustBuiltin(DefaultBoardName)
	ringsBoard   = mustBuiltin(RingsBoardName)
)

func mustBuiltin(name string) *Board {
	data, err := boardFiles.ReadFile("boards/" + name + ".json")
	if err != nil {
		panic("gravitytrap: missing embedded board " + name + ": " + err.Error())
	}
	def, fname, note, err := builtinDef(data) // as json.Unmarshal (boardjson.go)
	if err != nil {
		panic("gravitytrap: embedded board " + name + ": " + err.Error())
	}
	b, err := NewBoard(def)
	if err != nil || fname != name {
		panic(fmt.Sprintf("gravitytrap: embedded board %s (named %q): %v", name, fname, err))
	}
	b.name, b.note = name, note
	return b
}

// DefaultBoard returns the built-in board "default" (spec "The board"): three
// rings of 8, 8 and 6 stations, each drawn as four arcs meeting at corner
// stations, joined by four connectors; opposite(i) = (i+11) mod 22.
func DefaultBoard() *Board { return defaultBoard }

// RingsBoard returns the built-in board "rings": the same 22 stations as the
// default board, with each ring one closed line.
func RingsBoard() *Board { return ringsBoard }

// BuiltinBoard returns the built-in board with the given name ("default" or
// "rings"; "" also means "default"). An unknown name is an error wrapping
// game.ErrInvalidState.
func BuiltinBoard(name string) (*Board, error) {
	switch name {
	case "", DefaultBoardName:
		return defaultBoard, nil
	case RingsBoardName:
		return ringsBoard, nil
	}
	return nil, fmt.Errorf("gravitytrap: %w: unknown board %s (built in: default, rings; a caller's board travels as data)", game.ErrInvalidState, game.Quote(name))
}

// NewBoard validates def and returns it as a caller's board (a board without
// a name: its states' text form carries no board token, so such a state
// travels as typed data). def is copied; later changes to it do not affect
// the Board.
//
// Errors wrap game.ErrInvalidState and name the problem: fewer than
// MinStations or more than MaxStations stations, a station whose id is not
// its index, more than MaxLines lines, a line of fewer than 2 stations or
// more stations than the board has, an unknown station id in a line, a
// station twice in a line, two lines joining the same stations (in any
// order or direction; the error names both), or an opposite map of the
// wrong length or that is not an involution without fixed points. A
// station coordinate that is not a finite number (NaN, ±Inf: nothing can
// draw it) is a *CoordinateError, which also wraps game.ErrInvalidState.
// The spec ("The board — a graph of stations and lines") is silent on
// coordinates, which no rule uses; they are where a station is drawn, and a
// board that cannot be drawn is refused rather than drawn blank.
func NewBoard(def BoardDef) (*Board, error) {
	n := len(def.Stations)
	if n < MinStations || n > MaxStations {
		return nil, boardErr("a board has %d..%d stations, not %d", MinStations, MaxStations, n)
	}
	b := &Board{n: n, all: maskOf(n)}
	b.stations = append([]Station(nil), def.Stations...)
	for i := range b.stations {
		// A coordinate of -0 is 0 (+ 0 turns one into the other): it is
		// a position, and -0 would print as "-0". The built-in boards'
		// files have -0.0000 in places.
		b.stations[i].X += 0
		b.stations[i].Y += 0
	}
	for i, st := range def.Stations {
		for _, c := range [...]struct {
			axis string
			v    float64
		}{{"x", st.X}, {"y", st.Y}} {
			if math.IsNaN(c.v) || math.IsInf(c.v, 0) {
				return nil, &CoordinateError{Station: i, Axis: c.axis, Value: c.v}
			}
		}
		if st.ID != i {
			return nil, boardErr("stations[%d] has id %d; station ids must be 0..%d in order", i, st.ID, n-1)
		}
	}
	if len(def.Lines) > MaxLines {
		return nil, boardErr("a board has at most %d lines, not %d", MaxLines, len(def.Lines))
	}
	b.lines = make([][]int, len(def.Lines))
	// Each line's station set, to refuse a line given twice: it would add
	// nothing to the rules (a ship flies over the whole set) but size.
	sets := make(map[uint64]int, len(def.Lines))
	for li, line := range def.Lines {
		if len(line) < 2 {
			return nil, boardErr("line %d has %d station(s); a line joins at least 2", li, len(line))
		}
		if len(line) > n {
			return nil, boardErr("line %d has %d stations; the board has %d", li, len(line), n)
		}
		var seen uint64
		for _, id := range line {
			if id < 0 || id >= n {
				return nil, boardErr("line %d names unknown station %d (stations are 0..%d)", li, id, n-1)
			}
			if seen&(1<<id) != 0 {
				return nil, boardErr("line %d lists station %d twice", li, id)
			}
			seen |= 1 << id
		}
		if prev, ok := sets[seen]; ok {
			return nil, boardErr("lines %d and %d join the same stations %v; give each line once", prev, li, stationsOf(seen))
		}
		sets[seen] = li
		for _, id := range line {
			b.reach[id] |= seen &^ (1 << id)
		}
		b.lines[li] = append([]int(nil), line...)
	}
	if len(def.Opposite) > 0 {
		if len(def.Opposite) != n {
			return nil, boardErr("the opposite map has %d entries for %d stations", len(def.Opposite), n)
		}
		for i, o := range def.Opposite {
			if o < 0 || o >= n {
				return nil, boardErr("opposite of station %d is unknown station %d", i, o)
			}
		}
		for i, o := range def.Opposite {
			switch {
			case o == i:
				return nil, boardErr("station %d is its own opposite", i)
			case def.Opposite[o] != i:
				return nil, boardErr("opposite map is not an involution: opposite(%d) = %d but opposite(%d) = %d", i, o, o, def.Opposite[o])
			}
		}
		b.opposite = append([]int(nil), def.Opposite...)
	}
	return b, nil
}

// ParseBoardJSON decodes a board in the JSON shape of BoardDef (the shipped
// board files' shape; their "name" and "note" fields are ignored) and
// validates it as NewBoard does. The result is a caller's board. Malformed
// JSON, unknown fields aside, is an error wrapping game.ErrInvalidState.
func ParseBoardJSON(data []byte) (*Board, error) {
	var def BoardDef
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&def); err != nil {
		return nil, boardErr("malformed board JSON: %v", err)
	}
	return NewBoard(def)
}

// CoordinateError is NewBoard's error for a station coordinate that is not a
// finite number: a coordinate is where to draw the station, and NaN or an
// infinity is nowhere (a drawing with one is blank). It wraps
// game.ErrInvalidState; Station and Axis ("x" or "y") name the field.
type CoordinateError struct {
	Station int
	Axis    string
	Value   float64
}

// Field is the coordinate's path in a BoardDef, e.g. "stations[3].x".
func (e *CoordinateError) Field() string {
	return "stations[" + strconv.Itoa(e.Station) + "]." + e.Axis
}

func (e *CoordinateError) Error() string {
	return fmt.Sprintf("gravitytrap: %v: board: %s is %v; a station coordinate must be a finite number", game.ErrInvalidState, e.Field(), e.Value)
}

// Unwrap returns game.ErrInvalidState.
func (e *CoordinateError) Unwrap() error { return game.ErrInvalidState }

func boardErr(format string, args ...any) error {
	return fmt.Errorf("gravitytrap: %w: board: %s", game.ErrInvalidState, fmt.Sprintf(format, args...))
}

func maskOf(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

func (b *Board) orDefault() *Board {
	if b == nil {
		return defaultBoard
	}
	return b
}

// Name returns "default" or "rings" for a built-in board and "" for a
// caller's board. The text form of a state names its board when the name is
// neither "default" nor "".
func (b *Board) Name() string { return b.orDefault().name }

// Builtin reports whether b is one of the built-in boards.
func (b *Board) Builtin() bool { return b.orDefault().name != "" }

// Note returns the built-in board's description ("" for a caller's board).
func (b *Board) Note() string { return b.orDefault().note }

// NumStations returns the number of stations, MinStations..MaxStations.
func (b *Board) NumStations() int { return b.orDefault().n }

// Def returns the board as data (a deep copy): NewBoard(b.Def()) gives an
// equal board (without the built-in name).
func (b *Board) Def() BoardDef {
	b = b.orDefault()
	d := BoardDef{Stations: append([]Station(nil), b.stations...), Lines: b.Lines()}
	if b.opposite != nil {
		d.Opposite = append([]int(nil), b.opposite...)
	}
	return d
}

// Lines returns a copy of the board's lines, each the station ids along one
// curve, in the order the board was given.
func (b *Board) Lines() [][]int {
	b = b.orDefault()
	out := make([][]int, len(b.lines))
	for i, l := range b.lines {
		out[i] = append([]int(nil), l...)
	}
	return out
}

// Opposite returns the station opposite station i and true, or (-1, false)
// when the board has no opposite map or i is not a station.
func (b *Board) Opposite(i int) (int, bool) {
	b = b.orDefault()
	if b.opposite == nil || i < 0 || i >= b.n {
		return -1, false
	}
	return b.opposite[i], true
}

// Neighbours returns, in ascending order, the stations that share a line with
// station i (the stations a ship on i could fly to if they held marbles);
// nil when i is not a station.
func (b *Board) Neighbours(i int) []int {
	b = b.orDefault()
	if i < 0 || i >= b.n {
		return nil
	}
	return stationsOf(b.reach[i])
}

// MaxPlies returns the most plies a game on b can last: two placements and
// at most one move per marble.
func (b *Board) MaxPlies() int { return b.orDefault().n }

// stationsOf lists the set bits of m in ascending order.
func stationsOf(m uint64) []int {
	out := make([]int, 0, bits.OnesCount64(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }
