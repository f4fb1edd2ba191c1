// Package mat reads and writes backgammon matches in the match text format
// of GNU Backgammon and Jellyfish (".mat"; gnubg "export match mat", "import
// mat"): a match header (" 5 point match"), for each game a header
// (" Game 1") with the players' names and scores, then numbered lines of
// the two players' actions side by side, the first player (white, player 0)
// on the left:
//
//  1. 31: 8/5 6/5                 64: 24/18 13/9
//  12. 51: 9/8 8/3                  Doubles => 2
//  13. Takes                      61:
//     Wins 2 points
//
// A roll is "<die><die>:" followed by its play as single-die steps
// ("from/to", 25 the bar, 0 off, "*" a hit; none when no play is
// possible); decisions are "Doubles => <cube>", "Beavers => <cube>",
// "Takes", "Drops"; a game ends with "Wins <n> point(s)". Lines starting
// with ";" are comments; before the match header gnubg's tags
// `; [Jacoby "Off"]` and `; [Beaver "On"]` give the money-play settings
// (Write writes them; gnubg 1.07's import ignores them and plays with its
// own "set jacoby" and "set beavers").
//
// Read also reads the dialects other programs write, as gnubg 1.07's
// import reads them (docs/records.md, "The dialects other programs
// write"): Jellyfish's "Wins 1 point and the match" (a match's last game
// may give the points the winner needed, fewer than it scored); eXtreme
// Gammon's and Backgammon Studio's "bar/21*", "6/off", "13/9(2)",
// "24/13", "24/23*/20", "Cannot Move" and "????" (the roll resigned
// instead of played); Backgammon Galaxy's "Losses 2 points" cells; FIBS's
// dice in the order rolled; header tags `; [Site "…"]` (Match.Tags). A
// roll written alone is the forced play when exactly one is legal, a pass
// when none is, and, as a record's last action in an unfinished game when
// some play is legal, the dice still to be played. WriteReplayOptions writes each dialect.
//
// Read parses the text (errors give the line and column, as *record.Error);
// Match.Replay plays it once into backgammon Options and moves in this
// module's notation (docs/rules/backgammon.md), "next game" between games,
// each move with its typed form and the state after it, so that a caller
// answers from that one replay (Match.LastGame: the part the engine plays
// as one game); Write replays moves from a state and writes them in the
// format, WriteReplay writes a game already replayed. Write's output reads
// back to the same moves: Write(Read(Write(x))) is Write(x), byte for byte.
//
// A money session ("0 point match": gnubg 1.07 writes one so with "export
// match mat", the session's running totals in the game headers) replays as
// one session, "next game" between its games carrying the running score
// (backgammon.State.NextSessionGame), so every state's gnubg ID is the one
// gnubg shows, score bits included.
//
// What the format leaves out and how reading restores it: the opening
// roll's order; resignations accepted (from the "Wins" line); the take
// after a beaver (gnubg writes none: the next roll implies it); the Jacoby
// rule (on, as gnubg's import assumes by default, unless a Jacoby tag says
// off or the points prove it: a gammon borne off with the cube in the
// middle scored in full); beavers allowed (when the text has a beaver or a
// Beaver tag); the Crawford game at a match-point start (Options).
// Declined resignations are not in the format (gnubg writes none): Write
// leaves them out too, so they do not come back.
package mat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/record"
)

// Match is a match as read from the text.
type Match struct {
	// Comments are the lines before the match header that start with ";",
	// verbatim.
	Comments []string
	// Length is the match length in points (0: a money game).
	Length int
	// Players are the names of the left (white) and right (black) players.
	Players [2]string
	// Games are the games in order.
	Games []Game
	// NoJacoby says a money session was played without the Jacoby rule.
	// Read sets it from a `; [Jacoby "Off"]` tag; Replay sets it when the
	// record's points prove it (see Replay).
	NoJacoby bool
	// Beavers says beavers were allowed in a money session: Read sets it
	// when the text has a beaver or a `; [Beaver "On"]` tag.
	Beavers bool
	// Tags are the header comments of the form `; [Name "Value"]` before
	// the match header, in order, as eXtreme Gammon, Backgammon Studio,
	// Backgammon Galaxy and gnubg write them (`; [Site "eXtreme Gammon"]`,
	// `; [Player 1 "…"]`, `; [Jacoby "On"]`).
	Tags []Tag
}

// Tag is one header comment `; [Name "Value"]`.
type Tag struct{ Name, Value string }

// Tag returns the value of the first tag named name (compared without
// regard to case), "" when there is none.
func (m Match) Tag(name string) string {
	for _, t := range m.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// Game is one game of a match.
type Game struct {
	// Score is the score (white's, black's) at the start of the game.
	Score [2]int
	// Actions are the players' actions in order.
	Actions []Action
	// Winner is the player (0 white, 1 black) the text says won, -1 when it
	// does not say; Points the points it says were won.
	Winner, Points int
	// AndTheMatch says the "Wins" line ends "and the match" (Jellyfish,
	// eXtreme Gammon, FIBS): the game ends the match.
	AndTheMatch bool
	// Loser and LoserPoints are a "Losses <n> point(s)" cell (Backgammon
	// Galaxy's exports write one for the loser beside or before the
	// winner's "Wins"): the player, the points; Loser is -1 without one.
	Loser, LoserPoints int
	winsLine, winsCol  int
	lossesLine         int
	lossesCol          int
	line               int // the game header's line
}

// Action is one action of a player.
type Action struct {
	// Player is 0 (white, the left column) or 1 (black).
	Player int
	// Dice are a roll's dice, as written (0, 0 for a decision).
	Dice [2]int
	// Play is a roll's play as written ("8/5 6/5"; "" when none), or the
	// decision: "double", "beaver", "take" or "drop".
	Play string
	// Cube is the cube value a double or beaver offers ("Doubles => 2",
	// "Beavers => 4").
	Cube int
	// NoPlay says the roll's play is written "Cannot Move" (eXtreme
	// Gammon): no number can be played. A roll written alone ("53:") means
	// the same when no play is legal, the one play when exactly one is
	// legal (a forced play some programs leave out), and is an error when
	// several are, except as the last action of a game, where it is a
	// resignation after the roll or the roll still to be played.
	NoPlay bool
	// Resigned says the roll's play is written "????" (eXtreme Gammon: the
	// roller resigned instead of playing it).
	Resigned bool
	// Line and Column locate the action in the text (1-based).
	Line, Column int
}

var (
	matchRe = regexp.MustCompile(`^\s*(\d+) point match\s*$`)
	gameRe  = regexp.MustCompile(`^\s*Game (\d+)\s*$`)
	scoreRe = regexp.MustCompile(`^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$`)
	lineRe  = regexp.MustCompile(`^\s*(\d+)\)`)
	rollRe  = regexp.MustCompile(`^([1-6])([1-6]):$`)
	// tagRe is a header comment `; [Name "Value"]`.
	tagRe = regexp.MustCompile(`^\s*;\s*\[([^"\[\]]*?)\s*"([^"]*)"\s*\]\s*$`)
	// rightColumn is the byte column (0-based) from which an action
	// belongs to the right player, as gnubg lays lines out (the right
	// column starts at 33).
	rightColumn = 30
)

func fail(line, col int, format string, args ...any) error {
	return &record.Error{Line: line, Column: col, Reason: fmt.Sprintf(format, args...)}
}

// Limits bound what ReadContext and Match.ReplayContext take, so that a
// record's cost is refused before it is paid.
type Limits struct {
	// MaxMoves is the most moves the record's replay (Match.Replay: every
	// game, "next game" between them) may hold; 0 is no limit. Reading
	// counts, as it goes, the fewest moves the actions read so far can
	// replay to (a roll and its play, a decision, "next game" between
	// games, less the one play a resignation after a roll may leave out)
	// and stops with a *LimitError as soon as that passes MaxMoves, so a
	// record too long is refused before the rest of it is read or any of
	// it replayed; the replay then stops at its exact count.
	MaxMoves int
	// MaxTags is the most header tags (Match.Tags) the record may hold; 0
	// is no limit. Reading stops with a *LimitError (What "tags") at the
	// first past it.
	MaxTags int
}

// LimitError is a record over Limits.MaxMoves: where reading (or the
// replay) passed it, and the limit.
type LimitError struct {
	// What is "moves" or "tags": the limit passed.
	What         string
	Line, Column int
	// Moves is how many moves the record was known to hold when it
	// stopped (at least; more may follow); Max the limit.
	Moves, Max int
}

func (e *LimitError) Error() string {
	if e.What == "tags" {
		return fmt.Sprintf("mat: line %d, column %d: more than %d header tags", e.Line, e.Column, e.Max)
	}
	return fmt.Sprintf("mat: line %d, column %d: the record's replay holds more than %d moves (%d by here)", e.Line, e.Column, e.Max, e.Moves)
}

// checkEvery is how many lines Read, or moves Replay, takes between two
// looks at its context.
const checkEvery = 256

// Read parses a match. Errors are *record.Error with the line and column of
// what could not be read. It is ReadContext without a deadline or limits.
func Read(data []byte) (Match, error) {
	return ReadContext(context.Background(), data, Limits{})
}

// ReadContext is Read, stopping with ctx's error when ctx ends (looked at
// every few hundred lines) and with a *LimitError when the record holds
// more moves than lim allows (see Limits). It is linear in the text's
// length.
func ReadContext(ctx context.Context, data []byte, lim Limits) (Match, error) {
	var m Match
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	seenMatch := false
	var g *Game
	// The fewest moves the games before the current one (and the "next
	// game" moves between them) replay to, and the current game's rolls
	// (two moves each) and decisions (one).
	doneMoves, gameMin := 0, 0
	for i, raw := range lines {
		ln := i + 1
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return Match{}, err
			}
		}
		text := strings.TrimRight(raw, " \t")
		trimmed := strings.TrimSpace(text)
		col := len(text) - len(strings.TrimLeft(text, " \t")) + 1
		switch {
		case trimmed == "":
			continue
		case strings.HasPrefix(trimmed, ";"):
			if !seenMatch {
				m.Comments = append(m.Comments, text)
				if !strings.Contains(text, "[") || !strings.Contains(text, `"`) {
					continue // no tag: the regular expression is the costly part
				}
				if tm := tagRe.FindStringSubmatch(text); tm != nil {
					if lim.MaxTags > 0 && len(m.Tags) >= lim.MaxTags {
						return Match{}, &LimitError{What: "tags", Line: ln, Column: col, Moves: len(m.Tags) + 1, Max: lim.MaxTags}
					}
					m.Tags = append(m.Tags, Tag{Name: tm[1], Value: tm[2]})
					on, off := strings.EqualFold(tm[2], "on"), strings.EqualFold(tm[2], "off")
					switch {
					case strings.EqualFold(tm[1], "Jacoby") && (on || off):
						m.NoJacoby = off
					case strings.EqualFold(tm[1], "Beaver") && (on || off):
						m.Beavers = on
					}
				}
			}
			continue
		}
		if !seenMatch {
			mm := matchRe.FindStringSubmatch(text)
			if mm == nil {
				return Match{}, fail(ln, col, `expected the match header, e.g. " 5 point match"`)
			}
			m.Length, _ = strconv.Atoi(mm[1])
			if m.Length > backgammon.MaxMatchLength {
				return Match{}, fail(ln, col, "match length %d: at most %d", m.Length, backgammon.MaxMatchLength)
			}
			seenMatch = true
			continue
		}
		if gm := gameRe.FindStringSubmatch(text); gm != nil {
			if n, _ := strconv.Atoi(gm[1]); n != len(m.Games)+1 {
				return Match{}, fail(ln, col, "game %d: want game %d", n, len(m.Games)+1)
			}
			if len(m.Games) > 0 {
				doneMoves += max(gameMin-1, 0) + 1 // the game before, and "next game"
			}
			gameMin = 0
			m.Games = append(m.Games, Game{Winner: -1, Loser: -1, line: ln})
			g = &m.Games[len(m.Games)-1]
			if i+1 >= len(lines) {
				return Match{}, fail(ln+1, 1, "the game's score line is missing")
			}
			sm := scoreRe.FindStringSubmatch(lines[i+1])
			if sm == nil || lineRe.MatchString(lines[i+1]) {
				return Match{}, fail(ln+1, 1, `expected the players and scores, e.g. " gnubg : 0   you : 0"`)
			}
			a, _ := strconv.Atoi(sm[2])
			b, _ := strconv.Atoi(sm[4])
			g.Score = [2]int{a, b}
			if len(m.Games) == 1 {
				m.Players = [2]string{sm[1], sm[3]}
			}
			lines[i+1] = "" // consumed
			continue
		}
		if g == nil {
			return Match{}, fail(ln, col, `expected " Game 1"`)
		}
		rest := text
		start := 0
		number := ""
		if end := lineNumberEnd(text); end > 0 {
			start = end
			rest = text[start:]
			number = strings.TrimSpace(text[:end])
		} else if !strings.HasPrefix(trimmed, "Wins ") && !strings.HasPrefix(trimmed, "Losses ") {
			return Match{}, fail(ln, col, `expected a numbered line ("  1) 31: 8/5 6/5"), "Wins" or "Losses"`)
		}
		before := len(g.Actions)
		if err := readActions(g, rest, start, ln, number); err != nil {
			return Match{}, err
		}
		// Only this line's actions: looking at all of the game's after
		// every line made reading quadratic in a game's length.
		for _, a := range g.Actions[before:] {
			m.Beavers = m.Beavers || a.Play == "beaver"
			if a.Dice[0] != 0 {
				gameMin += 2 // a roll and its play
			} else {
				gameMin++ // a decision
			}
		}
		// A resignation after the game's last roll leaves its play out.
		if n := doneMoves + max(gameMin-1, 0); lim.MaxMoves > 0 && n > lim.MaxMoves {
			return Match{}, &LimitError{What: "moves", Line: ln, Column: col, Moves: n, Max: lim.MaxMoves}
		}
	}
	if !seenMatch {
		return Match{}, fail(len(lines), 1, "no match header")
	}
	return m, nil
}

// lineNumberEnd returns the byte offset just past a line's number and its
// ")" ("  12)"; lineRe without the regular expression), 0 when the line
// does not start so.
func lineNumberEnd(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j >= len(s) || s[j] != ')' {
		return 0
	}
	return j + 1
}

// token is one word of a line and its 0-based byte offset.
type token struct {
	s   string
	off int
}

func fields(s string, base int) []token {
	var out []token
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		out = append(out, token{s[i:j], base + i})
		i = j
	}
	return out
}

// readActions reads the actions of one line (the part after "n)", which
// starts at byte start of the line; number is that "n)") into g. The line's
// number written again before the right column's cell ("24) 43: 21/18
// 18/14     24)  Losses 2 point", as Backgammon Galaxy writes some last
// lines) is skipped.
func readActions(g *Game, rest string, start, ln int, number string) error {
	toks := fields(rest, start)
	first := true
	for k := 0; k < len(toks); {
		t := toks[k]
		if number != "" && t.s == number {
			k++
			continue
		}
		player := 0
		if t.off >= rightColumn || !first {
			player = 1
		}
		first = false
		a := Action{Player: player, Line: ln, Column: t.off + 1}
		switch {
		case rollRe.MatchString(t.s):
			a.Dice = [2]int{int(t.s[0] - '0'), int(t.s[1] - '0')}
			var steps []string
			k++
			for k < len(toks) && isStep(toks[k].s) {
				steps = append(steps, toks[k].s)
				k++
			}
			a.Play = strings.Join(steps, " ")
			switch {
			case len(steps) > 0:
			case k+1 < len(toks) && strings.EqualFold(toks[k].s, "Cannot") && strings.EqualFold(toks[k+1].s, "Move"):
				a.NoPlay = true
				k += 2
			case k < len(toks) && toks[k].s == "????":
				a.Resigned = true
				k++
			}
		case t.s == "Doubles" || t.s == "Beavers":
			if k+2 >= len(toks) || toks[k+1].s != "=>" {
				return fail(ln, t.off+1, `expected "%s => <cube>"`, t.s)
			}
			c, err := strconv.Atoi(toks[k+2].s)
			if err != nil || c < 2 || c > 2*backgammon.MaxCube {
				return fail(ln, toks[k+2].off+1, "cube value %s", game.Quote(toks[k+2].s))
			}
			a.Play, a.Cube = "double", c
			if t.s == "Beavers" {
				a.Play = "beaver"
			}
			k += 3
		case t.s == "Takes":
			a.Play = "take"
			k++
		case t.s == "Drops":
			a.Play = "drop"
			k++
		case t.s == "Wins" || t.s == "Losses":
			if k+2 >= len(toks) || !strings.HasPrefix(toks[k+2].s, "point") {
				return fail(ln, t.off+1, `expected "%s <n> point(s)"`, t.s)
			}
			n, err := strconv.Atoi(toks[k+1].s)
			if err != nil || n < 1 || n > 1<<20 {
				return fail(ln, toks[k+1].off+1, "points %s", game.Quote(toks[k+1].s))
			}
			k += 3
			and := k+2 < len(toks) && toks[k].s == "and" && toks[k+1].s == "the" && strings.HasPrefix(toks[k+2].s, "match")
			if and {
				k += 3
			}
			if t.s == "Losses" {
				g.Loser, g.LoserPoints, g.lossesLine, g.lossesCol = player, n, ln, t.off+1
				continue
			}
			g.Winner, g.Points, g.AndTheMatch, g.winsLine, g.winsCol = player, n, and, ln, t.off+1
			continue
		case t.s == "Illegal":
			// Snowie writes "Illegal play (…)" where the board was set by
			// hand during the game: no move of the rules leads there.
			return fail(ln, t.off+1, "%s: the board was set by hand (no legal play of the rules reaches it); such a record cannot be replayed", game.Quote(strings.TrimSpace(rest[t.off-start:])))
		default:
			return fail(ln, t.off+1, "cannot read %s: expected a roll (\"31:\"), a step, Doubles, Takes, Drops, Wins or Losses (a resignation is written as its \"Wins\" line only)", game.Quote(t.s))
		}
		g.Actions = append(g.Actions, a)
	}
	return nil
}

// isStep reports whether s is a step of a play as the dialects write it:
// gnubg's and Jellyfish's "13/9", "25/20*", "6/0"; eXtreme Gammon's
// "bar/21", "6/off", "13/9(2)", "8/2*(2)", and steps through intermediate
// points "23/14*", "24/23*/20"; FIBS's "8-5". It is the engine's lexer of
// the dialects (backgammon.IsPathWord), shared with backgammon.ReadMove;
// linear in len(s).
func isStep(s string) bool { return backgammon.IsPathWord(s) }

// Options are the backgammon options of the match's first game: the
// length, the cube, the first game's score (a money session's running
// totals, or the match score), in money play NoJacoby and Beavers. A match
// that starts with exactly one player at match length - 1 starts with the
// Crawford game, unless its first game has a double (no double is allowed
// in the Crawford game, so the record is post-Crawford). gnubg 1.07's
// import takes such a game for the Crawford game by the score alone, and
// keeps the Crawford flag although the game has a double.
func (m Match) Options() backgammon.Options {
	o := backgammon.Options{MatchLength: m.Length, Cube: true}
	if len(m.Games) > 0 {
		o.Score = m.Games[0].Score
	}
	if m.Length == 0 {
		o.NoJacoby, o.Beavers = m.NoJacoby, m.Beavers
		return o
	}
	if l := m.Length - 1; len(m.Games) > 0 && (o.Score[0] == l) != (o.Score[1] == l) {
		o.Crawford = !slices.ContainsFunc(m.Games[0].Actions, func(a Action) bool { return a.Play == "double" })
	}
	return o
}

// MoveError is a move of the text that is not legal: where it is in the
// text, its index in the replay, the state before it (text form) and the
// engine's error (game.ErrIllegalMove or game.ErrGameOver, which Unwrap
// gives).
type MoveError struct {
	Line, Column, Index int
	Notation, Before    string
	Err                 error
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("mat: line %d, column %d: move %d %s: %v", e.Line, e.Column, e.Index, game.Quote(e.Notation), e.Err)
}

// Unwrap returns the engine's error.
func (e *MoveError) Unwrap() error { return e.Err }

// Move is one move of a replay: what the text gives the engine, where it
// comes from in the text, and what the engine made of it.
type Move struct {
	// Notation is the move in this module's notation, as the replay
	// applies it ("roll 3-1", "8/5 6/5", "take", "next game").
	Notation string
	// Line and Column locate the move in the text (1-based): the action
	// it comes from, the "Wins" line for a resignation restored from it,
	// the game's first line for "next game".
	Line, Column int
	// Played is the move as the engine read it, canonical: Played.String()
	// is the notation a replay of the engine answers. Its kind is
	// backgammon.KindNextGame before every game but the first: in a match
	// the engine's "next game", in a money session the chaining of
	// State.NextSessionGame (not a move of the engine).
	Played backgammon.Move
	// After is the state after the move.
	After backgammon.State
}

// Replay returns the moves of the match in this module's notation, each
// with the move the engine read and the state after it: per game the
// opening roll (both dice, white's first), then rolls ("roll 6-5"), plays
// (with bar and off for 25 and 0; "pass" when none is written), "double",
// "beaver", "take" and "drop", and "next game" before every game but the
// first (in a match and in a money session alike; in a money session it
// is not a move the engine takes but backgammon.State.NextSessionGame,
// Played of kind backgammon.KindNextGame; LastGame gives the part one
// game of the engine plays). It restores what the format leaves out: a
// game the text says was won ("Wins 2 points") that the moves leave
// unfinished was resigned by the loser, on roll, and accepted, so Replay
// adds "resign <single|gammon|backgammon>" (the points over the cube) and
// "accept"; a beaver followed by a roll was taken ("take", which gnubg
// does not write).
//
// It plays the moves once, from Options, to know that, and checks the text
// against them: every game header's score must be the score the games
// before it reached, every "Wins" line the winner and points of the game's
// end, every "Doubles"/"Beavers" value the cube offered. A money session
// whose points say the Jacoby rule was off (a gammon or backgammon borne
// off with the cube in the middle, scored in full) is taken as played
// without it from its start (Replay sets m.NoJacoby): the moves so far
// are re-scored without the rule (State.WithoutJacoby) and checked again
// against the headers and "Wins" lines, and the replay goes on without
// it, exactly as a second replay with NoJacoby set would find. A move that
// is not legal is a *MoveError; a text that contradicts the moves a
// *record.Error.
func (m *Match) Replay() ([]Move, error) {
	return m.ReplayContext(context.Background(), Limits{})
}

// ReplayContext is Replay, stopping with ctx's error when ctx ends (looked
// at every few hundred moves) and with a *LimitError as soon as the replay
// holds more than lim.MaxMoves moves.
func (m *Match) ReplayContext(ctx context.Context, lim Limits) ([]Move, error) {
	noJacoby := m.NoJacoby
	out, err := m.replay(ctx, lim)
	if err != nil {
		m.NoJacoby = noJacoby // what the rule was taken to be is not known
		return nil, err
	}
	return out, nil
}

// LastGame returns the part of a replay of m (Replay's moves) that the
// engine plays as one game, and the state it starts from: a whole match
// (its games joined by the engine's "next game"); in a money session, a
// money game being one game (spec "Phases": a finished game has no legal
// moves outside a match), the session's last game, from the running score
// (the state NextSessionGame chained it from; its header's score).
func (m Match) LastGame(moves []Move) (backgammon.State, []Move, error) {
	if m.Length == 0 {
		for i := len(moves) - 1; i >= 0; i-- {
			if moves[i].Played.Kind() == backgammon.KindNextGame {
				return moves[i].After, moves[i+1:], nil
			}
		}
	}
	start, err := backgammon.New(m.Options())
	if err != nil {
		return backgammon.State{}, nil, fail(1, 1, "match header: %v", err)
	}
	return start, moves, nil
}

// replay is Replay, but for restoring m.NoJacoby on an error.
func (m *Match) replay(ctx context.Context, lim Limits) ([]Move, error) {
	start, err := backgammon.New(m.Options())
	if err != nil {
		return nil, fail(1, 1, "match header: %v", err)
	}
	s := start
	n := 0
	for _, g := range m.Games {
		n += 2*len(g.Actions) + 3 // a roll and its play; "next game", a resignation and its accept
	}
	if lim.MaxMoves > 0 {
		n = min(n, lim.MaxMoves+1)
	}
	out := make([]Move, 0, n)
	ends := make([]int, 0, len(m.Games)) // len(out) at each game's end
	moveError := func(mv Move, err error) error {
		return &MoveError{Line: mv.Line, Column: mv.Column, Index: len(out), Notation: mv.Notation, Before: s.String(), Err: err}
	}
	limited := func(mv Move) error {
		if len(out)%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if lim.MaxMoves > 0 && len(out) >= lim.MaxMoves {
			return &LimitError{What: "moves", Line: mv.Line, Column: mv.Column, Moves: len(out) + 1, Max: lim.MaxMoves}
		}
		return nil
	}
	apply := func(mv Move) error {
		if err := limited(mv); err != nil {
			return err
		}
		next, played, err := s.ApplyText(mv.Notation)
		if err != nil {
			return moveError(mv, err)
		}
		mv.Played, mv.After = played, next
		s = next
		out = append(out, mv)
		return nil
	}
	for gi, g := range m.Games {
		switch {
		case gi > 0 && m.Length == 0:
			// A money session's next game is not a move of the API (a
			// money game is one game); the engine chains it.
			mv := Move{Notation: "next game", Line: g.lineOf(), Column: 1, Played: backgammon.NextGameMove()}
			if err := limited(mv); err != nil {
				return nil, err
			}
			next, err := s.NextSessionGame()
			if err != nil {
				return nil, moveError(mv, err)
			}
			mv.After, s = next, next
			out = append(out, mv)
		case gi > 0:
			if err := apply(Move{Notation: "next game", Line: g.lineOf(), Column: 1}); err != nil {
				return nil, err
			}
		}
		if err := m.checkStart(gi, s); err != nil {
			return nil, err
		}
		opening := true
		for ai, a := range g.Actions {
			if a.Dice[0] == 0 {
				before := s
				if err := apply(Move{Notation: a.Play, Line: a.Line, Column: a.Column}); err != nil {
					return nil, err
				}
				if want := 2 * s.CubeValue(); a.Play == "beaver" && a.Cube != want || a.Play == "double" && a.Cube != 2*before.CubeValue() {
					return nil, fail(a.Line, a.Column, "the cube offered is %d, not %d", map[bool]int{true: want, false: 2 * before.CubeValue()}[a.Play == "beaver"], a.Cube)
				}
				continue
			}
			if s.Phase() == backgammon.PhaseDouble && len(out) > 0 && out[len(out)-1].Played.Kind() == backgammon.KindBeaver {
				// gnubg writes no "Takes" after a beaver: the roll says it.
				if err := apply(Move{Notation: "take", Line: a.Line, Column: a.Column}); err != nil {
					return nil, err
				}
			}
			d := a.Dice
			if opening {
				hi, lo := max(d[0], d[1]), min(d[0], d[1])
				if a.Player == 0 {
					d = [2]int{hi, lo}
				} else {
					d = [2]int{lo, hi}
				}
				opening = false
			}
			if err := apply(Move{Notation: fmt.Sprintf("roll %d-%d", d[0], d[1]), Line: a.Line, Column: a.Column}); err != nil {
				return nil, err
			}
			last := ai == len(g.Actions)-1
			var play string
			switch {
			case a.Resigned:
				if !last || g.Winner < 0 || g.Winner == a.Player {
					return nil, fail(a.Line, a.Column, `"????" (the roller resigned instead of playing) must be the game's last action, followed by a "Wins" line of the other player`)
				}
				continue
			case a.NoPlay:
				play = "pass"
			case a.Play != "":
				play = ourSteps(a.Play)
			case last && g.Winner >= 0 && g.Winner != a.Player:
				// The game's last roll, no play, and the roller lost: he
				// resigned after rolling (gnubg writes the roll alone).
				continue
			case last && g.Winner < 0 && gi == len(m.Games)-1 && !noPlay(s):
				// The record stops after a roll in an unfinished game: the
				// dice are still to be played (gnubg keeps them so). A roll
				// no number of which can be played is its pass, here as
				// anywhere (below): a pass is how every dialect but XG's
				// writes it, so a record ending in one reads back whole.
				continue
			default:
				p, n := forcedPlay(s)
				if n > 1 {
					return nil, fail(a.Line, a.Column, "%d%d: the roll is written without a play while %d plays are legal (only a forced play, or none, may be left out)", a.Dice[0], a.Dice[1], n)
				}
				play = p
			}
			if err := apply(Move{Notation: play, Line: a.Line, Column: a.Column}); err != nil {
				return nil, err
			}
		}
		if g.Winner >= 0 && s.Phase() != backgammon.PhaseOver {
			level, err := m.resignLevel(g, s)
			if err != nil {
				return nil, err
			}
			for _, n := range []string{"resign " + [...]string{"", "single", "gammon", "backgammon"}[level], "accept"} {
				if err := apply(Move{Notation: n, Line: g.winsLine, Column: 1}); err != nil {
					return nil, err
				}
			}
		}
		ends = append(ends, len(out))
		jacobyOff, err := m.checkEnd(g, s)
		if jacobyOff {
			// The Jacoby rule was off. It changes no move, only what a
			// game borne off with the cube in the middle scores, so the
			// replay so far is kept and re-scored rather than played
			// again; the rule is then off for the rest.
			if err := m.rescoreWithoutJacoby(start, out, ends); err != nil {
				return nil, err
			}
			m.NoJacoby = true
			s = s.WithoutJacoby()
			continue
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkStart checks that game gi starts, in s, at the score its header
// gives.
func (m *Match) checkStart(gi int, s backgammon.State) error {
	if w, b := s.Score(); [2]int{w, b} != m.Games[gi].Score {
		return fail(m.Games[gi].line+1, 1, "game %d starts at %d-%d, the score the games before reach, not %d-%d", gi+1, w, b, m.Games[gi].Score[0], m.Games[gi].Score[1])
	}
	return nil
}

// checkEnd checks that game g ends, in s, with the winner and points its
// "Wins" line gives (nothing without one). jacobyOff says the Jacoby rule
// explains the difference: it is in force, and without it the points are
// the record's (a gammon or backgammon borne off with the cube in the
// middle, scored in full).
func (m *Match) checkEnd(g Game, s backgammon.State) (jacobyOff bool, err error) {
	if g.Winner < 0 {
		return false, m.checkLosses(g)
	}
	res := s.Outcome()
	if res.Winner == g.Winner && (res.Points[res.Winner] == g.Points || m.capped(g, res.Points[res.Winner])) {
		return false, m.checkLosses(g)
	}
	err = fail(g.winsLine, 1, "the record says %s wins %d points; the game ends with %s winning %d (%s)", m.side(g.Winner), g.Points, m.side(res.Winner), res.Points[res.Winner], res.Detail)
	jacobyOff = res.Winner == g.Winner && s.Jacoby() && s.End() == "borne off" && s.CubeOwner() < 0 && res.Detail != "single" &&
		g.Points == map[string]int{"gammon": 2, "backgammon": 3}[res.Detail]*s.CubeValue()
	return jacobyOff, err
}

// need is the points player p needed to win the match at game g's start,
// 0 in money play.
func (m *Match) need(g Game, p int) int {
	if m.Length == 0 || p < 0 || p > 1 {
		return 0
	}
	return m.Length - g.Score[p]
}

// capped reports whether game g's "Wins" line gives, instead of the
// points the game scored, fewer that still win the match, as programs
// write a match's last game: Jellyfish the points the winner needed ("Wins
// 2 point and the match" for a gammon at cube 2 when 2 were needed),
// Backgammon Galaxy at most the match's length ("Wins 3 point and the
// match" for a gammon at cube 2 in a 3-point match).
func (m *Match) capped(g Game, scored int) bool {
	n := m.need(g, g.Winner)
	return n > 0 && g.Points >= n && g.Points < scored
}

// checkLosses checks game g's "Losses" cell, if any, against its "Wins"
// line: the same points.
func (m *Match) checkLosses(g Game) error {
	if g.Loser < 0 {
		return nil
	}
	// (Not the column: Galaxy writes some "Losses" lines at the left
	// whoever lost.)
	if g.Winner < 0 || g.LoserPoints != g.Points {
		return fail(g.lossesLine, g.lossesCol, "the record says %s loses (\"Losses %d\"), but %s", m.side(g.Loser), g.LoserPoints, map[bool]string{true: "no player wins", false: fmt.Sprintf("%s wins %d", m.side(g.Winner), g.Points)}[g.Winner < 0])
	}
	return nil
}

// resignLevel is the resignation (1 single, 2 gammon, 3 backgammon) that
// explains game g's "Wins" line when the moves leave the game unfinished
// in s: the loser, on turn, resigned and the winner accepted. The points
// are the cube times the level, or, at the match's end, the points the
// winner needed, fewer than a resignation scores: then the smallest level
// whose stake reaches them (the points written, at least those needed), as
// gnubg's import takes it. A resignation by
// the player not on turn, or points no resignation gives (a forfeit or a
// time-out: not a move of the rules), is an error at the "Wins" line.
func (m *Match) resignLevel(g Game, s backgammon.State) (int, error) {
	cube := s.CubeValue()
	if s.Phase() == backgammon.PhaseOpening {
		return 0, fail(g.winsLine, g.winsCol, "the game has no roll, so no resignation explains \"Wins %d\" (a resignation is offered by the player on roll, after the opening roll: docs/rules/backgammon.md, Resignation); a forfeit is not a move of the rules", g.Points)
	}
	if s.Turn() == g.Winner {
		return 0, fail(g.winsLine, g.winsCol, "the game is not over and %s, the winner, is to act: only the player on turn may resign (docs/rules/backgammon.md, Resignation), so no resignation by %s explains \"Wins %d\"", m.side(g.Winner), m.side(1-g.Winner), g.Points)
	}
	if l := g.Points / cube; l >= 1 && l <= 3 && l*cube == g.Points {
		return l, nil
	}
	if n := m.need(g, g.Winner); n > 0 && g.Points >= n && g.Points < 3*cube {
		return (g.Points + cube - 1) / cube, nil
	}
	extra := ""
	if n := m.need(g, g.Winner); n > 0 {
		extra = fmt.Sprintf(", or the %d points %s needed for the match", n, m.side(g.Winner))
	}
	return 0, fail(g.winsLine, g.winsCol, "the game is not over and %d points is no ending the rules give at cube %d: a resignation scores %d, %d or %d%s (a forfeit or a time-out is not a move of the rules)", g.Points, cube, cube, 2*cube, 3*cube, extra)
}

// noPlay reports whether s (the move phase) has no play: its roll can only
// be passed.
func noPlay(s backgammon.State) bool {
	p, _ := forcedPlay(s)
	return p == "pass"
}

// forcedPlay is the play of a roll written without one, in s (the move
// phase): "pass" when no number can be played, the one legal play when
// there is exactly one (n 1), or n > 1 the number of legal plays.
func forcedPlay(s backgammon.State) (string, int) {
	var one backgammon.Move
	n := 0
	for _, mv := range s.LegalMoves() {
		switch mv.Kind() {
		case backgammon.KindPass:
			return "pass", 0
		case backgammon.KindPlay:
			one = mv
			n++
		}
	}
	if n == 0 {
		return "pass", 0
	}
	return one.String(), n
}

// rescoreWithoutJacoby turns the replay so far (out from start, the games
// ending at ends, the last one the game whose points prove the Jacoby rule
// off) into the replay without the rule, in place, and checks it against
// the text as the replay does: each state WithoutJacoby, then in order each
// game's start score against its header and its end against its "Wins"
// line. The first that fails is the error a replay without the rule from
// the start would meet (no move depends on the rule, so only these checks
// can tell the two replays apart); until then, the two replays' scores are
// the same, so the re-scored states are that replay's.
func (m *Match) rescoreWithoutJacoby(start backgammon.State, out []Move, ends []int) error {
	for i := range out {
		out[i].After = out[i].After.WithoutJacoby()
	}
	s := start.WithoutJacoby()
	for gi, end := range ends {
		if gi > 0 {
			// The game's start from the end of the one before, as the
			// replay chains it (out holds it with the score before the
			// re-scoring, which checkStart finds equal or refuses).
			next, err := s.NextSessionGame()
			if err != nil {
				return err // not reached: the replay chained the same end
			}
			s = next
		}
		if err := m.checkStart(gi, s); err != nil {
			return err
		}
		if end > 0 {
			s = out[end-1].After
		}
		if _, err := m.checkEnd(m.Games[gi], s); err != nil {
			return err
		}
	}
	return nil
}

// side names player p (0 left/white, 1 right/black) for messages.
func (m Match) side(p int) string {
	if p != 0 && p != 1 {
		return "nobody"
	}
	if n := m.Players[p]; n != "" {
		return n
	}
	return [2]string{"white", "black"}[p]
}

// Game returns game i (from 0) of the match as a match of its own, from
// its opening at its starting score (in a money session the running
// totals), with the match's settings.
func (m Match) Game(i int) Match {
	g := m
	g.Games = m.Games[i : i+1 : i+1]
	return g
}

func (g Game) lineOf() int {
	if len(g.Actions) > 0 {
		return g.Actions[0].Line
	}
	return 1
}

// ourSteps writes a play's steps as the engine's notation writes them:
// "bar" for a start at 25 (or "b", "Bar"), "off" for an end at 0 (or
// "Off"), "/" between points; the rest (hits, intermediate points, counts)
// as written. It is backgammon.PlayNotation, the lexer ReadMove uses; a
// play it cannot read is returned as written, for the engine to refuse.
func ourSteps(play string) string {
	if t, ok := backgammon.PlayNotation(play); ok {
		return t
	}
	return play
}

// Write replays moves (this module's notation) from start, which must be a
// new game (PhaseOpening) of a match or a money game with the cube, and
// writes them as a match in the format, players' names as given (empty:
// "White", "Black"; a name CheckPlayer refuses is an error); a money session's games ("next game") as gnubg writes
// them, a "0 point match" with the running totals in the game headers. The
// moves must be legal. As gnubg writes them: a resignation accepted is the
// "Wins" line only, one declined is not written at all (so it does not read
// back), a beaver is "Beavers => <cube>" and the take after it is not
// written. In money play the settings the format lacks are written as
// gnubg's tags before the header: `; [Jacoby "Off"]` without the Jacoby
// rule, `; [Beaver "On"]` with beavers. Errors: a start that is not a new
// game, a bare "roll" (a drawn roll), a move that is not legal (its index
// and the engine's error). A game already replayed is written by
// WriteReplay, which applies nothing.
func Write(start backgammon.State, moves []string, players [2]string) ([]byte, error) {
	if start.Phase() != backgammon.PhaseOpening {
		return nil, fmt.Errorf("mat: the start must be a new game (opening roll), not phase %s", start.Phase())
	}
	replayed := make([]Move, len(moves))
	s := start
	for i, text := range moves {
		if backgammon.IsRollRequest(text) {
			return nil, fmt.Errorf("mat: move %d: a drawn roll; replay first and write the dice drawn", i)
		}
		next, m, err := applyText(s, text)
		if err != nil {
			return nil, fmt.Errorf("mat: move %d: %w", i, err)
		}
		replayed[i] = Move{Notation: text, Played: m, After: next}
		s = next
	}
	return WriteReplay(start, replayed, players)
}

// ErrUnwritable is a game WriteReplayOptions cannot write so that Read
// reads back the same moves, or that would be larger than
// WriteOptions.MaxBytes.
var ErrUnwritable = errors.New("mat: the record cannot be written to read back")

// ErrPlayer is a player's name Write cannot write so that Read reads it
// back.
var ErrPlayer = errors.New("mat: a player's name that does not read back")

// CheckPlayer reports whether Write can write name as a player's name so
// that Read reads the same name back: nil, or an error wrapping ErrPlayer
// saying why. A name is refused when it has a control character (a line
// break ends the score line), a ':' (which separates a name from its
// score), white space at either end (the reader trims it), or when it
// starts as a numbered move line does ("1) 31"), which the score line
// must not. (The empty name is no name: Write writes "White" or "Black".)
func CheckPlayer(name string) error {
	why := ""
	switch {
	case name == "":
		why = "it is empty"
	case strings.ContainsFunc(name, unicode.IsControl):
		why = "it has a control character"
	case strings.Contains(name, ":"):
		why = `it has a ":"`
	case strings.TrimSpace(name) != name:
		why = "it starts or ends with white space"
	case lineNumberEnd(name) > 0:
		why = `it reads as a numbered move line ("1) 31")`
	default:
		return nil
	}
	return fmt.Errorf("%w: %s: %s", ErrPlayer, game.Quote(name), why)
}

// WriteReplay writes a game already replayed, as Write writes it: from
// start, each move as the engine applied it (Played) and the state after
// it (After), as Match.Replay gives them or a replay of the engine makes
// them (a money session's next game: kind backgammon.KindNextGame, After
// the state State.NextSessionGame returns); Notation, Line and Column are
// not used. It applies nothing, so it trusts the moves to be such a
// replay: for the same moves it writes the same bytes as Write. Errors: a
// start that is not a new game, a move of a kind the format has no words
// for (its index).
func WriteReplay(start backgammon.State, moves []Move, players [2]string) ([]byte, error) {
	return WriteReplayOptions(start, moves, players, WriteOptions{})
}

// Dialect is a program's way of writing the format, which Read reads
// (every one; it needs no choice) and WriteReplayOptions writes.
type Dialect int

const (
	// Gnubg is GNU Backgammon 1.07's "export match mat": steps "25/20*",
	// "6/0", a roll alone for no play, "Wins <n> point(s)".
	Gnubg Dialect = iota
	// Jellyfish is gnubg's, but a match's last "Wins" line ends "and the
	// match" and gives at most the points the winner needed.
	Jellyfish
	// XG is eXtreme Gammon's (and Backgammon Studio's): Jellyfish's, with
	// steps "bar/20*", "6/off", "13/9(2)", a checker moving through
	// points written once ("24/13"), "Cannot Move" for no play and "????"
	// for a roll its roller resigned instead of playing.
	XG
	// Galaxy is Backgammon Galaxy's: Jellyfish's, with a "Losses <n>
	// point(s)" cell for the loser beside the winner's "Wins", and the
	// last game's points capped at the match's length instead.
	Galaxy
)

// WriteOptions are how WriteReplayOptions writes.
type WriteOptions struct {
	// Dialect is the program's way of writing (Gnubg: the zero value).
	Dialect Dialect
	// OmitForced writes a roll alone when its play was the only legal one,
	// as some programs do (Read plays it again).
	OmitForced bool
	// Tags are written before the match header as `; [Name "Value"]`
	// lines (after the Jacoby and Beaver tags money play needs); a name or
	// value with a '"', '[', ']' or a line break is an error.
	Tags []Tag
	// MaxBytes, when positive, is the largest record to write: past it
	// the writer keeps no more text but goes on counting (a game header,
	// which repeats the players' names, is counted without being
	// formatted), and returns a *SizeError giving the size the record
	// would need. The memory held is then at most about MaxBytes.
	MaxBytes int
}

// SizeError is a record larger than WriteOptions.MaxBytes: the bytes it
// would need and the limit. It wraps ErrUnwritable.
type SizeError struct{ Need, Max int }

func (e *SizeError) Error() string {
	return fmt.Sprintf("mat: the record would be %d bytes; at most %d", e.Need, e.Max)
}

func (e *SizeError) Unwrap() error { return ErrUnwritable }

// cappedBuffer is WriteReplayOptions' output: a buffer that keeps at most
// max bytes (max 0: no limit) and counts them all.
type cappedBuffer struct {
	buf bytes.Buffer
	n   int
	max int
	// countOnly: the record is known to be over max before it is written
	// (its game headers alone are); nothing is kept.
	countOnly bool
}

// spaces writes n spaces (none for n <= 0), counting them only once
// past the limit.
func (c *cappedBuffer) spaces(n int) {
	const blank = "                                "
	if c.countOnly || c.max > 0 && c.n+n > c.max {
		if c.n += max(n, 0); c.buf.Cap() > 0 {
			c.buf = bytes.Buffer{}
		}
		return
	}
	for ; n > 0; n -= len(blank) {
		c.WriteString(blank[:min(n, len(blank))])
	}
}

func (c *cappedBuffer) over() bool { return c.countOnly || c.max > 0 && c.n > c.max }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.n += len(p)
	if !c.over() {
		c.buf.Write(p)
	} else if c.buf.Cap() > 0 {
		c.buf = bytes.Buffer{} // never needed again: let it go
	}
	return len(p), nil
}

func (c *cappedBuffer) WriteString(p string) (int, error) {
	c.n += len(p)
	if !c.over() {
		c.buf.WriteString(p)
	} else if c.buf.Cap() > 0 {
		c.buf = bytes.Buffer{}
	}
	return len(p), nil
}

// WriteReplayOptions is WriteReplay in the dialect o says. A record that
// stops after a roll (the dice still to be played) is written with the
// roll alone as its last action, which Read reads back so; one that stops
// after a roll with no play, which Read would read as that roll and its
// pass, is an error wrapping ErrUnwritable.
func WriteReplayOptions(start backgammon.State, moves []Move, players [2]string, o WriteOptions) ([]byte, error) {
	if start.Phase() != backgammon.PhaseOpening {
		return nil, fmt.Errorf("mat: the start must be a new game (opening roll), not phase %s", start.Phase())
	}
	for i, def := range [2]string{"White", "Black"} {
		if players[i] == "" {
			players[i] = def
		} else if err := CheckPlayer(players[i]); err != nil {
			return nil, err
		}
	}
	b := cappedBuffer{max: o.MaxBytes}
	if o.MaxBytes > 0 {
		// Every game's header holds both names: when those alone pass
		// the limit, nothing is kept (the size needed is still counted).
		games := 1
		for _, mv := range moves {
			if mv.Played.Kind() == backgammon.KindNextGame {
				games++
			}
		}
		b.countOnly = games*(len(players[0])+len(players[1])) > o.MaxBytes
	}
	if start.MatchLength() == 0 && !start.Jacoby() {
		b.WriteString("; [Jacoby \"Off\"]\n")
	}
	if start.Beavers() {
		b.WriteString("; [Beaver \"On\"]\n")
	}
	for _, t := range o.Tags {
		if strings.ContainsAny(t.Name, "\"[]\r\n") || strings.ContainsAny(t.Value, "\"[]\r\n") || strings.TrimSpace(t.Name) == "" {
			return nil, fmt.Errorf("mat: tag %s %s cannot be written as `; [Name \"Value\"]`", game.Quote(t.Name), game.Quote(t.Value))
		}
		fmt.Fprintf(&b, "; [%s \"%s\"]\n", t.Name, t.Value)
	}
	fmt.Fprintf(&b, " %d point match\n", start.MatchLength())
	s := start
	gameNo := 0
	var cells [2]string // the current line's left and right cells
	lineNo := 0
	flush := func() {
		if cells[0] == "" && cells[1] == "" {
			return
		}
		lineNo++
		fmt.Fprintf(&b, "%3d) %-28s%s\n", lineNo, cells[0], cells[1])
		cells = [2]string{}
	}
	put := func(player int, cell string) {
		if player == 0 && (cells[0] != "" || cells[1] != "") || player == 1 && cells[1] != "" {
			flush()
		}
		cells[player] = cell
	}
	header := func() {
		gameNo++
		lineNo = 0
		w, bl := s.Score()
		// The score padded to column 30, as gnubg writes it; after a long
		// name at least one space, which the reader needs between the
		// score and the right player's name (a negative width pads too).
		width := 30 - len(players[0]) - 4
		if digits := len(strconv.Itoa(w)); max(width, -width) <= digits {
			width = digits + 1
		}
		// "\n Game %d\n %s : %-*d%s : %d\n", the names written as they are
		// (counted, not copied, once past MaxBytes).
		b.WriteString("\n Game " + strconv.Itoa(gameNo) + "\n ")
		b.WriteString(players[0])
		// %-*d: the score left-justified in |width| columns.
		score := strconv.Itoa(w)
		b.WriteString(" : " + score)
		b.spaces(max(width, -width) - len(score))
		b.WriteString(players[1])
		b.WriteString(" : " + strconv.Itoa(bl) + "\n")
	}
	header()
	gameStart := s
	var pendingRoll string
	pendingPlayer := 0
	for i, mv := range moves {
		before, next, m := s, mv.After, mv.Played
		actor := before.Turn()
		switch m.Kind() {
		case backgammon.KindOpeningRoll, backgammon.KindRoll:
			a, d := m.Dice()
			if m.Kind() == backgammon.KindOpeningRoll {
				actor = next.Turn()
				a, d = max(a, d), min(a, d)
			}
			pendingRoll, pendingPlayer = fmt.Sprintf("%d%d: ", a, d), actor
		case backgammon.KindPlay, backgammon.KindPass:
			cell := pendingRoll
			switch {
			case o.OmitForced && i < len(moves)-1 && forcedOnly(before):
				// (Not the record's last action: a roll alone there is
				// the dice still to be played.)
			case m.Kind() == backgammon.KindPass && o.Dialect == XG:
				cell += "Cannot Move"
			case o.Dialect == XG:
				cell += xgSteps(m.Steps())
			default:
				for _, st := range m.Steps() {
					cell += fmt.Sprintf("%d/%d", st.From, st.To)
					if st.Hit {
						cell += "*"
					}
					cell += " "
				}
			}
			put(pendingPlayer, cell)
			pendingRoll = ""
		case backgammon.KindDouble:
			put(actor, fmt.Sprintf(" Doubles => %d", 2*before.CubeValue()))
		case backgammon.KindBeaver:
			put(actor, fmt.Sprintf(" Beavers => %d", 2*next.CubeValue()))
		case backgammon.KindTake:
			// A beaver pending is a double offered with the cube already
			// on the beaverer's side (the player not on roll); its take
			// is not written, as gnubg writes it.
			if before.CubeOwner() != 1-before.OnRoll() {
				put(actor, " Takes")
			}
		case backgammon.KindDrop:
			put(actor, " Drops")
		case backgammon.KindResign, backgammon.KindAccept, backgammon.KindDecline:
			// Not written, as gnubg writes them: the "Wins" line says an
			// accepted resignation; a declined one is lost.
		case backgammon.KindNextGame:
			flush()
			s = next
			gameStart = s
			header()
			continue
		default:
			return nil, fmt.Errorf("mat: move %d: %s cannot be written in the format yet", i, m)
		}
		s = next
		if s.Phase() == backgammon.PhaseOver && pendingRoll != "" {
			// A resignation accepted after the roll: the roll alone, as
			// gnubg writes it ("????" after it in XG's).
			if o.Dialect == XG {
				pendingRoll += "????"
			}
			put(pendingPlayer, pendingRoll)
			pendingRoll = ""
		}
		if s.Phase() == backgammon.PhaseOver {
			out := s.Outcome()
			pts := out.Points[out.Winner]
			and := ""
			if o.Dialect != Gnubg && s.MatchOver() {
				w, l := gameStart.Score()
				if o.Dialect == Galaxy {
					pts = min(pts, s.MatchLength()) // Galaxy caps at the length
				} else {
					pts = min(pts, s.MatchLength()-[2]int{w, l}[out.Winner])
				}
				and = " and the match"
			}
			unit := "points"
			if pts == 1 {
				unit = "point"
			}
			cell := fmt.Sprintf(" Wins %d %s%s", pts, unit, and)
			if o.Dialect == Galaxy {
				// The loser's "Losses" cell on a line of its own before
				// the winner's "Wins".
				flush()
				loss := fmt.Sprintf(" Losses %d %s", pts, unit)
				if out.Winner == 1 {
					fmt.Fprintf(&b, "     %-28s%s\n", loss, cell)
				} else {
					fmt.Fprintf(&b, "     %-28s%s\n", cell, loss)
				}
			} else if out.Winner == 1 && cells[0] != "" && cells[1] == "" {
				cells[1] = cell // beside the loser's last action, as gnubg writes it
				flush()
			} else {
				flush()
				if out.Winner == 0 {
					fmt.Fprintf(&b, "     %s\n", cell)
				} else {
					fmt.Fprintf(&b, "     %-28s%s\n", "", cell)
				}
			}
		}
	}
	if pendingRoll != "" {
		// The record stops after a roll: the dice still to be played. A
		// roll that has no play is read as its pass (Replay), so such a
		// record cannot be written to read back as it is.
		if s.Phase() == backgammon.PhaseMove && noPlay(s) {
			return nil, fmt.Errorf("%w: it stops after a roll no number of which can be played, which the format reads as that roll and its pass; write it with the pass", ErrUnwritable)
		}
		put(pendingPlayer, pendingRoll)
	}
	flush()
	if b.over() {
		return nil, &SizeError{Need: b.n, Max: b.max}
	}
	return b.buf.Bytes(), nil
}

// forcedOnly reports whether s (the move phase) has exactly one legal
// play.
func forcedOnly(s backgammon.State) bool {
	_, n := forcedPlay(s)
	return n == 1
}

// xgSteps writes a play's steps as eXtreme Gammon does: "bar" and "off",
// a checker's steps through points it does not hit on joined ("24/18
// 18/13" as "24/13"), identical steps counted ("13/9(2)").
func xgSteps(steps []backgammon.Step) string {
	type seg struct {
		from, to int
		hit      bool
	}
	var segs []seg
	used := make([]bool, len(steps))
	for i, st := range steps {
		if used[i] {
			continue
		}
		used[i] = true
		sg := seg{st.From, st.To, st.Hit}
		for !sg.hit {
			j := slices.IndexFunc(steps, func(n backgammon.Step) bool { return n.From == sg.to })
			for j >= 0 && used[j] {
				k := slices.IndexFunc(steps[j+1:], func(n backgammon.Step) bool { return n.From == sg.to })
				if k < 0 {
					j = -1
				} else {
					j += 1 + k
				}
			}
			if j < 0 {
				break
			}
			used[j] = true
			sg = seg{sg.from, steps[j].To, steps[j].Hit}
		}
		segs = append(segs, sg)
	}
	var b strings.Builder
	for i := 0; i < len(segs); {
		n := 1
		for i+n < len(segs) && segs[i+n] == segs[i] {
			n++
		}
		from, to := strconv.Itoa(segs[i].from), strconv.Itoa(segs[i].to)
		if segs[i].from == 25 {
			from = "bar"
		}
		if segs[i].to == 0 {
			to = "off"
		}
		b.WriteString(from + "/" + to)
		if segs[i].hit {
			b.WriteString("*")
		}
		if n > 1 {
			fmt.Fprintf(&b, "(%d)", n)
		}
		b.WriteString(" ")
		i += n
	}
	return b.String()
}

// applyText is State.ApplyText for Write's moves in notation, except that
// "next game" after a finished money game is read as the money session's
// next game (State.NextSessionGame: not a move of the engine, which gives a
// finished money game none), the move of kind KindNextGame WriteReplay
// starts a game's header at.
func applyText(s backgammon.State, mv string) (backgammon.State, backgammon.Move, error) {
	if mv == "next game" && s.Phase() == backgammon.PhaseOver && s.MatchLength() == 0 {
		next, err := s.NextSessionGame()
		return next, backgammon.NextGameMove(), err
	}
	return s.ApplyText(mv)
}
