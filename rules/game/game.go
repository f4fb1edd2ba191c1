// Package game holds the few things every rules engine in gamerules shares:
// the error kinds that the service maps to API error reasons, the parse
// error type, the Info that describes a game, and the Outcome of a position.
//
// Every engine (rules/backgammon, rules/abalone, rules/labyrinth,
// rules/gravitytrap) offers the same surface (see the README and
// docs/architecture.md): a value-type State, New(Options), Validate, LegalMoves (complete,
// deduplicated, in a documented stable order), Apply (never mutates its
// receiver), Outcome, ParseMove / Move.String and ParseState / State.String
// (round-trip exact), the typed form Position with State.Position and
// FromPosition (FromPosition(s.Position()) == s), and Info() Info.
//
// Invariants every engine keeps, checked by the shared random-playout tests
// (package rulestest):
//   - LegalMoves is empty exactly when play is over: Outcome().Finished is
//     true and no further game follows in the same State. The one case of a
//     further game is a finished game inside an unfinished backgammon match
//     (backgammon's State.SessionGoesOn): it is Finished, with the game's
//     winner and points, and lists the single move "next game", which starts
//     the next game (a State that is not Finished). A money game, and every
//     game of the other engines, is one game: finished means no moves;
//   - once play is over, Apply of any move fails with an error wrapping
//     ErrGameOver; on a finished game inside an unfinished match, a move
//     other than "next game" fails with one wrapping ErrIllegalMove (the
//     match is not over);
//   - Apply(m) succeeds for every m in LegalMoves, and the result Validates;
//   - ParseMove(s, m.String()) == m and ParseState(s.String()) == s;
//   - FromPosition(s.Position()) == s;
//   - Apply never changes the State it is called on.
//
// This package has no dependencies outside the standard library.
package game

import (
	"errors"
	"fmt"
	"strconv"
)

// Error kinds. Engines wrap them (fmt.Errorf("backgammon: %w: ...", game.ErrIllegalMove))
// so callers can test with errors.Is, and the service maps them to the ErrorInfo
// reasons INVALID_STATE, ILLEGAL_MOVE and GAME_OVER.
var (
	// ErrInvalidState: a state that is malformed or could not arise in the game
	// (wrong piece counts, two pieces on one cell, an unparseable text form, ...).
	ErrInvalidState = errors.New("invalid state")
	// ErrIllegalMove: a move that is malformed or not legal in the given state.
	ErrIllegalMove = errors.New("illegal move")
	// ErrGameOver: a move was given for a finished game.
	ErrGameOver = errors.New("game over")
	// ErrInvalidOptions: options for New that are out of range or inconsistent.
	ErrInvalidOptions = errors.New("invalid options")
)

// ParseError reports text (a move or a state) that could not be parsed.
// It wraps Kind (ErrIllegalMove for moves, ErrInvalidState for states), so
// errors.Is(err, game.ErrIllegalMove) holds for a malformed move.
type ParseError struct {
	Game   string // engine name, e.g. "abalone"; used as the message prefix
	What   string // what was being parsed: "move", "state", ...
	Input  string // the whole input
	Offset int    // byte offset of the problem in Input, or -1 when unknown
	Reason string // human-readable reason
	Kind   error  // ErrIllegalMove or ErrInvalidState
}

// maxQuoted is how much of a long input an error message quotes.
const maxQuoted = 80

// Quote returns s as a Go-quoted string for an error message, like
// strconv.Quote, but of at most its first 80 bytes followed by "..." (inside
// the quotes) when s is longer, so a huge request does not make a huge error.
// Engines quote every piece of user input in their errors with it.
func Quote(s string) string {
	if len(s) > maxQuoted {
		s = s[:maxQuoted] + "..."
	}
	return strconv.Quote(s)
}

// Error quotes the input (with Quote: its first 80 bytes when longer) and
// says where and why parsing failed.
func (e *ParseError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("%s: cannot parse %s %s at offset %d: %s", e.Game, e.What, Quote(e.Input), e.Offset, e.Reason)
	}
	return fmt.Sprintf("%s: cannot parse %s %s: %s", e.Game, e.What, Quote(e.Input), e.Reason)
}

// Unwrap returns the error kind, so errors.Is works.
func (e *ParseError) Unwrap() error { return e.Kind }

// NoWinner is the Winner of an unfinished game or a draw.
const NoWinner = -1

// Outcome is the result (so far) of a position, as the Score RPC reports it.
type Outcome struct {
	// Finished is true when the game is over. LegalMoves is then empty,
	// except for a finished game inside an unfinished match, which lists the
	// move to the next game (see the package comment).
	Finished bool
	// Winner is the player index (0-based) of the winner, or NoWinner while
	// the game goes on or when it ended in a draw.
	Winner int
	// Points has one entry per player; its meaning is per game (backgammon:
	// stake won; Abalone: marbles pushed off; Labyrinth: targets found;
	// Gravity Trap: the winner's score).
	Points []int
	// Detail is a short word or phrase, e.g. "gammon", "draw", "" when none.
	Detail string
}

// Info describes a game as a whole, for listings; every engine's Info
// function returns one (the service's ListGames answer is built from it).
type Info struct {
	// ID is the API's game id: "backgammon", "abalone", "labyrinth",
	// "gravity_trap".
	ID string
	// Name is the game's display name, e.g. "Backgammon".
	Name string
	// Players are the players' (or seats') names by index, as the engine's
	// messages use them: e.g. "white", "black"; Labyrinth's four colours in
	// the default seating order.
	Players []string
	// MinPlayers and MaxPlayers bound the number of players of one game.
	MinPlayers, MaxPlayers int
	// HasChance is true when some moves are chance outcomes (dice rolls).
	HasChance bool
	// HasHiddenInformation is true when a player's view of a state hides
	// part of it (Labyrinth's cards).
	HasHiddenInformation bool
	// RulesVersion is the version of the game's rules specification
	// (docs/rules/) this package plays, "<major>.<minor>.<patch>": the minor
	// part grows when a variant or option is added, the patch part when a
	// wrong answer is fixed; a rule that changes the answers to existing
	// requests is a new variant, not a new major version.
	RulesVersion string
}
