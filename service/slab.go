package service

// slab hands out pointers into, and short slices of, one backing slice, so
// that the n messages (or values) of one response cost one allocation
// instead of n: the typed moves of a LegalMoves answer, the tiles of its
// result states. Protobuf messages may live in a slice like this (they are
// never copied; each is used through its pointer), and the messages that
// point into it marshal as if each had its own allocation. When the size
// given to makeSlab is short, next and take start a new backing slice: the
// answer is the same, it merely costs one more allocation.
type slab[T any] struct{ buf []T }

// makeSlab returns a slab of n values (n may be 0).
func makeSlab[T any](n int) slab[T] {
	if n <= 0 {
		return slab[T]{}
	}
	return slab[T]{buf: make([]T, n)}
}

// next returns a pointer to the next zero value.
func (s *slab[T]) next() *T {
	if len(s.buf) == 0 {
		s.buf = make([]T, 8)
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
		s.buf = make([]T, max(n, 8))
	}
	out := s.buf[:n:n]
	s.buf = s.buf[n:]
	return out
}
