// Package render draws game states as self-contained SVG images: one
// function per game, named after it and in a file of its own (<game>.go),
// each taking a rules State and Options; and as plain text for terminals and
// language models (BackgammonText in gnubg's "show board" layout,
// AbaloneText, LabyrinthText, GravityTrapText; text.go, text_games.go),
// with the same Options checked the same way. It is pure Go on top of the rules
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
// each game's function lists its own in its doc comment (under "Stable
// element ids"), and the root's data-game is the game id.
//
// Highlighted squares (Options.From, To) get class "hl-from"/"hl-to".
//
// # Marks
//
// Options.Marks draws a mark on each listed coordinate (the names From and
// To take, plus backgammon's "bar-opponent" and "off-opponent"), in a
// group id="marks" drawn above the board that takes no clicks
// (pointer-events: none), so a click on a mark reaches the element under
// it. Each mark is one element id="mark-<style>-<name>" (for example
// "mark-destination-e5", "mark-last-to-13") with class "mark mark-<style>",
// data-mark="<name>" and data-mark-style="<style>"; the name is written in
// the game's canonical form (Labyrinth "r3c5", "N2"). The styles
// (MarkStyle) are destination (a legal destination of a selection: a green
// dot), selected (the selection: an orange ring), last-from and last-to
// (where the last move started and ended: a blue dashed ring and a solid
// blue ring). The same name and style listed twice is drawn once.
//
// # Concurrency
//
// The functions keep no state and are safe for concurrent use.
package render

import (
	"fmt"
	"html"
	"math"
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
	// Marks are coordinates to mark, each with a style; at most MaxMarks.
	Marks []Mark
	// HasPartial says Partial is given (backgammon only; the other games
	// refuse it): Partial is the hops of a play in progress, drawn as
	// played (see Backgammon).
	HasPartial bool
	Partial    string
}

// MaxMarks is the most marks Options.Marks may hold.
const MaxMarks = 512

// MarkStyle is how a mark is drawn.
type MarkStyle int

// The mark styles; the zero MarkStyle is not a style.
const (
	MarkDestination MarkStyle = iota + 1 // a legal destination of the selection
	MarkSelected                         // the selection itself
	MarkLastFrom                         // where the last move started
	MarkLastTo                           // where the last move ended
)

// String is the style's name in ids and classes: "destination",
// "selected", "last-from", "last-to".
func (m MarkStyle) String() string {
	switch m {
	case MarkDestination:
		return "destination"
	case MarkSelected:
		return "selected"
	case MarkLastFrom:
		return "last-from"
	case MarkLastTo:
		return "last-to"
	}
	return "style-" + strconv.Itoa(int(m))
}

// Mark is one coordinate to mark: At in the game's coordinates (as
// Options.From), Style how.
type Mark struct {
	At    string
	Style MarkStyle
}

// markBox is where a mark on one coordinate is drawn: its canonical name,
// the centre and the radius (round) or half width and height (not round).
type markBox struct {
	name       string
	x, y       float64
	rx, ry     float64
	round      bool
	valid      bool
	wantFormat string
	// dotDX, dotDY and dotR place a destination's dot off the centre
	// (so that it leaves what is drawn there visible); dotR 0 is the
	// default dot at the centre.
	dotDX, dotDY, dotR float64
}

// checkMarks validates o.Marks with locate (which names the coordinate's
// canonical name and geometry, or !valid with the accepted form) and
// returns the boxes to draw, duplicates dropped. Errors are *OptionError
// on field "marks".
func checkMarks(o Options, locate func(name string) markBox) ([]markBox, []MarkStyle, error) {
	if len(o.Marks) > MaxMarks {
		return nil, nil, optErr("marks", "%d marks; at most %d", len(o.Marks), MaxMarks)
	}
	var boxes []markBox
	var styles []MarkStyle
	seen := map[string]bool{}
	for i, m := range o.Marks {
		if m.Style < MarkDestination || m.Style > MarkLastTo {
			return nil, nil, optErr("marks", "mark %d (%s): style %d is not a style; want destination, selected, last-from or last-to", i, game.Quote(m.At), int(m.Style))
		}
		b := locate(m.At)
		if !b.valid {
			return nil, nil, optErr("marks", "mark %d: %s is not on the board; want %s", i, game.Quote(m.At), b.wantFormat)
		}
		key := m.Style.String() + "-" + b.name
		if seen[key] {
			continue
		}
		seen[key] = true
		boxes = append(boxes, b)
		styles = append(styles, m.Style)
	}
	return boxes, styles, nil
}

// marks draws the checked marks (checkMarks) in the group id="marks".
func (s *svg) marks(boxes []markBox, styles []MarkStyle) {
	if len(boxes) == 0 {
		return
	}
	s.printf(`<g id="marks" pointer-events="none">` + "\n")
	for i, b := range boxes {
		st := styles[i].String()
		s.printf(`<g id="mark-%s-%s" class="mark mark-%s" data-mark="%s" data-mark-style="%s">`, st, esc(b.name), st, esc(b.name), st)
		switch {
		case styles[i] == MarkDestination:
			r := math.Min(math.Max(math.Min(b.rx, b.ry)*0.45, 6), 14)
			if b.dotR > 0 {
				r = b.dotR
			}
			s.printf(`<circle cx="%s" cy="%s" r="%s" class="mk-dot"/>`, num(b.x+b.dotDX), num(b.y+b.dotDY), num(r))
		case b.round:
			s.printf(`<circle cx="%s" cy="%s" r="%s" class="mk-ring"/>`, num(b.x), num(b.y), num(b.rx))
		default:
			s.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="4" class="mk-ring"/>`, num(b.x-b.rx), num(b.y-b.ry), num(2*b.rx), num(2*b.ry))
		}
		s.printf("</g>\n")
	}
	s.printf("</g>\n")
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
	if o.HasPartial {
		return 0, optErr("partial_play", "only backgammon draws a play in progress")
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
const commonStyle = `.mk-dot{fill:#1fcf55;fill-opacity:.85;stroke:#fff;stroke-width:2.5}.mk-ring{fill:none;stroke-width:4}` +
	`.mark-selected .mk-ring{stroke:#ff8c00;stroke-width:5}.mark-last-from .mk-ring{stroke:#29b6f6;stroke-dasharray:6 4}.mark-last-to .mk-ring{stroke:#29b6f6}` +
	`.coord{fill:#555}.info{fill:#222}.hl-from>.hit,.hl-from.hit{stroke:#e67e00;stroke-width:4}.hl-to>.hit,.hl-to.hit{stroke:#1a9c3a;stroke-width:4}`
