package report

import (
	"math"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want Stat
	}{
		{[]float64{3, 1, 2}, Stat{2, 1, 3, 3}},
		{[]float64{4, 1, 3, 2}, Stat{2.5, 1, 4, 4}},
		{[]float64{5, math.NaN(), math.Inf(1)}, Stat{5, 5, 5, 1}},
		{nil, Stat{}},
	} {
		if got := Summarize(tc.in); got != tc.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestTargets(t *testing.T) {
	bg := Case{Game: "backgammon", Call: CallLegalMoves, REST: true}
	if tg := CPUTarget(bg); tg == nil || *tg != (Target{"≤", 1.4}) {
		t.Errorf("backgammon LegalMoves CPU target %v", tg)
	}
	lab := Case{Game: "labyrinth", Call: CallLegalMovesResults, REST: true}
	if tg := CPUTarget(lab); tg == nil || tg.Value != 2.5 {
		t.Errorf("labyrinth results target %v", tg)
	}
	if tg := RESTTarget(lab); tg == nil || tg.Value != 2.0 {
		t.Errorf("REST target with results %v", tg)
	}
	if tg := RESTTarget(bg); tg == nil || tg.Value != 1.5 {
		t.Errorf("REST target %v", tg)
	}
	if CPUTarget(Case{Game: "gravity_trap", Variant: "large", Call: CallLegalMoves}) != nil || RPSTarget(Case{Game: "gravity_trap", Call: CallLegalMovesResults}) != nil {
		t.Error("targets on rows the issue gives none")
	}
	if !(Target{"≤", 1.4}).Met(1.4) || (Target{"≤", 1.4}).Met(1.41) || !(Target{"≥", 0.75}).Met(0.8) || (Target{"<", 1}).Met(1) {
		t.Error("Met")
	}
}

// TestAnalyze: made-up samples of 3 rounds whose ratios are known; the
// no-op of each round is the baseline of that round only.
func TestAnalyze(t *testing.T) {
	c := Case{ID: "backgammon/LegalMoves", Label: "LegalMoves backgammon (25 plays)", Game: "backgammon", Call: CallLegalMoves, Group: "bg", Moves: 25, REST: true}
	r := Results{Config: Config{Rounds: 3, Duration: "1s", Concurrency: 50}, Cases: []Case{c}}
	// noop CPU/req 50, 100, 40 µs; call 100, 150, 100 µs -> ratios 2, 1.5, 2.5.
	noopCPU := []float64{50, 100, 40}
	callCPU := []float64{100, 150, 100}
	restCPU := []float64{300, 300, 150} // ÷ gRPC: 3, 2, 1.5
	for i := 0; i < 3; i++ {
		n := 1000
		r.Samples = append(r.Samples,
			Sample{Case: CallNoop, Group: "bg", Transport: "grpc", Round: i + 1, Requests: n, RPS: 10000, CPUMicros: noopCPU[i] * 1000, Mallocs: 130 * 1000},
			Sample{Case: CallNoop, Group: "other", Transport: "grpc", Round: i + 1, Requests: n, RPS: 1, CPUMicros: 1, Mallocs: 1}, // another group's: not used
			Sample{Case: c.ID, Transport: "grpc", Round: i + 1, Requests: n, RPS: []float64{5000, 8000, 2000}[i], CPUMicros: callCPU[i] * 1000, Mallocs: []float64{500, 300, 400}[i] * 1000, Errors: 1},
			Sample{Case: c.ID, Transport: "rest", Round: i + 1, Requests: n / 2, RPS: 2000, CPUMicros: restCPU[i] * 500, Mallocs: 0})
	}
	rows := Analyze(r)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	row := rows[0]
	check := func(name string, got, want Stat) {
		t.Helper()
		if math.Abs(got.Median-want.Median) > 1e-9 || math.Abs(got.Min-want.Min) > 1e-9 || math.Abs(got.Max-want.Max) > 1e-9 || got.N != want.N {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	check("CPU ratio", row.CPURatio, Stat{2, 1.5, 2.5, 3})
	check("req/s ratio", row.RPSRatio, Stat{0.5, 0.2, 0.8, 3})
	check("REST ratio", row.RESTRatio, Stat{2, 1.5, 3, 3})
	check("allocs", row.GRPC.Allocs, Stat{400, 300, 500, 3})
	check("alloc limit", row.AllocLimit, Stat{310, 310, 310, 3}) // 2×130 + 2×25
	check("gRPC CPU", row.GRPC.CPU, Stat{100, 100, 150, 3})
	if row.GRPC.Errors != 3 || row.GRPC.Requests != 3000 {
		t.Errorf("errors %d requests %d", row.GRPC.Errors, row.GRPC.Requests)
	}

	var sb strings.Builder
	Markdown(&sb, r)
	md := sb.String()
	for _, want := range []string{
		"| LegalMoves backgammon (25 plays) | 2.00 (1.50–2.50) | ≤ 1.4: **missed** | 0.50 (0.20–0.80) | ≥ 0.75: **missed** | 2.00 (1.50–3.00) | ≤ 1.5: **missed** | 400 (300–500) | ≤ 310: **missed** |",
		"Median of 3 interleaved rounds",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestReplay(t *testing.T) {
	r := Results{}
	for i, rp := range []float64{2000, 2100, 1900} {
		r.Samples = append(r.Samples,
			Sample{Case: "backgammon/" + CallReplay200, Transport: "grpc", Round: i, Requests: 10, CPUMicros: rp * 10},
			Sample{Case: "backgammon/" + CallApplyMove10, Transport: "grpc", Round: i, Requests: 100, CPUMicros: 400 * 100})
	}
	got := Replay(r) // 2000/4000, 2100/4000, 1900/4000
	if got.N != 3 || math.Abs(got.Median-0.5) > 1e-9 || math.Abs(got.Max-0.525) > 1e-9 || !ReplayTarget.Met(got.Median) {
		t.Errorf("Replay = %+v", got)
	}
}

func TestCell(t *testing.T) {
	for _, tc := range []struct {
		s    Stat
		want string
	}{
		{Stat{}, "—"},
		{Stat{2.4912, 2.3, 2.6, 3}, "2.49 (2.30–2.60)"},
		{Stat{542.4, 500, 600.6, 3}, "542 (500–601)"},
		{Stat{12.34, 12.34, 12.34, 1}, "12.3"},
	} {
		if got := Cell(tc.s); got != tc.want {
			t.Errorf("Cell(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
