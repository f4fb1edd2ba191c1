// Package report turns the raw samples of the load benchmark (bench/run.sh)
// into issue 10's table: per call, the server CPU per request and the
// throughput as ratios against the no-op measured in the same round and
// group (grpc.health.v1.Health/Check), REST against gRPC, and allocations
// per request, each as the median of the rounds with its spread (min–max),
// beside the target with met or missed.
//
// Ratios are taken round by round (each call against the no-op run just
// before it) and then the median is taken, so that the load of the other
// users of a shared machine, which drifts over minutes, cancels out.
package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Call kinds (the same strings as bench/load's Call* constants).
const (
	CallNoop              = "noop"
	CallLegalMoves        = "LegalMoves"
	CallLegalMovesResults = "LegalMovesResults"
	CallApplyMove         = "ApplyMove"
	CallScore             = "Score"
	CallReplay200         = "ReplayGame200"
	CallApplyMove10       = "ApplyMove10Ply"
)

// Case describes one measured call (bench/load.Case without its requests).
type Case struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Game    string `json:"game"`
	Variant string `json:"variant,omitempty"`
	Call    string `json:"call"`
	Group   string `json:"group"`
	// Moves is the number of moves a LegalMoves answer lists.
	Moves int `json:"moves,omitempty"`
	// REST is true when the call was also measured over REST.
	REST bool `json:"rest"`
}

// Sample is one bounded load run of one call on one transport.
type Sample struct {
	// Case is the Case ID, or "noop" for the no-op baseline of Group.
	Case      string `json:"case"`
	Group     string `json:"group"`
	Transport string `json:"transport"` // "grpc" or "rest"
	Round     int    `json:"round"`
	// Requests is the number of requests answered (errors included);
	// Errors those answered with an error (gRPC status not OK, HTTP not 200).
	Requests int `json:"requests"`
	Errors   int `json:"errors"`
	// Seconds is the load tool's run time; RPS its requests per second.
	Seconds float64 `json:"seconds"`
	RPS     float64 `json:"rps"`
	// P50Ms and P99Ms are latency percentiles in milliseconds.
	P50Ms float64 `json:"p50_ms"`
	P99Ms float64 `json:"p99_ms"`
	// CPUMicros is the server's user+system CPU over the run (from
	// /proc/<pid>/stat), in µs; Mallocs the growth of its
	// go_memstats_mallocs_total over the run.
	CPUMicros float64 `json:"cpu_us"`
	Mallocs   float64 `json:"mallocs"`
	// ErrorKinds counts the errors by gRPC status or HTTP status code.
	ErrorKinds map[string]int `json:"error_kinds,omitempty"`
}

// CPUPerReq is the server CPU per request in µs (0 without requests).
func (s Sample) CPUPerReq() float64 { return per(s.CPUMicros, s.Requests) }

// AllocsPerReq is the server's allocations per request.
func (s Sample) AllocsPerReq() float64 { return per(s.Mallocs, s.Requests) }

func per(x float64, n int) float64 {
	if n <= 0 {
		return 0
	}
	return x / float64(n)
}

// Machine is where the benchmark ran.
type Machine struct {
	CPUs      int    `json:"cpus"`
	CPUModel  string `json:"cpu_model"`
	GoVersion string `json:"go_version"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"date"`
}

// Config is how it ran.
type Config struct {
	Rounds      int    `json:"rounds"`
	Duration    string `json:"duration"` // of one run, e.g. "1s"
	Concurrency int    `json:"concurrency"`
	ServerFlags string `json:"server_flags,omitempty"`
	ClockTicks  int    `json:"clock_ticks"` // per second, of /proc/<pid>/stat
}

// Results are everything a benchmark run measured (the JSON file).
type Results struct {
	Machine Machine  `json:"machine"`
	Config  Config   `json:"config"`
	Cases   []Case   `json:"cases"`
	Samples []Sample `json:"samples"`
}

// Stat is the median and spread of one figure over the rounds.
type Stat struct {
	Median, Min, Max float64
	N                int
}

// Summarize returns the median (the mean of the middle two for an even
// count), minimum and maximum of xs; NaNs are left out. N = 0 when nothing
// is left.
func Summarize(xs []float64) Stat {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Stat{}
	}
	sort.Float64s(v)
	m := v[len(v)/2]
	if len(v)%2 == 0 {
		m = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return Stat{Median: m, Min: v[0], Max: v[len(v)-1], N: len(v)}
}

// Target is a bound from the issue: the figure must be Op Value, Op one of
// "≤", "≥", "<".
type Target struct {
	Op    string
	Value float64
}

// Met says whether x meets the target.
func (t Target) Met(x float64) bool {
	switch t.Op {
	case "≤":
		return x <= t.Value
	case "≥":
		return x >= t.Value
	case "<":
		return x < t.Value
	}
	return false
}

// CPUTarget is issue 10's bound on gRPC LegalMoves server CPU ÷ no-op, for
// the rows of its table (the default-board, 25-play states; none for the
// backgammon double and the large custom board).
func CPUTarget(c Case) *Target {
	if c.Variant != "" {
		return nil
	}
	var m map[string]float64
	switch c.Call {
	case CallLegalMoves:
		m = map[string]float64{"backgammon": 1.4, "abalone": 1.4, "labyrinth": 1.3, "gravity_trap": 1.1}
	case CallLegalMovesResults:
		m = map[string]float64{"backgammon": 2.0, "abalone": 2.5, "labyrinth": 2.5}
	}
	if v, ok := m[c.Game]; ok {
		return &Target{"≤", v}
	}
	return nil
}

// RPSTarget: gRPC LegalMoves (without results) req/s ÷ no-op ≥ 0.75 for
// every game (the table's rows).
func RPSTarget(c Case) *Target {
	if c.Call == CallLegalMoves && c.Variant == "" {
		return &Target{"≥", 0.75}
	}
	return nil
}

// RESTTarget: REST server CPU ÷ gRPC server CPU for the same call ≤ 2.0
// with results, ≤ 1.5 for every other call.
func RESTTarget(c Case) *Target {
	switch {
	case !c.REST:
		return nil
	case c.Call == CallLegalMovesResults:
		return &Target{"≤", 2.0}
	}
	return &Target{"≤", 1.5}
}

// HasAllocTarget: allocations per LegalMoves request (with or without
// results) ≤ 2 × the no-op's + 2 per listed move.
func HasAllocTarget(c Case) bool {
	return c.Call == CallLegalMoves || c.Call == CallLegalMovesResults
}

// ReplayTarget: one 200-ply ReplayGame costs less server CPU than 10
// single ApplyMove calls (issue 13, item 4).
var ReplayTarget = Target{"<", 1}

// Row is one call's figures.
type Row struct {
	Case Case
	// GRPC and REST are the call's medians over the rounds.
	GRPC, REST Figures
	// CPURatio is gRPC server CPU per request ÷ the no-op's (gRPC), RPSRatio
	// gRPC req/s ÷ the no-op's, RESTRatio REST CPU per request ÷ gRPC CPU
	// per request, each taken per round.
	CPURatio, RPSRatio, RESTRatio Stat
	// AllocLimit is 2 × the no-op's gRPC allocations per request + 2 per
	// listed move, per round (only where HasAllocTarget).
	AllocLimit Stat
}

// Figures are one transport's medians and spread.
type Figures struct {
	CPU, RPS, P50, P99, Allocs Stat
	Requests, Errors           int // summed over the rounds
	ErrorKinds                 map[string]int
}

func figures(ss []Sample) Figures {
	var f Figures
	var cpu, rps, p50, p99, al []float64
	for _, s := range ss {
		cpu, rps, p50, p99, al = append(cpu, s.CPUPerReq()), append(rps, s.RPS), append(p50, s.P50Ms), append(p99, s.P99Ms), append(al, s.AllocsPerReq())
		f.Requests += s.Requests
		f.Errors += s.Errors
		for k, n := range s.ErrorKinds {
			if f.ErrorKinds == nil {
				f.ErrorKinds = map[string]int{}
			}
			f.ErrorKinds[k] += n
		}
	}
	f.CPU, f.RPS, f.P50, f.P99, f.Allocs = Summarize(cpu), Summarize(rps), Summarize(p50), Summarize(p99), Summarize(al)
	return f
}

type key struct {
	id, group, transport string
	round                int
}

// index holds the samples by case, group, transport and round (the last
// one wins if a run was repeated).
func index(ss []Sample) map[key]Sample {
	m := map[key]Sample{}
	for _, s := range ss {
		g := s.Group
		if s.Case != CallNoop {
			g = ""
		}
		m[key{s.Case, g, s.Transport, s.Round}] = s
	}
	return m
}

func rounds(ss []Sample) []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range ss {
		if !seen[s.Round] {
			seen[s.Round] = true
			out = append(out, s.Round)
		}
	}
	sort.Ints(out)
	return out
}

// Analyze computes a Row for every case but the no-op, in the order of
// r.Cases.
func Analyze(r Results) []Row {
	idx := index(r.Samples)
	rs := rounds(r.Samples)
	var rows []Row
	for _, c := range r.Cases {
		row := Row{Case: c}
		var g, re []Sample
		var cpuR, rpsR, restR, lim []float64
		for _, n := range rs {
			gs, okG := idx[key{c.ID, "", "grpc", n}]
			rs, okR := idx[key{c.ID, "", "rest", n}]
			noop, okN := idx[key{CallNoop, c.Group, "grpc", n}]
			if okG {
				g = append(g, gs)
			}
			if okR {
				re = append(re, rs)
			}
			if okG && okN {
				cpuR = append(cpuR, gs.CPUPerReq()/noop.CPUPerReq())
				rpsR = append(rpsR, gs.RPS/noop.RPS)
				lim = append(lim, 2*noop.AllocsPerReq()+2*float64(c.Moves))
			}
			if okG && okR {
				restR = append(restR, rs.CPUPerReq()/gs.CPUPerReq())
			}
		}
		row.GRPC, row.REST = figures(g), figures(re)
		row.CPURatio, row.RPSRatio, row.RESTRatio = Summarize(cpuR), Summarize(rpsR), Summarize(restR)
		if HasAllocTarget(c) {
			row.AllocLimit = Summarize(lim)
		}
		rows = append(rows, row)
	}
	return rows
}

// Noop returns the no-op's figures on a transport, over all groups and
// rounds.
func Noop(r Results, transport string) Figures {
	var ss []Sample
	for _, s := range r.Samples {
		if s.Case == CallNoop && s.Transport == transport {
			ss = append(ss, s)
		}
	}
	return figures(ss)
}

// Replay is ReplayGame200's server CPU per request ÷ 10 × ApplyMove10Ply's,
// per round (N = 0 when either was not measured).
func Replay(r Results) Stat {
	idx := index(r.Samples)
	var x []float64
	for _, n := range rounds(r.Samples) {
		rp, ok1 := idx[key{"backgammon/" + CallReplay200, "", "grpc", n}]
		ap, ok2 := idx[key{"backgammon/" + CallApplyMove10, "", "grpc", n}]
		if ok1 && ok2 {
			x = append(x, rp.CPUPerReq()/(10*ap.CPUPerReq()))
		}
	}
	return Summarize(x)
}

// num formats a figure with 3 significant digits (whole numbers from 100).
func num(x float64) string {
	switch a := math.Abs(x); {
	case a >= 100:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// Cell formats a Stat as "median (min–max)", "—" when empty.
func Cell(s Stat) string {
	switch {
	case s.N == 0:
		return "—"
	case s.N == 1:
		return num(s.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", num(s.Median), num(s.Min), num(s.Max))
}

// Verdict formats a target and whether the median meets it, e.g.
// "≤ 1.4: **missed**" or "≥ 0.75: met"; "" without a target or figure.
func Verdict(t *Target, s Stat) string {
	if t == nil || s.N == 0 {
		return ""
	}
	v := "**missed**"
	if t.Met(s.Median) {
		v = "met"
	}
	return fmt.Sprintf("%s %g: %s", t.Op, t.Value, v)
}

// allocVerdict is the allocation target's cell: "≤ 300: met".
func allocVerdict(row Row) string {
	if !HasAllocTarget(row.Case) || row.AllocLimit.N == 0 || row.GRPC.Allocs.N == 0 {
		return ""
	}
	v := "**missed**"
	if row.GRPC.Allocs.Median <= row.AllocLimit.Median {
		v = "met"
	}
	return fmt.Sprintf("≤ %s: %s", num(row.AllocLimit.Median), v)
}

// Markdown writes the table (ratios, targets, verdicts), the
// replay comparison and a table of the raw medians.
func Markdown(w io.Writer, r Results) {
	rows := Analyze(r)
	ng, nr := Noop(r, "grpc"), Noop(r, "rest")
	flags := r.Config.ServerFlags
	if flags == "" {
		flags = "none"
	}
	fmt.Fprintf(w, "Median of %d interleaved rounds (spread min–max in brackets); %s runs at %d concurrent; no-op = `grpc.health.v1.Health/Check` (gRPC) measured just before each game's calls in every round; server flags beyond the ports: `%s`.\n\n",
		r.Config.Rounds, r.Config.Duration, r.Config.Concurrency, flags)
	fmt.Fprintf(w, "No-op baseline: gRPC %s µs server CPU/req, %s req/s, %s allocs/req; REST `GET /healthz` %s µs/req, %s req/s, %s allocs/req.\n\n",
		Cell(ng.CPU), Cell(ng.RPS), Cell(ng.Allocs), Cell(nr.CPU), Cell(nr.RPS), Cell(nr.Allocs))
	fmt.Fprintln(w, "| call (mid-game state) | server CPU ÷ no-op, gRPC | target | req/s ÷ no-op, gRPC | target | REST CPU ÷ gRPC CPU | target | allocs/req, gRPC | target ≤ 2× no-op + 2/move |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, row := range rows {
		if row.Case.Call == CallReplay200 || row.Case.Call == CallApplyMove10 {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", row.Case.Label,
			Cell(row.CPURatio), Verdict(CPUTarget(row.Case), row.CPURatio),
			Cell(row.RPSRatio), Verdict(RPSTarget(row.Case), row.RPSRatio),
			Cell(row.RESTRatio), Verdict(RESTTarget(row.Case), row.RESTRatio),
			Cell(row.GRPC.Allocs), allocVerdict(row))
	}
	if rp := Replay(r); rp.N > 0 {
		var rcpu, acpu Stat
		for _, row := range rows {
			switch row.Case.Call {
			case CallReplay200:
				rcpu = row.GRPC.CPU
			case CallApplyMove10:
				acpu = row.GRPC.CPU
			}
		}
		fmt.Fprintf(w, "\nIssue 13, item 4 (gRPC): one ReplayGame of a 200-ply backgammon game %s µs server CPU; one ApplyMove of its plies 100..109 %s µs; ReplayGame ÷ 10 ApplyMove = %s, target %s\n",
			Cell(rcpu), Cell(acpu), Cell(rp), Verdict(&ReplayTarget, rp))
	}
	fmt.Fprintln(w, "\nRaw medians per transport (server CPU per request from /proc/<pid>/stat, allocations from go_memstats_mallocs_total, latency from the load tool):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| call | transport | server CPU µs/req | req/s | p50 ms | p99 ms | allocs/req | requests | errors |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	line := func(label, tr string, f Figures) {
		if f.CPU.N == 0 {
			return
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %d | %d |\n", label, tr, Cell(f.CPU), Cell(f.RPS), Cell(f.P50), Cell(f.P99), Cell(f.Allocs), f.Requests, f.Errors)
	}
	line("no-op (Health/Check, GET /healthz)", "gRPC", ng)
	line("no-op (Health/Check, GET /healthz)", "REST", nr)
	for _, row := range rows {
		line(row.Case.Label, "gRPC", row.GRPC)
		line(row.Case.Label, "REST", row.REST)
	}
	var errs []string
	for _, row := range rows {
		if row.GRPC.Errors+row.REST.Errors > 0 {
			errs = append(errs, fmt.Sprintf("%s (gRPC %s; REST %s)", row.Case.Label, kinds(row.GRPC), kinds(row.REST)))
		}
	}
	if len(errs) > 0 {
		fmt.Fprintf(w, "\nRequests answered with an error (counted in the requests, so in the per-request figures): %s\n", strings.Join(errs, "; "))
	}
}

// kinds formats the errors of a transport: "3: 2 Unavailable, 1 Canceled".
func kinds(f Figures) string {
	if f.Errors == 0 {
		return "0"
	}
	var ks []string
	for k := range f.ErrorKinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d %s", f.ErrorKinds[k], k))
	}
	return fmt.Sprintf("%d: %s", f.Errors, strings.Join(parts, ", "))
}
