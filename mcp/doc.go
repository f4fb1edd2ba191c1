// Package mcp serves every game as Model Context Protocol tools, for
// language-model agents, on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk). The tools call package service
// in process (through Options.API when it is set: gamerulesd sets it to the
// service behind its admission, so that a tool's call takes the heavy lane
// and deadline of the REST call of its RPC), the same code as the gRPC and
// REST API, so their rules,
// conversions and error texts are the API's; like the API they keep no
// game: the state travels as its text form in the arguments and answers.
//
// NewServer builds the server (tools, resources, prompt); HTTPHandler
// serves it over streamable HTTP, stateless and with JSON answers, for
// gamerulesd to mount at /mcp behind the API's limits; cmd/gamerules-mcp
// serves it over stdio (or HTTP with --http).
//
// The tools: list_games, new_game, legal_moves, apply_move, score (the
// contract: arguments game, state, move or action, seed; new_game and
// apply_move answer state and finished, legal_moves moves [{notation,
// action}], score finished, winner and points), observe, render, replay,
// import_record, playout and expand. Every fault of a call is a tool result
// with isError (a model reads it and retries), never a protocol error: a
// refused move says why and lists the legal moves nearest to the text
// refused; a bad argument names it and gives the tool's arguments. Every
// call runs under Options.Timeout, and answers are bounded (legal moves:
// DefaultMoveLimit unless asked, at most MaxMoveLimit; playout and expand
// below the service's caps).
//
// # Files
//
//	| File         | What it holds                                                     |
//	|--------------|-------------------------------------------------------------------|
//	| doc.go       | this overview                                                     |
//	| server.go    | Options, NewServer, HTTPHandler, the error texts of service errors |
//	| tools.go     | the playing tools (list_games … observe), argument shapes, the refusal of a move, the panic guard |
//	| more.go      | render, replay, import_record, playout, expand                    |
//	| resources.go | the rules resources (docs.Rules) and the play_game prompt         |
//	| board.go     | the text boards: the service's RenderState as RENDER_FORMAT_TEXT   |
package mcp
