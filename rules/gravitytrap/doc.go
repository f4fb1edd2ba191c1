// Package gravitytrap is the rules engine of Gravity Trap, a two-player game
// of ships flying along the curved lines of a board of stations, taking a
// marble wherever they land, until one of them is trapped.
//
// # Rule source
//
// The spec docs/rules/gravitytrap.md in this repository, made from
// the game's seven-language leaflet (NL, FR, DE, HU, IT, PL, ES). Section
// names in doc comments ("Set-up", "Moving", "End and score", "Text form of a
// state") are that spec's.
//
// # The board is data
//
// The printed board is not known, so a Board is a graph given as data
// (BoardDef: stations, lines, opposite map) and validated by NewBoard. Two
// reconstructions are built in, embedded from boards/*.json: DefaultBoard
// ("default": three rings of 8, 8 and 6 stations drawn as four arcs each,
// plus four connectors) and RingsBoard ("rings": each ring one closed line).
// Both have 22 stations with opposite(i) = (i+11) mod 22. A caller may play on
// any board of 4..64 stations and at most MaxLines (256) distinct lines.
//
// # Variants (Options)
//
//   - Board: default, rings, or a caller's board.
//   - First: who places first and then moves first (red by default).
//   - AllowMirrorPlacement: lift the ban on placing the second ship opposite
//     the first (banned by five of the seven leaflet languages; the Dutch text
//     allows it). A board without an opposite map bans nothing.
//
// # Not supported
//
//   - Boards of more than 64 stations (marbles are a uint64 bitset).
//   - Open versus closed lines: the rules do not tell them apart (a ship
//     flies over everything on its line), so a line is a plain station list.
//   - The Polish leaflet's ban on copying the opponent's moves during play: it
//     is advice about strategy, not a rule an engine can check.
//   - Several games in a row (alternating who begins): one State is one game.
//
// # Coordinates and players
//
// Stations are numbered 0..NumStations-1 as the board data gives them; the
// text form writes station 0 first. Red is player 0 (Red), blue player 1
// (Blue). Station coordinates (Station.X, Y) are for drawing only.
//
// # Play
//
// A game starts in set-up (State.Placing): the first player places his ship
// on any station, the second on any other station except (without the
// option) the one opposite. Then a marble goes on every other station and the
// first player moves. A move flies the mover's ship along one line through
// its station to a station of that line holding a marble, over anything in
// between; the marble is removed. The game is over as soon as either ship
// has no move: if the player who just moved is stuck he has made his last
// move and loses (also when both are stuck), otherwise the stuck player to
// move loses. The winner scores the number of marble stations his ship can
// still reach (Outcome().Points); the loser scores 0.
//
// # Notation
//
// A move is the destination station id ("7"); a placement is "place 7"
// (ParseMove also takes "7" during set-up). The text form of a state is
// `<stations> <turn>[ <board>][ m]`, e.g. "RoooBooooooooooooooooo r": 'o'
// marble, '.' empty, 'R'/'B' ships; turn 'r'/'b' to move, 'R'/'B' to place;
// " rings" on the rings board; " m" when mirror placement is allowed. A
// caller's board has no name, so its states carry the board as data
// (Position, FromPosition) and their text is read with ParseStateOn.
//
// # Concurrency
//
// State, Move and Board are immutable values (a State holds its Board by an
// immutable pointer): they are safe to copy, share and use from many
// goroutines. The package has no mutable globals and no randomness of its
// own (GreedyMove breaks its ties with the caller's generator).
//
// # Files
//
//	doc.go         this overview
//	board.go       Board, BoardDef, NewBoard, ParseBoardJSON, the built-in boards
//	boards/*.json  the built-in boards, embedded
//	state.go       State, Options, New, Position, Validate, LegalMoves, Apply, Outcome, Info
//	move.go        Move, ParseMove
//	text.go        State.String, ParseState, ParseStateOn
//
// Tests read the oracle data in ../../testdata/gravitytrap: 400 positions per
// built-in board (legal moves, perft 1..5, who wins with perfect play, winner
// and score) and every placement pair solved; the tests' own exhaustive
// solver agrees with them.
package gravitytrap
