package abalone

import (
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
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
		rulestest.BenchNotation(b, ns.name, ns.s, rulestest.Notation[State, Move]{
			Notations:        Notations,
			AppendStateTexts: AppendStateTexts,
		})
	}
}
