package abalone

import (
	"fmt"
	"strings"
)

// ReadMove reads a move in Aba-Pro notation as people and programs write it
// (spec "Move notation") and returns the canonical Move LegalMoves lists
// (its notation is Move.String, its action id Move.Action). It is
// ParseMove made tolerant: the cells may be in any case and separated by
// anything that is not a letter or a digit ("A1-B2", "a1 b2", "c3,c5 > d3",
// "C3:C5:D4"). Two cells are an in-line move, three a broadside (either end
// first), as ParseMove reads them; a text ParseMove reads is read the same,
// so ReadMove(s, m.String()) == m for every legal m. An Aba-Pro text names
// at most one move, so a text is never ambiguous.
//
// Errors are ParseMove's (game.ErrIllegalMove, game.ErrGameOver,
// game.ErrInvalidState). A well-formed move that is not legal in s also
// lists the nearest legal moves: those that differ from the text in the
// fewest cells (the moving marble, the target, the broadside's other end),
// at most 5, in LegalMoves order. At most 64 bytes of text are read.
func ReadMove(s State, text string) (Move, error) {
	m, err := ParseMove(s, text)
	if err == nil {
		return m, nil
	}
	if len(text) > 64 {
		return Move{}, err
	}
	var cells []byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 'A' && c <= 'Z':
			cells = append(cells, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			cells = append(cells, c)
		}
	}
	t := string(cells)
	if t != strings.ToLower(strings.TrimSpace(text)) && (len(t) == 4 || len(t) == 6) {
		m, err2 := ParseMove(s, t)
		if err2 == nil {
			return m, nil
		}
		err = err2
	}
	if s.Validate() != nil || s.over() || (len(t) != 4 && len(t) != 6) {
		return Move{}, err
	}
	var c [3]Cell
	for k := 0; k < len(t)/2; k++ {
		if c[k], _ = parseCellAt(t, 2*k); c[k] == NoCell {
			return Move{}, err
		}
	}
	w := Move{From: c[0], To: c[1], End: NoCell}
	if len(t) == 6 {
		w = Move{From: c[0], To: c[2], End: c[1]}
	}
	if canon, _, reason := shape(w.From, w.To, w.End); reason == "" {
		w = canon
	}
	near := nearestMoves(s.LegalMoves(), w)
	if len(near) == 0 {
		return Move{}, err
	}
	return Move{}, fmt.Errorf("%w; the nearest legal moves: %s", err, strings.Join(Notations(near), ", "))
}

// nearestMoves returns the legal moves that differ from the written move
// w (its broadside ends in order when its shape is valid) in the fewest of
// From, To and End; at most 5, in LegalMoves order.
func nearestMoves(moves []Move, w Move) []Move {
	best := -1
	var out []Move
	for _, m := range moves {
		d := 0
		for _, p := range [3][2]Cell{{m.From, w.From}, {m.To, w.To}, {m.End, w.End}} {
			if p[0] != p[1] {
				d++
			}
		}
		switch {
		case best < 0 || d < best:
			best, out = d, append(out[:0], m)
		case d == best && len(out) < 5:
			out = append(out, m)
		}
	}
	return out
}
