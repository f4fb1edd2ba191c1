package backgammon

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// gnubg Position ID and Match ID (spec "Interchange formats"; bit layouts in
// testdata/README.md).

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

var b64val = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(b64); i++ {
		t[b64[i]] = int8(i)
	}
	return t
}()

// encode64 writes the low nbits of bits (LSB-first bytes) as base64 without
// padding: 6 bits per character, most significant bit of each byte first,
// exactly as the standard encoding does.
func encode64(data []byte) string {
	return string(appendEncode64(make([]byte, 0, (len(data)*8+5)/6), data))
}

// appendEncode64 is encode64 appending to out: the standard alphabet
// without padding, which is encoding/base64's RawStdEncoding.
func appendEncode64(out []byte, data []byte) []byte {
	return base64.RawStdEncoding.AppendEncode(out, data)
}

// decode64 decodes exactly len(dst) bytes from s (standard alphabet, no
// padding, len(s) = ceil(8*len(dst)/6)). It returns the offset of the first
// bad character, or -1 when s is fine. The unused low bits of the last
// character must be zero.
func decode64(s string, dst []byte) int {
	var acc uint32
	nacc, j := 0, 0
	for i := 0; i < len(s); i++ {
		v := b64val[s[i]]
		if v < 0 {
			return i
		}
		acc = acc<<6 | uint32(v)
		nacc += 6
		if nacc >= 8 {
			nacc -= 8
			if j == len(dst) {
				return i
			}
			dst[j] = byte(acc >> nacc)
			j++
		}
	}
	if j != len(dst) || acc&(1<<nacc-1) != 0 {
		return len(s) - 1
	}
	return -1
}

// PositionID returns the gnubg Position ID of s (14 characters), written from
// the side of the player whose turn it is: the other player's 25 slots first,
// then the player on turn's (testdata/README.md).
func (s State) PositionID() string {
	key := s.positionKey()
	return encode64(key[:])
}

// positionKey returns the 80 bits the Position ID encodes: for each of
// the 50 slots (the player not on turn's 25, then the player on turn's),
// as many 1 bits as it has checkers, then a 0. A valid State has at most 15
// checkers a side, so each side's 25 slots take at most 40 bits: each side
// is gathered in one word, two slots at a time (pairRuns), and the two
// words joined. Any other board is written bit by bit, cut at 80 bits
// (positionKeyBits).
func (s State) positionKey() (key [10]byte) {
	first, n0, ok0 := rowKey(&s.board[1-s.turn])
	second, _, ok1 := rowKey(&s.board[s.turn])
	if !ok0 || !ok1 {
		return s.positionKeyBits()
	}
	return joinKey(first, n0, second)
}

// joinKey is the Position ID's 80 bits of two sides' rowKey bits: the
// player not on turn's (first, n0 of them, at most 40), then the player on
// turn's (second).
func joinKey(first uint64, n0 uint, second uint64) (key [10]byte) {
	lo := first | second<<n0  // n0 <= 40
	hi := second >> (64 - n0) // 64-n0 >= 24
	binary.LittleEndian.PutUint64(key[:8], lo)
	key[8], key[9] = byte(hi), byte(hi>>8)
	return key
}

// appendKey64 appends the 14 characters of a Position ID's key: what
// appendEncode64(b, key[:]) appends (the standard alphabet without
// padding), three bytes at a time without encoding/base64's loop.
func appendKey64(b []byte, key *[10]byte) []byte {
	var out [14]byte
	for g := range 3 {
		v := uint(key[3*g])<<16 | uint(key[3*g+1])<<8 | uint(key[3*g+2])
		out[4*g], out[4*g+1], out[4*g+2], out[4*g+3] = b64[v>>18], b64[v>>12&63], b64[v>>6&63], b64[v&63]
	}
	out[12], out[13] = b64[key[9]>>2], b64[key[9]&3<<4]
	return append(b, out[:]...)
}

// rowKey returns the Position ID bits of one side's 25 slots (from bit 0),
// their number, and false when the side has more than Checkers checkers
// (the bits are then not used).
func rowKey(row *[25]uint8) (bits uint64, n uint, ok bool) {
	total := uint(0)
	for i := 0; i < 24; i += 2 {
		a, b := row[i], row[i+1]
		t := pairRuns[a&15|(b&15)<<4]
		bits |= uint64(t>>8) << (n & 63)
		n += uint(t & 0xff)
		total += uint(a) + uint(b)
	}
	c := row[24]
	bits |= (1<<(c&15) - 1) << (n & 63)
	n += uint(c&15) + 1
	total += uint(c)
	return bits, n, total <= Checkers
}

// pairRuns[a | b<<4] is the Position ID bits of two neighbouring slots
// with a and b checkers (a ones, a 0, b ones, a 0) shifted left by 8, plus
// their number (a+b+2).
var pairRuns = func() (t [256]uint64) {
	for a := range 16 {
		for b := range 16 {
			bits := uint64(1)<<a - 1 | (uint64(1)<<b-1)<<(a+1)
			t[a|b<<4] = bits<<8 | uint64(a+b+2)
		}
	}
	return t
}()

// positionKeyBits is positionKey one bit at a time, cut at 80 bits: for a
// board no valid State has.
func (s State) positionKeyBits() (key [10]byte) {
	bit := 0
	for _, p := range [2]uint8{1 - s.turn, s.turn} {
		for _, c := range s.board[p] {
			for k := uint8(0); k < c && bit < 80; k++ {
				key[bit>>3] |= 1 << (bit & 7)
				bit++
			}
			bit++ // the 0 separator
		}
	}
	return key
}

// decodePositionID reads a Position ID into two rows: rows[0] is the player
// NOT on roll, rows[1] the player on roll, each from his own side.
func decodePositionID(id string) (rows [2][25]uint8, pe *game.ParseError) {
	bad := func(off int, why string) *game.ParseError {
		return &game.ParseError{Game: "backgammon", What: "Position ID", Input: id, Offset: off, Reason: why, Kind: game.ErrInvalidState}
	}
	if len(id) != 14 {
		return rows, bad(-1, fmt.Sprintf("has %d characters; a Position ID has 14", len(id)))
	}
	var key [10]byte
	if off := decode64(id, key[:]); off >= 0 {
		return rows, bad(off, "not base64 (A-Z a-z 0-9 + /) or stray bits in the last character")
	}
	p, slot := 0, 0
	bit := 0
	for ; bit < 80 && p < 2; bit++ {
		if key[bit>>3]&(1<<(bit&7)) != 0 {
			if rows[p][slot] == Checkers {
				return rows, bad(-1, fmt.Sprintf("more than 15 checkers on one slot (bit %d)", bit))
			}
			rows[p][slot]++
			continue
		}
		slot++
		if slot == 25 {
			p, slot = p+1, 0
		}
	}
	if p < 2 {
		return rows, bad(-1, "more than 30 checkers in all (at most 15 a side): its 80 bits end before the 50 slot separators")
	}
	for ; bit < 80; bit++ {
		if key[bit>>3]&(1<<(bit&7)) != 0 {
			return rows, bad(-1, fmt.Sprintf("padding bit %d is set", bit))
		}
	}
	return rows, nil
}

// Match ID fields (bit offsets, widths), testdata/README.md.
const (
	midCube      = 0  // 4: log2 of the cube value
	midCubeOwner = 4  // 2: 0, 1, or 3 = centred
	midDiceOwner = 6  // 1: player on roll
	midCrawford  = 7  // 1
	midGameState = 8  // 3: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped
	midTurn      = 11 // 1: player to act
	midDouble    = 12 // 1: double offered
	midResign    = 13 // 2
	midDie1      = 15 // 3
	midDie2      = 18 // 3
	midMatchLen  = 21 // 15
	midScore0    = 36 // 15
	midScore1    = 51 // 15
	midNoJacoby  = 66 // 1: gnubg 1.07's Jacoby flag, set when the rule is off; kept as read
)

type matchKey [9]byte

func (k *matchKey) put(off, width int, v uint32) {
	for i := 0; i < width; i++ {
		k[(off+i)>>3] &^= 1 << ((off + i) & 7)
		if v&(1<<i) != 0 {
			k[(off+i)>>3] |= 1 << ((off + i) & 7)
		}
	}
}

func (k *matchKey) get(off, width int) uint32 {
	var v uint32
	for i := 0; i < width; i++ {
		if k[(off+i)>>3]&(1<<((off+i)&7)) != 0 {
			v |= 1 << i
		}
	}
	return v
}

// MatchID returns the gnubg Match ID of s (12 characters), as gnubg 1.07
// writes it (spec "Doubling cube, match play, resignation"): the cube's
// log2 and owner (3 = centred), the dice owner (bit 6, OnRoll) and the
// player to act (bit 11, Turn), the Crawford flag, the game state (0 in
// PhaseOpening, 1 while playing, 2/3/4 at the end: borne off, resigned,
// dropped), the double offered, the resignation level, the dice, the match
// length, the score (Score: after the end it includes the points won), and
// bit 66, the Jacoby flag (JacobyBit), clear only when it is on: as read,
// or as New set it (clear in a money game with the cube and the rule, set
// in a match and in the leaflet's game). A game without the cube is a money
// game with the cube at 1 and centred.
func (s State) MatchID() string {
	k := s.matchKey()
	return encode64(k[:])
}

// matchKey returns the 66 bits the Match ID encodes, gathered in two
// words (bits 0-63 and 64-71) and written as matchKey.put would write
// them field by field.
func (s State) matchKey() (k matchKey) {
	var lo, hi uint64
	put := func(off, width uint, v uint64) {
		v &= 1<<width - 1
		lo |= v << off
		if off+width > 64 {
			hi |= v >> (64 - off)
		}
	}
	put(midCube, 4, uint64(s.cubeLog))
	put(midCubeOwner, 2, uint64(s.owner))
	put(midDiceOwner, 1, uint64(s.turn))
	if s.crawford {
		put(midCrawford, 1, 1)
	}
	var gs uint64
	switch s.phase {
	case PhaseRoll, PhaseMove:
		gs = 1
	case PhaseOver:
		gs = uint64(s.end)
	}
	put(midGameState, 3, gs)
	put(midTurn, 1, uint64(s.actor))
	if s.doubled {
		put(midDouble, 1, 1)
	}
	put(midResign, 2, uint64(s.resign))
	put(midDie1, 3, uint64(s.dice[0]))
	put(midDie2, 3, uint64(s.dice[1]))
	put(midMatchLen, 15, uint64(s.matchLen))
	put(midScore0, 15, uint64(s.score[0]))
	put(midScore1, 15, uint64(s.score[1]))
	if !s.jacoby {
		hi |= 1 << (midNoJacoby - 64)
	}
	binary.LittleEndian.PutUint64(k[:8], lo)
	k[8] = byte(hi)
	return k
}

// String returns the canonical text form of s, gnubg's ID
// "<PositionID>:<MatchID>" (spec "How the API represents a turn"), e.g.
// "4HPwATDgc/ABMA:MIEFAAAAAAAE" for the start position with white to play
// 3-1; in a money game with the cube in use followed by " cube", by
// " beavers" when beavers are allowed, and by " beaver_count=3" while a
// third beaver in a row awaits an answer (the one count of beavers the
// Match ID cannot tell: it shows 1 or 3 alike; spec "Text form with the
// cube"). ParseState(s.String()) == s for every valid s. One allocation
// (the string); AppendText writes the same bytes into a caller's buffer.
func (s State) String() string {
	var buf [64]byte
	b, _ := s.AppendText(buf[:0])
	return string(b)
}

// AppendText appends s's text (exactly the bytes of s.String(), at most 55)
// to b and returns the extended buffer; it does not allocate when b has
// room, and the error is always nil (State implements encoding.TextAppender).
func (s State) AppendText(b []byte) ([]byte, error) {
	pk := s.positionKey()
	return s.appendMatchText(appendKey64(b, &pk)), nil
}

// appendMatchText appends what follows the Position ID in s's text: ':',
// the Match ID and the settings words. It does not depend on the board.
func (s State) appendMatchText(b []byte) []byte {
	mk := s.matchKey()
	b = append(b, ':')
	b = appendEncode64(b, mk[:])
	if s.cubeUse && s.matchLen == 0 {
		b = append(b, " cube"...)
	}
	if s.beavers {
		b = append(b, " beavers"...)
	}
	if s.beavered != s.impliedBeavers() {
		b = append(b, " beaver_count="...)
		b = append(b, '0'+s.beavered)
	}
	return b
}

// AppendTexts appends the text of each of states to b, one after the
// other (the bytes of each one's String), and returns the extended buffer
// and ends extended by where each text ends in it. A state that differs
// from the one before only in its board (as the results of one roll's
// plays do) reuses the part after its Position ID, which only the board
// does not change.
func AppendTexts(b []byte, ends []int, states []State) ([]byte, []int) {
	var tail [48]byte
	var prev State
	n := 0
	// The side on turn's row and its key bits, kept from state to state:
	// in one roll's results it is the opponent's, which only a hit changes.
	var onRow [25]uint8
	var onBits uint64
	var onOK bool
	for i := range states {
		s := &states[i]
		if on := &s.board[s.turn]; i == 0 || *on != onRow {
			onRow = *on
			onBits, _, onOK = rowKey(on)
		}
		var pk [10]byte
		if first, n0, ok := rowKey(&s.board[1-s.turn]); ok && onOK {
			pk = joinKey(first, n0, onBits)
		} else {
			pk = s.positionKeyBits()
		}
		b = appendKey64(b, &pk)
		key := *s
		key.board = [2][25]uint8{}
		if i == 0 || key != prev {
			n = len(s.appendMatchText(tail[:0]))
			prev = key
		}
		b = append(b, tail[:n]...)
		ends = append(ends, len(b))
	}
	return b, ends
}

// ParseState reads a state from gnubg's ID "<PositionID>:<MatchID>" (as
// gnubg's "set gnubgid" takes it; surrounding spaces are ignored),
// optionally followed by the settings words " cube" and " beavers" and the
// count " beaver_count=N" (N = 0..3, beavers in a row in the doubling now
// offered; without it, what the Match ID shows: 1 while a beaver awaits an
// answer, 2 after a raccoon, else 0), in that order (spec "Text form with
// the cube"). The Match ID gives the dice owner, the player
// on turn, the game state, the dice, the cube, the match and the decisions:
//
//   - game state 0 without dice: PhaseOpening, which only the start position
//     can be in (nobody has moved; any other board is refused); with dice:
//     PhaseMove on any board (some tools write the first play that way);
//   - game state 1: PhaseRoll without dice, PhaseMove with dice; PhaseDouble
//     with the double offered, PhaseResign with a resignation offered;
//   - game state 2: PhaseOver, borne off (dice, if any, are ignored); 3: a
//     resignation accepted (the level still set); 4: a double dropped.
//
// Dice are kept higher first (gnubg sorts them the same way), so a Match ID
// with the lower die first reads as the same State as with the higher first.
//
// The cube is in use when the word "cube" follows, or when the ID's cube is
// turned, owned or offered, a resignation is offered or accepted, or the
// game belongs to a match; otherwise it is the leaflet's game. Bit 66 (the
// Jacoby flag) is kept as read in every state and written back unchanged,
// as gnubg keeps it; only in a money game with the cube does bit 66 clear
// mean the Jacoby rule is on (in a match gammons always count; the
// leaflet's game has no Jacoby rule). A malformed ID, an
// unknown word, or a state Validate rejects is an error wrapping
// game.ErrInvalidState (a *game.ParseError for syntax).
//
// A bare Position ID (no ":") is read as white (player 0) to roll, or
// PhaseOver if a player has no checkers left.
func ParseState(text string) (State, error) {
	text = strings.TrimSpace(text)
	id, words, _ := strings.Cut(text, " ")
	var cubeWord, beaverWord bool
	beaverCount := -1 // no beaver_count word
	for i, w := range strings.Fields(words) {
		switch {
		case w == "cube" && i == 0:
			cubeWord = true
		case w == "beavers" && !beaverWord && beaverCount < 0:
			beaverWord = true
		case strings.HasPrefix(w, "beaver_count=") && beaverCount < 0:
			n := w[len("beaver_count="):]
			if len(n) != 1 || n[0] < '0' || n[0] > '0'+MaxBeavers {
				return State{}, &game.ParseError{Game: "backgammon", What: "state", Input: text, Offset: -1,
					Reason: fmt.Sprintf("%s: the count of beavers in a row is 0..%d", game.Quote(w), MaxBeavers), Kind: game.ErrInvalidState}
			}
			beaverCount = int(n[0] - '0')
		default:
			return State{}, &game.ParseError{Game: "backgammon", What: "state", Input: text, Offset: -1,
				Reason: fmt.Sprintf("unknown setting %s after the gnubg ID; the settings are \"cube\", \"beavers\" and \"beaver_count=N\", in that order", game.Quote(w)), Kind: game.ErrInvalidState}
		}
	}
	pid, mid, hasMid := strings.Cut(id, ":")
	if !hasMid {
		if cubeWord || beaverWord || beaverCount >= 0 {
			return State{}, fmt.Errorf("backgammon: %w: the settings words need a Match ID (\"<PositionID>:<MatchID> cube\")", game.ErrInvalidState)
		}
		s, err := FromPositionID(pid, White, PhaseRoll, 0, 0)
		if err != nil && errors.Is(err, game.ErrInvalidState) {
			// A finished position: read it as over.
			if over, err2 := FromPositionID(pid, White, PhaseOver, 0, 0); err2 == nil {
				return over, nil
			}
		}
		return s, err
	}
	var s State
	if len(mid) != 12 {
		return State{}, &game.ParseError{Game: "backgammon", What: "state", Input: text, Offset: len(pid) + 1,
			Reason: fmt.Sprintf("Match ID has %d characters; it has 12", len(mid)), Kind: game.ErrInvalidState}
	}
	var k matchKey
	if off := decode64(mid, k[:]); off >= 0 {
		return State{}, &game.ParseError{Game: "backgammon", What: "state", Input: text, Offset: len(pid) + 1 + off,
			Reason: "Match ID is not base64 (A-Z a-z 0-9 + /)", Kind: game.ErrInvalidState}
	}
	unsupported := func(why string, args ...any) (State, error) {
		return State{}, fmt.Errorf("backgammon: %w: Match ID %s: %s", game.ErrInvalidState, mid, fmt.Sprintf(why, args...))
	}
	s.cubeLog = uint8(k.get(midCube, 4))
	if s.cubeLog > 12 {
		return unsupported("cube at %d; gnubg's limit is %d", 1<<s.cubeLog, MaxCube)
	}
	s.owner = uint8(k.get(midCubeOwner, 2))
	if s.owner == 2 {
		return unsupported("cube owner field is 2, which gnubg does not use (0 or 1 = a player, 3 = centred)")
	}
	s.crawford = k.get(midCrawford, 1) != 0
	s.doubled = k.get(midDouble, 1) != 0
	s.resign = uint8(k.get(midResign, 2))
	s.matchLen = uint16(k.get(midMatchLen, 15))
	if k[8]>>3 != 0 {
		return unsupported("bits 67..71 are set; gnubg does not use them")
	}
	turn := k.get(midDiceOwner, 1)
	s.actor = uint8(k.get(midTurn, 1))
	d1, d2 := k.get(midDie1, 3), k.get(midDie2, 3)
	if d1 > 6 || d2 > 6 || (d1 == 0) != (d2 == 0) {
		return unsupported("dice %d-%d; each die is 1..6, or both 0 before the roll", d1, d2)
	}
	s.score = [2]uint16{uint16(k.get(midScore0, 15)), uint16(k.get(midScore1, 15))}
	var phase Phase
	gs := k.get(midGameState, 3)
	switch gs {
	case 0:
		phase = PhaseOpening
		if d1 != 0 {
			phase = PhaseMove
		}
	case 1:
		phase = PhaseRoll
		if d1 != 0 {
			phase = PhaseMove
		}
	case 2:
		phase = PhaseOver
		d1, d2 = 0, 0 // the last roll may still be shown; it no longer matters
	case 3:
		phase = PhaseOver // the dice of the turn the resignation was made in stay
	case 4:
		phase = PhaseOver
		d1, d2 = 0, 0
	default:
		return unsupported("game state %d is not one gnubg defines (0 no game, 1 playing, 2 over, 3 resigned, 4 dropped)", gs)
	}
	if phase == PhaseOver {
		s.end = uint8(gs)
	}
	s.cubeUse = cubeWord || s.cubeLog != 0 || s.owner != ownerCentre || s.doubled || s.resign != 0 || s.matchLen != 0 || gs >= 3
	s.jacoby = k.get(midNoJacoby, 1) == 0
	if cubeWord && s.matchLen != 0 {
		return unsupported("the word \"cube\" is for a money game; a match (length %d) always has the cube", s.matchLen)
	}
	if beaverWord {
		if !s.cubeUse || s.matchLen != 0 {
			return unsupported("\"beavers\" needs a money game with the cube in use")
		}
		s.beavers = true
	}
	if beaverCount >= 0 && !beaverWord {
		return unsupported("\"beaver_count\" needs beavers allowed (the word \"beavers\" before it)")
	}
	rows, pe := decodePositionID(pid)
	if pe != nil {
		pe.Input = text
		return State{}, pe
	}
	s.board[1-turn] = rows[0]
	s.board[turn] = rows[1]
	s.turn = uint8(turn)
	s.phase = phase
	if d1 < d2 {
		d1, d2 = d2, d1 // higher first, as gnubg's "set gnubgid" keeps them
	}
	s.dice = [2]uint8{uint8(d1), uint8(d2)}
	s.beavered = s.impliedBeavers()
	if beaverCount >= 0 {
		s.beavered = uint8(beaverCount)
	}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}

// FromPositionID builds a State from a bare gnubg Position ID, read from the
// side of turn (the player on turn), with the phase and, for PhaseMove, the
// dice (1..6; 0 otherwise). The result is validated; errors wrap
// game.ErrInvalidState.
func FromPositionID(id string, turn int, phase Phase, d1, d2 int) (State, error) {
	rows, pe := decodePositionID(strings.TrimSpace(id))
	if pe != nil {
		return State{}, pe
	}
	if turn != 0 && turn != 1 {
		return State{}, fmt.Errorf("backgammon: %w: turn %d is not a player (0 or 1)", game.ErrInvalidState, turn)
	}
	var b Board
	for i := 0; i < 25; i++ {
		b[1-turn][i] = int(rows[0][i])
		b[turn][i] = int(rows[1][i])
	}
	return FromBoard(b, turn, phase, d1, d2)
}

// WithScore returns s with the money-session score the Match ID carries set
// to a (white) and b (black), each 0..32767. Errors wrap game.ErrInvalidState.
func (s State) WithScore(a, b int) (State, error) {
	if a < 0 || a >= 1<<15 || b < 0 || b >= 1<<15 {
		return State{}, fmt.Errorf("backgammon: %w: score %d-%d: each is 0..32767 (15 bits of the Match ID)", game.ErrInvalidState, a, b)
	}
	s.score = [2]uint16{uint16(a), uint16(b)}
	if err := s.validateCube(); err != nil {
		return State{}, err
	}
	return s, nil
}

// Finished reports whether a player has no checkers left on b (then a
// State of b is in PhaseOver).
func (b Board) Finished() bool {
	for p := 0; p < 2; p++ {
		n := 0
		for _, c := range b[p] {
			n += c
		}
		if n == 0 {
			return true
		}
	}
	return false
}
