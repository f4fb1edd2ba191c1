package rulestest

import "testing"

// Sinks keep the benchmarked results alive.
var (
	sinkText  string
	sinkTexts []string
)

// Notation tells BenchNotation an engine's list writers.
type Notation[S any, M any] struct {
	// Notations writes the notation of every move in one buffer.
	Notations func(moves []M) []string
	// AppendStateTexts writes the text of every state in one buffer.
	AppendStateTexts func(dst []string, states []S) []string
	// Results, when set, lists the moves of s and their result states in
	// one call (backgammon's LegalMovesWithResults). Unset: s.Apply on each
	// listed move.
	Results func(s S) ([]M, []S)
}

// BenchNotation runs the sub-benchmarks every engine's BenchmarkNotation
// has, for the state s named name: move generation alone ("generate"),
// generation plus the notation of every listed move in one buffer
// ("generate+notation", Notations), with String per move
// ("generate+string"), the result state of every move ("results") and
// those plus each result's text ("results+text", String per state;
// "results+texts", AppendStateTexts, one string for all). moves/op is the
// number of listed moves; allocs/move (allocs/state) the text's own
// allocations per listed move (result state): the difference with
// generation (results) alone.
func BenchNotation[S State[S, M], M Move](b *testing.B, name string, s S, x Notation[S, M]) {
	moves := s.LegalMoves()
	n := len(moves)
	generate := func() { _ = s.LegalMoves() }
	withNotation := func() { sinkTexts = x.Notations(s.LegalMoves()) }
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
	var next []S
	withTexts := func() {
		next = next[:0]
		for _, m := range moves {
			t, _ := s.Apply(m)
			next = append(next, t)
		}
		sinkTexts = x.AppendStateTexts(sinkTexts[:0], next)
	}
	if x.Results != nil {
		results = func() { _, _ = x.Results(s) }
		withText = func() {
			_, next := x.Results(s)
			for _, t := range next {
				sinkText = t.String()
			}
		}
		withTexts = func() {
			_, next := x.Results(s)
			sinkTexts = x.AppendStateTexts(sinkTexts[:0], next)
		}
	}
	perMove := (testing.AllocsPerRun(100, withNotation) - testing.AllocsPerRun(100, generate)) / float64(n)
	perString := (testing.AllocsPerRun(100, withString) - testing.AllocsPerRun(100, generate)) / float64(n)
	perState := (testing.AllocsPerRun(100, withText) - testing.AllocsPerRun(100, results)) / float64(n)
	b.Run(name+"/generate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			generate()
		}
		b.ReportMetric(float64(n), "moves/op")
	})
	b.Run(name+"/generate+notation", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			withNotation()
		}
		b.ReportMetric(float64(n), "moves/op")
		b.ReportMetric(perMove, "allocs/move")
	})
	b.Run(name+"/generate+string", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			withString()
		}
		b.ReportMetric(float64(n), "moves/op")
		b.ReportMetric(perString, "allocs/move")
	})
	b.Run(name+"/results", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			results()
		}
	})
	b.Run(name+"/results+text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			withText()
		}
		b.ReportMetric(perState, "allocs/state")
	})
	b.Run(name+"/results+texts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			withTexts()
		}
	})
}
