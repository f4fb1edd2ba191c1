package backgammon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// XGID: eXtreme Gammon's position text (spec "Interchange formats", XGID),
// read and written as GNU Backgammon 1.07's "set xgid" reads it.
//
//	XGID=<position>:<cube>:<cube owner>:<turn>:<dice>:<score X>:<score O>:<rules>:<match length>:<max cube>
//
// The bottom player X (upper-case letters, turn 1, owner 1, the first
// score) is gnubg's player 1, our Black; the top player O (lower case, -1,
// the second score) is player 0, White.

// xgidPrefix starts every XGID we write; the reader takes it in any case, or none.
const xgidPrefix = "XGID="

// xgidMaxCube is the max cube field we write: 10 (1024), what XG writes,
// raised to the cube's own log when that is higher. The field is read and
// not kept (gnubg ignores it too): our limit is MaxCube whatever it says.
const xgidMaxCube = 10

// xgidFields names the nine fields after the position, for errors.
var xgidFields = [...]string{"cube", "cube owner", "turn", "dice", "score of X (Black)", "score of O (White)", "rules (Crawford; or Jacoby+2*beavers)", "match length", "max cube"}

// ParseXGID reads an XGID (eXtreme Gammon's position ID, spec
// "Interchange formats"): "XGID=" (in any case, or left out) then the 26
// characters of the position and nine ':'-separated fields, as GNU
// Backgammon 1.07's "set xgid" reads them:
//
//   - position: character 0 is White's bar, 1..24 Black's points 1..24
//     (White's 24..1), 25 Black's bar; 'A'..'O' are 1..15 of Black's
//     checkers (X, bottom), 'a'..'o' White's (O, top), '-' none;
//   - cube: log2 of its value, 0..12 (MaxCube is 4096);
//   - cube owner: 1 Black, -1 White, 0 centred;
//   - turn: 1 Black, -1 White: the player on roll (OnRoll), who doubled
//     when a double is offered;
//   - dice: "00" to roll (PhaseRoll), two digits 1..6 rolled (PhaseMove),
//     "D" a double offered (PhaseDouble, the other player answers), and,
//     which gnubg does not read, "B" a beaver and "R" a raccoon awaiting the
//     doubler's and the taker's answer (BeaverCount 1 and 2; the cube field
//     then holds the beavered value and owner, as the Match ID does);
//   - score of Black (X), then of White (O): the match score (below the
//     length unless the game is over), or in a money game the session
//     score, 0..32767;
//   - rules: in a match 1 for the Crawford game, else 0; in a money game
//     1 (the Jacoby rule) + 2 (beavers allowed), 0..3;
//   - match length: 0 a money game, else 1..32767;
//   - max cube: log2 of the highest cube, 0..15. Not kept (gnubg ignores
//     it; our limit is MaxCube); 0 in a money game means no cube: the
//     leaflet's game without the cube (CubeInUse false).
//
// An XGID cannot say what gnubg's Match ID says beyond that: the game
// state is "playing" (a start position to roll is PhaseRoll, not
// PhaseOpening), no resignation is offered, and in a match bit 66 (the
// Jacoby flag) is set, as gnubg sets it. A board where a player has borne
// off all 15 is read as over (borne off). The Jacoby rule in a money game
// is State.Jacoby (Match ID bit 66 clear), beavers are State.Beavers (the
// text form's " beavers"); the cube is in use in every XGID except a money
// game with max cube 0.
//
// Errors wrap game.ErrInvalidState: a *game.ParseError naming the field
// and quoting the text, or, for an impossible position, Validate's reason
// after the quoted text.
func ParseXGID(text string) (State, error) {
	text = strings.TrimSpace(text)
	body := text
	if len(body) >= len(xgidPrefix) && strings.EqualFold(body[:len(xgidPrefix)], xgidPrefix) {
		body = body[len(xgidPrefix):]
	}
	base := len(text) - len(body)
	perr := func(off int, format string, args ...any) (State, error) {
		if off >= 0 {
			off += base
		}
		return State{}, &game.ParseError{Game: "backgammon", What: "XGID", Input: text, Offset: off, Reason: fmt.Sprintf(format, args...), Kind: game.ErrInvalidState}
	}
	f := strings.Split(body, ":")
	if len(f) != 10 {
		return perr(-1, "an XGID has the position and 9 fields separated by ':' (cube, cube owner, turn, dice, 2 scores, rules, match length, max cube); this has %d fields", len(f))
	}
	pos := f[0]
	if len(pos) != 26 {
		return perr(0, "position: 26 characters (bars and 24 points), not %d", len(pos))
	}
	var s State
	for i := 0; i < 26; i++ {
		c := pos[i]
		var n uint8
		black := false
		switch {
		case c == '-':
			continue
		case c >= 'A' && c <= 'O':
			n, black = c-'A'+1, true
		case c >= 'a' && c <= 'o':
			n = c - 'a' + 1
		default:
			return perr(i, "position: character %d is %q; '-', 'A'..'O' (1..15 of X's, Black's checkers) or 'a'..'o' (O's, White's)", i, c)
		}
		switch {
		case black && i == 0:
			return perr(i, "position: character 0 is White's (O's) bar; Black's (X's, upper case) checkers cannot be on it")
		case !black && i == 25:
			return perr(i, "position: character 25 is Black's (X's) bar; White's (O's, lower case) checkers cannot be on it")
		case black:
			s.board[Black][i-1] = n // point i, or the bar (25)
		case i == 0:
			s.board[White][24] = n
		default:
			s.board[White][24-i] = n // White's point 25-i
		}
	}
	// The nine numbers: off is each field's offset in body.
	var v [9]int
	off := [9]int{}
	at := len(pos) + 1
	for k := 0; k < 9; k++ {
		off[k] = at
		at += len(f[k+1]) + 1
		if k == 3 {
			continue // dice: read below
		}
		n, err := strconv.Atoi(f[k+1])
		if err != nil || len(f[k+1]) > 6 {
			return perr(off[k], "%s: %s is not a number", xgidFields[k], game.Quote(f[k+1]))
		}
		v[k] = n
	}
	if v[0] < 0 || v[0] > 12 {
		return perr(off[0], "cube: log2 of its value, 0..12 (%d is gnubg's limit); %d", MaxCube, v[0])
	}
	s.cubeLog = uint8(v[0])
	switch v[1] {
	case 1:
		s.owner = Black
	case -1:
		s.owner = White
	case 0:
		s.owner = ownerCentre
	default:
		return perr(off[1], "cube owner: 1 (X, Black), -1 (O, White) or 0 (centred); %d", v[1])
	}
	switch v[2] {
	case 1:
		s.turn = Black
	case -1:
		s.turn = White
	default:
		return perr(off[2], "turn: 1 (X, Black) or -1 (O, White); %d", v[2])
	}
	if v[7] < 0 || v[7] > MaxMatchLength {
		return perr(off[7], "match length: 0 (a money game) or 1..%d; %d", MaxMatchLength, v[7])
	}
	s.matchLen = uint16(v[7])
	for k := 4; k <= 5; k++ {
		if v[k] < 0 || v[k] >= 1<<15 {
			return perr(off[k], "%s: 0..32767; %d", xgidFields[k], v[k])
		}
	}
	s.score = [2]uint16{White: uint16(v[5]), Black: uint16(v[4])}
	if v[8] < 0 || v[8] > 15 {
		return perr(off[8], "max cube: log2 of the highest cube, 0..15; %d", v[8])
	}
	if s.matchLen > 0 {
		switch v[6] {
		case 0:
		case 1:
			s.crawford = true
		default:
			return perr(off[6], "rules: in a match 1 (the Crawford game) or 0; %d", v[6])
		}
		s.cubeUse = true
	} else {
		if v[6] < 0 || v[6] > 3 {
			return perr(off[6], "rules: in a money game 1 (Jacoby) + 2 (beavers), 0..3; %d", v[6])
		}
		s.jacoby = v[6]&1 != 0
		s.beavers = v[6]&2 != 0
		s.cubeUse = v[8] != 0
		if s.beavers && !s.cubeUse {
			return perr(off[6], "rules: beavers (2) need the cube, and max cube 0 says there is none")
		}
	}
	s.actor = s.turn
	s.phase = PhaseRoll
	d := f[4]
	switch {
	case d == "00":
	case d == "D" || d == "d":
		s.doubled = true
		s.actor = 1 - s.turn
	case (d == "B" || d == "b" || d == "R" || d == "r") && s.matchLen == 0 && s.beavers:
		s.doubled = true
		s.beavered = 1
		if d == "R" || d == "r" {
			s.beavered = 2
			s.actor = 1 - s.turn
		}
	case d == "B" || d == "b" || d == "R" || d == "r":
		return perr(off[3], "dice: %q (a beaver or raccoon) needs a money game with beavers allowed (rules 2 or 3)", d)
	case len(d) == 2 && d[0] >= '1' && d[0] <= '6' && d[1] >= '1' && d[1] <= '6':
		s.phase = PhaseMove
		s.dice = [2]uint8{d[0] - '0', d[1] - '0'}
		if s.dice[0] < s.dice[1] {
			s.dice[0], s.dice[1] = s.dice[1], s.dice[0]
		}
	default:
		return perr(off[3], "dice: %s; \"00\" (to roll), two dice 1..6 (\"52\"), \"D\" (doubled), \"B\" (beavered) or \"R\" (raccooned)", game.Quote(d))
	}
	if boardFinished(&s.board) {
		if s.phase != PhaseRoll || s.doubled {
			return perr(off[3], "dice: %q, but a player has borne off all his checkers: the game is over (\"00\")", d)
		}
		s.phase = PhaseOver
		s.end = endBorneOff
	}
	if err := s.Validate(); err != nil {
		return State{}, fmt.Errorf("backgammon: XGID %s: %w", game.Quote(text), err)
	}
	return s, nil
}

// boardFinished reports whether a player has no checkers left.
func boardFinished(b *[2][25]uint8) bool {
	for p := 0; p < 2; p++ {
		n := 0
		for _, c := range b[p] {
			n += int(c)
		}
		if n == 0 {
			return true
		}
	}
	return false
}

// XGID returns s as an XGID with its "XGID=" prefix (see ParseXGID for the
// fields), e.g. "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10" for
// the start with Black to play 5-2. The max cube field is 10 (what XG
// writes; higher when the cube already is), or 0 in a money game without
// the cube. ParseXGID(s.XGID()) == s for every state an XGID can hold; it
// cannot hold, and so does not write:
//
//   - PhaseOpening: written as the start position to roll ("00"), read
//     back as PhaseRoll;
//   - a resignation offered or accepted: the position, dice and cube of the
//     turn it was offered in are written;
//   - how a finished game ended (resigned, dropped): a finished board is
//     read back as borne off; a game ended otherwise is written as its
//     last position with the dice owner to roll, which reads back as a
//     game going on (or is refused when the score has reached a match's
//     length);
//   - a third beaver in a row (BeaverCount 3): written "B", read back as 1;
//   - the Jacoby flag (Match ID bit 66) in a match or without the cube,
//     which changes nothing there: written as the rules field allows
//     (nothing in a match, read back as set).
func (s State) XGID() string {
	b := make([]byte, 0, 64)
	b = append(b, xgidPrefix...)
	for i := 0; i < 26; i++ {
		var c byte = '-'
		switch {
		case i == 0:
			if n := s.board[White][24]; n > 0 {
				c = 'a' + n - 1
			}
		case i == 25:
			if n := s.board[Black][24]; n > 0 {
				c = 'A' + n - 1
			}
		case s.board[Black][i-1] > 0:
			c = 'A' + s.board[Black][i-1] - 1
		case s.board[White][24-i] > 0:
			c = 'a' + s.board[White][24-i] - 1
		}
		b = append(b, c)
	}
	side := func(p uint8) int {
		if p == Black {
			return 1
		}
		return -1
	}
	owner := 0
	if s.owner != ownerCentre {
		owner = side(s.owner)
	}
	b = fmt.Appendf(b, ":%d:%d:%d:", s.cubeLog, owner, side(s.turn))
	switch {
	case s.doubled && s.beavered == 2:
		b = append(b, 'R')
	case s.doubled && s.beavered > 0:
		b = append(b, 'B')
	case s.doubled:
		b = append(b, 'D')
	case s.dice[0] != 0 && s.phase != PhaseOver:
		b = append(b, '0'+s.dice[0], '0'+s.dice[1])
	default:
		b = append(b, "00"...)
	}
	rules := 0
	if s.matchLen > 0 {
		if s.crawford {
			rules = 1
		}
	} else {
		if s.jacoby {
			rules = 1
		}
		if s.beavers {
			rules += 2
		}
	}
	maxCube := 0
	if s.cubeUse || s.matchLen > 0 {
		maxCube = max(xgidMaxCube, int(s.cubeLog))
	}
	b = fmt.Appendf(b, ":%d:%d:%d:%d:%d", s.score[Black], s.score[White], rules, s.matchLen, maxCube)
	return string(b)
}
