package abalone

import "testing"

var (
	sinkText  string
	sinkTexts []string
)

// BenchmarkNotation measures, per position of benchStates (the three
// layouts' starts and a 52-move middle game), move generation alone
// ("generate"), generation plus the notation of every listed move in one
// buffer ("generate+notation": Notations; before issue 10 it was String
// per move), with String per move
// ("generate+string"), the result state of every move ("results", Apply) and those plus each result's
// text ("results+text", the states after every listed move; "results+texts" with
// AppendStateTexts, one string for all). allocs/move and
// allocs/state are the text's own allocations per listed move or result.
func BenchmarkNotation(b *testing.B) {
	for _, ns := range benchStates() {
		s := ns.s
		moves := s.LegalMoves()
		n := len(moves)
		generate := func() { _ = s.LegalMoves() }
		withNotation := func() { sinkTexts = Notations(s.LegalMoves()) }
		withString := func() {
			for _, m := range s.LegalMoves() {
				sinkText = m.String()
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
				sinkText = t.String()
			}
		}
		perMove := (testing.AllocsPerRun(100, withNotation) - testing.AllocsPerRun(100, generate)) / float64(n)
		var next []State
		withTexts := func() {
			next = next[:0]
			for _, m := range moves {
				t, _ := s.Apply(m)
				next = append(next, t)
			}
			sinkTexts = AppendStateTexts(sinkTexts[:0], next)
		}
		perState := (testing.AllocsPerRun(100, withText) - testing.AllocsPerRun(100, results)) / float64(n)
		b.Run(ns.name+"/generate", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				generate()
			}
			b.ReportMetric(float64(n), "moves/op")
		})
		b.Run(ns.name+"/generate+notation", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				withNotation()
			}
			b.ReportMetric(float64(n), "moves/op")
			b.ReportMetric(perMove, "allocs/move")
		})
		perString := (testing.AllocsPerRun(100, withString) - testing.AllocsPerRun(100, generate)) / float64(n)
		b.Run(ns.name+"/generate+string", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				withString()
			}
			b.ReportMetric(float64(n), "moves/op")
			b.ReportMetric(perString, "allocs/move")
		})
		b.Run(ns.name+"/results", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				results()
			}
		})
		b.Run(ns.name+"/results+text", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				withText()
			}
			b.ReportMetric(perState, "allocs/state")
		})
		b.Run(ns.name+"/results+texts", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				withTexts()
			}
		})
	}
}
