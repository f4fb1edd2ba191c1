// Package render draws game states as self-contained SVG images: one
// function per game (Backgammon, Abalone, Labyrinth, GravityTrap), each
// taking a rules State and Options. It is pure Go on top of the rules
// packages (no network, no files, nothing outside the standard library),
// so it can run in the server (the RenderState RPC) or in any Go program.
//
// # Output
//
// Each image is one <svg> element with a viewBox, a width of Options.Size
// pixels and the height that the game's aspect ratio gives, an embedded
// <style> (no external resources) and a <title> holding the state's text
// form. The root carries id="board", data-game and data-state. The output
// is deterministic: the same State and Options always give the same bytes
// (golden-file tests rely on it).
//
// # Stable element ids
//
// So that a page can bind clicks to the board, the elements a move refers
// to carry ids and data-* attributes that do not change between versions:
//
//   - backgammon: id="point-N" data-point="N" for points 1..24 counted from
//     the drawn side, id="bar" data-point="bar" (the drawn side's bar),
//     id="off" data-point="off" (its borne-off tray), id="bar-opponent",
//     id="off-opponent", id="dice" data-dice="6-5", id="cube" data-value,
//     id="pips-0"/"pips-1" data-pips;
//   - Abalone: id="cell-e5" data-cell="e5" for each of the 61 cells, with
//     data-marble="black"/"white" when occupied; id="lost-0"/"lost-1";
//   - Labyrinth: id="square-r3c5" data-square="r3c5", id="insert-N2"
//     data-insertion="N2" (the forbidden one also data-forbidden="true"),
//     id="spare", id="ship-<colour>", id="vader", id="target-<player>";
//   - Gravity Trap: id="station-7" data-station="7" (data-marble="true",
//     data-ship="red"/"blue"), id="line-<i>" for each line.
//
// Highlighted squares (Options.From, To) get class "hl-from"/"hl-to".
//
// # Concurrency
//
// The functions keep no state and are safe for concurrent use.
package render

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// Size limits of Options.Size, in pixels.
const (
	DefaultSize = 600
	MinSize     = 100
	MaxSize     = 4096
)

// Options say how to draw a state. The zero Options draws at DefaultSize,
// with coordinates, from the default side, nothing highlighted.
type Options struct {
	// Size is the image width in pixels, MinSize..MaxSize; 0 means
	// DefaultSize.
	Size int
	// HideCoordinates leaves out point numbers, cell names, row and column
	// numbers and station ids.
	HideCoordinates bool
	// HasSide says Side is given; without it each game uses its default.
	HasSide bool
	// Side is the player (0-based) from whose side to draw; see each game's
	// function for what it changes. Labyrinth also takes -1 (a spectator).
	Side int
	// From and To name the start and end of a move to highlight, in the
	// game's coordinates (see each game's function); "" for none.
	From, To string
}

// OptionError reports an option that cannot be used for a state: Field is
// the option's name ("size", "side", "highlight_from", "highlight_to"). It
// wraps game.ErrInvalidOptions.
type OptionError struct {
	Field  string
	Reason string
}

func (e *OptionError) Error() string { return "render: " + e.Field + ": " + e.Reason }

// Unwrap returns game.ErrInvalidOptions.
func (e *OptionError) Unwrap() error { return game.ErrInvalidOptions }

func optErr(field, format string, args ...any) error {
	return &OptionError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// checkCommon checks Size and Side against the number of players (side
// -1 is allowed when spectator is true).
func checkCommon(o Options, players int, spectator bool) (int, error) {
	size := o.Size
	if size == 0 {
		size = DefaultSize
	}
	if size < MinSize || size > MaxSize {
		return 0, optErr("size", "%d pixels is out of range; want %d..%d (0 for %d)", o.Size, MinSize, MaxSize, DefaultSize)
	}
	if o.HasSide {
		low := 0
		if spectator {
			low = -1
		}
		if o.Side < low || o.Side >= players {
			return 0, optErr("side", "player %d: want %d..%d", o.Side, low, players-1)
		}
	}
	return size, nil
}

// svg accumulates an SVG document.
type svg struct {
	b strings.Builder
}

func (s *svg) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

// open writes the root element: w×h units drawn size pixels wide.
func (s *svg) open(gameID, state string, size int, w, h float64, style string) {
	height := int(float64(size)*h/w + 0.5)
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" id="board" class="gamerules-board" data-game="%s" data-state="%s" width="%d" height="%d" viewBox="0 0 %s %s" font-family="sans-serif">`+"\n",
		gameID, esc(state), size, height, num(w), num(h))
	s.printf("<title>%s %s</title>\n", esc(gameID), esc(state))
	s.printf("<style>%s</style>\n", style)
}

func (s *svg) close() []byte {
	s.b.WriteString("</svg>\n")
	return []byte(s.b.String())
}

// text writes a text element centred on x, y.
func (s *svg) text(x, y, size float64, class, content string) {
	s.printf(`<text x="%s" y="%s" font-size="%s" text-anchor="middle" dominant-baseline="central" class="%s">%s</text>`+"\n",
		num(x), num(y), num(size), class, esc(content))
}

// num formats a coordinate with at most two decimals, without trailing
// zeros, so the output is short and deterministic.
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func esc(s string) string { return html.EscapeString(s) }

// cls joins the non-empty class names.
func cls(names ...string) string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, " ")
}

// hl returns the highlight class of a name: "hl-from", "hl-to" or "".
func hl(o Options, name string) string {
	switch {
	case o.From != "" && strings.EqualFold(o.From, name):
		return "hl-from"
	case o.To != "" && strings.EqualFold(o.To, name):
		return "hl-to"
	}
	return ""
}

// commonStyle is the CSS every image shares.
const commonStyle = `.coord{fill:#555}.info{fill:#222}.hl-from>.hit,.hl-from.hit{stroke:#e67e00;stroke-width:4}.hl-to>.hit,.hl-to.hit{stroke:#1a9c3a;stroke-width:4}`
