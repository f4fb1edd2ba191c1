// Command floor measures what a gamerules call costs the server against
// the transport's floor (issue 35), used by bench/floor.sh (use that: it
// builds the five programs). It starts gamerulesd (-server), the bare
// grpc-go health server (-bare, bench/floor/bare) and, once it has captured
// gamerulesd's answers, the two same-bytes servers (-samebytes,
// bench/floor/samebytes, gRPC; -samebytesrest, bench/floor/samebytesrest,
// REST over a bare net/http server), all on free 127.0.0.1 ports. It
// makes mid-game states of the four games by seeded play (bench/load),
// sent as text only, and measures in interleaved rounds:
//
//   - Health/Check on gamerulesd and on the bare server;
//   - for every game: LegalMoves without and with include_results, and
//     ApplyMove of the middle listed move without and with
//     include_legal_moves + include_results, on gamerulesd over gRPC, on
//     the same-bytes server (the same request bytes, answered with
//     gamerulesd's own answer bytes), on gamerulesd over REST (the same
//     request as protojson) and on the REST same-bytes server (the same
//     REST request, answered with gamerulesd's own REST status, headers
//     and JSON body);
//   - GET /healthz beside Health/Check, on gamerulesd and the REST
//     same-bytes server.
//
// Both same-bytes servers' answers are checked against gamerulesd's, byte
// for byte, before the rounds. The REST floor over the gRPC floor is the
// transport-only ratio: what HTTP/1.1 with JSON bodies costs over gRPC
// for the same call when neither side does any work; the table also gives
// the REST / gRPC ratio a call would have if its REST call cost only that
// difference of floors more than its gRPC call.
//
// Every run is -c concurrent callers on one connection (one HTTP/1.1
// keep-alive connection each for REST) for -duration; the server's CPU per
// call is utime+stime of /proc/<pid>/stat around the run over the calls
// answered. The table gives every figure as the median of the rounds and
// their spread [min–max], the ratio to the floor per round likewise, and
// the targets with met or MISSED.
//
// With -capture FILE it instead writes gamerulesd's answers (gRPC bytes
// and REST bodies) to a wider set of requests (every state, every listed
// move, with and without results and typed states, read masks, Score, and
// REST bodies that are refused, for their error answers' words) to FILE
// and exits: two builds' files compared with cmp prove that a change left
// every answer byte-identical.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/gamerules/gamerules/bench/floor/raw"
	"github.com/gamerules/gamerules/bench/load"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

type options struct {
	server, bare, samebytes string
	samebytesREST           string
	serverFlags             string
	rounds                  int
	duration                time.Duration
	concurrency             int
	clockTicks              int
	capture                 string
	only                    string
	kinds                   string
	baseline                string
}

func main() {
	var o options
	flag.StringVar(&o.server, "server", "", "gamerulesd binary (required)")
	flag.StringVar(&o.bare, "bare", "", "bench/floor/bare binary")
	flag.StringVar(&o.samebytes, "samebytes", "", "bench/floor/samebytes binary")
	flag.StringVar(&o.samebytesREST, "samebytesrest", "", "bench/floor/samebytesrest binary")
	flag.StringVar(&o.serverFlags, "server-flags", "", "extra gamerulesd flags, space-separated")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds")
	flag.DurationVar(&o.duration, "duration", time.Second, "length of one measured run")
	flag.IntVar(&o.concurrency, "c", 50, "concurrent callers")
	flag.IntVar(&o.clockTicks, "clock-ticks", 100, "clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK)")
	flag.StringVar(&o.capture, "capture", "", "write gamerulesd's answers to a wide request set to this file and exit")
	flag.StringVar(&o.only, "only", "", "measure only the calls whose id contains this (e.g. backgammon/LegalMoves)")
	flag.StringVar(&o.kinds, "kinds", "ours,floor,rest,restfloor", "what to measure of each call: ours (gamerulesd gRPC), floor, rest (gamerulesd REST), restfloor (the REST same-bytes server); with -baseline also base and baserest")
	flag.StringVar(&o.baseline, "baseline", "", "a second gamerulesd binary (e.g. an earlier commit's), measured in the same rounds (gRPC and REST), its answers checked byte-identical")
	flag.Parse()
	if o.server == "" || (o.capture == "" && (o.bare == "" || o.samebytes == "" || o.samebytesREST == "")) {
		fmt.Fprintln(os.Stderr, "floor: -server, -bare, -samebytes and -samebytesrest are required (use bench/floor.sh)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// proc is a started server.
type proc struct {
	name string
	cmd  *exec.Cmd
	addr string // gRPC
	http string // REST (gamerulesd and samebytesrest)
	conn *grpc.ClientConn
}

func (p *proc) stop() {
	if p.conn != nil {
		p.conn.Close()
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}

// cpu is the process's user+system CPU so far, in µs (fields 14 and 15
// of /proc/<pid>/stat, in clock ticks).
func (p *proc) cpu(ticks int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		panic(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(ut+st) * 1e6 / float64(ticks)
}

// startFloor starts a gRPC floor program, which prints its address first.
func startFloor(name string, bin string, args ...string) (*proc, error) {
	p, err := startProgram(name, bin, args...)
	if err != nil {
		return nil, err
	}
	p.conn, err = grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	return p, err
}

// startRESTFloor starts the REST floor program, which prints its address first.
func startRESTFloor(name string, bin string, args ...string) (*proc, error) {
	p, err := startProgram(name, bin, args...)
	if err != nil {
		return nil, err
	}
	p.http, p.addr = p.addr, ""
	return p, nil
}

func startProgram(name string, bin string, args ...string) (*proc, error) {
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &proc{name: name, cmd: cmd, addr: strings.TrimSpace(line)}, nil
}

func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func startServer(ctx context.Context, o options) (*proc, error) {
	p := &proc{name: "gamerulesd", addr: freePort(), http: freePort()}
	// As a user runs it, except a longer --queue-wait: 50 at once queue
	// behind --max-in-flight, and on a loaded shared machine the default
	// 250 ms sheds some as RESOURCE_EXHAUSTED (bench/run.sh does the same).
	args := append([]string{"--grpc-addr", p.addr, "--http-addr", p.http, "--queue-wait", "3s"}, strings.Fields(o.serverFlags)...)
	p.cmd = exec.Command(o.server, args...)
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if resp, err := http.Get("http://" + p.http + "/readyz"); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.stop()
			return nil, fmt.Errorf("gamerulesd not ready on %s", p.http)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var err error
	p.conn, err = grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	return p, err
}

// call is one measured call.
type call struct {
	id, label string
	method    string // full gRPC method, "/pkg.Service/Method"
	req       []byte // encoded request
	restPath  string // REST path, "" for none
	restGet   bool
	restBody  []byte
	answer    []byte // gamerulesd's gRPC answer, captured
	rest      *http.Response
	restBytes []byte // gamerulesd's REST answer body, captured (rest holds its status and headers)
	target    float64
}

const healthMethod = "/grpc.health.v1.Health/Check"

var gameNames = map[string]string{"backgammon": "backgammon", "abalone": "Abalone", "labyrinth": "Labyrinth", "gravity_trap": "Gravity Trap"}

func textOnly(s *gamerulesv1.GameState) *gamerulesv1.GameState {
	return &gamerulesv1.GameState{Text: s.GetText()}
}

// restOf is the REST path and body of a request with a game field.
func restOf(game, method string, req proto.Message) (string, []byte) {
	body := proto.Clone(req)
	r := body.ProtoReflect()
	r.Clear(r.Descriptor().Fields().ByName("game"))
	js, err := protojson.Marshal(body)
	if err != nil {
		panic(err)
	}
	// protojson adds a space after some colons at random, per build:
	// compact, so that two builds of this program send the same bytes
	// (and -capture files compare with cmp).
	var compact bytes.Buffer
	if err := json.Compact(&compact, js); err != nil {
		panic(err)
	}
	js = compact.Bytes()
	return "/v1/games/" + game + ":" + strings.ToLower(method[:1]) + method[1:], js
}

func mustMarshal(m proto.Message) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// calls are the measured calls on the four games' states.
func calls(states []load.State) []*call {
	out := []*call{{id: "health", label: "Health/Check (floor: bare grpc-go health server)", method: healthMethod, restPath: "/healthz", restGet: true, target: 1.25}}
	for _, s := range states {
		if s.Variant != "" {
			continue
		}
		add := func(id, label, method string, req proto.Message) {
			path, body := restOf(s.Game, method, req)
			out = append(out, &call{id: s.Game + "/" + id, label: label, method: "/gamerules.v1.GameRules/" + method, req: mustMarshal(req),
				restPath: path, restBody: body, target: 1.5})
		}
		name := gameNames[s.Game]
		st := textOnly(s.State)
		add("LegalMoves", fmt.Sprintf("LegalMoves %s (%s)", name, s.Describe), "LegalMoves", &gamerulesv1.LegalMovesRequest{Game: s.Game, State: st})
		add("LegalMovesResults", fmt.Sprintf("… %s + results", name), "LegalMoves", &gamerulesv1.LegalMovesRequest{Game: s.Game, State: st, IncludeResults: true})
		mv := s.Moves[len(s.Moves)/2].GetNotation()
		seed := uint64(7)
		add("ApplyMove", fmt.Sprintf("ApplyMove %s (%s)", name, mv), "ApplyMove", &gamerulesv1.ApplyMoveRequest{Game: s.Game, State: st, Move: &gamerulesv1.Move{Notation: mv}, Seed: &seed})
		add("ApplyMoveResults", fmt.Sprintf("… %s + next moves with results", name), "ApplyMove", &gamerulesv1.ApplyMoveRequest{Game: s.Game, State: st, Move: &gamerulesv1.Move{Notation: mv}, Seed: &seed,
			IncludeLegalMoves: true, IncludeResults: true})
	}
	return out
}

// captureCalls is the wide request set of -capture.
func captureCalls(states []load.State) []*call {
	out := calls(states)
	// Refused REST bodies (REST only): each error answer's words too.
	for _, game := range []string{"backgammon", "abalone"} {
		for i, body := range []string{`{"state":{"text":"garbage"}}`, `{"stat":1}`, `{"state":`, "  \n{\"state\":{\"text\":\"x\"}}\t ", `{"state":{"text":"\ud800"}}`,
			`{"includeResults":"yes"}`, `[]`, `{"state":{"text":"x"}} trailing`, `{"state":{"text":"x"},"state":{"text":"y"}}`, `{"readMask":"moves.nope"}`, `{"state":{"typed":1}}`, `{"state":{"text":1}}`} {
			out = append(out, &call{id: fmt.Sprintf("%s/refused/%d", game, i), restPath: "/v1/games/" + game + ":legalMoves", restBody: []byte(body)})
		}
	}
	for _, s := range states {
		add := func(id, method string, req proto.Message) {
			path, body := restOf(s.Game, method, req)
			out = append(out, &call{id: s.Group + "/" + id, method: "/gamerules.v1.GameRules/" + method, req: mustMarshal(req), restPath: path, restBody: body})
		}
		for _, st := range []*gamerulesv1.GameState{s.State, textOnly(s.State)} {
			typed := "typed"
			if st.GetText() != "" && st.GetState() == nil {
				typed = "text"
			}
			add("LegalMoves/"+typed, "LegalMoves", &gamerulesv1.LegalMovesRequest{Game: s.Game, State: st})
			add("LegalMovesResults/"+typed, "LegalMoves", &gamerulesv1.LegalMovesRequest{Game: s.Game, State: st, IncludeResults: true})
			add("LegalMovesMask/"+typed, "LegalMoves", &gamerulesv1.LegalMovesRequest{Game: s.Game, State: st, IncludeResults: true, ReadMask: &fieldmaskpb.FieldMask{Paths: []string{"moves.notation", "moves.result.text"}}})
			add("Score/"+typed, "Score", &gamerulesv1.ScoreRequest{Game: s.Game, State: st})
		}
		for i, m := range s.Moves {
			if i >= 40 {
				break
			}
			seed := uint64(i)
			st := textOnly(s.State)
			add(fmt.Sprintf("ApplyMove/%d", i), "ApplyMove", &gamerulesv1.ApplyMoveRequest{Game: s.Game, State: st, Move: &gamerulesv1.Move{Notation: m.GetNotation()}, Seed: &seed})
			add(fmt.Sprintf("ApplyMoveNext/%d", i), "ApplyMove", &gamerulesv1.ApplyMoveRequest{Game: s.Game, State: s.State, Move: m, Seed: &seed, IncludeLegalMoves: true, IncludeResults: i%2 == 0})
		}
	}
	return out
}

// invoke sends one raw call.
func invoke(ctx context.Context, conn *grpc.ClientConn, method string, req []byte) ([]byte, error) {
	in, out := raw.Frame(req), raw.Frame(nil)
	err := conn.Invoke(ctx, method, &in, &out, grpc.ForceCodecV2(raw.Codec{}))
	return out, err
}

func restCall(client *http.Client, base string, c *call) (int, []byte, error) {
	resp, body, err := restAnswer(client, base, c)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, body, nil
}

// restAnswer sends c's REST request and returns the answer (its body
// read and closed) and the body.
func restAnswer(client *http.Client, base string, c *call) (*http.Response, []byte, error) {
	var resp *http.Response
	var err error
	if c.restGet {
		resp, err = client.Get(base + c.restPath)
	} else {
		resp, err = client.Post(base+c.restPath, "application/json", bytes.NewReader(c.restBody))
	}
	if err != nil {
		return nil, nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, body, err
}

// sameREST reports how the REST floor's answer (resp, body) differs from
// gamerulesd's captured one, or "": status, body and every header but
// Date, byte for byte, and the same framing (Content-Length, not chunked).
func sameREST(c *call, resp *http.Response, body []byte) string {
	want := c.rest
	switch {
	case resp.StatusCode != want.StatusCode:
		return fmt.Sprintf("status %d, not %d", resp.StatusCode, want.StatusCode)
	case !bytes.Equal(body, c.restBytes):
		return "body differs"
	case resp.ContentLength != want.ContentLength || len(resp.TransferEncoding) != len(want.TransferEncoding):
		return fmt.Sprintf("framing: length %d %v, not %d %v", resp.ContentLength, resp.TransferEncoding, want.ContentLength, want.TransferEncoding)
	}
	for _, h := range []http.Header{resp.Header, want.Header} {
		for k := range h {
			if k != "Date" && !slices.Equal(resp.Header[k], want.Header[k]) {
				return fmt.Sprintf("header %s: %q, not %q", k, resp.Header[k], want.Header[k])
			}
		}
	}
	return ""
}

func run(ctx context.Context, o options) error {
	srv, err := startServer(ctx, o)
	if err != nil {
		return err
	}
	defer srv.stop()
	progress("gamerulesd pid %d: gRPC %s, HTTP %s; making states by seeded play ...", srv.cmd.Process.Pid, srv.addr, srv.http)
	states, err := load.States(ctx, gamerulesv1grpc.NewGameRulesClient(srv.conn))
	if err != nil {
		return err
	}
	if o.capture != "" {
		return capture(ctx, srv, captureCalls(states), o.capture)
	}
	var base *proc
	if o.baseline != "" {
		bo := o
		bo.server = o.baseline
		if base, err = startServer(ctx, bo); err != nil {
			return err
		}
		defer base.stop()
		if o.kinds == "ours,floor,rest,restfloor" {
			o.kinds += ",base,baserest"
		}
	}
	var cs []*call
	for _, c := range calls(states) {
		if strings.Contains(c.id, o.only) {
			cs = append(cs, c)
		}
	}
	var captured []raw.Call
	for _, c := range cs {
		if c.answer, err = invoke(ctx, srv.conn, c.method, c.req); err != nil {
			return fmt.Errorf("%s: %w", c.id, err)
		}
		captured = append(captured, raw.Call{Method: c.method, Request: c.req, Response: c.answer})
	}
	dir, err := os.MkdirTemp("", "gamerules-floor")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "calls.gob")
	if err := raw.Write(file, captured); err != nil {
		return err
	}
	// The REST floor's file: gamerulesd's REST answers to the same calls.
	var capturedREST []raw.Call
	client := &http.Client{Timeout: 30 * time.Second}
	for _, c := range cs {
		if c.rest, c.restBytes, err = restAnswer(client, "http://"+srv.http, c); err != nil {
			return fmt.Errorf("%s REST: %w", c.id, err)
		}
		method := http.MethodPost
		if c.restGet {
			method = http.MethodGet
		}
		capturedREST = append(capturedREST, raw.Call{Method: method + " " + c.restPath, Request: c.restBody, Response: c.restBytes,
			Status: c.rest.StatusCode, Header: c.rest.Header})
	}
	restFile := filepath.Join(dir, "rest.gob")
	if err := raw.Write(restFile, capturedREST); err != nil {
		return err
	}
	restFloor, err := startRESTFloor("samebytesrest", o.samebytesREST, "-calls", restFile)
	if err != nil {
		return err
	}
	defer restFloor.stop()
	for _, c := range cs {
		resp, body, err := restAnswer(client, "http://"+restFloor.http, c)
		if err != nil {
			return fmt.Errorf("%s on samebytesrest: %w", c.id, err)
		}
		if diff := sameREST(c, resp, body); diff != "" {
			return fmt.Errorf("%s on samebytesrest: answer differs from gamerulesd's REST answer: %s", c.id, diff)
		}
	}
	bare, err := startFloor("bare", o.bare)
	if err != nil {
		return err
	}
	defer bare.stop()
	same, err := startFloor("samebytes", o.samebytes, "-calls", file)
	if err != nil {
		return err
	}
	defer same.stop()
	// The floors' answers must be gamerulesd's, byte for byte.
	for _, c := range cs {
		floor := same
		if c.method == healthMethod {
			floor = bare
		}
		got, err := invoke(ctx, floor.conn, c.method, c.req)
		if err != nil || !bytes.Equal(got, c.answer) {
			return fmt.Errorf("%s on %s: answer differs from gamerulesd's (%v)", c.id, floor.name, err)
		}
	}
	if base != nil {
		for _, c := range cs {
			got, err := invoke(ctx, base.conn, c.method, c.req)
			if err != nil || !bytes.Equal(got, c.answer) {
				return fmt.Errorf("%s: the baseline's answer differs (%v)", c.id, err)
			}
		}
	}
	progress("bare pid %d, samebytes pid %d, samebytesrest pid %d; %d rounds of %v runs at %d concurrent", bare.cmd.Process.Pid, same.cmd.Process.Pid, restFloor.cmd.Process.Pid, o.rounds, o.duration, o.concurrency)

	rest := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.concurrency, MaxConnsPerHost: o.concurrency}, Timeout: 30 * time.Second}
	// samples[call id][kind] = per-round CPU µs per call.
	samples := map[string]map[string][]float64{}
	for r := 1; r <= o.rounds; r++ {
		for _, c := range cs {
			floor := same
			if c.method == healthMethod {
				floor = bare
			}
			if samples[c.id] == nil {
				samples[c.id] = map[string][]float64{}
			}
			for _, k := range strings.Split(o.kinds, ",") {
				var us float64
				var n, errs int64
				switch k {
				case "ours":
					us, n, errs = runGRPC(ctx, o, srv, c)
				case "floor":
					us, n, errs = runGRPC(ctx, o, floor, c)
				case "rest":
					us, n, errs = runREST(ctx, o, srv, rest, c)
				case "restfloor":
					us, n, errs = runREST(ctx, o, restFloor, rest, c)
				case "base":
					us, n, errs = runGRPC(ctx, o, base, c)
				case "baserest":
					us, n, errs = runREST(ctx, o, base, rest, c)
				}
				if errs > 0 {
					return fmt.Errorf("round %d %s %s: %d of %d calls failed", r, c.id, k, errs, n+errs)
				}
				samples[c.id][k] = append(samples[c.id][k], us)
				progress("[round %d/%d] %-32s %-5s %7d calls  %7.1f µs CPU/call", r, o.rounds, c.id, k, n, us)
			}
		}
	}
	table(os.Stdout, o, cs, samples)
	return nil
}

// runGRPC runs c's gRPC call on p for o.duration at o.concurrency over
// one connection, and returns the server's CPU per call (µs), the calls
// answered and the calls failed.
func runGRPC(ctx context.Context, o options, p *proc, c *call) (float64, int64, int64) {
	return runLoad(ctx, o, p, func(ctx context.Context) bool {
		_, err := invoke(ctx, p.conn, c.method, c.req)
		return err == nil
	})
}

func runREST(ctx context.Context, o options, p *proc, client *http.Client, c *call) (float64, int64, int64) {
	base := "http://" + p.http
	return runLoad(ctx, o, p, func(ctx context.Context) bool {
		code, _, err := restCall(client, base, c)
		return err == nil && code == http.StatusOK
	})
}

func runLoad(ctx context.Context, o options, p *proc, do func(context.Context) bool) (float64, int64, int64) {
	var ok, bad atomic.Int64
	stop := time.Now().Add(o.duration)
	before := p.cpu(o.clockTicks)
	var wg sync.WaitGroup
	for i := 0; i < o.concurrency; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) && ctx.Err() == nil {
				if do(ctx) {
					ok.Add(1)
				} else {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	after := p.cpu(o.clockTicks)
	n := ok.Load()
	if n == 0 {
		return 0, 0, bad.Load()
	}
	return (after - before) / float64(n), n, bad.Load()
}

// capture writes the answers of every call, gRPC and REST, to path.
func capture(ctx context.Context, srv *proc, cs []*call, path string) error {
	client := &http.Client{Timeout: 30 * time.Second}
	var out []raw.Call
	for _, c := range cs {
		if c.method != "" {
			ans, err := invoke(ctx, srv.conn, c.method, c.req)
			if err != nil {
				ans = []byte("error: " + err.Error())
			}
			out = append(out, raw.Call{Method: c.id + " " + c.method, Request: c.req, Response: ans})
		}
		if c.restPath != "" {
			code, body, err := restCall(client, "http://"+srv.http, c)
			if err != nil {
				return err
			}
			out = append(out, raw.Call{Method: fmt.Sprintf("%s REST %s %d", c.id, c.restPath, code), Request: c.restBody, Response: body})
		}
	}
	progress("%d answers written to %s", len(out), path)
	return raw.Write(path, out)
}

// atFloorsDifference is, per round, (ours + restfloor − floor) / ours:
// REST / gRPC if a REST call cost its gRPC call plus the difference of
// the two transports' floors.
func atFloorsDifference(s map[string][]float64) []float64 {
	ours, rf, f := s["ours"], s["restfloor"], s["floor"]
	if len(ours) == 0 || len(ours) != len(rf) || len(ours) != len(f) {
		return nil
	}
	out := make([]float64, len(ours))
	for i := range ours {
		out[i] = (ours[i] + rf[i] - f[i]) / ours[i]
	}
	return out
}

// spread is "median [min–max]" of xs.
func spread(xs []float64, format string) string {
	if len(xs) == 0 {
		return "–"
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	if len(s) == 1 {
		return fmt.Sprintf(format, med)
	}
	return fmt.Sprintf(format+" ["+format+"–"+format+"]", med, s[0], s[len(s)-1])
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

func ratios(a, b []float64) []float64 {
	if len(a) != len(b) {
		return nil
	}
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}

func verdict(r []float64, target float64) string {
	if len(r) == 0 {
		return "–"
	}
	if r := median(r); r <= target {
		return fmt.Sprintf("≤ %.2f met", target)
	}
	return fmt.Sprintf("≤ %.2f **MISSED** by %.0f%%", target, (median(r)/target-1)*100)
}

func table(w io.Writer, o options, cs []*call, samples map[string]map[string][]float64) {
	fmt.Fprintf(w, "Server CPU per call, µs: median of %d interleaved rounds [min–max], %v runs at %d concurrent on one connection; ratios per round.\n\n", o.rounds, o.duration, o.concurrency)
	fmt.Fprintln(w, "| call | gamerulesd µs | floor µs | answer bytes | ratio to floor | target | REST µs | REST / gRPC | target |"+
		" REST floor µs | REST / REST floor | REST floor / floor | REST / gRPC at the floors' difference |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range cs {
		s := samples[c.id]
		rf, rr := ratios(s["ours"], s["floor"]), ratios(s["rest"], s["ours"])
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.label, spread(s["ours"], "%.1f"), spread(s["floor"], "%.1f"), len(c.answer),
			spread(rf, "%.2f"), verdict(rf, c.target), spread(s["rest"], "%.1f"), spread(rr, "%.2f"), verdict(rr, 1.3),
			spread(s["restfloor"], "%.1f"), spread(ratios(s["rest"], s["restfloor"]), "%.2f"), spread(ratios(s["restfloor"], s["floor"]), "%.2f"),
			spread(atFloorsDifference(s), "%.2f"))
	}
	fmt.Fprintln(w, "\nREST floor: the same REST request answered by a bare net/http server with gamerulesd's own REST answer (bench/floor/samebytesrest)."+
		" REST floor / floor is the transport-only ratio (HTTP/1.1 and JSON bytes against gRPC, no work on either side)."+
		" The last column is (gamerulesd µs + REST floor µs − floor µs) / gamerulesd µs, per round:"+
		" the REST / gRPC ratio of a REST call that cost only the floors' difference more than the gRPC call (the same work, no JSON cost); above 1.30 the target is out of reach by transport alone.")
	if o.baseline == "" {
		return
	}
	fmt.Fprintf(w, "\nThe baseline (-baseline, %s) in the same rounds: its server CPU per call and the ratio per round of this build's to it.\n\n", o.baseline)
	fmt.Fprintln(w, "| call | baseline gRPC µs | this / baseline, gRPC | baseline ratio to floor | baseline REST µs | this / baseline, REST | baseline REST / gRPC | baseline REST / REST floor |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, c := range cs {
		s := samples[c.id]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", c.label, spread(s["base"], "%.1f"), spread(ratios(s["ours"], s["base"]), "%.2f"),
			spread(ratios(s["base"], s["floor"]), "%.2f"), spread(s["baserest"], "%.1f"), spread(ratios(s["rest"], s["baserest"]), "%.2f"), spread(ratios(s["baserest"], s["base"]), "%.2f"),
			spread(ratios(s["baserest"], s["restfloor"]), "%.2f"))
	}
}
