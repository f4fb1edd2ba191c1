// Package labyrinth implements the rules of Labyrinth, Star Wars edition
// (Ravensburger no. 26 590 9, by Max J. Kobbert), for 2 to 4 players.
//
// # Rule source
//
// The specification is docs/rules/labyrinth.md in this repository, written
// from the Dutch leaflet and the classic game's board facts. Section names
// of that spec are quoted in the doc comments ("Board and tiles", "A turn:
// shift, then move", "Targets and winning", "Variants", "Move notation",
// "Text form of a state", "Score", "Hidden information").
//
// A turn has two steps, each a Move: the player to act first shifts the
// labyrinth (compulsory; the reversal of the previous push is not allowed),
// then moves his ship (or Darth Vader) along connected corridors, or stays.
// A target is found when the figure its card calls for ends the mover's own
// move on it. A player with all cards found must bring his ship back to his
// start square; the first to do so wins.
//
// # Variants (Options.Variants)
//
//   - Vader: the Darth Vader figure starts on the Vader tile; a card with the
//     Vader symbol (targets 21..24, U..X) is found by moving Vader onto it;
//     Vader stays where he ends.
//   - OpenCards: every card of his own is visible to its owner and any unfound
//     one may be found; with Vader too, LegalMoves lists the moves of both
//     figures (ship when an unfound card is not a Vader card, Vader when one is).
//   - NoReturn: the game ends as soon as a player has found all his cards.
//
// # Choices where the spec is silent
//
//   - With open cards, the figures a player may move are exactly those some
//     unfound card of his calls for (the ship when none is left).
//   - A finished game whose winner is not told by "-" alone writes the
//     winner's colour before it ("Y-"), see State.String.
//   - A per-player view keeps found cards and every stack's size visible;
//     View(p) for p outside the players is a spectator's view.
//   - The random set-up procedure (New) and the deal (one card at a time,
//     player 0 first, top card first).
//
// # Not supported
//
//   - Other tile sets or board sizes than the classic 7×7 board with 34
//     loose tiles; other Vader tile or Vader card choices than the spec's.
//   - The leaflet's "choose any square to leave the labyrinth" end of the
//     no-return variant: with NoReturn the game simply ends on the last card.
//   - Timing, undo, or any history beyond the previous insertion point.
//
// # Coordinates and notation
//
// Squares are (row, column), both 1..7, row 1 at the top, column 1 at the
// left, written "r3c5"; Square numbers them 0..48 in reading order. Tiles
// are masks of open sides N=1, E=2, S=4, W=8. Insertion points are N2, N4,
// N6 (into a column from the top), S2.. (from the bottom), W2.. (into a row
// from the left) and E2.. (from the right). A shift is written "N2" or
// "N2:r" with r the quarter turns clockwise applied to the spare; a ship
// move is the destination "r3c5", a Vader move "V:r3c5". The state's text
// form is "<board> <spare> <figures> <last> <turn> <cards> <variants>"
// (State.String).
//
// # Hidden information
//
// The card stacks are secret: a platform must show player p only
// State.View(p), which hides the other players' stacks and (without open
// cards) his own below the top card. Everything else in a State is public.
// A view cannot be played: Validate and Apply refuse it with
// game.ErrInvalidState and LegalMoves is empty for it.
//
// # Concurrency
//
// A State is an immutable value (arrays only, no pointers): no method
// changes its receiver, and States are safe to share between goroutines.
// The package has no global mutable state; randomness only comes from the
// seed in Options, through a math/rand/v2 PCG that New creates and drops.
//
// # Files
//
//	doc.go        this overview
//	board.go      tiles, squares, insertion points, colours, the fixed tiles
//	state.go      State, Options, New, accessors, View, Validate, Outcome, Position, Info
//	moves.go      Move, LegalMoves, Apply, ApplyListed, reachability (bit sets over squares)
//	notation.go   ParseMove, Move.String, State.String, ParseState
//	*_test.go     oracle rows (testdata/labyrinth/shifts.jsonl.gz), scenarios,
//	              random playouts, examples, fuzz targets, benchmarks
package labyrinth
