// Package record reads and writes game records in the JSON record format,
// the same shape for all four games (docs/records.md): the game, its start
// (a state in its text form, or NewGame's options and seed), the moves in
// the game's notation and, optionally, the result and descriptive tags.
// It is pure: it checks the record's shape, not its rules; a replay (the
// service's ReplayGame) checks that the moves are legal.
//
// Parse reads a record and reports what it cannot read with its line and
// column; Format writes one. Format is canonical: Format(Parse(Format(r)))
// is the same bytes as Format(r).
package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gamerules/gamerules/rules/game"
)

// FormatName is the value of a record's "format" field.
const FormatName = "gamerules-record/1"

// MaxMoves is the most moves a record may hold (the service's ReplayGame
// limit).
const MaxMoves = 9_000

// MaxElements is the most objects and strings (keys included) a record's
// text may hold: a JSON decoder allocates for each, and a record is parsed
// again from a string the transport's element budget counts as one (the
// service's ImportRecord text), its options once more (the API's JSON of
// the game's options). A record of MaxMoves moves on the largest custom
// board holds about 11,000; a text over MaxElements is refused before it
// is decoded, by a scan that allocates nothing, so that a few hundred KiB
// of empty objects cost what their bytes cost to read.
const MaxElements = 20_000

// Record is one game.
type Record struct {
	// Format is FormatName.
	Format string `json:"format"`
	// Game is the game id: "backgammon", "abalone", "labyrinth" or
	// "gravity_trap".
	Game string `json:"game"`
	// Start is the text form of the state the game starts from; empty for
	// a new game made from Options and Seed.
	Start string `json:"start,omitempty"`
	// Options are NewGame's options for the game as the API's JSON (e.g.
	// {"matchLength":5} for backgammon); absent means the defaults. Only
	// without Start.
	Options json.RawMessage `json:"options,omitempty"`
	// Seed is the seed of a random set-up and of drawn chance outcomes, a
	// decimal string as the API writes 64-bit numbers; empty when none.
	Seed string `json:"seed,omitempty"`
	// Moves are the moves in the game's notation, chance outcomes included
	// ("roll 6-5").
	Moves []string `json:"moves"`
	// Result is the outcome after the moves, when known.
	Result *Result `json:"result,omitempty"`
	// Tags describe the game (event, date, players); free text.
	Tags map[string]string `json:"tags,omitempty"`
}

// Result is the outcome of a recorded game, as the API's Score reports it.
type Result struct {
	// Finished is true when the game is over.
	Finished bool `json:"finished"`
	// Winner is the winner's 0-based player index; absent while playing and
	// after a draw.
	Winner *int `json:"winner,omitempty"`
	// Points are the points per player, by index.
	Points []int `json:"points"`
	// Detail says how the game ended ("gammon", "draw").
	Detail string `json:"detail,omitempty"`
}

// Error is a record that cannot be read: where (1-based line and column of
// the byte the reader stopped at) and why.
type Error struct {
	Line, Column int
	Reason       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("record: line %d, column %d: %s", e.Line, e.Column, e.Reason)
}

// Unwrap makes an Error a game.ErrInvalidState: a record is a start and a
// game, and one that cannot be read describes none.
func (e *Error) Unwrap() error { return game.ErrInvalidState }

// position returns the 1-based line and column of byte offset off of data.
func position(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// Parse reads one record in the JSON record format: at most MaxElements
// objects and strings, exactly one JSON object, no unknown fields, format FormatName, a game, at most MaxMoves
// moves, no empty move, options only without a start, and a seed that is a
// decimal uint64. Errors are *Error, with the line and column.
func Parse(data []byte) (Record, error) {
	var r Record
	fail := func(off int64, format string, args ...any) (Record, error) {
		l, c := position(data, off)
		return Record{}, &Error{Line: l, Column: c, Reason: fmt.Sprintf(format, args...)}
	}
	if off := overElements(data, MaxElements); off >= 0 {
		return fail(int64(off), "the record holds more than %d objects and strings; no game needs that many, so it was not decoded", MaxElements)
	}
	// As json.Decoder with DisallowUnknownFields (jsonio.go).
	r, end, derr := decodeRecord(data)
	if derr != nil {
		switch derr.kind {
		case 's':
			return fail(derr.off-1, "%s", clip(derr.msg))
		case 't':
			return fail(derr.off-1, "%s: want a JSON %s, not %s", clip(derr.field), derr.typ, clip(derr.value))
		case 'e':
			return fail(0, "empty record")
		case 'u':
			return fail(int64(len(data)), "the record ends early")
		}
		return fail(end, "%s", clip(derr.msg))
	}
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return fail(int64(len(data)-len(rest)), "data after the record")
	}
	field := func(name string) int64 {
		if i := bytes.Index(data, []byte(`"`+name+`"`)); i >= 0 {
			return int64(i)
		}
		return 0
	}
	switch {
	case r.Format != FormatName:
		return fail(field("format"), "format %s: want %q", game.Quote(r.Format), FormatName)
	case r.Game == "":
		return fail(field("game"), "game is required")
	case r.Start != "" && len(r.Options) > 0:
		return fail(field("options"), "options are for a new game; a record with a start has none")
	case len(r.Moves) > MaxMoves:
		return fail(field("moves"), "%d moves; at most %d", len(r.Moves), MaxMoves)
	}
	if r.Seed != "" {
		if _, err := strconv.ParseUint(r.Seed, 10, 64); err != nil {
			return fail(field("seed"), "seed %s: want a decimal number 0..2^64-1", game.Quote(r.Seed))
		}
	}
	for i, m := range r.Moves {
		if m == "" {
			return fail(field("moves"), "move %d is empty", i)
		}
	}
	if r.Moves == nil {
		r.Moves = []string{}
	}
	return r, nil
}

// maxClipped is how much of a decoder's message, which may quote an
// unknown field's name or a number of the input whole, Parse's errors
// keep.
const maxClipped = 160

// clip is s, or its first maxClipped bytes (cut at a rune's start) and
// "..." when it is longer: an error quotes an excerpt of the input, as
// game.Quote does, never all of it.
func clip(s string) string {
	if len(s) <= maxClipped {
		return s
	}
	n := maxClipped
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// overElements counts the objects and strings (keys included) of the JSON
// text b and returns the offset of the one that passes max, -1 when there
// are at most max. It allocates nothing; on text that is not JSON the count
// means little, but then the decoder refuses the text either way.
func overElements(b []byte, max int) int {
	n := 0
	inString, escaped := false, false
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
		case c != '{':
			continue
		}
		if n++; n > max {
			return i
		}
	}
	return -1
}

// Format writes r in the JSON record format (two-space indentation, a
// final newline), setting Format to FormatName. It is canonical: Parse then
// Format gives the same bytes. A record Parse would refuse for its size
// (more than MaxMoves moves or MaxElements objects and strings) is an
// error wrapping ErrUnreadable.
func Format(r Record) ([]byte, error) {
	if len(r.Moves) > MaxMoves {
		return nil, fmt.Errorf("%w: %d moves; Parse reads at most %d", ErrUnreadable, len(r.Moves), MaxMoves)
	}
	r.Format = FormatName
	if r.Moves == nil {
		r.Moves = []string{}
	}
	if len(r.Options) > 0 {
		var c bytes.Buffer
		if err := json.Compact(&c, r.Options); err != nil {
			return nil, fmt.Errorf("record: options are not JSON: %w", err)
		}
		r.Options = c.Bytes()
	}
	// As json.Encoder with SetEscapeHTML(false) and SetIndent("", "  ")
	// (jsonio.go).
	compact, err := encodeRecord(&r)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimRight(compact, "\n"), "", "  "); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	buf.WriteByte('\n')
	if off := overElements(buf.Bytes(), MaxElements); off >= 0 {
		return nil, fmt.Errorf("%w: it would hold more than %d objects and strings (%d moves, %d tags), which Parse refuses", ErrUnreadable, MaxElements, len(r.Moves), len(r.Tags))
	}
	return buf.Bytes(), nil
}

// ErrUnreadable is a record Format will not write because Parse would
// not read it back: more than MaxMoves moves, or more than MaxElements
// objects and strings (many tags).
var ErrUnreadable = errors.New("record: the record would not read back")
