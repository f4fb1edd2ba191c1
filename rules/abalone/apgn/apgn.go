// Package apgn reads and writes Abalone game records in the notation of the
// archives in testdata/abalone (APGN: PGN-like tags, then numbered moves in
// Aba-Pro notation, then the result), e.g.
//
//	[Event "MIGS 31152"]
//	[Variant "belgian"]
//	[Result "1-0"]
//	[Notation "Aba-Pro"]
//
//	1. a1b2 a5b5 2. a2b3 b6c7 3. i9h8 i5h5 1-0
//
// Tags are `[Name "value"]`, one per line; moves are numbered per pair
// ("1." before black's move and white's reply); the result is "1-0" (black,
// player 0, won), "0-1" or "*" (unfinished). A game starts at its Variant
// tag's layout ("classic", "belgian", "german"), or at the Position tag's
// state (this module's text form; an extension of the archives' notation).
// Read parses one or more games, with errors at a line and column
// (*record.Error); Write writes one game, and Read(Write(g)) gives g back
// (Write of it is the same bytes) for every game CheckTags accepts; the
// moves' legality is a replay's business (ReplayGame). ReadContext is Read
// bounded: it stops at its context's end and at Limits (games per record,
// moves per game) as it reads, linear in the text.
package apgn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/record"
)

// Tag is one tag pair.
type Tag struct{ Name, Value string }

// Game is one record.
type Game struct {
	// Tags in their order (Result among them when written so).
	Tags []Tag
	// Moves in Aba-Pro notation, black's first.
	Moves []string
	// Result is the result token after the moves: "1-0", "0-1" or "*".
	Result string
}

// Tag returns the value of the tag name ("" when absent).
func (g Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

var (
	tagRe  = regexp.MustCompile(`^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$`)
	moveRe = regexp.MustCompile(`^[a-iA-I][1-9][a-iA-I][1-9]([a-iA-I][1-9])?$`)
	numRe  = regexp.MustCompile(`^(\d+)\.$`)
)

func isResult(s string) bool { return s == "1-0" || s == "0-1" || s == "*" }

// Limits bound what ReadContext reads; 0 is no limit.
type Limits struct {
	// MaxGames is the most games a text may hold, MaxMoves the most moves
	// and MaxTags the most tags a game may hold. Reading stops with a
	// *LimitError at the first game, move or tag past them.
	MaxGames, MaxMoves, MaxTags int
}

// LimitError is a text over Limits: where reading stopped and what was
// over ("games" or "moves") and its limit.
type LimitError struct {
	Line, Column int
	What         string
	Max          int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("apgn: line %d, column %d: more than %d %s", e.Line, e.Column, e.Max, e.What)
}

// checkEvery is how many lines ReadContext reads between two looks at its
// context.
const checkEvery = 256

// Read parses every game of data. Errors are *record.Error. It is
// ReadContext without a deadline or limits.
func Read(data []byte) ([]Game, error) {
	return ReadContext(context.Background(), data, Limits{})
}

// ReadContext is Read, stopping with ctx's error when ctx ends (looked at
// every few hundred lines), and with a *LimitError at the first game or
// move past lim.
func ReadContext(ctx context.Context, data []byte, lim Limits) ([]Game, error) {
	var games []Game
	var g *Game
	inMoves := false
	for i, raw := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		ln := i + 1
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		line := strings.TrimSpace(raw)
		col0 := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if lim.MaxTags > 0 && g != nil && !inMoves && len(g.Tags) >= lim.MaxTags {
				return nil, &LimitError{Line: ln, Column: col0 + 1, What: "tags", Max: lim.MaxTags}
			}
			m := tagRe.FindStringSubmatch(line)
			if m == nil {
				return nil, &record.Error{Line: ln, Column: col0 + 1, Reason: `a tag is [Name "value"]`}
			}
			if g == nil || inMoves {
				if lim.MaxGames > 0 && len(games) >= lim.MaxGames {
					return nil, &LimitError{Line: ln, Column: col0 + 1, What: "games", Max: lim.MaxGames}
				}
				games = append(games, Game{})
				g = &games[len(games)-1]
				inMoves = false
			}
			g.Tags = append(g.Tags, Tag{m[1], strings.ReplaceAll(strings.ReplaceAll(m[2], `\"`, `"`), `\\`, `\`)})
			continue
		}
		if g == nil {
			return nil, &record.Error{Line: ln, Column: col0 + 1, Reason: "a game starts with its tags"}
		}
		if g.Result != "" {
			return nil, &record.Error{Line: ln, Column: col0 + 1, Reason: "moves after the result; a new game starts with its tags"}
		}
		inMoves = true
		off := col0
		for _, tok := range strings.Fields(line) {
			c := strings.Index(raw[off:], tok) + off
			off = c + len(tok)
			switch {
			case g.Result != "":
				return nil, &record.Error{Line: ln, Column: c + 1, Reason: fmt.Sprintf("%s after the result", game.Quote(tok))}
			case numRe.MatchString(tok):
				n, _ := strconv.Atoi(tok[:len(tok)-1])
				if want := len(g.Moves)/2 + 1; n != want || len(g.Moves)%2 != 0 {
					return nil, &record.Error{Line: ln, Column: c + 1, Reason: fmt.Sprintf("move number %d: want %d. before black's move", n, want)}
				}
			case isResult(tok):
				g.Result = tok
			case moveRe.MatchString(tok):
				if lim.MaxMoves > 0 && len(g.Moves) >= lim.MaxMoves {
					return nil, &LimitError{Line: ln, Column: c + 1, What: "moves", Max: lim.MaxMoves}
				}
				g.Moves = append(g.Moves, strings.ToLower(tok))
			default:
				return nil, &record.Error{Line: ln, Column: c + 1, Reason: fmt.Sprintf("cannot read %s: want a move number (\"12.\"), an Aba-Pro move (\"a1b2\", \"c3c5d3\") or a result (1-0, 0-1, *)", game.Quote(tok))}
			}
		}
	}
	for i := range games {
		if games[i].Result == "" {
			games[i].Result = "*"
		}
	}
	return games, nil
}

// ErrTag is a tag Write cannot write so that Read reads it back: a name
// that is not [A-Za-z][A-Za-z0-9_]* (what Read reads; any other could
// plant a line of its own, e.g. a Position tag), or a name or value with a
// control character (a line break would end the tag's line).
var ErrTag = errors.New("apgn: a tag that does not read back")

// CheckTags reports the first tag of tags that Write cannot write so that
// Read reads it back (an error wrapping ErrTag, naming it), nil when all
// can.
func CheckTags(tags []Tag) error {
	for _, t := range tags {
		if err := CheckTag(t.Name, t.Value); err != nil {
			return err
		}
	}
	return nil
}

// CheckTag is CheckTags for one tag.
func CheckTag(name, value string) error {
	if !isTagName(name) {
		return fmt.Errorf("%w: tag name %s: a name is a letter, then letters, digits and _", ErrTag, game.Quote(name))
	}
	if i := strings.IndexFunc(value, unicode.IsControl); i >= 0 {
		return fmt.Errorf("%w: tag %s: the value has a control character (%U) at byte %d", ErrTag, game.Quote(name), firstRune(value[i:]), i)
	}
	return nil
}

// firstRune is s's first rune.
func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isTagName reports whether name is [A-Za-z][A-Za-z0-9_]*, a tag name
// Read reads.
func isTagName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '_'):
		default:
			return false
		}
	}
	return name != ""
}

// Write writes g: its tags, a blank line, the numbered moves (a line is
// broken before a move number that would take it past 72 bytes) and the
// result. The tags must pass CheckTags for the text to read back as g
// (Write does not check them).
func Write(g Game) []byte {
	var b bytes.Buffer
	for _, t := range g.Tags {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, strings.ReplaceAll(strings.ReplaceAll(t.Value, `\`, `\\`), `"`, `\"`))
	}
	b.WriteString("\n")
	line := ""
	add := func(s string, breakable bool) {
		switch {
		case line == "":
			line = s
		case breakable && len(line)+1+len(s) > 72:
			b.WriteString(line + "\n")
			line = s
		default:
			line += " " + s
		}
	}
	for i, m := range g.Moves {
		if i%2 == 0 {
			add(fmt.Sprintf("%d.", i/2+1), true)
		}
		add(m, false)
	}
	res := g.Result
	if res == "" {
		res = "*"
	}
	add(res, true)
	b.WriteString(line + "\n")
	return b.Bytes()
}
