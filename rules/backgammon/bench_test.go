package backgammon

import (
	"sort"
	"testing"
	"time"
)

// BenchmarkLegalMoves runs LegalMoves over every oracle position and roll
// (one op = one position); plays/op is the mean number of legal plays.
func BenchmarkLegalMoves(b *testing.B) {
	rows := allOracleRows(b)
	var states []State
	plays := 0
	for _, name := range []string{"curated", "random"} {
		for i := range rows[name] {
			s := oracleState(b, &rows[name][i])
			states = append(states, s)
			plays += len(s.LegalMoves())
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = states[i%len(states)].LegalMoves()
	}
	b.ReportMetric(float64(plays)/float64(len(states)), "plays/op")
}

// TestLegalMovesMedian reports the median time of LegalMoves per oracle
// position (the target: under 5 µs).
func TestLegalMovesMedian(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing")
	}
	rows := allOracleRows(t)
	var ds []time.Duration
	for _, name := range []string{"curated", "random"} {
		for i := range rows[name] {
			s := oracleState(t, &rows[name][i])
			const reps = 20
			start := time.Now()
			for k := 0; k < reps; k++ {
				_ = s.LegalMoves()
			}
			ds = append(ds, time.Since(start)/reps)
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	t.Logf("LegalMoves per position: median %v, 90%% %v, max %v", ds[len(ds)/2], ds[len(ds)*9/10], ds[len(ds)-1])
}
