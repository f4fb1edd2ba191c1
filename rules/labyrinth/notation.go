package labyrinth

import (
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// ParseMove reads a move in the spec's notation ("Move notation"): a shift
// "N2", "N2:0".."N2:3", a ship move "r3c5" or a Vader move "V:r3c5". A shift
// whose rotation gives the same orientation of s's spare as a smaller one is
// returned with the smallest (with a straight spare "N2:2" is "N2"), so the
// result equals the move LegalMoves lists.
//
// ParseMove checks the syntax only; Apply decides whether the move is legal.
// Errors are *game.ParseError with Kind game.ErrIllegalMove.
func ParseMove(s State, text string) (Move, error) {
	bad := func(off int, reason string) (Move, error) {
		return Move{}, &game.ParseError{Game: "labyrinth", What: "move", Input: text, Offset: off, Reason: reason, Kind: game.ErrIllegalMove}
	}
	if len(text) >= 2 && (text[0] == 'r' || (text[0] == 'V' && text[1] == ':')) {
		m := Move{}
		sq := text
		off := 0
		if text[0] == 'V' {
			m.Vader = true
			sq, off = text[2:], 2
		}
		q, ok := parseSquare(sq)
		if !ok {
			return bad(off, "want a square r1c1..r7c7")
		}
		m.To = q
		return m, nil
	}
	if len(text) < 2 {
		return bad(0, "want a shift such as N2:1 or a square such as r3c5")
	}
	p, ok := parsePoint(text[:2])
	if !ok {
		return bad(0, "want an insertion point N2, N4, N6, E2, …, W6 or a square such as r3c5")
	}
	m := Move{Point: p}
	switch rest := text[2:]; {
	case rest == "":
	case len(rest) == 2 && rest[0] == ':' && rest[1] >= '0' && rest[1] <= '3':
		m.Rotation = (rest[1] - '0') % uint8(distinctRotations(s.spare.Sides))
	default:
		return bad(2, "want ':' and a rotation 0..3 after the insertion point")
	}
	return m, nil
}

// parseSquare reads "r3c5".
func parseSquare(t string) (Square, bool) {
	if len(t) != 4 || t[0] != 'r' || t[2] != 'c' {
		return NoSquare, false
	}
	q := Sq(int(t[1])-'0', int(t[3])-'0')
	return q, q.Valid()
}

// parseFigureSquare reads the two digits of a figure's square, "35".
func parseFigureSquare(t string) (Square, bool) {
	if len(t) != 2 {
		return NoSquare, false
	}
	q := Sq(int(t[0])-'0', int(t[1])-'0')
	return q, q.Valid()
}

// String returns the text form of s (spec "Text form of a state"):
//
//	<board> <spare> <figures> <last> <turn> <cards> <variants>
//
// e.g. "6aeA…/…/… 5 R11,Y17 - Rs :AKX…,:BQ… -". Hidden cards of a view are
// '?'. A finished game writes <turn> as "-"; in the one case where that
// would not tell the winner (Darth Vader found the last card of a player
// whose ship waits on its start square, and another player won first) it
// writes the winner's colour letter before the "-", e.g. "Y-" (our choice:
// the spec does not say how to tell the winner from the text). One
// allocation; AppendText writes the same bytes into a caller's buffer.
func (s State) String() string {
	var buf [192]byte
	b, _ := s.AppendText(buf[:0])
	return string(b)
}

// AppendText appends s's text (exactly the bytes of s.String(), under 160)
// to b and returns the extended buffer; it does not allocate when b has
// room, and the error is always nil (State implements encoding.TextAppender).
func (s State) AppendText(b []byte) ([]byte, error) {
	for q := Square(0); q < NumSquares; q++ {
		if q > 0 && q%7 == 0 {
			b = append(b, '/')
		}
		b = s.board[q].appendText(b)
	}
	b = append(b, ' ')
	b = s.spare.appendText(b)
	b = append(b, ' ')
	for p := 0; p < int(s.n); p++ {
		if p > 0 {
			b = append(b, ',')
		}
		b = appendFigure(b, s.colors[p].Letter(), s.ships[p])
	}
	if s.vader.Valid() {
		if s.n > 0 {
			b = append(b, ',')
		}
		b = appendFigure(b, 'V', s.vader)
	}
	b = append(b, ' ')
	b = s.last.appendText(b)
	b = append(b, ' ')
	switch s.phase {
	case PhaseShift:
		b = append(b, s.colors[s.turn].Letter(), 's')
	case PhaseMove:
		b = append(b, s.colors[s.turn].Letter(), 'm')
	default:
		if s.phase == PhaseOver && s.ambiguousWinner() {
			b = append(b, s.colors[s.turn].Letter())
		}
		b = append(b, '-')
	}
	b = append(b, ' ')
	for p := 0; p < int(s.n); p++ {
		if p > 0 {
			b = append(b, ',')
		}
		for i := uint8(0); i < s.count[p]; i++ {
			if i == s.found[p] {
				b = append(b, ':')
			}
			b = append(b, TargetLetter(s.cards[p][i]))
		}
		if s.found[p] == s.count[p] {
			b = append(b, ':')
		}
	}
	b = append(b, ' ')
	n := len(b)
	if s.variants.Vader {
		b = append(b, 'v')
	}
	if s.variants.OpenCards {
		b = append(b, 'o')
	}
	if s.variants.NoReturn {
		b = append(b, 'n')
	}
	if len(b) == n {
		b = append(b, '-')
	}
	return b, nil
}

func appendFigure(b []byte, letter byte, q Square) []byte {
	if !q.Valid() {
		return append(b, letter, '?', '?')
	}
	return append(b, letter, byte('0'+q.Row()), byte('0'+q.Col()))
}

// ambiguousWinner reports whether, in a finished game, more than one player
// meets the winning condition, so that "-" alone would not tell the winner.
func (s *State) ambiguousWinner() bool {
	k := 0
	for p := 0; p < int(s.n); p++ {
		if s.won(p) {
			k++
		}
	}
	return k > 1
}

// ParseState reads the text form that String writes (spec "Text form of a
// state"), with single spaces between the seven fields. It checks
// everything Validate checks, except that hidden cards ('?', a per-player
// view) are accepted; such a State prints back the same but cannot be
// played. A finished game ("-") gets as winner the one player who meets the
// winning condition; where several do, the text must name the winner ("Y-").
//
// Errors are *game.ParseError with Kind game.ErrInvalidState; Offset points
// at the field (or character) at fault.
func ParseState(text string) (State, error) {
	bad := func(off int, reason string) (State, error) {
		return State{}, &game.ParseError{Game: "labyrinth", What: "state", Input: text, Offset: off, Reason: reason, Kind: game.ErrInvalidState}
	}
	var fields [7]string
	var offs [7]int
	start, k := 0, 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && text[i] != ' ' {
			continue
		}
		if k == len(fields) {
			return bad(start, "more than 7 space-separated fields")
		}
		fields[k], offs[k] = text[start:i], start
		if fields[k] == "" {
			return bad(start, "empty field (fields are separated by single spaces)")
		}
		k++
		start = i + 1
	}
	if k != len(fields) {
		return bad(len(text), "want 7 fields: board spare figures last turn cards variants")
	}
	var s State

	// Variants first: they say whether Darth Vader must be in <figures>.
	if v := fields[6]; v != "-" {
		for i := 0; i < len(v); i++ {
			var f *bool
			switch v[i] {
			case 'v':
				f = &s.variants.Vader
			case 'o':
				f = &s.variants.OpenCards
			case 'n':
				f = &s.variants.NoReturn
			default:
				return bad(offs[6]+i, "want variants v, o, n or '-'")
			}
			if *f {
				return bad(offs[6]+i, "variant given twice")
			}
			*f = true
		}
	}

	// Board.
	board, i, ok := parseBoard(fields[0])
	if !ok {
		return bad(offs[0]+i, "want 7 rows of 7 tiles (hex digit, optional target A-X, optional '*') separated by '/'")
	}
	s.board = board
	if t, n, ok := parseTile(fields[1]); !ok || n != len(fields[1]) {
		return bad(offs[1], "want the spare tile: hex digit, optional target A-X, optional '*'")
	} else {
		s.spare = t
	}

	// Figures.
	s.vader = NoSquare
	figs := strings.Split(fields[2], ",")
	off := offs[2]
	for j, f := range figs {
		if len(f) == 0 {
			return bad(off, "empty figure")
		}
		q, ok := parseFigureSquare(f[1:])
		if !ok {
			return bad(off+1, "want a row and a column 1..7, e.g. R11")
		}
		if f[0] == 'V' {
			if !s.variants.Vader || j != len(figs)-1 {
				return bad(off, "Darth Vader (V) comes last, and only with the variant v")
			}
			s.vader = q
		} else {
			c, ok := colorOfLetter(f[0])
			if !ok {
				return bad(off, "want a colour R, Y, G, B or V")
			}
			if s.n == MaxPlayers {
				return bad(off, "more than 4 players")
			}
			s.colors[s.n], s.ships[s.n] = c, q
			s.n++
		}
		off += len(f) + 1
	}
	if s.variants.Vader && !s.vader.Valid() {
		return bad(offs[2]+len(fields[2]), "with variant v, Darth Vader's square comes last (V44)")
	}
	if s.n < MinPlayers {
		return bad(offs[2], "want 2 to 4 players")
	}

	// Previous insertion point.
	if fields[3] != "-" {
		p, ok := parsePoint(fields[3])
		if !ok {
			return bad(offs[3], "want the previous insertion point (N2..W6) or '-'")
		}
		s.last = p
	}

	// Cards.
	stacks := strings.Split(fields[5], ",")
	if len(stacks) != int(s.n) {
		return bad(offs[5], "want one card list per player")
	}
	off = offs[5]
	for p, st := range stacks {
		colon := strings.IndexByte(st, ':')
		if colon < 0 || strings.IndexByte(st[colon+1:], ':') >= 0 {
			return bad(off, "want found cards, ':', then the stack, e.g. AC:KXB")
		}
		if len(st)-1 > maxCards {
			return bad(off, "too many cards")
		}
		n := 0
		for j := 0; j < len(st); j++ {
			if j == colon {
				continue
			}
			c := st[j]
			switch {
			case c >= 'A' && c <= 'X':
				s.cards[p][n] = c - 'A' + 1
			case c == '?' && j > colon:
				s.cards[p][n] = hiddenCard
			default:
				return bad(off+j, "want a card A-X (or '?' in the stack of a view)")
			}
			n++
		}
		s.found[p], s.count[p] = uint8(colon), uint8(n)
		off += len(st) + 1
	}

	// Turn and phase.
	switch t := fields[4]; {
	case t == "-" || (len(t) == 2 && t[1] == '-'):
		s.phase = PhaseOver
		if len(t) == 2 {
			c, ok := colorOfLetter(t[0])
			p := s.playerOf(c)
			if !ok || p < 0 {
				return bad(offs[4], "want the colour of a player before '-'")
			}
			s.turn = uint8(p)
		} else if !s.deduceWinner() {
			return bad(offs[4], "game over, but not exactly one player has won; name the winner, e.g. Y-")
		}
	case len(t) == 2 && (t[1] == 's' || t[1] == 'm'):
		c, ok := colorOfLetter(t[0])
		p := s.playerOf(c)
		if !ok || p < 0 {
			return bad(offs[4], "want the colour of a player")
		}
		s.turn = uint8(p)
		s.phase = PhaseShift
		if t[1] == 'm' {
			s.phase = PhaseMove
		}
	default:
		return bad(offs[4], "want the player to act and the phase (Rs, Ym) or '-'")
	}

	if err := s.validate(true); err != nil {
		return bad(-1, err.Error())
	}
	if t := fields[4]; len(t) == 2 && t[1] == '-' && !s.ambiguousWinner() {
		return bad(offs[4], "the winner is clear; write '-' alone")
	}
	return s, nil
}

// playerOf returns the index of the player with colour c, or −1.
func (s *State) playerOf(c Color) int {
	for p := 0; p < int(s.n); p++ {
		if s.colors[p] == c {
			return p
		}
	}
	return -1
}

// deduceWinner sets turn to the one player who meets the winning
// condition; false if there is not exactly one.
func (s *State) deduceWinner() bool {
	w := -1
	for p := 0; p < int(s.n); p++ {
		if s.found[p] <= s.count[p] && s.won(p) {
			if w >= 0 {
				return false
			}
			w = p
		}
	}
	s.turn = uint8(max(w, 0))
	return w >= 0
}

// parseBoard reads the <board> field; on failure it returns the offset of
// the fault.
func parseBoard(b string) ([NumSquares]Tile, int, bool) {
	var board [NumSquares]Tile
	i := 0
	for q := Square(0); q < NumSquares; q++ {
		if q > 0 && q%7 == 0 {
			if i >= len(b) || b[i] != '/' {
				return board, i, false
			}
			i++
		}
		t, n, ok := parseTile(b[i:])
		if !ok {
			return board, i, false
		}
		board[q] = t
		i += n
	}
	return board, i, i == len(b)
}

// parseTile reads one tile token at the start of t and its length.
func parseTile(t string) (Tile, int, bool) {
	if len(t) == 0 {
		return Tile{}, 0, false
	}
	var tile Tile
	switch c := t[0]; {
	case c >= '0' && c <= '9':
		tile.Sides = c - '0'
	case c >= 'a' && c <= 'f':
		tile.Sides = c - 'a' + 10
	default:
		return Tile{}, 0, false
	}
	n := 1
	if n < len(t) && t[n] >= 'A' && t[n] <= 'X' {
		tile.Target = t[n] - 'A' + 1
		n++
	}
	if n < len(t) && t[n] == '*' {
		tile.Vader = true
		n++
	}
	return tile, n, true
}
