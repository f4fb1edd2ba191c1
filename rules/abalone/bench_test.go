package abalone

import "testing"

// BenchmarkNotation measures, per position of benchStates (the three
// layouts' starts and a 52-move middle game), move generation alone
// ("gen"), generation plus the notation of every listed move
// ("gen+notation", what the service writes in each Move.notation), the
// result state of every move ("results", Apply) and those plus each result's
// text ("results+text", the service's include_results). allocs/move and
// allocs/state are the text's own allocations per listed move or result.
func BenchmarkNotation(b *testing.B) {
	for _, bs := range benchStates() {
		s := bs.s
		moves := s.LegalMoves()
		n := len(moves)
		gen := func() { _ = s.LegalMoves() }
		withNotation := func() {
			for _, m := range s.LegalMoves() {
				_ = m.String()
			}
		}
		results := func() {
			for _, m := range moves {
				_, _ = s.Apply(m)
			}
		}
		withText := func() {
			for _, m := range moves {
				t, _ := s.Apply(m)
				_ = t.String()
			}
		}
		perMove := (testing.AllocsPerRun(100, withNotation) - testing.AllocsPerRun(100, gen)) / float64(n)
		perState := (testing.AllocsPerRun(100, withText) - testing.AllocsPerRun(100, results)) / float64(n)
		b.Run(bs.name+"/gen", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				gen()
			}
			b.ReportMetric(float64(n), "moves/op")
		})
		b.Run(bs.name+"/gen+notation", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				withNotation()
			}
			b.ReportMetric(float64(n), "moves/op")
			b.ReportMetric(perMove, "allocs/move")
		})
		b.Run(bs.name+"/results", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				results()
			}
		})
		b.Run(bs.name+"/results+text", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				withText()
			}
			b.ReportMetric(perState, "allocs/state")
		})
	}
}
