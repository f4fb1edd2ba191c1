package stacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/benchcpu"
	"github.com/gamerules/gamerules/internal/hostiletest"
	"github.com/gamerules/gamerules/rest"
	"github.com/gamerules/gamerules/server"
	"github.com/gamerules/gamerules/service/rpcs"
)

// Issue 30, item 1: every call stops at its deadline. The property test
// runs every RPC of service/rpcs' table (a new RPC fails here until it has
// worst-case inputs in deadlineCases), over gRPC (the call's deadline) and
// REST (the Grpc-Timeout header), on the costliest inputs the limits let
// in, each with a short deadline, and fails if an answer comes later than
// the deadline plus deadlineGrace, or if the process keeps a core busy
// after the last answer.

// callDeadline is each call's deadline: short, so that the costly inputs
// run past it.
const callDeadline = 300 * time.Millisecond

// deadlineGrace is how late past its deadline an answer may come: issue 30
// allows 1.5 s (a handler checks its context between units of work; the
// slowest unit on a busy 2-core machine, and the scheduling of the
// answer, fit in it).
const deadlineGrace = 1500 * time.Millisecond

// raceGrace is the grace under the race detector (CI's go test -race ./...),
// which slows the code of a call, not its deadline: 4 × deadlineGrace. A
// REST Batch of a 330 KB request (about 500 KB of JSON) came 1.5 to 3.0 s
// past its 100 ms deadline there, on 2 cores running other packages' tests,
// and under 0.6 s without the detector.
const raceGrace = 4 * deadlineGrace

// deadlineCase is one worst-case input of an RPC.
type deadlineCase struct {
	name string
	req  proto.Message
}

// deadlineCases are the worst-case inputs of every RPC, by RPC name.
func deadlineCases(t *testing.T, c gamerulesv1grpc.GameRulesClient) map[string][]deadlineCase {
	t.Helper()
	ctx := context.Background()
	big, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: largestBoard()}}})
	if err != nil {
		t.Fatal(err)
	}
	// The board whose line colouring was exponential: 12 stations, 40
	// lines that share them.
	shared := &gamerulesv1.GravityTrapBoard{}
	for i := range 12 {
		shared.Stations = append(shared.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: float64(i % 4), Y: float64(i / 4)})
		shared.Opposite = append(shared.Opposite, uint32(11-i))
	}
	for i := uint32(0); i < 12 && len(shared.Lines) < 40; i++ {
		for j := i + 1; j < 12 && len(shared.Lines) < 40; j++ {
			for k := j + 1; k < 12 && len(shared.Lines) < 40; k += 3 {
				shared.Lines = append(shared.Lines, &gamerulesv1.GravityTrapLine{Stations: []uint32{i, j, k}})
			}
		}
	}
	var sharedState *gamerulesv1.GameState
	if ng, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: shared}}}); err == nil {
		sharedState = ng.GetState()
	} else {
		t.Logf("the 40-line shared board is refused (%v): rendering the largest board instead", err)
		sharedState = big.GetState()
	}
	ab, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "abalone"})
	if err != nil {
		t.Fatal(err)
	}
	// A long Abalone game for the replays and exports.
	seed := uint64(30)
	po, err := c.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: "abalone", State: ab.GetState(), Games: 1, Seed: &seed, MaxPlies: 9000, IncludeMoves: true})
	if err != nil || len(po.GetPlayed().GetGames()) != 1 {
		t.Fatalf("abalone playout for the replays: %v", err)
	}
	moves := po.GetPlayed().GetGames()[0].GetMoves()
	replay := &gamerulesv1.ReplayGameRequest{Game: "abalone", Moves: moves, IncludeStates: true}
	tags := map[string]string{}
	for i := range 200 {
		tags[fmt.Sprintf("Tag%d", i)] = fmt.Sprintf("value %d", i)
	}
	bigState := big.GetState()
	limit := server.DefaultOptions().MaxRecvBytes
	// Batches as large as the request limits let in: the most items
	// (small requests, large answers), and the largest board as many times
	// as fit in half the limit (its JSON form is larger).
	var many, heavy []*gamerulesv1.BatchRequestItem
	for range 1000 {
		many = append(many, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "abalone", State: ab.GetState(), IncludeResults: true}}})
	}
	bigItem := &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: bigState, IncludeResults: true}}}
	for n := limit / 4 / proto.Size(bigItem); n > 0; n-- {
		heavy = append(heavy, bigItem)
	}
	imports := []deadlineCase{}
	for _, h := range hostiletest.Imports(t, "../..") {
		switch h.Name {
		case "mat one-roll lines", "mat session", "apgn 9000 plies", "json 9000 moves":
			imports = append(imports, deadlineCase{h.Name, h.GRPCRequest(limit / 2)})
		}
	}
	return map[string][]deadlineCase{
		"ListGames": {{"all", &gamerulesv1.ListGamesRequest{}}},
		"NewGame": {{"largest custom board", &gamerulesv1.NewGameRequest{Game: "gravity_trap",
			Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: largestBoard()}}}}},
		"LegalMoves":   {{"largest board, results", &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: bigState, IncludeResults: true}}},
		"ApplyMove":    {{"abalone first move, legal moves and results", &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: ab.GetState(), Move: &gamerulesv1.Move{Notation: moves[0]}, IncludeLegalMoves: true, IncludeResults: true}}},
		"Score":        {{"largest board", &gamerulesv1.ScoreRequest{Game: "gravity_trap", State: bigState}}},
		"ObserveState": {{"largest board", &gamerulesv1.ObserveStateRequest{Game: "gravity_trap", State: bigState}}},
		"RenderState": {
			{"40 lines sharing 12 stations", &gamerulesv1.RenderStateRequest{Game: "gravity_trap", State: sharedState, Size: 2000}},
			{"largest board", &gamerulesv1.RenderStateRequest{Game: "gravity_trap", State: bigState, Size: 2000}},
		},
		"ConvertState": {{"largest board", &gamerulesv1.ConvertStateRequest{Game: "gravity_trap", State: bigState}}},
		"GetBoard":     {{"default", &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: "default"}}},
		"ReplayGame":   {{fmt.Sprintf("abalone %d plies with states", len(moves)), replay}},
		"ImportRecord": imports,
		"ExportRecord": {
			{"abalone long game, apgn, 200 tags", &gamerulesv1.ExportRecordRequest{Game: "abalone", Format: "apgn", Replay: replay, Tags: tags}},
			{"abalone long game, json", &gamerulesv1.ExportRecordRequest{Game: "abalone", Format: "json", Replay: replay}},
		},
		"Batch": {
			{"1000 abalone LegalMoves with results", &gamerulesv1.BatchRequest{Requests: many}},
			{fmt.Sprintf("%d largest-board LegalMoves", len(heavy)), &gamerulesv1.BatchRequest{Requests: heavy}},
		},
		"Expand": {
			{"largest board, depth 8, 20000 nodes", &gamerulesv1.ExpandRequest{Game: "gravity_trap", State: bigState, Depth: 8, MaxNodes: 20_000, IncludeTyped: true}},
			{"abalone, depth 3, 20000 nodes", &gamerulesv1.ExpandRequest{Game: "abalone", State: ab.GetState(), Depth: 3, MaxNodes: 20_000, IncludeTyped: true}},
			{"abalone, depth 2, 20000 nodes", &gamerulesv1.ExpandRequest{Game: "abalone", State: ab.GetState(), Depth: 2, MaxNodes: 20_000}},
		},
		"Playout": {
			{"largest board, 10000 games, moves", &gamerulesv1.PlayoutRequest{Game: "gravity_trap", State: bigState, Games: 10_000, MaxPlies: 10_000, IncludeMoves: true}},
			{"abalone, 10000 games", &gamerulesv1.PlayoutRequest{Game: "abalone", State: ab.GetState(), Games: 10_000, MaxPlies: 10_000}},
		},
	}
}

// restCallDeadline sends req as the REST call of RPC name with a Grpc-Timeout
// header of d and reads the whole answer; it returns the status.
func restCallDeadline(t *testing.T, client *http.Client, base, name string, req proto.Message, d time.Duration) (int, error) {
	t.Helper()
	// The RPC's route with a body when it has one (RenderState's GET
	// binding, first, would drop the state: a REST call would then test
	// only its refusal).
	var route *rest.Route
	for _, r := range rest.Routes() {
		if r.RPC == name && (route == nil || route.Method == http.MethodGet && r.Method != http.MethodGet) {
			route = &r
		}
	}
	if route == nil {
		return 0, fmt.Errorf("no REST route for %s", name)
	}
	raw, err := protojson.Marshal(req)
	if err != nil {
		return 0, err
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		return 0, err
	}
	path := route.Template
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(path[i:], '}') + i
		key := path[i+1 : j]
		v, _ := fields[key].(string)
		delete(fields, key)
		path = path[:i] + url.PathEscape(v) + path[j+1:]
	}
	var body io.Reader
	if route.Method != http.MethodGet {
		b, _ := json.Marshal(fields)
		body = strings.NewReader(string(b))
	}
	hreq, err := http.NewRequest(route.Method, base+path, body)
	if err != nil {
		return 0, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Grpc-Timeout", strconv.FormatInt(d.Milliseconds(), 10)+"m")
	resp, err := client.Do(hreq)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// TestEveryRPCStopsAtItsDeadline is issue 30's deadline property test (see
// the top of this file and of deadline_random_test.go). It logs the worst
// lateness per RPC and transport, over the worst cases and over the random
// inputs.
func TestEveryRPCStopsAtItsDeadline(t *testing.T) {
	a := startServerWith(t, func(o *server.Options) { o.LogLevel = "error" })
	conn := dial(t, a.GRPC)
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	cases := deadlineCases(t, client)
	seed, perRPC := deadlineSeed(), randomPerRPC
	switch {
	case long():
		perRPC = randomPerRPCLong
	case raceDetector:
		perRPC = randomPerRPCRace // (CI's race run: 6 per RPC took 34 s there)
	}
	var names []string
	for _, m := range rpcs.Methods() {
		names = append(names, m.Name)
	}
	random := randomCases(t, client, rand.New(rand.NewPCG(seed, 30)), names, perRPC)
	t.Logf("random inputs: seed %d (GAMERULES_DEADLINE_SEED=%d replays them), %d per RPC", seed, seed, perRPC)
	// Every case is of an RPC of the table: none is left for an RPC renamed
	// or removed.
	for _, m := range []map[string][]deadlineCase{cases, random} {
		for name := range m {
			if _, ok := rpcs.ByName(name); !ok {
				t.Errorf("deadline cases for %s, which is not an RPC of service/rpcs", name)
			}
		}
	}
	sd := gamerulesv1grpc.File_gamerules_v1_service_proto.Services().ByName("GameRules")
	httpClient := &http.Client{Timeout: 30 * time.Second}
	type worst struct {
		late, took    time.Duration
		what, outcome string
		calls, ok     int // calls made, and answered OK (gRPC) or 200 (REST)
	}
	worstOf := map[string]*worst{}
	grace := deadlineGrace
	if raceDetector {
		grace = raceGrace
	}
	for _, m := range rpcs.Methods() {
		if len(cases[m.Name]) == 0 {
			t.Errorf("%s has no worst-case input in deadlineCases: add its costliest requests", m.Name)
		}
		if len(random[m.Name]) == 0 {
			t.Errorf("%s has no random input: add it to randomValid", m.Name)
		}
		md := sd.Methods().ByName(protoreflect.Name(m.Name))
		outType, err := protoregistry.GlobalTypes.FindMessageByName(md.Output().FullName())
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"worst case", "random"} {
			cs, deadline := cases[m.Name], callDeadline
			if kind == "random" {
				cs, deadline = random[m.Name], randomDeadline
			}
			for _, c := range cs {
				for _, transport := range []string{"gRPC", "REST"} {
					start := time.Now()
					var outcome string
					broken := false // an answer no input may get: INTERNAL, UNKNOWN, REST 500
					answered := false
					if transport == "gRPC" {
						ctx, cancel := context.WithTimeout(context.Background(), deadline)
						err := conn.Invoke(ctx, "/"+string(sd.FullName())+"/"+m.Name, c.req, outType.New().Interface(), grpc.WaitForReady(true))
						cancel()
						outcome = fmt.Sprint(err)
						broken = status.Code(err) == codes.Internal || status.Code(err) == codes.Unknown
						answered = err == nil
					} else {
						code, err := restCallDeadline(t, httpClient, "http://"+a.HTTP, m.Name, c.req, deadline)
						outcome = fmt.Sprintf("%d %v", code, err)
						broken = code == 500 || code == 0
						answered = code == http.StatusOK
					}
					took := time.Since(start)
					late := max(0, took-deadline)
					key := fmt.Sprintf("%-12s %-4s %-10s", m.Name, transport, kind)
					w := worstOf[key]
					if w == nil {
						w = &worst{}
						worstOf[key] = w
					}
					w.calls++
					if answered {
						w.ok++
					}
					if took-deadline >= w.took-deadline || w.calls == 1 {
						w.late, w.took, w.what, w.outcome = late, took, c.name, outcome
					}
					if late > grace {
						t.Errorf("%s over %s (%s %s) answered %v past its %v deadline; want at most %v (%.80s)", m.Name, transport, kind, c.name, late, deadline, grace, outcome)
					}
					if broken {
						t.Errorf("%s over %s (%s %s): %.300s; a bad input is INVALID_ARGUMENT, never INTERNAL", m.Name, transport, kind, c.name, outcome)
					}
				}
			}
		}
	}
	keys := make([]string, 0, len(worstOf))
	for k := range worstOf {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w := worstOf[k]
		t.Logf("worst lateness %s %6v of %3d calls, %3d answered OK (slowest: %s, %v, %.60s)", k, w.late.Round(time.Millisecond), w.calls, w.ok, w.what, w.took.Round(time.Millisecond), w.outcome)
	}
	// No core kept: over one second after the last answer the process
	// (the server and this test) uses little CPU (one core kept busy
	// would be about 1 s).
	time.Sleep(200 * time.Millisecond)
	before := benchcpu.ProcessOrSkip(t)
	time.Sleep(time.Second)
	used := benchcpu.ProcessOrSkip(t) - before
	t.Logf("CPU over the second after the last answer: %v", used)
	if used > 300*time.Millisecond {
		t.Errorf("the process used %v of CPU in the second after the last answer; a call keeps working past its answer", used)
	}
}
