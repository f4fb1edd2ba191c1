// Package backgammon is the rules engine for backgammon, exact to GNU
// Backgammon (gnubg 1.07): for every position and roll it lists the same
// legal plays, one per resulting position, and writes positions as gnubg's
// Position ID and Match ID.
//
// # Rule source
//
// docs/rules/backgammon.md in this repository (from the leaflet "Tryktrak", with the
// standard points marked): "Moving", "Must-play rules", "Hitting and the
// bar", "Bearing off", "End of the game and score", "Move notation", "How the
// API represents a turn", "Interchange formats" and "Doubling cube, match
// play, resignation". Where the spec leaves a
// point open, gnubg's behaviour decides (its GenerateMoves keeps the plays
// that use the most dice, then the most pips, one per position).
//
// # Variants
//
// The default (the zero Options) is the leaflet's game: a money game without
// the cube, exactly as before the cube existed. Options add the doubling
// cube (Options.Cube), the Jacoby rule (on with the cube unless NoJacoby),
// beavers, and match play to MatchLength points with the Crawford rule, from
// a given score (spec "Doubling cube, match play, resignation"; cube.go).
//
// # The cube, matches and resignations
//
// As gnubg 1.07 plays them: the player on roll may "double" before rolling
// when the cube is in the middle or his, the game is not the Crawford game,
// the cube is below MaxCube (4096) and, in a match, not dead (it does not
// yet cover what he needs). The answer is "take" (the cube doubles and goes
// to the taker), "drop" (the doubler wins the cube's value at once), a
// "beaver" (money play with beavers: the cube doubles again and goes to the
// taker, who keeps it through raccoons) or a resignation. The player on turn
// may "resign single|gammon|backgammon" while the game goes on (cube in use
// only); the opponent will "accept" (the level × the cube) or "decline". A
// pending decision is its own phase (PhaseDouble, PhaseResign); Turn is the
// answerer and OnRoll the dice owner, from whose side the Position ID is
// written. Points: the stake × the cube; under the Jacoby rule a game borne
// off with the cube in the middle counts single; gammons always count in a
// match. A finished game inside an unfinished match has one move, "next
// game" (score kept, the cube reset, the Crawford flag as the rule says);
// the match is over when a player reaches its length (MatchOver,
// MatchWinner). The Match ID carries all of it (cube, owner, Crawford flag,
// double offered, resignation, game state 2/3/4 at the end, score, length,
// bit 66 = no Jacoby, kept as read: State.JacobyBit), read and written
// exactly as gnubg writes it; the text form adds " cube" and " beavers"
// where the Match ID cannot say them, and " beaver_count=3" for a third
// beaver in a row (MaxBeavers, State.BeaverCount), the one count of gnubg's
// beaver memory that the Match ID cannot show.
//
// # Not supported
//
//   - gnubg's memory of a resignation declined earlier in the same turn
//     (gnubg refuses a repeat); it is not in the Match ID.
//
// # Session score
//
// The Match ID carries the money-session score (State.Score): the points each
// player has won so far. It passes through every move unchanged except the
// winning play, which adds the game's stake (1 single, 2 gammon, 3
// backgammon; State.Outcome) to the winner's score, exactly as gnubg 1.07
// writes the finished state's Match ID (a score stays at most 32767, the
// field's 15 bits). A new game (New) starts at 0-0, or at Options.Score. A
// money game is one game for the API (a finished game has no legal moves
// outside a match); the next game of a gnubg money session, with the
// running score and the settings (Jacoby, beavers) kept and the cube at 1
// in the middle, is State.NextSessionGame, which record import uses;
// WithScore sets a score directly.
//
// # Coordinates
//
// Player 0 is White, player 1 Black. Each player numbers the points from his
// own side: he moves from his 24-point to his 1-point and bears off past it;
// the bar is 25 and "off" is 0. Opponent's point p is one's own point 25-p.
// Board (the typed form) and State.Checkers use these numbers.
//
// # Turns and chance
//
// A State is in one of four phases (Phase): PhaseOpening (nobody has rolled;
// the moves are the 30 opening rolls "roll w-b", white's die and black's,
// each 1/30), PhaseRoll (the 21 rolls "roll 6-5", 1/36 or 2/36), PhaseMove
// (checker plays, or "pass" when no number can be played) and PhaseOver.
// Dice are moves: LegalMoves lists the outcomes, Move.Probability gives their
// chance, and RollDice draws one with a caller's *rand.Rand, so the engine
// itself is deterministic.
//
// # Notation
//
// Plays are written as gnubg writes them: "24/18 13/11", "bar/22", "6/off",
// "13/9(4)", "24/23*/20" (Move.String). ParseMove also reads every form the
// spec lists — separate steps in any order, "25"/"b" for the bar, "0" for
// off, combined moves such as "24/13", with or without "*" — and turns it
// into the canonical Move that LegalMoves lists. ReadMove reads the other
// dialects too (XG and Backgammon Studio, FIBS's "8-5 6-5", OpenSpiel's
// "Bar/24*" and "2/Off", the pass words, stars the position implies or
// contradicts) and refuses an ambiguous or impossible text listing the
// plays it fits or the nearest legal plays (*ReadError); PlayNotation and
// IsPathWord are its lexer, which the .mat reader shares.
//
// The text form of a State is gnubg's ID "<PositionID>:<MatchID>"
// (State.String, ParseState), e.g. "4HPwATDgc/ABMA:MIEFAAAAAAAE" for the
// start with white to play 3-1. The Position ID is written from the side of
// the player whose turn it is; after a play the turn passes, so it is the
// opponent's view, and a finished game is written from the loser's side.
//
// ParseAnyState reads a state in any of its forms, told apart by shape:
// the gnubg ID, eXtreme Gammon's "XGID=…" (ParseXGID, as gnubg's "set
// xgid" reads it) and the FIBS client protocol's "board:…"
// (ParseFIBSBoard); a bare Position ID is refused, since it does not say
// who is on roll. State.Text writes each form (Format; State.XGID,
// State.FIBSBoard), losing only what a form cannot hold (spec
// "Interchange formats").
//
// # Concurrency
//
// State and Move are small comparable values; Apply returns a new State and
// never changes its receiver, so both may be shared between goroutines. The
// package keeps no mutable globals except a sync.Pool of scratch buffers. A
// *rand.Rand given to RollDice is not safe for concurrent use.
//
// # Performance
//
// LegalMoves generates with a compact per-position copy (arrays, a bitmask
// of occupied points and an exact 128-bit key of the result for
// deduplication) and allocates once, for the result; AppendLegalMoves with a
// reused slice does not allocate. See BenchmarkLegalMoves. Apply validates
// the State and generates the plays again to check a play; a caller that
// picks from the list (a playout) applies its pick with ApplyListed, or
// takes LegalMovesWithResults, and generates once.
//
// # Files
//
//	doc.go       this overview
//	state.go     State, Phase, Board, New, FromBoard, Validate, Outcome, Info
//	cube.go      the cube, matches and resignations; Position, FromPosition
//	id.go        gnubg Position ID and Match ID; String, ParseState, FromPositionID
//	move.go      Move, Kind, Step, constructors, gnubg-style String
//	movegen.go   legal-play generation and LegalMoves
//	apply.go     Apply, ApplyListed (Apply of a listed move, unchecked), LegalMovesWithResults, RollDice
//	parse.go     ParseMove: notation to the canonical Move, with reasons for refusals
//	partial.go   State.PartialPlay, Partial: a play in progress, hop by hop (a board played die by die)
//	formats.go   ParseAnyState, Format, State.Text: every text form of a state
//	xgid.go      ParseXGID, State.XGID: eXtreme Gammon's XGID
//	fibs.go      ParseFIBSBoard, State.FIBSBoard: the FIBS client protocol's board
//	readmove.go  ReadMove: every dialect's notation to the canonical Move; ReadError
package backgammon
