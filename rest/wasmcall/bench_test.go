//go:build unix

package wasmcall

import (
	"encoding/json"
	"os"
	"syscall"
	"testing"

	"github.com/gamerules/gamerules/service"
)

// benchCase is one call of the wasm/native benchmark.
type benchCase struct {
	name, rpc string
	request   []byte
}

// benchCases are LegalMoves and ApplyMove (the first legal move) on each
// state of testdata/bench-states.json: the calls js/bench.mjs times in
// the wasm under Node (BENCHMARKS.md compares the two).
func benchCases(tb testing.TB, s *service.Server) []benchCase {
	raw, err := os.ReadFile("testdata/bench-states.json")
	if err != nil {
		tb.Fatal(err)
	}
	var states []struct {
		Game  string          `json:"game"`
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(raw, &states); err != nil {
		tb.Fatal(err)
	}
	var out []benchCase
	for _, st := range states {
		lmReq, _ := json.Marshal(map[string]any{"game": st.Game, "state": st.State})
		var lm struct {
			Moves []struct{ Notation string } `json:"moves"`
		}
		if err := json.Unmarshal(call(s, "LegalMoves", lmReq), &lm); err != nil || len(lm.Moves) == 0 {
			tb.Fatalf("%s: no legal move (%v)", st.Game, err)
		}
		amReq, _ := json.Marshal(map[string]any{"game": st.Game, "state": st.State, "move": map[string]string{"notation": lm.Moves[0].Notation}})
		out = append(out, benchCase{st.Game + "/LegalMoves", "LegalMoves", lmReq}, benchCase{st.Game + "/ApplyMove", "ApplyMove", amReq})
	}
	return out
}

// cpuNanos is the CPU time (user and system, all threads) the process has
// used so far.
func cpuNanos(tb testing.TB) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkCall is call natively, JSON in and out as in the wasm: the
// native side of BENCHMARKS.md's wasm/native ratio. Besides ns/op (wall
// time) it reports cpu-ns/op, the process's CPU time per call, which
// js/bench.mjs reports too: on a shared, loaded machine the wall time
// mostly measures the wait for a core.
func BenchmarkCall(b *testing.B) {
	s := service.New()
	for _, c := range benchCases(b, s) {
		b.Run(c.name, func(b *testing.B) {
			if out := call(s, c.rpc, c.request); len(out) > 0 && out[0] == '{' && json.Valid(out) && string(out[:8]) == `{"code":` {
				b.Fatalf("%s: %s", c.name, out)
			}
			b.ReportAllocs()
			cpu0 := cpuNanos(b)
			for b.Loop() {
				call(s, c.rpc, c.request)
			}
			b.ReportMetric(float64(cpuNanos(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
