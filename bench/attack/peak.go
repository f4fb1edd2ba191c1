package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/hostiletest"
)

// Issue 30, item 3: a 256 MiB container with the manifest's settings never
// exceeds its limit under any single one of the attacks. "peak"
// runs each attack for -duration against a fresh gamerulesd started as
// deploy/k8s/deployment.yaml starts it (GOMAXPROCS=1, the container's one
// CPU; --memory-limit-mib=200; --health-addr; --shutdown-timeout=20s) and
// reports its peak resident memory (VmHWM of /proc/<pid>/status) and the
// margin to 256 MiB. (A cgroup memory limit would be the direct test; this
// machine's cgroup v2 has no memory controller and systemd is not its init,
// so the peak is measured instead.)
//
//	go run ./bench/attack -only peak -duration 5s
//
// The 506 KB export is a protobuf request; its JSON (533 KB) is over the
// REST body limit, so REST refuses it with 413 before reading it.

// containerMiB is the manifest's memory limit.
const containerMiB = 256

// manifestServer is a gamerulesd with the manifest's settings, and its
// health port.
type manifestServer struct {
	*server
	health string
}

func startManifest(bin string) (*manifestServer, error) {
	s := &server{grpc: freePort(), http: freePort()}
	health := freePort()
	s.cmd = exec.Command(bin, "--grpc-addr", s.grpc, "--http-addr", s.http, "--health-addr", health, "--log-level", "error",
		"--shutdown-timeout=20s", "--drain-delay=0s", "--memory-limit-mib=200")
	s.cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	s.cmd.Stderr = os.Stderr
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get("http://" + s.http + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return &manifestServer{s, health}, nil
			}
		}
	}
	s.stop()
	return nil, fmt.Errorf("gamerulesd not ready in 20 s")
}

// peakAttacks are issue 30's attacks, by name, in the order.
var peakAttacks = []struct {
	name string
	run  func(s *manifestServer, d time.Duration)
}{
	{"render of a 40-line custom Gravity Trap board (8 REST callers)", peakRender},
	{"ExportRecord .mat of a 119 KB request (gRPC and REST)", func(s *manifestServer, d time.Duration) { peakExport(s, d, 15_000) }},
	{"ExportRecord .mat of a 506 KB request (gRPC and REST)", func(s *manifestServer, d time.Duration) { peakExport(s, d, 208_000) }},
	{"health port: 32 idle connections", func(s *manifestServer, d time.Duration) { peakHealth(s, d, hostiletest.HealthAttacks[0]) }},
	{"health port: 32 partial requests", func(s *manifestServer, d time.Duration) { peakHealth(s, d, hostiletest.HealthAttacks[1]) }},
	{"health port: 32 h2c prefaces", func(s *manifestServer, d time.Duration) { peakHealth(s, d, hostiletest.HealthAttacks[2]) }},
	{"health port: 64 keep-alive flooders", func(s *manifestServer, d time.Duration) { peakHealth(s, d, hostiletest.HealthAttacks[3]) }},
	{"100 Playout streams on one gRPC connection", func(s *manifestServer, d time.Duration) { playoutOneConn(s.server, d) }},
	{"8 long REST Playouts from one address", func(s *manifestServer, d time.Duration) { playoutREST(s.server, d) }},
	{"unread answers (5 connections x 100 streams, window 0)", func(s *manifestServer, d time.Duration) { unread(s.server, d) }},
	{"rapid reset (2 connections)", func(s *manifestServer, d time.Duration) { rapidReset(s.server, d) }},
}

// peak runs every attack of peakAttacks on a fresh manifest server of its
// own (the binary of s; s itself is not used) and prints the table; it
// fails when a peak passes containerMiB.
func peak(s *server, d time.Duration) bool {
	type row struct {
		name           string
		idleKB, peakKB int
	}
	var rows []row
	for _, a := range peakAttacks {
		m, err := startManifest(s.cmd.Path)
		if err != nil {
			fail(err)
		}
		idle := m.kb("VmHWM")
		fmt.Printf("-- %s\n", a.name)
		a.run(m, d)
		// (m.kb stops the program if the server is gone: killed or crashed.)
		rows = append(rows, row{name: a.name, idleKB: idle, peakKB: m.kb("VmHWM")})
		m.stop()
	}
	fmt.Printf("\npeak resident memory under the manifest's settings (GOMAXPROCS=1, --memory-limit-mib=200), container limit %d MiB:\n", containerMiB)
	fmt.Printf("%-60s %10s %10s %12s\n", "attack", "idle MiB", "peak MiB", "margin MiB")
	ok := true
	for _, r := range rows {
		margin := float64(containerMiB) - float64(r.peakKB)/1024
		fmt.Printf("%-60s %10.1f %10.1f %12.1f\n", r.name, float64(r.idleKB)/1024, float64(r.peakKB)/1024, margin)
		ok = ok && margin > 0
	}
	return report("peak RSS under every attack", "see the table above", fmt.Sprintf("< %d MiB each", containerMiB), ok)
}

// sharedBoardState is a Gravity Trap state on the board of 12 stations and
// 40 lines that share them (the render's colouring was exponential in it).
func sharedBoardState(addr string) *gamerulesv1.GameState {
	b := &gamerulesv1.GravityTrapBoard{}
	for i := range 12 {
		b.Stations = append(b.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: float64(i % 4), Y: float64(i / 4)})
		b.Opposite = append(b.Opposite, uint32(11-i))
	}
	for i := uint32(0); i < 12 && len(b.Lines) < 40; i++ {
		for j := i + 1; j < 12 && len(b.Lines) < 40; j++ {
			for k := j + 1; k < 12 && len(b.Lines) < 40; k += 3 {
				b.Lines = append(b.Lines, &gamerulesv1.GravityTrapLine{Stations: []uint32{i, j, k}})
			}
		}
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fail(err)
	}
	defer conn.Close()
	ng, err := gamerulesv1grpc.NewGameRulesClient(conn).NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: b}}})
	if err != nil {
		fail(fmt.Errorf("the 40-line board: %v", err))
	}
	return ng.GetState()
}

// peakRender: 8 REST callers render the 40-line board at size 4096, each
// again as soon as answered, for d.
func peakRender(s *manifestServer, d time.Duration) {
	body, err := protojson.Marshal(&gamerulesv1.RenderStateRequest{State: sharedBoardState(s.grpc), Size: 4096})
	if err != nil {
		fail(err)
	}
	loop(d, 8, func(ctx context.Context) string {
		return post(ctx, "http://"+s.http+"/v1/games/gravity_trap:render", string(body))
	})
}

// longMatch is issue 30's export: a 32,767-point match of 2,250 games
// (each the opening roll, a resignation and its acceptance), the players'
// names nameLen bytes each (15,000: a 119 KB request; 208,000: 506 KB).
func longMatch(nameLen int) *gamerulesv1.ExportRecordRequest {
	var moves []string
	for g := range 2250 {
		if g > 0 {
			moves = append(moves, "next game")
		}
		moves = append(moves, "roll 3-1", "resign single", "accept")
	}
	return &gamerulesv1.ExportRecordRequest{Game: "backgammon", Format: "mat",
		Replay: &gamerulesv1.ReplayGameRequest{Game: "backgammon", Moves: moves,
			Options: &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: 32767, Cube: true}}},
		Tags: map[string]string{"white": strings.Repeat("w", nameLen), "black": strings.Repeat("b", nameLen)}}
}

// peakExport: one gRPC and one REST caller export longMatch(nameLen) in a
// loop for d.
func peakExport(s *manifestServer, d time.Duration, nameLen int) {
	req := longMatch(nameLen)
	body, err := protojson.Marshal(req)
	if err != nil {
		fail(err)
	}
	conn, err := grpc.NewClient(s.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<31-1)))
	if err != nil {
		fail(err)
	}
	defer conn.Close()
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	codes := map[string]int{}
	var mu sync.Mutex
	loop(d, 2, func(ctx context.Context) string {
		var what string
		if next := codes["n"]; next%2 == 0 {
			_, err := client.ExportRecord(ctx, req)
			what = "gRPC " + strings.SplitN(fmt.Sprint(err), " desc", 2)[0]
		} else {
			what = "REST " + post(ctx, "http://"+s.http+"/v1/games/backgammon:exportRecord", string(body))
		}
		mu.Lock()
		codes["n"]++
		mu.Unlock()
		return what
	})
	fmt.Printf("   a request of %d bytes in protobuf, %d in JSON (%d-byte names)\n", proto.Size(req), len(body), nameLen)
}

// loop runs n workers calling call again and again for d, and prints what
// they answered, counted.
func loop(d time.Duration, n int, call func(ctx context.Context) string) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				what := call(ctx)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				seen[what]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	fmt.Printf("   answers: %v\n", seen)
}

// post sends a JSON body and reads the whole answer: "200", "400"…
func post(ctx context.Context, url, body string) string {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		time.Sleep(10 * time.Millisecond)
		return "error"
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Status[:3]
}

// peakHealth: n attackers on the health port for d, and a probe of
// /healthz every 10 ms (its success printed).
func peakHealth(s *manifestServer, d time.Duration, a hostiletest.HealthAttack) {
	n, hold := a.N, a.Hold
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.DialTimeout("tcp", s.health, time.Second)
				if err != nil {
					time.Sleep(10 * time.Millisecond)
					continue
				}
				hold(c, stop)
				c.Close()
			}
		})
	}
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	tried, ok := 0, 0
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		tried++
		if resp, err := client.Get("http://" + s.health + "/healthz"); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				ok++
			}
		}
	}
	close(stop)
	wg.Wait()
	fmt.Printf("   probes %d/%d ok\n", ok, tried)
}
