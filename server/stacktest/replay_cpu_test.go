package stacktest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// processCPU is the user+system CPU time a process has used so far, from
// /proc/<pid>/stat (in clock ticks of 10 ms).
func processCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc here: %v", err)
	}
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	ut, _ := strconv.Atoi(f[11]) // fields 14 and 15 of stat, counted after the name
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// BenchmarkServerCPUReplayVsApplyMove measures, in a gamerulesd process
// with the default settings, the server CPU of one ReplayGame call of a
// 200-ply backgammon game against that of 10 single ApplyMove calls (plies
// 100..109 of the same game, each state sent as text), both over gRPC.
// It reports server-µs/replay, server-µs/10-applies and their ratio.
func BenchmarkServerCPUReplayVsApplyMove(b *testing.B) {
	p := startProcess(b)
	client := gamerulesv1grpc.NewGameRulesClient(dial(b, p.grpc))
	ctx := context.Background()
	var moves []string
	var before []*gamerulesv1.GameState
	for pick := 1; len(moves) < 200; pick++ {
		if pick > 50 {
			b.Fatal("no game of 200 plies")
		}
		moves, before = nil, nil
		ng, err := client.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon"})
		if err != nil {
			b.Fatal(err)
		}
		st := ng.GetState()
		for ply := 0; ply < 200; ply++ {
			lm, err := client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
			if err != nil {
				b.Fatal(err)
			}
			if len(lm.GetMoves()) == 0 {
				break
			}
			mv := lm.GetMoves()[(ply*pick)%len(lm.GetMoves())].GetNotation()
			am, err := client.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: mv}})
			if err != nil {
				b.Fatal(err)
			}
			moves, before = append(moves, mv), append(before, st)
			st = am.GetState()
		}
	}
	replay := &gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: moves}
	var applies []*gamerulesv1.ApplyMoveRequest
	for i := 100; i < 110; i++ {
		applies = append(applies, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: before[i].GetText()}, Move: &gamerulesv1.Move{Notation: moves[i]}})
	}
	pid := p.cmd.Process.Pid
	const rounds = 300 // enough for the 10 ms resolution of the CPU clock
	b.ResetTimer()
	var replayCPU, applyCPU time.Duration
	for b.Loop() {
		t0 := processCPU(b, pid)
		for range rounds {
			if _, err := client.ReplayGame(ctx, replay); err != nil {
				b.Fatal(err)
			}
		}
		t1 := processCPU(b, pid)
		for range rounds {
			for _, a := range applies {
				if _, err := client.ApplyMove(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
		}
		t2 := processCPU(b, pid)
		replayCPU += t1 - t0
		applyCPU += t2 - t1
	}
	n := float64(b.N * rounds)
	b.ReportMetric(float64(replayCPU.Microseconds())/n, "server-µs/replay")
	b.ReportMetric(float64(applyCPU.Microseconds())/n, "server-µs/10-applies")
	b.ReportMetric(float64(replayCPU)/float64(applyCPU), "replay/10-applies")
}
