// Command runner is the load benchmark behind bench/run.sh (use that: it
// builds the server and installs the pinned ghz and hey first). It starts
// the given gamerulesd on free 127.0.0.1 ports, makes mid-game states of
// every game by seeded play (bench/load), and measures every call over
// gRPC (ghz) and REST (hey), interleaved with the no-op baseline
// (grpc.health.v1.Health/Check, GET /healthz) before each game's calls in
// every round: requests per second, p50/p99, the server's CPU per request
// (utime+stime of /proc/<pid>/stat around the run) and allocations per
// request (go_memstats_mallocs_total of /metrics around the run). It writes
// every sample as JSON (-out) and prints the Markdown table of bench/report.
//
// Every run is bounded: a short warm-up run of -duration/2 per call gives
// its rate and cost, and each measured run then sends rate × -duration
// requests, or enough for 0.3 s of server CPU if that takes at most
// 2 × -duration (ghz/hey -n, so that none is cut off at the end), at most -max-requests,
// and is killed after 10 × -duration + 60 s. Only 127.0.0.1 is contacted; the
// server is killed on exit and on SIGINT/SIGTERM.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/gamerules/gamerules/bench/load"
	"github.com/gamerules/gamerules/bench/report"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

type options struct {
	server, ghz, hey   string
	serverFlags        string
	serverLog          string
	rounds             int
	duration           time.Duration
	concurrency        int
	maxRequests        int
	smoke              bool
	out, commit, files string
	clockTicks         int
}

func main() {
	var o options
	flag.StringVar(&o.server, "server", "", "gamerulesd binary (required)")
	flag.StringVar(&o.ghz, "ghz", "ghz", "ghz binary")
	flag.StringVar(&o.hey, "hey", "hey", "hey binary")
	flag.StringVar(&o.serverFlags, "server-flags", "", "extra gamerulesd flags, space-separated (e.g. --log-level error)")
	flag.StringVar(&o.serverLog, "server-log", "", "file for the server's log (default: discarded)")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds")
	flag.DurationVar(&o.duration, "duration", time.Second, "aimed length of one measured run")
	flag.IntVar(&o.concurrency, "c", 50, "concurrent requests of the load tools")
	flag.IntVar(&o.maxRequests, "max-requests", 20000, "most requests of one run")
	flag.BoolVar(&o.smoke, "smoke", false, "1 round of one request per worker (-c) per run, no warm-up: checks that everything works, measures nothing")
	flag.StringVar(&o.out, "out", "bench/results/latest.json", "raw results (JSON)")
	flag.StringVar(&o.commit, "commit", "", "commit measured (for the results)")
	flag.StringVar(&o.files, "files", "", "directory for the request files (default: a temporary one)")
	flag.IntVar(&o.clockTicks, "clock-ticks", 100, "clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK)")
	reportOnly := flag.String("report", "", "print the table of a results file written by -out, and exit (no server, no load)")
	flag.Parse()
	if *reportOnly != "" {
		if err := printReport(*reportOnly); err != nil {
			fmt.Fprintln(os.Stderr, "runner:", err)
			os.Exit(1)
		}
		return
	}
	if o.server == "" {
		fmt.Fprintln(os.Stderr, "runner: -server is required (use bench/run.sh)")
		os.Exit(2)
	}
	if o.smoke {
		o.rounds = 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		os.Exit(1)
	}
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// bench is one benchmark run against one server process.
type bench struct {
	o          options
	pid        int
	grpcAddr   string
	httpAddr   string
	protoset   string
	files      map[string]load.Files
	warm       map[string]report.Sample // warm-up runs by case ID + transport
	results    report.Results
	httpClient *http.Client
}

func run(ctx context.Context, o options) error {
	dir := o.files
	if dir == "" {
		d, err := os.MkdirTemp("", "gamerules-bench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	b := &bench{o: o, grpcAddr: freePort(), httpAddr: freePort(), warm: map[string]report.Sample{}, httpClient: &http.Client{Timeout: 10 * time.Second}}

	// The server, as a user runs it (default log level info), except a
	// longer --queue-wait (see below), plus -server-flags (which win).
	// At 50 concurrent, 42 requests wait behind the 8 in flight
	// (--max-in-flight = 4 × GOMAXPROCS on 2 cores); with the default 250
	// ms a loaded shared machine sheds some as 429 / RESOURCE_EXHAUSTED,
	// fast answers that would make the per-request figures mean less.
	// Waiting longer changes no cost of an answered request.
	args := append([]string{"--grpc-addr", b.grpcAddr, "--http-addr", b.httpAddr, "--queue-wait", "3s"}, strings.Fields(o.serverFlags)...)
	srv := exec.Command(o.server, args...)
	if o.serverLog != "" {
		f, err := os.Create(o.serverLog)
		if err != nil {
			return err
		}
		defer f.Close()
		srv.Stdout, srv.Stderr = f, f
	}
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	b.pid = srv.Process.Pid
	progress("server pid %d: gRPC %s, HTTP %s, flags %q", b.pid, b.grpcAddr, b.httpAddr, args[4:])
	if err := b.waitReady(ctx); err != nil {
		return err
	}

	// The states and requests.
	conn, err := grpc.NewClient(b.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	progress("making mid-game states by seeded play ...")
	states, err := load.States(ctx, client)
	if err != nil {
		conn.Close()
		return err
	}
	cases := load.Cases(states)
	replay, err := load.ReplayCases(ctx, client)
	conn.Close()
	if err != nil {
		return err
	}
	cases = append(cases, replay...)
	for _, s := range states {
		progress("  %s: ply %d, %s", s.Group, s.Ply, s.Describe)
	}
	if b.protoset, b.files, err = load.WriteFiles(dir, cases); err != nil {
		return err
	}
	b.results = report.Results{
		Machine: machine(o.commit),
		Config:  report.Config{Rounds: o.rounds, Duration: o.duration.String(), Concurrency: o.concurrency, ServerFlags: strings.Join(args[4:], " "), ClockTicks: o.clockTicks},
	}
	if o.smoke {
		b.results.Config.Duration = "smoke (one request per worker)"
	}
	for _, c := range cases {
		b.results.Cases = append(b.results.Cases, report.Case{ID: c.ID, Label: c.Label, Game: c.Game, Variant: c.Variant, Call: c.Call, Group: c.Group, Moves: c.Moves, REST: c.Path != ""})
	}
	var groups []string
	byGroup := map[string][]load.Case{}
	for _, c := range cases {
		if byGroup[c.Group] == nil {
			groups = append(groups, c.Group)
		}
		byGroup[c.Group] = append(byGroup[c.Group], c)
	}
	noop := load.Case{ID: report.CallNoop, Call: report.CallNoop, Method: load.NoopMethod, Path: load.NoopPath}

	if !o.smoke {
		progress("warm-up: every call for %v to learn its rate ...", o.duration/2)
		for _, g := range groups {
			for _, c := range append([]load.Case{noop}, byGroup[g]...) {
				for _, tr := range transports(c) {
					s, err := b.measure(ctx, c, tr, 0)
					if err != nil {
						return err
					}
					b.warm[c.ID+" "+tr] = s
				}
			}
		}
	}
	for r := 1; r <= o.rounds; r++ {
		for _, g := range groups {
			list := byGroup[g]
			if g != "replay" {
				n := noop
				n.Group = g
				list = append([]load.Case{n}, list...)
			}
			for _, c := range list {
				for _, tr := range transports(c) {
					s, err := b.measure(ctx, c, tr, r)
					if err != nil {
						return err
					}
					s.Group = g
					b.results.Samples = append(b.results.Samples, s)
					progress("[round %d/%d] %-40s %-4s %6d req %6.0f req/s  %7.1f µs CPU/req  %6.0f allocs/req  p50 %.2f ms  p99 %.2f ms  errors %d",
						r, o.rounds, c.ID, tr, s.Requests, s.RPS, s.CPUPerReq(), s.AllocsPerReq(), s.P50Ms, s.P99Ms, s.Errors)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(b.results, "", "  ")
	if err := os.WriteFile(o.out, js, 0o644); err != nil {
		return err
	}
	progress("raw results written to %s", o.out)
	markdown(b.results)
	return nil
}

// markdown prints the machine line and the report's tables.
func markdown(r report.Results) {
	fmt.Printf("Machine: %d CPUs, %s, %s; commit %s; %s\n\n", r.Machine.CPUs, r.Machine.CPUModel, r.Machine.GoVersion, r.Machine.Commit, r.Machine.Date)
	report.Markdown(os.Stdout, r)
}

// printReport prints the tables of a results file.
func printReport(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var r report.Results
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	markdown(r)
	return nil
}

// transports are the transports a case is measured on.
func transports(c load.Case) []string {
	if c.Path != "" {
		return []string{"grpc", "rest"}
	}
	return []string{"grpc"}
}

// measure runs one bounded load run of c on transport tr and returns its
// sample. Round 0 is the warm-up: a run of -duration/2 (the load tool's
// -z); otherwise rate × -duration requests (-n), at least 2 per worker; one per
// worker in smoke mode.
func (b *bench) measure(ctx context.Context, c load.Case, tr string, round int) (report.Sample, error) {
	var bound []string
	c0 := b.o.concurrency
	if c.Concurrency > 0 {
		c0 = c.Concurrency
	}
	switch {
	case b.o.smoke:
		bound = []string{"-n", strconv.Itoa(c0)}
	case round == 0:
		bound = []string{"-z", (b.o.duration / 2).String()}
	default:
		// rate × duration requests, but at least enough for 0.3 s of server
		// CPU at the warm-up's cost (30 clock ticks: the CPU clock's 10 ms
		// then weighs 3%), as long as that takes at most 2 × duration.
		w := b.warm[c.ID+" "+tr]
		n := w.RPS * b.o.duration.Seconds()
		if cpu := w.CPUPerReq(); cpu > 0 {
			n = max(n, min(0.3e6/cpu, 2*w.RPS*b.o.duration.Seconds()))
		}
		n = max(min(math.Round(n), float64(b.o.maxRequests)), float64(2*c0))
		bound = []string{"-n", strconv.Itoa(int(n))}
	}
	conc := strconv.Itoa(c0)
	f := b.files[c.ID]
	if c.Call == report.CallNoop {
		f = b.files["noop"]
	}
	var args []string
	tool := b.o.ghz
	if tr == "grpc" {
		args = append([]string{"--insecure", "--protoset", b.protoset, "--call", c.Method, "-D", f.GRPC, "-c", conc, "-O", "json"}, bound...)
		args = append(args, b.grpcAddr)
	} else {
		tool = b.o.hey
		args = append([]string{"-c", conc, "-o", "csv"}, bound...)
		if c.Call != report.CallNoop {
			args = append(args, "-m", "POST", "-T", "application/json", "-D", f.REST)
		}
		args = append(args, "http://"+b.httpAddr+c.Path)
	}
	m0, err := b.mallocs()
	if err != nil {
		return report.Sample{}, err
	}
	cpu0, err := b.cpuMicros()
	if err != nil {
		return report.Sample{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, 10*b.o.duration+60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(rctx, tool, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	wall := time.Since(start).Seconds()
	cpu1, err := b.cpuMicros()
	if err != nil {
		return report.Sample{}, err
	}
	m1, err := b.mallocs()
	if err != nil {
		return report.Sample{}, err
	}
	if runErr != nil {
		return report.Sample{}, fmt.Errorf("%s %s: %v\n%s", filepath.Base(tool), strings.Join(args, " "), runErr, stderr.String())
	}
	s := report.Sample{Case: c.ID, Transport: tr, Round: round, Seconds: wall, CPUMicros: cpu1 - cpu0, Mallocs: m1 - m0}
	if tr == "grpc" {
		err = parseGhz(stdout.Bytes(), &s)
	} else {
		err = parseHey(stdout.Bytes(), &s)
	}
	if err != nil {
		return s, fmt.Errorf("%s on %s: %w", c.ID, tr, err)
	}
	if s.Requests == 0 {
		return s, fmt.Errorf("%s on %s: no request answered", c.ID, tr)
	}
	return s, nil
}

// parseGhz reads ghz's JSON report (-O json): count, rps, the latency
// distribution (ns) and the status codes.
func parseGhz(out []byte, s *report.Sample) error {
	var r struct {
		Count   int     `json:"count"`
		Total   float64 `json:"total"` // ns
		RPS     float64 `json:"rps"`
		Latency []struct {
			Percentage int     `json:"percentage"`
			Latency    float64 `json:"latency"` // ns
		} `json:"latencyDistribution"`
		Status map[string]int `json:"statusCodeDistribution"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return fmt.Errorf("ghz output: %v: %.200s", err, out)
	}
	s.Requests, s.RPS = r.Count, r.RPS
	s.Errors = r.Count - r.Status["OK"]
	for k, n := range r.Status {
		if k != "OK" {
			if s.ErrorKinds == nil {
				s.ErrorKinds = map[string]int{}
			}
			s.ErrorKinds[k] += n
		}
	}
	if r.Total > 0 {
		s.Seconds = r.Total / 1e9
	}
	for _, l := range r.Latency {
		switch l.Percentage {
		case 50:
			s.P50Ms = l.Latency / 1e6
		case 99:
			s.P99Ms = l.Latency / 1e6
		}
	}
	return nil
}

// parseHey reads hey's per-request CSV (-o csv): response-time (s),
// status-code and offset (s from the start) of every answered request.
func parseHey(out []byte, s *report.Sample) error {
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		return fmt.Errorf("hey output: %v", err)
	}
	if len(rows) == 0 {
		return fmt.Errorf("hey output is empty")
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	rt, sc, off := col["response-time"], col["status-code"], col["offset"]
	if _, ok := col["offset"]; !ok {
		return fmt.Errorf("hey CSV header %v", rows[0])
	}
	var lat []float64
	span := 0.0
	for _, row := range rows[1:] {
		t, _ := strconv.ParseFloat(row[rt], 64)
		o, _ := strconv.ParseFloat(row[off], 64)
		lat = append(lat, t)
		span = max(span, o+t)
		if row[sc] != "200" {
			s.Errors++
			if s.ErrorKinds == nil {
				s.ErrorKinds = map[string]int{}
			}
			s.ErrorKinds["HTTP "+row[sc]]++
		}
	}
	s.Requests = len(lat)
	if span > 0 {
		s.RPS, s.Seconds = float64(len(lat))/span, span
	}
	sort.Float64s(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(math.Ceil(p*float64(len(lat))))-1] * 1000
	}
	s.P50Ms, s.P99Ms = pct(0.5), pct(0.99)
	return nil
}

// cpuMicros is the server's user+system CPU so far, in µs: fields 14 and
// 15 of /proc/<pid>/stat, in clock ticks.
func (b *bench) cpuMicros() (float64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", b.pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", b.pid, raw)
	}
	return float64(ut+st) * 1e6 / float64(b.o.clockTicks), nil
}

// mallocs is the server's go_memstats_mallocs_total from /metrics.
func (b *bench) mallocs() (float64, error) {
	resp, err := b.httpClient.Get("http://" + b.httpAddr + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_memstats_mallocs_total "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, fmt.Errorf("/metrics has no go_memstats_mallocs_total")
}

func (b *bench) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if resp, err := b.httpClient.Get("http://" + b.httpAddr + "/readyz"); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("server not ready on %s after 15 s", b.httpAddr)
}

func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// machine describes this machine: CPUs, the CPU model of /proc/cpuinfo,
// the Go version.
func machine(commit string) report.Machine {
	m := report.Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), Commit: commit, Date: time.Now().UTC().Format(time.RFC3339)}
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}
