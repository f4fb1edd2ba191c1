// Package abalone is the rules engine for Abalone (Michel Lalet & Laurent
// Lévi): two players, 14 marbles each on a hexagonal board of 61 cells; the
// first to push six opposing marbles off the board wins.
//
// # Rule source
//
// The spec docs/rules/abalone.md in this repository (made from the
// Polish rules sheet; where it is unreadable the published official rules
// decide). Its sections: "Board and coordinates" (board.go), "Pieces and
// start" (Layout, New), "Moves" (play in move.go, movegen.go), "End and
// score" (Outcome, Validate), "Move notation" (Move, ParseMove), "Text form
// of a state" (State.String, ParseState).
//
// A turn moves 1, 2 or 3 own marbles in one line by one cell: in line
// (possibly pushing 1 or 2 opposing marbles: sumito 2-v-1, 3-v-1, 3-v-2, off
// the board or into an empty cell; no pac, no sandwich) or broadside into
// empty cells. No move carries an own marble off the board. Black moves first.
//
// # Variants
//
//   - Layout: Classic (default), BelgianDaisy, GermanDaisy, or Custom (any
//     valid position and side to move, via Options or FromPosition/ParseState).
//   - Options.MaxPlies (default off; not an official rule): at the limit the
//     side that pushed off more marbles wins; equal counts are a draw.
//
// # Not supported
//
//   - The game clock (10 or 15 minutes a player) and time losses: a platform
//     keeps time, the service is stateless.
//   - Resigning, draw offers and repetition rules; tournament-specific
//     rules such as a limit on pushing off in the opening.
//   - Layouts other than the three standard ones by name ("snakes",
//     "alien_attack"…): give them as Custom positions.
//
// Choices where the spec is silent are marked in comments: a side to move
// with no legal move loses (Outcome); plies are counted only when a ply limit
// is set (State); the text form accepts upper-case marbles (ParseState).
//
// # Coordinates
//
// Rows A (bottom, Black's side in the classic start) to I (top); numbers 1–9
// along the diagonals, increasing to the right. Cells A1–A5, B1–B6, C1–C7,
// D1–D8, E1–E9, F2–F9, G3–G9, H4–H9, I5–I9; Cell numbers them 1..61 in that
// order. Directions E (r, n+1), NE (r+1, n+1), NW (r+1, n), W, SW, SE.
//
// # Notation
//
// Aba-Pro, as in published archives: "a1b2" moves the trailing marble a1 to
// b2, with the own marbles ahead of it (the group) and pushing what they
// push; "c3c5d3" is a broadside of the group c3–c5 in which c3 goes to d3.
// Output is lower case with broadside ends in order; input accepts either
// case and either end first. LegalMoves lists moves sorted by notation.
//
// The text form of a State lists rows I to A, 'b', 'w' and digits for runs
// of empty cells, then the side to move and, with a ply limit,
// "<played>/<limit>": the classic start is
// "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b".
//
// # Representation and speed
//
// A State is two 61-bit bitboards plus the side to move and ply counters (24
// bytes, no pointers). Move generation walks precomputed per-cell candidate
// lists (already in notation order) against the bitboards; AppendLegalMoves
// reuses the caller's slice, so generating moves does not allocate.
//
// # Concurrency
//
// States and Moves are values; no method changes its receiver, and the
// package has no mutable globals (the tables are built once at init), so
// everything is safe for concurrent use.
//
// # Files
//
//	doc.go      this overview
//	board.go    cells, directions, neighbour and line tables
//	state.go    State, Options, layouts, Position, Validate, Outcome, Info, text form
//	move.go     Move, Aba-Pro parsing, Apply with the reason for an illegal move
//	readmove.go ReadMove: Aba-Pro in any case and with any separators, the nearest moves on a refusal
//	movegen.go  LegalMoves, AppendLegalMoves (candidate tables)
//
// Tests: data_test.go (oracle positions, replay and archive games from
// testdata/abalone), rules_test.go (hand-checked moves, text form, Validate,
// Outcome), playout_test.go (reference generator, random playouts),
// perft_test.go (perft table and benchmarks), fuzz_test.go, example_test.go.
// GAMERULES_LONG=1 adds perft depth 4 and 100,000 random games.
package abalone
