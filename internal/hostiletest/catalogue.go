// Package hostiletest holds the hostile inputs that the server's tests
// send: the catalogue of bad requests (Catalogue: a REST path and body each,
// with the status, ErrorInfo reason and message fragment the server must
// answer), the costliest record imports (Imports) and the health port's
// attackers (HealthAttacks). It is shared by server's own tests,
// server/stacktest's and bench/attack, so that all send the same cases;
// it imports no server package (server's internal tests import it).
//
// Files:
//
//	catalogue.go  Case, Catalogue, FinishedStates, the known states and the JSON helpers
//	imports.go    Import, Imports, FillTo: maximum-size ImportRecord requests
//	healthport.go HealthAttack, HealthAttacks, WaitClosed: the health port's attackers
package hostiletest

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// Case is one entry of the hostile-input catalogue: a request as a REST
// path and JSON body, and what the server must answer. Unless RESTOnly, the
// same request (the body read by protojson, the game from the path) is
// also sent over gRPC and must give the same code, reason and message.
type Case struct {
	Name     string
	Path     string // e.g. "/v1/games/backgammon:applyMove"
	Body     string
	Status   int    // HTTP status; on gRPC its code (400 INVALID_ARGUMENT, 413 and 429 RESOURCE_EXHAUSTED)
	Reason   string // ErrorInfo reason (every REST error has one)
	Fragment string // a piece of the message
	RESTOnly bool   // the body is not a message protojson can read (bad JSON, a wrong type, …)
}

// hc makes a case; a trailing true marks it RESTOnly.
func hc(name, path, body string, status int, reason, fragment string, restOnly ...bool) Case {
	return Case{name, path, body, status, reason, fragment, len(restOnly) > 0 && restOnly[0]}
}

// Known states used by the catalogue, in each game's text notation:
// backgammon's GNU Position ID and Match ID, Abalone's rows, Labyrinth's
// board, ships and cards, Gravity Trap's stations.
const (
	BGStart    = "4HPwATDgc/ABMA:MAAAAAAAAAAE" // opening: the roll comes first
	BG31       = "4HPwATDgc/ABMA:MIEFAAAAAAAE" // white to play 3-1
	ABStart    = "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"
	ABWon      = "wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w" // black pushed six off
	LabShift   = "6aeAdNeB3c/56Sa33Xca/7C57D6eEadF/65357O7M9/7GeRbH9dI3VdJ/aa59Wa*bQ5/3ePbK6bL9U9 6T R11,Y17,V65 - Rs :LTDGHNPWIREM,:CVOAJKQSFUXB v"
	LabMove    = "6cTeAdNeB3c/5aa33Xca/7C6S7D6eEadF/65357O7M9/7G5bH9dI3VdJ/aeR59Wa*bQ5/3abK6bL9U9 eP R11,Y17,V65 N2 Rm :LTDGHNPWIREM,:CVOAJKQSFUXB v"
	GTMove     = "RoooBooooooooooooooooo r" // red to move
	GTPlace    = "R..................... B" // blue to place
	GTFinished = "ooooooooo.RooooooooB.. b"
)

// State is the JSON field of a state given by its text:
// "state":{"text":"…"}.
func State(text string) string { return `"state":{"text":` + JSONString(text) + `}` }

// Move is the JSON field of a move given by its notation:
// "move":{"notation":"…"}.
func Move(n string) string { return `"move":{"notation":` + JSONString(n) + `}` }

// JSONString is s as a JSON string, quoted and escaped.
func JSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Obj is the JSON object of the fields parts ("name":value each).
func Obj(parts ...string) string {
	return "{" + strings.Join(parts, ",") + "}"
}

// RepeatJSON is n copies of item, comma-separated.
func RepeatJSON(item string, n int) string {
	return strings.TrimSuffix(strings.Repeat(item+",", n), ",")
}

// FinishedStates plays seeded random games of backgammon and Labyrinth to
// their end with the rules packages and returns the final states' texts
// (the same two every time: the seeds are fixed).
func FinishedStates(t testing.TB) (bgOver, labOver string) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 5))
	b, _ := backgammon.New(backgammon.Options{})
	for i := 0; !b.Outcome().Finished; i++ {
		ms := b.LegalMoves()
		if i > 10000 || len(ms) == 0 {
			t.Fatalf("backgammon game not over after %d plies", i)
		}
		var err error
		if b, err = b.Apply(ms[r.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	l, err := labyrinth.New(labyrinth.Options{Players: 2, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !l.Outcome().Finished; i++ {
		ms := l.LegalMoves()
		if i > 200000 || len(ms) == 0 {
			t.Fatalf("labyrinth game not over after %d plies", i)
		}
		if l, err = l.Apply(ms[r.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	return b.String(), l.String()
}

// Catalogue is the table: 210 cases (43 of them RESTOnly) when issue 30
// moved it here from two copies. Cases that name a game run for that game;
// the general ones cover the transports. bgOver and labOver are finished
// games' states (FinishedStates).
func Catalogue(bgOver, labOver string) []Case {
	const (
		bad  = 400
		inv  = "INVALID_STATE"
		ill  = "ILLEGAL_MOVE"
		over = "GAME_OVER"
		opt  = "INVALID_OPTIONS"
		req  = "INVALID_REQUEST"
		unk  = "UNKNOWN_GAME"
	)
	longText := strings.Repeat("Z", 100_000)
	var cs []Case
	add := func(c ...Case) { cs = append(cs, c...) }

	// --- Every game: the common shapes of bad input.
	starts := map[string]string{"backgammon": BG31, "abalone": ABStart, "labyrinth": LabShift, "gravity_trap": GTMove}
	other := map[string]string{"backgammon": "abalone", "abalone": "labyrinth", "labyrinth": "gravity_trap", "gravity_trap": "backgammon"}
	typedOf := map[string]string{
		"backgammon":   `"backgammon":{"turn":"BACKGAMMON_PLAYER_WHITE"}`,
		"abalone":      `"abalone":{"turn":"ABALONE_PLAYER_BLACK"}`,
		"labyrinth":    `"labyrinth":{"turn":1}`,
		"gravity_trap": `"gravityTrap":{"marbles":[1]}`,
	}
	for _, g := range []string{"backgammon", "abalone", "labyrinth", "gravity_trap"} {
		p := "/v1/games/" + g
		add(
			hc(g+": no state", p+":legalMoves", `{}`, bad, inv, "state is required"),
			hc(g+": empty body", p+":score", ``, bad, inv, "state is required"),
			hc(g+": empty text", p+":legalMoves", Obj(State("")), bad, inv, "state is required"),
			hc(g+": garbage text", p+":legalMoves", Obj(State("zzz")), bad, inv, "cannot parse"),
			hc(g+": NUL bytes in text", p+":score", Obj(State("\x00\x00\x00")), bad, inv, "cannot parse"),
			hc(g+": 100 KB text", p+":legalMoves", Obj(State(longText)), bad, inv, "ZZZZ"),
			hc(g+": typed state of another game", p+":legalMoves", Obj(`"state":{`+typedOf[other[g]]+`}`), bad, inv, "typed state is for game"),
			hc(g+": no move", p+":applyMove", Obj(State(starts[g])), bad, ill, "move is required"),
			hc(g+": empty move", p+":applyMove", Obj(State(starts[g]), `"move":{}`), bad, ill, "move is required"),
			hc(g+": gibberish notation", p+":applyMove", Obj(State(starts[g]), Move("~~~")), bad, ill, "~~~"),
			hc(g+": 100 KB notation", p+":applyMove", Obj(State(starts[g]), Move(longText)), bad, ill, "ZZZZ"),
			hc(g+": options of another game", p+":new", Obj(`"`+JSONName(other[g])+`":{}`), bad, opt, "options are for game"),
			hc(g+": unknown field", p+":legalMoves", Obj(State(starts[g]), `"noSuchField":1`), bad, req, `unknown field "noSuchField" in the request`, true),
			hc(g+": text is a number", p+":legalMoves", `{"state":{"text":5}}`, bad, req, "state.text must be a string such as \"…\", not the number 5 (line 1:18)", true),
			hc(g+": state is an array", p+":score", `{"state":[]}`, bad, req, "state must be an object such as {\"text\": \"…\"}, not an array (line 1:10)", true),
			hc(g+": seed too large", p+":new", `{"seed":"99999999999999999999999"}`, bad, req, "seed must be a whole number in 0..18446744073709551615", true),
			hc(g+": negative seed", p+":new", `{"seed":"-1"}`, bad, req, "seed must be a whole number (0 or more)", true),
			hc(g+": includeResults not a bool", p+":legalMoves", Obj(State(starts[g]), `"includeResults":"yes"`), bad, req, "includeResults must be true or false, not the string \"yes\"", true),
			hc(g+": observe player out of range", p+":observe", Obj(State(starts[g]), `"player":9`), bad, req, "player"),
			hc(g+": observe player -2", p+":observe", Obj(State(starts[g]), `"player":-2`), bad, req, "player"),
		)
	}

	// --- Backgammon.
	bg := "/v1/games/backgammon"
	add(
		hc("backgammon: 16 checkers", bg+":legalMoves", Obj(`"state":{"backgammon":{"white":[0,0,0,0,0,6,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"black":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"turn":"BACKGAMMON_PLAYER_WHITE","phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "16 checkers"),
		hc("backgammon: both colours on a point", bg+":legalMoves", Obj(`"state":{"backgammon":{"white":[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"black":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0],"turn":"BACKGAMMON_PLAYER_WHITE","phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "both colours"),
		hc("backgammon: both on the bar against closed boards", bg+":legalMoves", Obj(State("27YBA0DbtgEDQA:MAEXAAAAAAAE")), bad, inv, "closed home boards"),
		hc("backgammon: 24 counts", bg+":score", Obj(`"state":{"backgammon":{"white":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2],"black":[],"turn":"BACKGAMMON_PLAYER_WHITE","phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "25 counts"),
		hc("backgammon: 100,000 counts", bg+":score", Obj(`"state":{"backgammon":{"white":[`+RepeatJSON("0", 100000)+`],"turn":"BACKGAMMON_PLAYER_WHITE","phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "25 counts"),
		hc("backgammon: three dice", bg+":score", Obj(`"state":{"backgammon":{"turn":"BACKGAMMON_PLAYER_WHITE","phase":"BACKGAMMON_PHASE_MOVE","dice":[1,2,3]}}`), bad, inv, "two dice or none"),
		hc("backgammon: die 7", bg+":score", Obj(State("4HPwATDgc/ABMA:cIkHAAAAAAAE")), bad, inv, ""),
		hc("backgammon: Match ID too short", bg+":legalMoves", Obj(State("4HPwATDgc/ABMA:MIEF")), bad, inv, "Match ID"),
		hc("backgammon: Position ID not base64", bg+":legalMoves", Obj(State("4HPwATDgc/AB!A:MIEFAAAAAAAE")), bad, inv, "Position ID"),
		hc("backgammon: text and typed disagree", bg+":legalMoves", Obj(`"state":{"text":"`+BG31+`","backgammon":{"white":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"black":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"turn":"BACKGAMMON_PLAYER_BLACK","phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "different states"),
		hc("backgammon: opening away from the start", bg+":legalMoves", Obj(State("4HPwASHgc/ABMA:MAAAAAAAAAAE")), bad, inv, "opening phase"),
		hc("backgammon: illegal play", bg+":applyMove", Obj(State(BG31), Move("24/18")), bad, ill, "24/18"),
		hc("backgammon: play before the opening roll", bg+":applyMove", Obj(State(BGStart), Move("8/5 6/5")), bad, ill, "needs a roll first"),
		hc("backgammon: roll when the dice are rolled", bg+":applyMove", Obj(State(BG31), Move("roll 3-1")), bad, ill, "already rolled"),
		hc("backgammon: roll 7-1", bg+":applyMove", Obj(State(BGStart), Move("roll 7-1")), bad, ill, "7"),
		hc("backgammon: pass with a play possible", bg+":applyMove", Obj(State(BG31), Move("pass")), bad, ill, "pass"),
		hc("backgammon: five steps", bg+":applyMove", Obj(State(BG31), Move("24/23 24/23 13/12 13/12 8/7")), bad, ill, ""),
		hc("backgammon: 1,000 typed steps", bg+":applyMove", Obj(State(BG31), `"move":{"backgammon":{"kind":"BACKGAMMON_MOVE_KIND_PLAY","steps":[`+RepeatJSON("{}", 1000)+`]}}`), bad, ill, "1 to 4 steps"),
		hc("backgammon: typed move of another game", bg+":applyMove", Obj(State(BG31), `"move":{"abalone":{}}`), bad, ill, "typed move is for game"),
		hc("backgammon: move after the end", bg+":applyMove", Obj(State(bgOver), Move("roll")), bad, over, "finished"),
		hc("backgammon: unknown turn enum number", bg+":score", Obj(`"state":{"backgammon":{"white":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"black":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"turn":7,"phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "turn 7 is not a known value"),
		hc("backgammon: unknown phase enum number", bg+":score", Obj(`"state":{"backgammon":{"white":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"black":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"turn":"BACKGAMMON_PLAYER_WHITE","phase":99}}`), bad, inv, "phase 99 is not a known value"),
		hc("backgammon: unknown enum name", bg+":score", Obj(`"state":{"backgammon":{"turn":"WHITE"}}`), bad, req, "state.backgammon.turn must be one of BACKGAMMON_PLAYER_WHITE, BACKGAMMON_PLAYER_BLACK (did you mean \"BACKGAMMON_PLAYER_WHITE\"?)", true),
		hc("backgammon: count 300", bg+":score", Obj(`"state":{"backgammon":{"white":[300,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"black":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2,0],"turn":"BACKGAMMON_PLAYER_WHITE","phase":"BACKGAMMON_PHASE_ROLL"}}`), bad, inv, "more than 15 checkers on slot 1"),
		hc("backgammon: negative count", bg+":score", Obj(`"state":{"backgammon":{"white":[-1]}}`), bad, req, "state.backgammon.white[0] must be a whole number (0 or more), not the number -1", true),
	)

	// --- Abalone.
	ab := "/v1/games/abalone"
	add(
		hc("abalone: row too long", ab+":legalMoves", Obj(State("wwwwwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b")), bad, inv, "row I has more than 5 cells"),
		hc("abalone: 15 marbles", ab+":legalMoves", Obj(`"state":{"abalone":{"black":["a1","a2","a3","a4","a5","b1","b2","b3","b4","b5","b6","c3","c4","c5","c6"],"white":["i5"],"turn":"ABALONE_PLAYER_BLACK"}}`), bad, inv, "15"),
		hc("abalone: a cell twice", ab+":legalMoves", Obj(`"state":{"abalone":{"black":["a1","a1"],"white":["i5"],"turn":"ABALONE_PLAYER_BLACK"}}`), bad, inv, "a1"),
		hc("abalone: off-board cell", ab+":legalMoves", Obj(`"state":{"abalone":{"black":["a9"],"white":["i5"],"turn":"ABALONE_PLAYER_BLACK"}}`), bad, inv, "a9"),
		hc("abalone: 1,000 cells", ab+":legalMoves", Obj(`"state":{"abalone":{"black":[`+RepeatJSON(`"a1"`, 1000)+`],"turn":"ABALONE_PLAYER_BLACK"}}`), bad, inv, "the board has 61"),
		hc("abalone: the winner to move", ab+":legalMoves", Obj(State("wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 b")), bad, inv, ""),
		hc("abalone: side to move UNSPECIFIED", ab+":legalMoves", Obj(`"state":{"abalone":{"black":["a1"],"white":["i5"]}}`), bad, inv, "turn is required"),
		hc("abalone: text and typed disagree", ab+":legalMoves", Obj(`"state":{"text":"`+ABStart+`","abalone":{"black":["a1","a2","a3","a4","a5","b1","b2","b3","b4","b5","b6","c3","c4","c5"],"white":["g5","g6","g7","h4","h5","h6","h7","h8","h9","i5","i6","i7","i8","i9"],"turn":"ABALONE_PLAYER_WHITE"}}`), bad, inv, "different states"),
		hc("abalone: 7 black marbles", ab+":legalMoves", Obj(`"state":{"abalone":{"black":["a1"],"white":["i5"],"turn":"ABALONE_PLAYER_BLACK"}}`), bad, inv, "want 8..14"),
		hc("abalone: plies over the limit", ab+":legalMoves", Obj(State(ABStart+" 11/10")), bad, inv, ""),
		hc("abalone: white moves on black's turn", ab+":applyMove", Obj(State(ABStart), Move("i5h5")), bad, ill, "not a black one"),
		hc("abalone: four in line", ab+":applyMove", Obj(State(ABStart), Move("a1a2")), bad, ill, ""),
		hc("abalone: move after the end", ab+":applyMove", Obj(State(ABWon), Move("i5h5")), bad, over, "six pushed off"),
		hc("abalone: unknown layout", ab+":new", Obj(`"abalone":{"layout":"hexagon"}`), bad, opt, "hexagon"),
		hc("abalone: maxPlies over the limit", ab+":new", Obj(`"abalone":{"maxPlies":4000000000}`), bad, opt, "4000000000"),
		hc("abalone: maxPlies negative", ab+":new", Obj(`"abalone":{"maxPlies":-1}`), bad, req, "abalone.maxPlies must be a whole number (0 or more), not the number -1", true),
		hc("abalone: custom cells for a standard layout", ab+":new", Obj(`"abalone":{"layout":"classic","black":["a1"]}`), bad, opt, ""),
		hc("abalone: typed move of another game", ab+":applyMove", Obj(State(ABStart), `"move":{"labyrinth":{}}`), bad, ill, "typed move is for game"),
	)

	// --- Labyrinth.
	lab := "/v1/games/labyrinth"
	labField := func(i int, v string) string {
		f := strings.Split(LabShift, " ")
		f[i] = v
		return strings.Join(f, " ")
	}
	add(
		hc("labyrinth: Vader symbol on a corner", lab+":legalMoves", Obj(State("6aeAdNeB3*c/56Sa33Xca/7C57D6eEadF/65357O7M9/7GeRbH9dI3VdJ/aa59WabQ5/3ePbK6bL9U9 6T R11,Y17,V65 - Rs :LTDGHNPWIREM,:CVOAJKQSFUXB v")), bad, inv, "Vader symbol is on a corner tile"),
		hc("labyrinth: a card twice", lab+":legalMoves", Obj(State(labField(5, ":LTDGHNPWIREM,:LVOAJKQSFUXB"))), bad, inv, ""),
		hc("labyrinth: one player", lab+":legalMoves", Obj(State(labField(2, "R11,V65"))), bad, inv, ""),
		hc("labyrinth: ship off the board", lab+":legalMoves", Obj(State(labField(2, "R81,Y17,V65"))), bad, inv, ""),
		hc("labyrinth: a hidden card (a view)", lab+":score", Obj(State(labField(5, ":?,:CVOAJKQSFUXB"))), bad, inv, ""),
		hc("labyrinth: 1,000 typed players", lab+":legalMoves", Obj(`"state":{"labyrinth":{"players":[`+RepeatJSON("{}", 1000)+`]}}`), bad, inv, "players"),
		hc("labyrinth: 1,000 typed tiles", lab+":legalMoves", Obj(`"state":{"labyrinth":{"board":[`+RepeatJSON("{}", 1000)+`],"players":[{},{}]}}`), bad, inv, "49"),
		hc("labyrinth: move before the shift", lab+":applyMove", Obj(State(LabShift), Move("r3c5")), bad, ill, "starts with a shift"),
		hc("labyrinth: shift in the move phase", lab+":applyMove", Obj(State(LabMove), Move("N2")), bad, ill, ""),
		hc("labyrinth: insertion point N9", lab+":applyMove", Obj(State(LabShift), Move("N9")), bad, ill, "insertion point"),
		hc("labyrinth: rotation :7", lab+":applyMove", Obj(State(LabShift), Move("N2:7")), bad, ill, ""),
		hc("labyrinth: unreachable square", lab+":applyMove", Obj(State(LabMove), Move("r7c7")), bad, ill, ""),
		hc("labyrinth: move after the end", lab+":applyMove", Obj(State(labOver), Move("N2")), bad, over, "finished"),
		hc("labyrinth: observe without player", lab+":observe", Obj(State(LabShift)), bad, req, "player is required"),
		hc("labyrinth: five players", lab+":new", Obj(`"labyrinth":{"players":5}`), bad, opt, ""),
		hc("labyrinth: unknown colour", lab+":new", Obj(`"labyrinth":{"colors":["red","purple"]}`), bad, opt, "purple"),
		hc("labyrinth: a colour twice", lab+":new", Obj(`"labyrinth":{"colors":["red","red"]}`), bad, opt, ""),
		hc("labyrinth: 1,000 colours", lab+":new", Obj(`"labyrinth":{"colors":[`+RepeatJSON(`"red"`, 1000)+`]}`), bad, opt, "at most 4 players"),
		hc("labyrinth: first player out of range", lab+":new", Obj(`"labyrinth":{"players":2,"firstPlayer":7}`), bad, opt, ""),
		hc("labyrinth: players is a string", lab+":new", Obj(`"labyrinth":{"players":"two"}`), bad, req, "labyrinth.players must be an integer, not the string \"two\"", true),
	)

	// --- Gravity Trap.
	gt := "/v1/games/gravity_trap"
	add(
		hc("gravity_trap: 21 stations", gt+":legalMoves", Obj(State("RoooBoooooooooooooooo r")), bad, inv, "22, not 21"),
		hc("gravity_trap: the mover already stuck before", gt+":legalMoves", Obj(State("R.ooBooooooooooooooooo r")), bad, inv, "no empty station"),
		hc("gravity_trap: two red ships", gt+":legalMoves", Obj(State("RoooRooooooooooooooooo r")), bad, inv, ""),
		hc("gravity_trap: unknown board", gt+":legalMoves", Obj(State(GTMove+" hexagon")), bad, inv, ""),
		hc("gravity_trap: land on the other ship", gt+":applyMove", Obj(State(GTMove), Move("4")), bad, ill, "may not land on the other"),
		hc("gravity_trap: mirror placement", gt+":applyMove", Obj(State(GTPlace), Move("place 11")), bad, ill, ""),
		hc("gravity_trap: station 99", gt+":applyMove", Obj(State(GTMove), Move("99")), bad, ill, ""),
		hc("gravity_trap: place during play", gt+":applyMove", Obj(State(GTMove), Move("place 3")), bad, ill, ""),
		hc("gravity_trap: move after the end", gt+":applyMove", Obj(State(GTFinished), Move("0")), bad, over, "finished"),
		hc("gravity_trap: 1,000 empty lines", gt+":new", Obj(`"gravityTrap":{"customBoard":{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[`+RepeatJSON("{}", 1000)+`]}}`), bad, inv, "at most 256 lines"),
		hc("gravity_trap: 1,000 stations", gt+":new", Obj(`"gravityTrap":{"customBoard":{"stations":[`+RepeatJSON("{}", 1000)+`]}}`), bad, inv, "1000"),
		hc("gravity_trap: a line given twice", gt+":new", Obj(`"gravityTrap":{"customBoard":{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[{"stations":[0,1]},{"stations":[1,0]}]}}`), bad, inv, "same stations"),
		hc("gravity_trap: line to an unknown station", gt+":new", Obj(`"gravityTrap":{"customBoard":{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[{"stations":[0,9]}]}}`), bad, inv, "unknown station 9"),
		hc("gravity_trap: opposite not an involution", gt+":new", Obj(`"gravityTrap":{"customBoard":{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[{"stations":[0,1,2,3]}],"opposite":[1,2,3,0]}}`), bad, inv, "involution"),
		hc("gravity_trap: unknown built-in board", gt+":new", Obj(`"gravityTrap":{"board":"hexagon"}`), bad, opt, "hexagon"),
		hc("gravity_trap: first player 5", gt+":new", Obj(`"gravityTrap":{"firstPlayer":5}`), bad, opt, ""),
		hc("gravity_trap: typed marbles beyond the board", gt+":score", Obj(`"state":{"gravityTrap":{"marbles":[1,2,99],"redShip":0,"blueShip":4,"turn":"GRAVITY_TRAP_PLAYER_RED"}}`), bad, inv, "99"),
		hc("gravity_trap: a marble twice", gt+":score", Obj(`"state":{"gravityTrap":{"marbles":[1,1,2],"redShip":0,"blueShip":4,"turn":"GRAVITY_TRAP_PLAYER_RED"}}`), bad, inv, ""),
	)

	// --- RenderState (POST; the GET form is in transportCases).
	for _, g := range []string{"backgammon", "abalone", "labyrinth", "gravity_trap"} {
		p := "/v1/games/" + g + ":render"
		add(
			hc(g+": render without a state", p, `{}`, bad, inv, "state is required"),
			hc(g+": render a garbage state", p, Obj(State("zzz")), bad, inv, "cannot parse"),
			hc(g+": render size 5", p, Obj(State(starts[g]), `"size":5`), bad, req, "want 100..4096"),
			hc(g+": render size 2^31-1", p, Obj(State(starts[g]), `"size":2147483647`), bad, req, "want 100..4096"),
			hc(g+": render highlight off the board", p, Obj(State(starts[g]), `"highlightFrom":"zz9"`), bad, req, "zz9"),
		)
	}

	// --- Whole games and records.
	nMoves := func(n int, m string) string { return `"moves":[` + RepeatJSON(JSONString(m), n) + `]` }
	add(
		hc("replay: the second move is bad", "/v1/games/backgammon:replay", Obj(State(BG31), nMoves(1, "8/5 6/5")[:len(nMoves(1, "8/5 6/5"))-1]+`,"roll 9-9"]`), bad, ill, "moves[1]"),
		hc("replay: a move after the end", "/v1/games/gravity_trap:replay", Obj(State(GTFinished), nMoves(1, "0")), bad, over, "moves[0]"),
		hc("replay: 9,001 moves", "/v1/games/gravity_trap:replay", Obj(State(GTMove), nMoves(9001, "8")), bad, req, "at most 9000 per call"),
		hc("replay: 1,001 moves with every state", "/v1/games/gravity_trap:replay", Obj(State(GTMove), nMoves(1001, "8"), `"includeStates":true`), bad, req, "1000"),
		hc("replay: a garbage start state", "/v1/games/abalone:replay", Obj(State("zzz"), nMoves(1, "a1b2")), bad, inv, "cannot parse"),
		hc("replay: options of another game", "/v1/games/abalone:replay", Obj(`"options":{"labyrinth":{}}`), bad, req, "unknown field \"options\" in the request; its fields are game, state, moves, seed, includeStates, actions, backgammon", true),
		hc("importRecord: unknown format", "/v1/games/abalone:importRecord", Obj(`"format":"zzz"`, `"text":"x"`), bad, req, "record format"),
		hc("importRecord: .mat garbage", "/v1/games/backgammon:importRecord", Obj(`"format":"mat"`, `"text":"garbage\nmore"`), bad, req, "line 1, column 1"),
		hc("importRecord: JSON record not JSON", "/v1/games/labyrinth:importRecord", Obj(`"format":"json"`, `"text":"{oops"`), bad, req, "line 1"),
		hc("importRecord: 600 KB text", "/v1/games/backgammon:importRecord", Obj(`"format":"mat"`, `"text":`+JSONString(strings.Repeat("x", 600_000))), 413, "REQUEST_TOO_LARGE", "larger than the server's limit", true),
		hc("exportRecord: no replay", "/v1/games/backgammon:exportRecord", Obj(`"format":"mat"`), bad, req, "replay is required"),
		hc("exportRecord: apgn for backgammon", "/v1/games/backgammon:exportRecord", Obj(`"format":"apgn"`, `"replay":{"game":"backgammon"}`), bad, req, "apgn"),
	)

	// --- Transports and routing (the game in the path decides).
	add(
		hc("unknown game", "/v1/games/chess:legalMoves", Obj(State("x")), bad, unk, "chess"),
		hc("unknown game, 10 KB id", "/v1/games/"+strings.Repeat("q", 10000)+":new", `{}`, bad, unk, "qqqq"),
		hc("game id with a space", "/v1/games/back%20gammon:new", `{}`, bad, unk, "back gammon"),
		hc("trailing garbage", "/v1/games/backgammon:legalMoves", Obj(State(BG31))+" GARBAGE", bad, req, "more data after its JSON value", true),
		hc("two JSON objects", "/v1/games/backgammon:legalMoves", Obj(State(BG31))+`{"foo":1}`, bad, req, "more data after its JSON value", true),
		hc("a JSON array", "/v1/games/backgammon:legalMoves", `[]`, bad, req, "the request body must be a JSON object (a LegalMovesRequest), not an array", true),
		hc("a JSON string", "/v1/games/backgammon:legalMoves", `"state"`, bad, req, "not the string \"state\"", true),
		hc("null", "/v1/games/backgammon:legalMoves", `null`, bad, req, "not null", true),
		hc("truncated JSON", "/v1/games/backgammon:legalMoves", `{"state":{"text":`, bad, req, "not valid JSON", true),
		hc("deep nesting", "/v1/games/backgammon:legalMoves", strings.Repeat("[", 20000)+strings.Repeat("]", 20000), bad, req, "must be a JSON object (a LegalMovesRequest), not an array (line 1:1)", true),
		hc("deep nesting in a field", "/v1/games/backgammon:legalMoves", `{"state":`+strings.Repeat(`{"a":`, 5000)+"1"+strings.Repeat("}", 5001), bad, req, "more than 10000 JSON objects and strings", true),
		hc("invalid UTF-8 in the body", "/v1/games/backgammon:legalMoves", "{\"state\":{\"text\":\"\xff\xfe\"}}", bad, req, "state.text: a string is not valid UTF-8", true),
		hc("lone surrogate escape", "/v1/games/backgammon:legalMoves", `{"state":{"text":"\ud800"}}`, bad, req, "surrogate", true),
		hc("duplicate field", "/v1/games/backgammon:legalMoves", `{"state":{"text":"x"},"state":{"text":"y"}}`, bad, req, "duplicate field", true),
		hc("both text and typed of two games", "/v1/games/abalone:legalMoves", Obj(`"state":{"text":"`+ABStart+`","backgammon":{}}`), bad, inv, "typed state is for game"),
		hc("number as a huge float", "/v1/games/labyrinth:new", `{"labyrinth":{"players":1e400}}`, bad, req, "labyrinth.players must be an integer in -2147483648..2147483647, not the number 1e400", true),
		hc("oversized body (600 KB)", "/v1/games/backgammon:legalMoves", Obj(State(strings.Repeat("x", 600_000))), 413, "REQUEST_TOO_LARGE", "larger than the server's limit", true),
	)
	return cs
}

// JSONName is the protojson name of a game's options field.
func JSONName(game string) string {
	if game == "gravity_trap" {
		return "gravityTrap"
	}
	return game
}
