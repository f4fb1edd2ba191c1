// Command bulk measures issue 21's targets side by side in one run: the
// server CPU (utime+stime of /proc/<pid>/stat) that a running gamerulesd
// spends on the bulk calls (Batch, Expand, Playout) against the single
// calls they replace, in interleaved rounds, and prints each ratio (the
// median of the rounds and their spread) beside its target:
//
//   - Batch of 256 LegalMoves (backgammon mid-game, 25 plays): CPU per
//     item ≤ 0.4 × one single LegalMoves call's;
//   - Expand depth 2 from a backgammon roll phase: ≤ 0.15 × the CPU of
//     the 22 single calls it replaces (LegalMoves with results of the
//     roll, then of each of the 21 rolled states), from two rolls: the
//     mid-game state after its middle play, and black's after white's
//     3-1 opening play;
//   - Playout: CPU per ply ≤ 0.1 × one LegalMoves call of the same game
//     (backgammon from the same mid-game state, Gravity Trap after
//     set-up).
//
// It starts the server binary given (-server) on free loopback ports and
// stops it at the end; every loop is bounded (a segment runs until the
// server has spent -cpu of CPU on it, or 20 s). The single calls are sent
// by -c goroutines over one connection. Usage: bench/bulk.sh, or
//
//	go build -o /tmp/gamerulesd ./cmd/gamerulesd && go run ./bench/bulk -server /tmp/gamerulesd
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"

	"github.com/gamerules/gamerules/bench/load"
)

type options struct {
	server     string
	rounds     int
	c          int
	cpu        time.Duration
	clockTicks int
}

func main() {
	var o options
	flag.StringVar(&o.server, "server", "", "the gamerulesd binary to start")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds")
	flag.IntVar(&o.c, "c", 4, "concurrent callers (at most the server's --grpc-max-in-flight-per-conn, 6 by default: one connection)")
	flag.DurationVar(&o.cpu, "cpu", 500*time.Millisecond, "server CPU per measured segment")
	flag.IntVar(&o.clockTicks, "clock-ticks", 100, "clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK)")
	flag.Parse()
	if o.server == "" {
		fmt.Fprintln(os.Stderr, "bulk: -server is required")
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bulk:", err)
		os.Exit(1)
	}
}

// segment is one measured kind of work: each do() is one unit batch
// (units of work it stands for: calls, items, plies).
type segment struct {
	name string
	do   func(ctx context.Context) (units float64, err error)
	// parallel: do is called from o.c goroutines at once.
	parallel bool
}

func run(o options) error {
	grpcAddr, httpAddr := freePort(), freePort()
	srv := exec.Command(o.server, "--grpc-addr", grpcAddr, "--http-addr", httpAddr, "--log-level", "error")
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20)))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := gamerulesv1grpc.NewGameRulesClient(conn)
	ctx := context.Background()
	for i := 0; ; i++ {
		if _, err := c.ListGames(ctx, &gamerulesv1.ListGamesRequest{}); err == nil {
			break
		} else if i > 100 {
			return fmt.Errorf("the server does not answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	states, err := load.States(ctx, c)
	if err != nil {
		return err
	}
	var bg, gt *gamerulesv1.GameState
	for _, s := range states {
		switch s.Group {
		case "backgammon":
			bg = s.State
		case "gravity_trap":
			gt = s.State
		}
	}
	lm, err := c.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: bg})
	if err != nil {
		return err
	}
	fmt.Printf("backgammon mid-game: %s (%d plays); gravity trap: %s\n", bg.GetText(), len(lm.GetMoves()), gt.GetText())
	// Two roll phases: the mid-game state after its middle play, and
	// black to roll after white's 3-1 opening play (8/5 6/5).
	am, err := c.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: bg, Move: lm.GetMoves()[len(lm.GetMoves())/2]})
	if err != nil {
		return err
	}
	midRoll := am.GetState()
	roll := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}
	expandPair := func(roll *gamerulesv1.GameState) (func(ctx context.Context) (float64, error), func(ctx context.Context) (float64, error), error) {
		rolls, err := c.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: roll, IncludeResults: true})
		if err != nil {
			return nil, nil, err
		}
		replaced := []*gamerulesv1.LegalMovesRequest{{Game: "backgammon", State: &gamerulesv1.GameState{Text: roll.GetText()}, IncludeResults: true}}
		for _, r := range rolls.GetMoves() {
			replaced = append(replaced, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: r.GetResult().GetText()}, IncludeResults: true})
		}
		expand := &gamerulesv1.ExpandRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: roll.GetText()}, Depth: 2}
		ex, err := c.Expand(ctx, expand)
		if err != nil {
			return nil, nil, err
		}
		fmt.Printf("expand depth 2 from %s: %d nodes, %d bytes\n", roll.GetText(), ex.GetNodeCount(), proto.Size(ex))
		singles := func(ctx context.Context) (float64, error) {
			for _, r := range replaced {
				if _, err := c.LegalMoves(ctx, r); err != nil {
					return 0, err
				}
			}
			return 1, nil
		}
		one := func(ctx context.Context) (float64, error) {
			_, err := c.Expand(ctx, expand)
			return 1, err
		}
		return singles, one, nil
	}
	midSingles, midExpand, err := expandPair(midRoll)
	if err != nil {
		return err
	}
	openSingles, openExpand, err := expandPair(roll)
	if err != nil {
		return err
	}
	single := func(game string, st *gamerulesv1.GameState) func(ctx context.Context) (float64, error) {
		req := &gamerulesv1.LegalMovesRequest{Game: game, State: &gamerulesv1.GameState{Text: st.GetText()}}
		return func(ctx context.Context) (float64, error) {
			_, err := c.LegalMoves(ctx, req)
			return 1, err
		}
	}
	batch := &gamerulesv1.BatchRequest{}
	for range 256 {
		batch.Requests = append(batch.Requests, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{
			LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg.GetText()}}}})
	}
	playout := func(game string, st *gamerulesv1.GameState, games int32) func(ctx context.Context) (float64, error) {
		seed := uint64(0)
		return func(ctx context.Context) (float64, error) {
			seed++
			s := seed
			resp, err := c.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: game, State: &gamerulesv1.GameState{Text: st.GetText()}, Games: games, Seed: &s})
			return float64(resp.GetTotalPlies()), err
		}
	}
	segs := []segment{
		{"LegalMoves backgammon, single call", single("backgammon", bg), true},
		{"Batch of 256 LegalMoves backgammon, per item", func(ctx context.Context) (float64, error) {
			resp, err := c.Batch(ctx, batch)
			if err == nil && resp.GetResponses()[255].GetLegalMoves() == nil {
				err = fmt.Errorf("batch item 255: %v", resp.GetResponses()[255])
			}
			return 256, err
		}, true},
		{"22 single LegalMoves (results) of the mid-game roll and its rolls, per set", midSingles, true},
		{"Expand depth 2 of that roll, per call", midExpand, true},
		{"Playout backgammon 1,000 games, per ply", playout("backgammon", bg, 1000), false},
		{"LegalMoves gravity trap, single call", single("gravity_trap", gt), true},
		{"Playout gravity trap 10,000 games, per ply", playout("gravity_trap", gt, 10000), false},
		{"22 single LegalMoves (results) of the roll after 3-1 and its rolls, per set", openSingles, true},
		{"Expand depth 2 of that roll, per call", openExpand, true},
	}
	pid := srv.Process.Pid
	perUnit := make([][]float64, len(segs))
	for round := 0; round < o.rounds; round++ {
		for i, s := range segs {
			us, err := measure(ctx, o, pid, s)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			perUnit[i] = append(perUnit[i], us)
			fmt.Fprintf(os.Stderr, "round %d: %s: %.2f µs\n", round+1, s.name, us)
		}
	}
	// Ratios per round (both sides of a ratio measured in the same round).
	ratio := func(a, b int, scale float64) []float64 {
		var out []float64
		for r := range perUnit[a] {
			out = append(out, perUnit[a][r]/(perUnit[b][r]*scale))
		}
		return out
	}
	fmt.Printf("\nserver CPU (µs), median of %d rounds [min–max]:\n", o.rounds)
	for i, s := range segs {
		fmt.Printf("  %-70s %s\n", s.name, spread(perUnit[i], "%.2f"))
	}
	fmt.Printf("\ntargets (ratios per round, median [min–max]):\n")
	for _, t := range []struct {
		name   string
		r      []float64
		target float64
	}{
		{"Batch 256 LegalMoves, per item / single LegalMoves", ratio(1, 0, 1), 0.4},
		{"Expand depth 2 / the 22 single calls (mid-game roll)", ratio(3, 2, 1), 0.15},
		{"Expand depth 2 / the 22 single calls (roll after 3-1)", ratio(8, 7, 1), 0.15},
		{"Playout backgammon per ply / single LegalMoves backgammon", ratio(4, 0, 1), 0.1},
		{"Playout gravity trap per ply / single LegalMoves gravity trap", ratio(6, 5, 1), 0.1},
	} {
		met := "met"
		if median(t.r) > t.target {
			met = "MISSED"
		}
		fmt.Printf("  %-62s %s  target ≤ %.2f: %s\n", t.name, spread(t.r, "%.3f"), t.target, met)
	}
	return nil
}

// measure runs s until the server has spent o.cpu of CPU (or 20 s have
// passed) and returns the server CPU per unit, in µs.
func measure(ctx context.Context, o options, pid int, s segment) (float64, error) {
	if _, err := s.do(ctx); err != nil { // warm
		return 0, err
	}
	start, err := cpuMicros(pid, o.clockTicks)
	if err != nil {
		return 0, err
	}
	deadline := time.Now().Add(20 * time.Second)
	want := float64(o.cpu.Microseconds())
	workers := 1
	if s.parallel {
		workers = o.c
	}
	var mu sync.Mutex
	units := 0.0
	var first error
	for {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for range 4 {
					u, err := s.do(ctx)
					mu.Lock()
					units += u
					if err != nil && first == nil {
						first = err
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if first != nil {
			return 0, first
		}
		now, err := cpuMicros(pid, o.clockTicks)
		if err != nil {
			return 0, err
		}
		if now-start >= want || time.Now().After(deadline) {
			return (now - start) / units, nil
		}
	}
}

// cpuMicros is the process's user+system CPU so far, in µs: fields 14
// and 15 of /proc/<pid>/stat, in clock ticks.
func cpuMicros(pid, ticks int) (float64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, raw)
	}
	return float64(ut+st) * 1e6 / float64(ticks), nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func spread(xs []float64, f string) string {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return fmt.Sprintf(f+" ["+f+"–"+f+"]", median(s), s[0], s[len(s)-1])
}

// freePort returns a free 127.0.0.1 address.
func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}
