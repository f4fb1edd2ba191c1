package backgammon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// FIBS boards: the "board:" line of the FIBS client protocol (CLIP; Evan
// McLean's "FIBS Client Protocol Detailed Specification", the board state,
// and FIBS's "rawboard" help), which gnubg's external player interface also
// reads and gnubg writes with "set output rawboard on" (spec "Interchange
// formats", FIBS board).

// fibsUnlimited is FIBS's match length of an unlimited match (money play).
const fibsUnlimited = 9999

// fibsFields names the 52 ':'-separated fields after "board:", for errors.
var fibsFields = func() [52]string {
	var f [52]string
	copy(f[:], []string{"player name", "opponent name", "match length", "player's score", "opponent's score"})
	for i := 0; i < 26; i++ {
		f[5+i] = fmt.Sprintf("board position %d", i)
	}
	copy(f[31:], []string{"turn", "player's die 1", "player's die 2", "opponent's die 1", "opponent's die 2", "cube",
		"player may double", "opponent may double", "was doubled", "color", "direction", "home", "bar",
		"player's checkers off", "opponent's checkers off", "player's checkers on the bar", "opponent's checkers on the bar",
		"can move", "forced move", "did crawford", "redoubles"})
	return f
}()

// fibsField indexes into the fields after "board:".
const (
	fbMatch     = 2
	fbScore     = 3
	fbBoard     = 5
	fbTurn      = 31
	fbDice      = 32
	fbOppDice   = 34
	fbCube      = 36
	fbMayDouble = 37
	fbDoubled   = 39
	fbColor     = 40
	fbDirection = 41
	fbOff       = 44
	fbOnBar     = 46
	fbCrawford  = 50
)

// fibsPlayer returns our player for a FIBS colour: +1 (O) is Black, -1 (X)
// is White. gnubg writes its player 1 (our Black) as "You" with colour +1,
// so a board gnubg writes reads as the state gnubg holds.
func fibsPlayer(color int) uint8 {
	if color > 0 {
		return Black
	}
	return White
}

// ParseFIBSBoard reads a FIBS board ("board:" and 52 ':'-separated fields,
// as the FIBS client protocol describes them; spec "Interchange formats"):
//
//	board:<player>:<opponent>:<match length>:<player's score>:<opponent's score>:
//	<26 board numbers>:<turn>:<player's dice (2)>:<opponent's dice (2)>:<cube>:
//	<player may double>:<opponent may double>:<was doubled>:<color>:<direction>:
//	<home>:<bar>:<player's off>:<opponent's off>:<player's bar>:<opponent's bar>:
//	<can move>:<forced move>:<did crawford>:<redoubles>
//
// The player ("You") is the player of the colour field: +1 (O) is Black,
// -1 (X) White (gnubg writes its player 1, our Black, as O). Board numbers
// are O's checkers positive, X's negative; direction -1 means the player
// moves from position 24 to 1 (his point p is position p, his bar 25, the
// opponent's bar 0), +1 from 1 to 24 (his point p is position 25-p, his
// bar 0). The turn is the colour on roll (0: the game is over, which the
// board must show: a player with all 15 off). The dice are the on-roll
// player's pair (the other pair may hold an old roll; gnubg writes both
// the same); 0 0 is the roll phase. The cube: its value; the player
// who may double alone owns it, both (or neither) means the middle. Was
// doubled, non-zero, means a double is offered by the player on roll (FIBS
// writes 1 to the player who must answer; gnubg and our writer write -1 to
// the doubler). Match length 9999 (FIBS's unlimited match) or 0 is a money
// game with the cube, without the Jacoby rule or beavers (FIBS has
// neither); in a match with a player at length - 1, did crawford 0 is the
// Crawford game and 1 after it. The checkers off and on the bar, when
// given (gnubg writes 0 on the bar), must agree with the board; names,
// home, bar, can move, forced move and redoubles are not kept.
//
// Errors wrap game.ErrInvalidState: a *game.ParseError naming the field
// and quoting the text, or, for an impossible position, Validate's reason
// after the quoted text.
func ParseFIBSBoard(text string) (State, error) {
	text = strings.TrimSpace(text)
	perr := func(field int, format string, args ...any) (State, error) {
		r := fmt.Sprintf(format, args...)
		if field >= 0 {
			r = fibsFields[field] + ": " + r
		}
		return State{}, &game.ParseError{Game: "backgammon", What: "FIBS board", Input: text, Offset: -1, Reason: r, Kind: game.ErrInvalidState}
	}
	if len(text) < 6 || !strings.EqualFold(text[:6], "board:") {
		return perr(-1, "a FIBS board starts with \"board:\"")
	}
	f := strings.Split(text[6:], ":")
	if len(f) != 52 {
		return perr(-1, "a FIBS board has 52 fields after \"board:\" (names, match, scores, 26 board numbers, turn, dice, cube, flags, colour, direction, home, bar, off, bar, can move, forced move, did crawford, redoubles); this has %d", len(f))
	}
	var v [52]int
	for i := 2; i < 52; i++ {
		n, err := strconv.Atoi(strings.TrimSpace(f[i]))
		if err != nil || len(f[i]) > 6 {
			return perr(i, "%s is not a number", game.Quote(f[i]))
		}
		v[i] = n
	}
	color := v[fbColor]
	if color != 1 && color != -1 {
		return perr(fbColor, "%d; +1 (the player is O, read as Black) or -1 (X, White)", color)
	}
	dir := v[fbDirection]
	if dir != 1 && dir != -1 {
		return perr(fbDirection, "%d; -1 (the player moves from 24 to 1) or +1 (from 1 to 24)", dir)
	}
	you := fibsPlayer(color)
	opp := 1 - you
	var s State
	// Position i (1..24) is the player's point i (direction -1) or 25-i.
	for i := 1; i <= 24; i++ {
		n := v[fbBoard+i]
		if n < -Checkers || n > Checkers {
			return perr(fbBoard+i, "%d checkers; at most 15", n)
		}
		p := i
		if dir > 0 {
			p = 25 - i
		}
		switch {
		case n*color > 0:
			s.board[you][p-1] = uint8(max(n, -n))
		case n != 0:
			s.board[opp][24-p] = uint8(max(n, -n))
		}
	}
	yourBar, oppBar := 25, 0
	if dir > 0 {
		yourBar, oppBar = 0, 25
	}
	for _, b := range [2]struct {
		pos, onBar int
		p          uint8
	}{{yourBar, fbOnBar, you}, {oppBar, fbOnBar + 1, opp}} {
		n := max(v[fbBoard+b.pos], -v[fbBoard+b.pos])
		if n > Checkers {
			return perr(fbBoard+b.pos, "%d checkers on the bar; at most 15", n)
		}
		if on := v[b.onBar]; on != 0 && on != n {
			return perr(b.onBar, "%d, but board position %d (that player's bar) holds %d", on, b.pos, n)
		}
		s.board[b.p][24] = uint8(n)
	}
	for k, p := range [2]uint8{you, opp} {
		if off := v[fbOff+k]; off != s.off(int(p)) {
			if off < 0 || off > Checkers || s.off(int(p)) < 0 {
				return perr(fbOff+k, "%d; the board leaves %d of 15", off, s.off(int(p)))
			}
			return perr(fbOff+k, "%d, but the board holds %d of that player's checkers (15 - %d = %d off)", off, Checkers-s.off(int(p)), Checkers-s.off(int(p)), s.off(int(p)))
		}
	}
	// The match and the score.
	m := v[fbMatch]
	switch {
	case m == fibsUnlimited || m == 0:
	case m < 0 || m > MaxMatchLength:
		return perr(fbMatch, "%d; 1..%d, or 9999 (an unlimited match: money play)", m, MaxMatchLength)
	default:
		s.matchLen = uint16(m)
	}
	for k, p := range [2]uint8{you, opp} {
		if sc := v[fbScore+k]; sc < 0 || sc >= 1<<15 {
			return perr(fbScore+k, "%d; 0..32767", sc)
		}
		s.score[p] = uint16(v[fbScore+k])
	}
	s.cubeUse = true
	// The turn and the dice.
	turn := v[fbTurn]
	switch turn {
	case 1, -1:
		s.turn = fibsPlayer(turn)
		s.phase = PhaseRoll
	case 0:
		if !boardFinished(&s.board) {
			return perr(fbTurn, "0 (the game is over), but neither player has borne off all his checkers")
		}
		s.phase, s.end = PhaseOver, endBorneOff
		// The dice owner after the end is the loser, as gnubg writes it.
		s.turn = White
		if s.off(White) == Checkers {
			s.turn = Black
		}
	default:
		return perr(fbTurn, "%d; +1 (O on roll), -1 (X) or 0 (the game is over)", turn)
	}
	s.actor = s.turn
	d, field := [2]int{v[fbDice], v[fbDice+1]}, fbDice
	if s.turn != you {
		d, field = [2]int{v[fbOppDice], v[fbOppDice+1]}, fbOppDice
	}
	switch {
	case d == [2]int{}:
	case d[0] < 1 || d[0] > 6 || d[1] < 1 || d[1] > 6:
		return perr(field, "%d-%d; two dice 1..6, or 0 0 before the roll", d[0], d[1])
	case s.phase == PhaseRoll:
		s.phase = PhaseMove
		s.dice = [2]uint8{uint8(max(d[0], d[1])), uint8(min(d[0], d[1]))}
	}
	// The cube.
	c := v[fbCube]
	for c > 1 && c%2 == 0 && s.cubeLog < 13 {
		c /= 2
		s.cubeLog++
	}
	if c != 1 || s.cubeLog > 12 {
		return perr(fbCube, "%d; a power of 2 from 1 to %d", v[fbCube], MaxCube)
	}
	s.owner = ownerCentre
	for k := 0; k < 2; k++ {
		if x := v[fbMayDouble+k]; x != 0 && x != 1 {
			return perr(fbMayDouble+k, "%d; 1 or 0", x)
		}
	}
	switch {
	case v[fbMayDouble] == 1 && v[fbMayDouble+1] == 0:
		s.owner = you
	case v[fbMayDouble] == 0 && v[fbMayDouble+1] == 1:
		s.owner = opp
	}
	if v[fbDoubled] != 0 {
		if s.phase != PhaseRoll {
			return perr(fbDoubled, "%d (a double offered), but the dice are rolled", v[fbDoubled])
		}
		s.doubled = true
		s.actor = 1 - s.turn
	}
	if s.matchLen > 0 {
		l := s.matchLen - 1
		if (s.score[0] == l || s.score[1] == l) && s.phase != PhaseOver {
			switch v[fbCrawford] {
			case 0:
				s.crawford = (s.score[0] == l) != (s.score[1] == l)
			case 1:
			default:
				return perr(fbCrawford, "%d; 1 (the Crawford game is over) or 0", v[fbCrawford])
			}
		}
	}
	if err := s.Validate(); err != nil {
		return State{}, fmt.Errorf("backgammon: FIBS board %s: %w", game.Quote(text), err)
	}
	return s, nil
}

// fibsName makes a name fit a FIBS board: ':' and spaces become '_', and
// an empty name is def.
func fibsName(name, def string) string {
	if name == "" {
		return def
	}
	return strings.Map(func(r rune) rune {
		if r == ':' || r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return '_'
		}
		return r
	}, name)
}

// FIBSBoard returns s as a FIBS board with its "board:" prefix, as the
// player you (0 White, 1 Black) sees it, with the names name (default
// "You") and opponent (default "Opponent"); see ParseFIBSBoard for the
// fields. The player is O (colour +1, direction -1: his point p is
// position p) when Black, X (colour -1, direction +1: position 25-p) when
// White. A money game has match length 9999; the dice are the on-roll
// player's (the other pair 0 0); can move is the number of dice the
// player can play when he is on roll with the dice (else 0); did crawford
// is 1 after the Crawford game; forced move and redoubles are 0; was
// doubled is 1 when the player answers a double, -1 when he offered it.
// ParseFIBSBoard(s.FIBSBoard(p, …)) == s for every
// state a FIBS board can hold; it cannot hold, and so does not write: the
// opening (written as the roll), a resignation, how a game that was not
// borne off ended, beavers, the Jacoby flag, and a money game without the
// cube (written with the cube in the middle). It panics if you is not 0
// or 1.
func (s State) FIBSBoard(you int, name, opponent string) string {
	y := uint8(you)
	o := 1 - y
	color, dir := -1, 1
	if y == Black {
		color, dir = 1, -1
	}
	sideOf := func(p uint8) int {
		if p == y {
			return color
		}
		return -color
	}
	b := make([]byte, 0, 160)
	b = append(b, "board:"...)
	b = append(b, fibsName(name, "You")...)
	b = append(b, ':')
	b = append(b, fibsName(opponent, "Opponent")...)
	m := int(s.matchLen)
	if m == 0 {
		m = fibsUnlimited
	}
	b = fmt.Appendf(b, ":%d:%d:%d", m, s.score[y], s.score[o])
	var pos [26]int
	for p := 1; p <= 24; p++ {
		i := p
		if dir > 0 {
			i = 25 - p
		}
		if n := s.board[y][p-1]; n > 0 {
			pos[i] = color * int(n)
		}
		if n := s.board[o][p-1]; n > 0 {
			pos[25-i] = -color * int(n)
		}
	}
	yourBar, oppBar := 25, 0
	if dir > 0 {
		yourBar, oppBar = 0, 25
	}
	pos[yourBar] = color * int(s.board[y][24])
	pos[oppBar] = -color * int(s.board[o][24])
	for _, n := range pos {
		b = fmt.Appendf(b, ":%d", n)
	}
	turn := sideOf(s.turn)
	if s.phase == PhaseOver {
		turn = 0
	}
	var dice [2][2]uint8
	if s.phase == PhaseMove {
		if s.turn == y {
			dice[0] = s.dice
		} else {
			dice[1] = s.dice
		}
	}
	may := func(p uint8) int {
		if s.owner == ownerCentre || s.owner == p {
			return 1
		}
		return 0
	}
	doubled := 0
	if s.doubled {
		doubled = 1 // the player answers
		if s.actor != y {
			doubled = -1 // the player doubled
		}
	}
	canMove := 0
	if s.phase == PhaseMove && s.resign == 0 && s.turn == y {
		g := genPool.Get().(*gen)
		g.generate(&s)
		canMove = g.bestN
		genPool.Put(g)
	}
	home, bar := 0, 25
	if dir > 0 {
		home, bar = 25, 0
	}
	did := 0
	if s.PostCrawford() {
		did = 1
	}
	b = fmt.Appendf(b, ":%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:0:%d:0",
		turn, dice[0][0], dice[0][1], dice[1][0], dice[1][1], 1<<s.cubeLog, may(y), may(o), doubled,
		color, dir, home, bar, s.off(int(y)), s.off(int(o)), s.board[y][24], s.board[o][24], canMove, did)
	return string(b)
}
