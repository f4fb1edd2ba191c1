package service

import (
	"strings"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// slab hands out pointers into, and short slices of, one backing slice, so
// that the n messages (or values) of one response cost one allocation
// instead of n: the typed moves of a LegalMoves answer, the tiles of its
// result states. Protobuf messages may live in a slice like this (they are
// never copied; each is used through its pointer), and the messages that
// point into it marshal as if each had its own allocation. When the size
// given to makeSlab is short, next and take start a new backing slice (of
// at least the slab's chunk, 8 unless made by makeChunkedSlab): the
// answer is the same, it merely costs one more allocation.
type slab[T any] struct {
	buf   []T
	chunk int // the least a new backing slice holds; 0: 8
}

// makeSlab returns a slab of n values (n may be 0).
func makeSlab[T any](n int) slab[T] {
	if n <= 0 {
		return slab[T]{}
	}
	return slab[T]{buf: make([]T, n)}
}

// makeChunkedSlab returns an empty slab that takes chunk values from the
// heap at a time, for an answer whose count is not known before it is
// built (Expand's).
func makeChunkedSlab[T any](chunk int) slab[T] { return slab[T]{chunk: chunk} }

// refill starts a new backing slice of at least n values.
func (s *slab[T]) refill(n int) { s.buf = make([]T, max(n, s.chunk, 8)) }

// next returns a pointer to the next zero value.
func (s *slab[T]) next() *T {
	if len(s.buf) == 0 {
		s.refill(1)
	}
	p := &s.buf[0]
	s.buf = s.buf[1:]
	return p
}

// take returns the next n zero values as a slice of length and capacity n
// (so that appending to it never writes over a neighbour); nil for n = 0.
func (s *slab[T]) take(n int) []T {
	if n <= 0 {
		return nil
	}
	if len(s.buf) < n {
		s.refill(n)
	}
	out := s.buf[:n:n]
	s.buf = s.buf[n:]
	return out
}

// texts gathers the texts of the states of one answer in one buffer, a
// strings.Builder whose String is the buffer itself, not a copy, and sets
// each state's Text to a substring of it (finish): one allocation for all
// the texts instead of one or more each. The encoder writes a state's text
// (the rules' AppendText, byte for byte its String) into a buffer of its
// own, on its stack (textScratch bytes), and adds it with the state.
type texts struct {
	sb     strings.Builder // grown to size at the first add (a Builder is not copied once used)
	size   int
	ends   []int
	states []*gamerulesv1.GameState
}

// textScratch is the size of the stack buffer an encoder writes one
// state's text into before add copies it into the answer's: more than
// the text of a state of any game but a Gravity Trap custom board (which
// AppendText then writes on the heap, the answer the same).
const textScratch = 256

// makeTexts returns a texts sized for n states of about size bytes each.
func makeTexts(n, size int) texts {
	return texts{size: n * size, ends: make([]int, 0, n), states: make([]*gamerulesv1.GameState, 0, n)}
}

// add appends text, st's text, to the answer's.
func (t *texts) add(st *gamerulesv1.GameState, text []byte) {
	if t.sb.Cap() == 0 {
		t.sb.Grow(max(t.size, len(text)))
	}
	t.sb.Write(text)
	t.ends = append(t.ends, t.sb.Len())
	t.states = append(t.states, st)
}

// finish sets the Text of every state added and empties t.
func (t *texts) finish() {
	all := t.sb.String()
	start := 0
	for i, st := range t.states {
		st.Text = all[start:t.ends[i]]
		start = t.ends[i]
	}
	t.sb = strings.Builder{}
	t.ends, t.states = t.ends[:0], t.states[:0]
}
