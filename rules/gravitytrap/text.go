package gravitytrap

import (
	"slices"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// String returns the canonical text form (spec "Text form of a state"):
// `<stations> <turn>[ <board>][ <flags>]`: one character per station from
// station 0 ('o' marble, '.' empty, 'R' red ship, 'B' blue ship), a space,
// the player to act ('r'/'b' to move, 'R'/'B' to place), then " rings" on
// the rings board (no token on the default board or on a caller's board),
// then " m" when AllowMirrorPlacement is on. The flag is written in every
// phase, so the text keeps everything the State holds except a caller's
// board. Example: "RoooBooooooooooooooooo r". The zero State gives "".
//
// One allocation; AppendText writes the same bytes into a caller's buffer.
func (s State) String() string {
	if s.board == nil {
		return ""
	}
	var buf [96]byte
	b, _ := s.AppendText(buf[:0])
	return string(b)
}

// AppendText appends s's text (exactly the bytes of s.String(): one byte
// per station and at most 10 more on a built-in board) to b and returns the
// extended buffer; it does not allocate when b has room, and the error is
// always nil (State implements encoding.TextAppender). The zero State
// appends nothing.
func (s State) AppendText(b []byte) ([]byte, error) {
	bd := s.board
	if bd == nil {
		return b, nil
	}
	b = slices.Grow(b, bd.n+12+len(bd.name))
	for i := 0; i < bd.n; i++ {
		switch {
		case int(s.ship[Red]) == i:
			b = append(b, 'R')
		case int(s.ship[Blue]) == i:
			b = append(b, 'B')
		case s.marbles&(1<<i) != 0:
			b = append(b, 'o')
		default:
			b = append(b, '.')
		}
	}
	turn := "rb"
	if s.placing {
		turn = "RB"
	}
	b = append(b, ' ', turn[s.toAct])
	if bd.name != "" && bd.name != DefaultBoardName {
		b = append(append(b, ' '), bd.name...)
	}
	if s.allowMirror {
		b = append(b, " m"...)
	}
	return b, nil
}

// ParseState reads the canonical text form (see State.String) on a built-in
// board: no board token means the default board, "rings" the rings board.
// A state on a caller's board needs its board: use ParseStateOn.
//
// The form is strict: single spaces, no other tokens, the board token (if
// any) before the flag, "default" never written. The result is validated
// (State.Validate). Errors: a *game.ParseError with Kind
// game.ErrInvalidState for malformed text, or Validate's error.
func ParseState(text string) (State, error) { return parseState(nil, text) }

// ParseStateOn reads the text form of a state on board b (nil means the
// default board). For a built-in board the board token must name b (none
// for the default board); for a caller's board there must be no board token.
// Errors as ParseState, plus a *game.ParseError when the token and b
// disagree.
func ParseStateOn(b *Board, text string) (State, error) { return parseState(b.orDefault(), text) }

func parseState(b *Board, text string) (State, error) {
	toks := strings.Split(text, " ")
	offs := make([]int, len(toks))
	for i, off := 1, 0; i < len(toks); i++ {
		off += len(toks[i-1]) + 1
		offs[i] = off
	}
	for i, t := range toks {
		if t == "" {
			return State{}, textErr(text, offs[i], "want `<stations> <turn>[ <board>][ m]` separated by single spaces")
		}
	}
	if len(toks) < 2 || len(toks) > 4 {
		return State{}, textErr(text, -1, "want `<stations> <turn>[ <board>][ m]`, e.g. \"RoooBooooooooooooooooo r\"")
	}
	name, nameAt, mirror := "", -1, false
	for i := 2; i < len(toks); i++ {
		switch {
		case toks[i] == "m" && i == len(toks)-1:
			mirror = true
		case i == 2 && toks[i] != "m":
			name, nameAt = toks[i], offs[i]
		default:
			return State{}, textErr(text, offs[i], "unexpected "+game.Quote(toks[i])+" (the board name comes before the flag m)")
		}
	}
	switch {
	case name == DefaultBoardName:
		return State{}, textErr(text, nameAt, "the default board is written without a name")
	case b == nil:
		bb, err := BuiltinBoard(name)
		if err != nil {
			return State{}, textErr(text, nameAt, "unknown board "+game.Quote(name)+" (built in: rings; a caller's board travels as typed data)")
		}
		b = bb
	case b.name == "" && name != "":
		return State{}, textErr(text, nameAt, "board "+game.Quote(name)+" given, but the state is on a caller's board (which has no name)")
	case b.name != "" && name != b.name && !(name == "" && b.name == DefaultBoardName):
		if name == "" {
			return State{}, textErr(text, -1, "no board name, but the state is on board "+game.Quote(b.name))
		}
		return State{}, textErr(text, nameAt, "board "+game.Quote(name)+" given, but the state is on board "+game.Quote(b.name))
	}

	st := toks[0]
	if len(st) != b.n {
		return State{}, textErr(text, 0, "want one character per station: "+itoa(b.n)+", not "+itoa(len(st)))
	}
	s := State{board: b, ship: [2]int8{NoStation, NoStation}, allowMirror: mirror}
	for i := 0; i < len(st); i++ {
		switch c := st[i]; c {
		case 'o':
			s.marbles |= 1 << i
		case '.':
		case 'R', 'B':
			p := Red
			if c == 'B' {
				p = Blue
			}
			if s.ship[p] != NoStation {
				return State{}, textErr(text, i, "two "+playerNames[p]+" ships")
			}
			s.ship[p] = int8(i)
		default:
			return State{}, textErr(text, i, "want 'o' (marble), '.' (empty), 'R' or 'B' (ship), not "+game.Quote(string(c)))
		}
	}
	turn := toks[1]
	switch turn {
	case "r":
		s.toAct = Red
	case "b":
		s.toAct = Blue
	case "R":
		s.toAct, s.placing = Red, true
	case "B":
		s.toAct, s.placing = Blue, true
	default:
		return State{}, textErr(text, offs[1], "want the player to act: r or b (to move), R or B (to place)")
	}
	if err := s.Validate(); err != nil {
		return State{}, err
	}
	return s, nil
}

func textErr(input string, off int, reason string) error {
	return &game.ParseError{Game: "gravitytrap", What: "state", Input: input, Offset: off, Reason: reason, Kind: game.ErrInvalidState}
}
