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
// (Write of it is the same bytes). The moves' legality is a replay's
// business (ReplayGame).
package apgn

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

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

// Read parses every game of data. Errors are *record.Error.
func Read(data []byte) ([]Game, error) {
	var games []Game
	var g *Game
	inMoves := false
	for i, raw := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		ln := i + 1
		line := strings.TrimSpace(raw)
		col0 := len(raw) - len(strings.TrimLeft(raw, " \t"))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			m := tagRe.FindStringSubmatch(line)
			if m == nil {
				return nil, &record.Error{Line: ln, Column: col0 + 1, Reason: `a tag is [Name "value"]`}
			}
			if g == nil || inMoves {
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
				return nil, &record.Error{Line: ln, Column: c + 1, Reason: fmt.Sprintf("%q after the result", tok)}
			case numRe.MatchString(tok):
				n, _ := strconv.Atoi(tok[:len(tok)-1])
				if want := len(g.Moves)/2 + 1; n != want || len(g.Moves)%2 != 0 {
					return nil, &record.Error{Line: ln, Column: c + 1, Reason: fmt.Sprintf("move number %d: want %d. before black's move", n, want)}
				}
			case isResult(tok):
				g.Result = tok
			case moveRe.MatchString(tok):
				g.Moves = append(g.Moves, strings.ToLower(tok))
			default:
				return nil, &record.Error{Line: ln, Column: c + 1, Reason: fmt.Sprintf("cannot read %q: want a move number (\"12.\"), an Aba-Pro move (\"a1b2\", \"c3c5d3\") or a result (1-0, 0-1, *)", tok)}
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

// Write writes g: its tags, a blank line, the numbered moves (a line is
// broken before a move number that would take it past 72 bytes) and the
// result.
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
