package abalone

import "testing"

func perft(s State, depth int, bufs [][]Move) int64 {
	if depth == 0 {
		return 1
	}
	if s.over() {
		return 0
	}
	if depth == 1 {
		return int64(s.countMoves())
	}
	moves := s.appendMoves(bufs[depth][:0])
	bufs[depth] = moves
	var n int64
	for _, m := range moves {
		next, err := s.play(m)
		if err != nil {
			panic(err)
		}
		n += perft(next, depth-1, bufs)
	}
	return n
}

func TestPerftQuick(t *testing.T) {
	for _, l := range []Layout{Classic, BelgianDaisy, GermanDaisy} {
		s, _ := New(Options{Layout: l})
		bufs := make([][]Move, 6)
		for d := 1; d <= 4; d++ {
			t.Log(l, d, perft(s, d, bufs))
		}
	}
}
