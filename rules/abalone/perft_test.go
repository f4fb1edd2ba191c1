package abalone

import (
	"fmt"
	"testing"
)

// perft counts the move sequences of the given length from s (leaf nodes at
// that depth), generating into one reused slice per level. At depth 1 it
// counts the moves without making them ("bulk counting").
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
			panic(fmt.Sprintf("%s: generated move %s: %v", s, m, err))
		}
		n += perft(next, depth-1, bufs)
	}
	return n
}

// perftSlow is perft through the public surface only (LegalMoves, Apply),
// making every leaf move.
func perftSlow(t testing.TB, s State, depth int) int64 {
	if depth == 0 {
		return 1
	}
	var n int64
	for _, m := range s.LegalMoves() {
		next, err := s.Apply(m)
		if err != nil {
			t.Fatalf("%s: Apply(%s) = %v", s, m, err)
		}
		n += perftSlow(t, next, depth-1)
	}
	return n
}

func newPerftBufs() [][]Move {
	bufs := make([][]Move, 16)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return bufs
}

// perftTests are the published counts (spec "Moves"; two independent
// generators), plus German daisy depth 4, which is this engine's own count.
var perftTests = []struct {
	layout Layout
	counts []int64 // depth 1, 2, ...
}{
	{Classic, []int64{44, 1_936, 98_912, 5_045_110}},
	{BelgianDaisy, []int64{52, 2_692, 149_322, 8_270_666}},
	{GermanDaisy, []int64{80, 6_244, 493_480, 38_240_570}},
}

func TestPerft(t *testing.T) {
	for _, tt := range perftTests {
		s, err := New(Options{Layout: tt.layout})
		if err != nil {
			t.Fatal(err)
		}
		before := s
		for d, want := range tt.counts {
			depth := d + 1
			if depth > 3 && !long() {
				continue // depth 4 runs with GAMERULES_LONG=1 and in BenchmarkPerft
			}
			if got := perft(s, depth, newPerftBufs()); got != want {
				t.Errorf("perft(%s, %d) = %d; want %d", tt.layout, depth, got, want)
			}
		}
		if s != before {
			t.Errorf("perft changed the start position of %s", tt.layout)
		}
		// The public surface gives the same counts.
		if got := perftSlow(t, s, 2); got != tt.counts[1] {
			t.Errorf("perftSlow(%s, 2) = %d; want %d", tt.layout, got, tt.counts[1])
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, tt := range perftTests {
		for _, depth := range []int{3, 4} {
			b.Run(fmt.Sprintf("%s/depth=%d", tt.layout, depth), func(b *testing.B) {
				s, _ := New(Options{Layout: tt.layout})
				bufs := newPerftBufs()
				for b.Loop() {
					if got := perft(s, depth, bufs); got != tt.counts[depth-1] {
						b.Fatalf("perft = %d; want %d", got, tt.counts[depth-1])
					}
				}
				b.ReportMetric(float64(tt.counts[depth-1])*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
			})
		}
	}
}

// BenchmarkPerftFull makes every leaf move as well (no bulk counting), to
// measure Apply together with generation.
func BenchmarkPerftFull(b *testing.B) {
	s, _ := New(Options{})
	bufs := newPerftBufs()
	var full func(s State, depth int) int64
	full = func(s State, depth int) int64 {
		if depth == 0 {
			return 1
		}
		moves := s.appendMoves(bufs[depth][:0])
		bufs[depth] = moves
		var n int64
		for _, m := range moves {
			next, _ := s.play(m)
			n += full(next, depth-1)
		}
		return n
	}
	for b.Loop() {
		if got := full(s, 4); got != 5_045_110 {
			b.Fatalf("perft = %d", got)
		}
	}
}

type benchState struct {
	name string
	s    State
}

func benchStates() []benchState {
	var out []benchState
	for _, l := range []Layout{Classic, BelgianDaisy, GermanDaisy} {
		s, _ := New(Options{Layout: l})
		out = append(out, benchState{l.String(), s})
	}
	// A middle-game position with pushes available (52 moves).
	s, err := ParseState("4w/3ww1/1bbbwww/1wbbb1bb/2bbw1bw1/1w1bww2/1bw1w2/6/5 b")
	if err != nil {
		panic(err)
	}
	return append(out, benchState{"midgame", s})
}

func BenchmarkLegalMoves(b *testing.B) {
	for _, bs := range benchStates() {
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = bs.s.LegalMoves()
			}
		})
	}
}

func BenchmarkAppendLegalMoves(b *testing.B) {
	for _, bs := range benchStates() {
		buf := make([]Move, 0, 256)
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = bs.s.AppendLegalMoves(buf[:0])
			}
		})
	}
}

func BenchmarkApply(b *testing.B) {
	s := benchStates()[3].s
	moves := s.LegalMoves()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.Apply(moves[i%len(moves)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkParseMove(b *testing.B) {
	s := benchStates()[3].s
	var texts []string
	for _, m := range s.LegalMoves() {
		texts = append(texts, m.String())
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ParseMove(s, texts[i%len(texts)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
