package service

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// moveParts says which parts of each listed move Position.LegalMoves
// builds (LegalMovesRequest.read_mask, AIP-157): the notation, the typed
// move, a chance outcome's probability, and the result state's text and
// typed fields. A part left out is not built at all (no notation written,
// no typed message allocated), not pruned afterwards.
type moveParts struct {
	Notation, Typed, Probability bool
	// Action is the move's action id.
	Action bool
	// ResultText and ResultTyped are the result state's parts; with
	// neither, no move is applied and no result is built.
	ResultText, ResultTyped bool
}

// allParts is every part of a move, results included: the answer as it is
// without a mask, with include_results.
var allParts = moveParts{Notation: true, Typed: true, Probability: true, Action: true, ResultText: true, ResultTyped: true}

// noResults is allParts without the result states: the answer without a
// mask and without include_results.
var noResults = moveParts{Notation: true, Typed: true, Probability: true, Action: true}

// results reports whether result states are built.
func (w moveParts) results() bool { return w.ResultText || w.ResultTyped }

// readMaskPaths are the paths LegalMovesRequest.read_mask accepts, relative
// to LegalMovesResponse, in the order the error message lists them, with
// the parts each selects (chance: the response's chance flag).
var readMaskPaths = []struct {
	path   string
	parts  moveParts
	moves  bool // a path under "moves": the list has an entry per move
	chance bool
}{
	{"*", allParts, true, true},
	{"moves", allParts, true, false},
	{"moves.notation", moveParts{Notation: true}, true, false},
	{"moves.move", moveParts{Typed: true}, true, false},
	{"moves.probability", moveParts{Probability: true}, true, false},
	{"moves.action", moveParts{Action: true}, true, false},
	{"moves.result", moveParts{ResultText: true, ResultTyped: true}, true, false},
	{"moves.result.text", moveParts{ResultText: true}, true, false},
	{"moves.result.state", moveParts{ResultTyped: true}, true, false},
	{"chance", moveParts{}, false, true},
}

// answerParts is what a read mask selects of a LegalMovesResponse.
type answerParts struct {
	moves  moveParts // the parts of each move (results only with include_results)
	listed bool      // moves has an entry per legal move (else it is empty)
	chance bool      // chance is set
}

// maxReadMaskPaths is the most paths a read mask may list (repeats
// included).
const maxReadMaskPaths = 64

// parseReadMask reads a LegalMoves read mask: nil or no paths is the whole
// answer, as without a mask. The result parts are kept only with
// includeResults (a mask never adds results, it only leaves parts out). An
// unknown path is an errInvalidRequest naming it and the accepted paths.
func parseReadMask(m *fieldmaskpb.FieldMask, includeResults bool) (answerParts, error) {
	var a answerParts
	if n := len(m.GetPaths()); n > maxReadMaskPaths {
		// On REST the mask is one JSON string, so the element budget does
		// not count its paths; there are only a few distinct ones anyway.
		return answerParts{}, fmt.Errorf("%w: %d paths; a read mask has at most %d (there are %d distinct paths)", errInvalidRequest, n, maxReadMaskPaths, len(readMaskPaths))
	}
	if len(m.GetPaths()) == 0 {
		a = answerParts{moves: allParts, listed: true, chance: true}
	}
	for _, p := range m.GetPaths() {
		found := false
		for _, r := range readMaskPaths {
			if r.path == p {
				found = true
				a.listed = a.listed || r.moves
				a.chance = a.chance || r.chance
				w := &a.moves
				w.Notation, w.Typed, w.Probability = w.Notation || r.parts.Notation, w.Typed || r.parts.Typed, w.Probability || r.parts.Probability
				w.Action = w.Action || r.parts.Action
				w.ResultText, w.ResultTyped = w.ResultText || r.parts.ResultText, w.ResultTyped || r.parts.ResultTyped
			}
		}
		if !found {
			names := make([]string, len(readMaskPaths))
			for i, r := range readMaskPaths {
				names[i] = game.Quote(r.path)
			}
			return answerParts{}, fmt.Errorf("%w: unknown path %s; the paths are %s", errInvalidRequest, game.Quote(p), strings.Join(names, ", "))
		}
	}
	if !includeResults {
		a.moves.ResultText, a.moves.ResultTyped = false, false
	}
	return a, nil
}

// legalMovesAnswer is LegalMoves' answer for pos with the parts a selects.
func legalMovesAnswer(pos Position, a answerParts) (*gamerulesv1.LegalMovesResponse, error) {
	moves, chance, err := pos.LegalMoves(a.moves)
	if err != nil {
		return nil, err
	}
	resp := &gamerulesv1.LegalMovesResponse{}
	if a.listed {
		resp.Moves = moves
	}
	if a.chance {
		resp.Chance = chance
	}
	return resp, nil
}

// textAppender is a rules State's text writer (encoding.TextAppender; the
// bytes of its String).
type textAppender interface {
	AppendText(b []byte) ([]byte, error)
}

// stateEncoder builds the result states of one LegalMoves answer: encode
// each state, then finish (which may set the texts).
type stateEncoder[S any] interface {
	encode(s S) *gamerulesv1.GameState
	finish()
}

// typedEncoder is a game's encoder of typed states (e.g. abaloneEncoder),
// which can be told to leave the text out.
type typedEncoder[S any] interface {
	stateEncoder[S]
	omitText()
}

// resultEncoder returns the encoder of n result states with the parts w
// asks for: nil without results; the game's typed encoder (made by
// newTyped) when the typed state is wanted, told to omit the text when the
// text is not; a textEncoder, which builds only the texts (about size
// bytes each), otherwise.
func resultEncoder[S textAppender](w moveParts, n, size int, newTyped func() typedEncoder[S]) stateEncoder[S] {
	switch {
	case w.ResultTyped:
		e := newTyped()
		if !w.ResultText {
			e.omitText()
		}
		return e
	case w.ResultText:
		return newTextEncoder[S](n, size)
	}
	return nil
}

// textEncoder builds result states holding only their text: the states
// from one slab, the texts in one buffer (see texts).
type textEncoder[S textAppender] struct {
	states  slab[gamerulesv1.GameState]
	text    texts
	scratch []byte // one state's text, before text.add copies it
}

// newTextEncoder returns a textEncoder sized for n states of about size
// bytes of text each.
func newTextEncoder[S textAppender](n, size int) *textEncoder[S] {
	return &textEncoder[S]{states: makeSlab[gamerulesv1.GameState](n), text: makeTexts(n, size), scratch: make([]byte, 0, max(textScratch, 2*size))}
}

func (e *textEncoder[S]) encode(s S) *gamerulesv1.GameState {
	st := e.states.next()
	// S's AppendText is called through the type parameter, so a buffer
	// on the stack would escape: one on the heap serves every state.
	e.scratch, _ = s.AppendText(e.scratch[:0])
	e.text.add(st, e.scratch)
	return st
}

func (e *textEncoder[S]) finish() { e.text.finish() }

// setActions sets out[i].Action to id(i) for every listed move, from one
// allocation.
func setActions(out []*gamerulesv1.Move, id func(i int) int) {
	ids := make([]int32, len(out))
	for i, m := range out {
		ids[i] = int32(id(i))
		m.Action = &ids[i]
	}
}
