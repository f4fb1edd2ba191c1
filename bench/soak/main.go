// Command soak runs a bounded soak test of gamerulesd on loopback: it builds
// and starts the server with its default limits, measures its capacity for a
// mix of valid and bad requests over gRPC and REST (closed loop, a few
// seconds), then sends the same mix at a fraction of that rate (default 80%)
// for a short warm-up and then a fixed time, and reports unexpected errors, latency percentiles and
// the server's RSS at the start and at the end.
//
// Usage (from the repository root; needs only Go):
//
//	go run ./bench/soak [-duration 60s] [-load 0.8] [-capacity-time 5s]
//
// It exits 1 when any request got an answer other than the one expected of
// it (a valid call must succeed, a bad one must be INVALID_ARGUMENT / 400),
// or when the RSS at the end is more than 20% above the RSS at the start.
// Every loop is bounded by count and time; only 127.0.0.1 is contacted.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/procmem"
)

func main() {
	duration := flag.Duration("duration", 60*time.Second, "how long the soak runs")
	load := flag.Float64("load", 0.8, "soak rate as a fraction of the measured capacity")
	capTime := flag.Duration("capacity-time", 5*time.Second, "how long the capacity is measured")
	flag.Parse()
	if err := run(*duration, *load, *capTime, true); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// call is one kind of request of the mix: do sends it and reports whether
// the answer was the one expected.
type call struct {
	name string
	do   func(ctx context.Context) (ok bool, detail string)
}

// run runs the soak. With strict, a request refused as overloaded (429,
// RESOURCE_EXHAUSTED) counts as unexpected; without, it is only reported
// (for the short version in go test, where other test packages share the
// CPU and the measured capacity does not hold).
func run(duration time.Duration, load float64, capTime time.Duration, strict bool) error {
	dir, err := os.MkdirTemp("", "gamerules-soak")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "gamerulesd")
	fmt.Println("building gamerulesd ...")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gamerules/gamerules/cmd/gamerulesd").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	grpcAddr, httpAddr := freePort(), freePort()
	srv := exec.Command(bin, "--grpc-addr", grpcAddr, "--http-addr", httpAddr, "--log-level", "error")
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	if err := waitReady(httpAddr); err != nil {
		return err
	}
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	mix := newMix(conn, httpAddr)

	// Capacity: closed loop, 16 workers.
	fmt.Printf("measuring capacity for %v ...\n", capTime)
	capStats := drive(mix, capTime, 16, 0)
	capacity := float64(capStats.n) / capTime.Seconds()
	fmt.Printf("capacity: %.0f req/s (%d requests, %d unexpected)\n", capacity, capStats.n, capStats.bad)

	rate := capacity * load
	// A short warm-up at the soak rate, so that the start RSS is that of a
	// server under this load (heap and goroutines grown), not of one
	// just out of the capacity burst.
	warm := min(5*time.Second, duration/6)
	if ws := drive(mix, warm, 64, rate); ws.bad > 0 || (strict && ws.refused > 0) {
		return fmt.Errorf("warm-up: %d unexpected answers: %v", ws.bad, ws.details)
	}
	rssStart := rssKB(srv.Process.Pid)
	fmt.Printf("soak: %.0f req/s (%.0f%% of capacity) for %v after a %v warm-up; server RSS at start %d MB\n", rate, load*100, duration, warm, rssStart/1024)
	st := drive(mix, duration, 64, rate)
	rssEnd := rssKB(srv.Process.Pid)

	sort.Slice(st.lat, func(i, j int) bool { return st.lat[i] < st.lat[j] })
	pct := func(p float64) time.Duration {
		if len(st.lat) == 0 {
			return 0
		}
		return st.lat[int(p*float64(len(st.lat)-1))]
	}
	growth := 100 * (float64(rssEnd) - float64(rssStart)) / float64(rssStart)
	fmt.Printf("\nrequests     %d in %v (%.0f req/s achieved)\n", st.n, duration, float64(st.n)/duration.Seconds())
	fmt.Printf("unexpected   %d\n", st.bad)
	fmt.Printf("overloaded   %d (429 / RESOURCE_EXHAUSTED; unexpected in the full soak)\n", st.refused)
	fmt.Printf("latency      p50 %v  p99 %v  max %v\n", pct(.5).Round(time.Microsecond), pct(.99).Round(time.Microsecond), pct(1).Round(time.Microsecond))
	fmt.Printf("server RSS   start %d MB  end %d MB  (%+.1f%%)\n", rssStart/1024, rssEnd/1024, growth)
	for _, name := range st.names() {
		fmt.Printf("  %-34s %7d sent %5d unexpected\n", name, st.byName[name][0], st.byName[name][1])
	}
	for _, d := range st.details {
		fmt.Println("  unexpected:", d)
	}
	switch {
	case st.bad > 0:
		return fmt.Errorf("%d unexpected answers", st.bad)
	case strict && st.refused > 0:
		return fmt.Errorf("%d requests refused as overloaded at %.0f%% of the measured capacity", st.refused, load*100)
	case growth > 20:
		return fmt.Errorf("RSS grew %.1f%% during the soak; want at most 20%%", growth)
	}
	fmt.Println("PASS: 0 unexpected answers, RSS within 20% of the start")
	return nil
}

type stats struct {
	mu      sync.Mutex
	n, bad  int
	refused int
	lat     []time.Duration
	byName  map[string]*[2]int
	details []string
}

func (s *stats) names() []string {
	var out []string
	for k := range s.byName {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// drive sends the mix for d with `workers` concurrent senders: as fast as
// they go when rate is 0 (closed loop), else paced to rate requests per
// second (at most rate×d requests in all).
func drive(mix []call, d time.Duration, workers int, rate float64) *stats {
	st := &stats{byName: map[string]*[2]int{}}
	for _, c := range mix {
		st.byName[c.name] = &[2]int{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	tokens := make(chan struct{}, workers)
	if rate > 0 {
		total := int(rate * d.Seconds())
		go func() {
			interval := time.Duration(float64(time.Second) / rate)
			next := time.Now()
			for i := 0; i < total; i++ {
				next = next.Add(interval)
				if w := time.Until(next); w > 0 {
					time.Sleep(w)
				}
				select {
				case tokens <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	var seq atomic.Uint64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 99))
			for {
				if rate > 0 {
					select {
					case <-tokens:
					case <-ctx.Done():
						return
					}
				} else if ctx.Err() != nil {
					return
				}
				c := mix[r.IntN(len(mix))]
				start := time.Now()
				cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
				ok, detail := c.do(cctx)
				overloaded := !ok && (strings.Contains(detail, "HTTP 429,") || strings.Contains(detail, "code = ResourceExhausted"))
				ccancel()
				lat := time.Since(start)
				seq.Add(1)
				st.mu.Lock()
				st.n++
				st.lat = append(st.lat, lat)
				st.byName[c.name][0]++
				if overloaded {
					st.refused++
				}
				if !ok && !overloaded {
					st.bad++
					st.byName[c.name][1]++
					if len(st.details) < 10 {
						st.details = append(st.details, c.name+": "+detail)
					}
				}
				st.mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	return st
}

// newMix is the request mix: valid LegalMoves, ApplyMove and Score of every
// game over gRPC and REST, bad states and moves, and hostile bodies.
func newMix(conn *grpc.ClientConn, httpAddr string) []call {
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	states := map[string]string{
		"backgammon":   "4HPwATDgc/ABMA:MIEFAAAAAAAE",
		"abalone":      "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b",
		"labyrinth":    "6cTeAdNeB3c/5aa33Xca/7C6S7D6eEadF/65357O7M9/7G5bH9dI3VdJ/aeR59Wa*bQ5/3abK6bL9U9 eP R11,Y17,V65 N2 Rm :LTDGHNPWIREM,:CVOAJKQSFUXB v",
		"gravity_trap": "RoooBooooooooooooooooo r",
	}
	moves := map[string]string{"backgammon": "8/5 6/5", "abalone": "a1b2", "labyrinth": "r1c1", "gravity_trap": "8"}
	grpcWant := func(err error, want codes.Code) (bool, string) {
		if status.Code(err) == want {
			return true, ""
		}
		return false, fmt.Sprintf("got %v, want %v", err, want)
	}
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	rest := func(path, body string, want int) func(ctx context.Context) (bool, string) {
		return func(ctx context.Context) (bool, string) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+httpAddr+path, strings.NewReader(body))
			resp, err := httpClient.Do(req)
			if err != nil {
				return false, err.Error()
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				return false, fmt.Sprintf("HTTP %d, want %d: %.200s", resp.StatusCode, want, raw)
			}
			return true, ""
		}
	}
	var mix []call
	for game, text := range states {
		game, text := game, text
		mix = append(mix,
			call{"grpc LegalMoves " + game, func(ctx context.Context) (bool, string) {
				_, err := client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: game, State: &gamerulesv1.GameState{Text: text}})
				return grpcWant(err, codes.OK)
			}},
			call{"grpc LegalMoves+results " + game, func(ctx context.Context) (bool, string) {
				_, err := client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: game, State: &gamerulesv1.GameState{Text: text}, IncludeResults: true})
				return grpcWant(err, codes.OK)
			}},
			call{"grpc ApplyMove " + game, func(ctx context.Context) (bool, string) {
				_, err := client.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: game, State: &gamerulesv1.GameState{Text: text}, Move: &gamerulesv1.Move{Notation: moves[game]}})
				return grpcWant(err, codes.OK)
			}},
			call{"rest Score " + game, rest("/v1/games/"+game+":score", `{"state":{"text":"`+text+`"}}`, 200)},
			call{"rest LegalMoves " + game, rest("/v1/games/"+game+":legalMoves", `{"state":{"text":"`+text+`"}}`, 200)},
			call{"grpc bad state " + game, func(ctx context.Context) (bool, string) {
				_, err := client.Score(ctx, &gamerulesv1.ScoreRequest{Game: game, State: &gamerulesv1.GameState{Text: "not a state"}})
				return grpcWant(err, codes.InvalidArgument)
			}},
			call{"rest illegal move " + game, rest("/v1/games/"+game+":applyMove", `{"state":{"text":"`+text+`"},"move":{"notation":"zz"}}`, 400)},
		)
	}
	hostile := `{"state":{"labyrinth":{"players":[` + strings.TrimSuffix(strings.Repeat("{},", 20000), ",") + `]}}}`
	mix = append(mix,
		call{"rest hostile 60 KB of {}", rest("/v1/games/labyrinth:legalMoves", hostile, 400)},
		call{"rest trailing data", rest("/v1/games/backgammon:score", `{"state":{"text":"x"}} x`, 400)},
		call{"rest unknown game", rest("/v1/games/chess:score", `{}`, 400)},
	)
	sort.Slice(mix, func(i, j int) bool { return mix[i].name < mix[j].name })
	return mix
}

func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func waitReady(httpAddr string) error {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + httpAddr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("gamerulesd not ready after 20 s")
}

// rssKB reads the resident set size of a process, in kB (0 where /proc
// is missing).
func rssKB(pid int) int {
	n, _ := procmem.KB(pid, "VmRSS")
	return n
}
