package stacktest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/gamerules/gamerules/server"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// raiseFDLimit raises the test process's soft file limit to its hard limit
// (a child process inherits it) and returns the soft limit now.
func raiseFDLimit(t *testing.T) uint64 {
	t.Helper()
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		t.Skipf("no file limit to read: %v", err)
	}
	if r.Cur < r.Max {
		r.Cur = r.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r)
		_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r)
	}
	return r.Cur
}

// h2Preface is an HTTP/2 client's first bytes: the preface and an empty
// SETTINGS frame, after which a gRPC server holds the connection open as
// an idle, well-behaved client's.
var h2Preface = append([]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), 0, 0, 0, 4, 0, 0, 0, 0, 0)

// floodResult is what one phase of connFlood measured.
type floodResult struct {
	Attempts int64 `json:"attempts"`
	Refused  int64 `json:"refused"` // closed by the server while the attack ran
	Held     int   `json:"held"`    // open on the client side at the end
	Dur      time.Duration
}

// floodChildEnv, when set to "addr n preface", makes TestConnFloodChild the
// flood of a child process (see floodInChild).
const floodChildEnv = "GAMERULES_FLOOD_CHILD"

// TestConnFloodChild is not a test: run by floodInChild in a child process
// of the test binary, it makes the flood of connFlood, prints its result as
// a JSON line and holds the connections until its standard input closes.
func TestConnFloodChild(t *testing.T) {
	spec := os.Getenv(floodChildEnv)
	if spec == "" {
		t.Skip("run by TestConnectionFlood in a child process")
	}
	f := strings.Fields(spec)
	n, _ := strconv.Atoi(f[1])
	r := connFlood(t, f[0], n, f[2] == "true")
	out, _ := json.Marshal(r)
	fmt.Printf("FLOOD %s\n", out)
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// floodInChild runs connFlood in a child process of the test binary at the
// lowest CPU priority (nice 19), so that the flood's own dialing — which on
// a real network is another machine's CPU — does not take the cores from
// the server and from the probes that measure it. The child holds its
// connections until the test ends.
func floodInChild(t *testing.T, addr string, n int, preface bool) floodResult {
	t.Helper()
	args := []string{os.Args[0], "-test.run=^TestConnFloodChild$", "-test.count=1"}
	if nice, err := exec.LookPath("nice"); err == nil {
		args = append([]string{nice, "-n", "19"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %v", floodChildEnv, addr, n, preface))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "FLOOD "); ok {
			var r floodResult
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return r
		}
	}
	t.Fatalf("the flood's child process ended without a result: %v", sc.Err())
	return floodResult{}
}

// connFlood makes n connection attempts to addr from 64 goroutines and holds
// every connection the server keeps (sending h2Preface when preface), and
// closes those the server closes. It returns once all attempts were made
// and the held count has settled; the held connections stay open until
// the test ends.
func connFlood(t *testing.T, addr string, n int, preface bool) floodResult {
	t.Helper()
	var (
		next, refused, open atomic.Int64
		mu                  sync.Mutex
		conns               []net.Conn
		wg                  sync.WaitGroup
	)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	start := time.Now()
	for range floodDialers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				c, err := net.DialTimeout("tcp", addr, 5*time.Second)
				if err != nil {
					refused.Add(1)
					continue
				}
				if preface {
					_, _ = c.Write(h2Preface)
				}
				open.Add(1)
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				go func() {
					_, _ = io.Copy(io.Discard, c) // until the server closes it
					c.Close()
					open.Add(-1)
					refused.Add(1)
				}()
			}
		}()
	}
	wg.Wait()
	// Settle: the last refused ones are being closed. At nice 19 on a
	// loaded machine the goroutines that see the server's closes may wait
	// long for a CPU, so the count must hold still for a whole second (at
	// most 15 s in all).
	prev, still := int64(-1), 0
	for i := 0; i < 150 && still < 10; i++ {
		if n := open.Load(); n == prev {
			still++
		} else {
			prev, still = n, 0
		}
		time.Sleep(100 * time.Millisecond)
	}
	return floodResult{Attempts: int64(n), Refused: refused.Load(), Held: int(open.Load()), Dur: time.Since(start)}
}

// probeLatencies checks /healthz on a new connection every 20 ms and gRPC
// health on a new connection every 100 ms until stop is closed, as a
// kubelet does, and returns each one's latencies (a failure counts as
// its full timeout, 2 s) and failures.
func probeLatencies(httpAddr, grpcAddr string, stop <-chan struct{}) (httpLat, grpcLat []time.Duration, httpFail, grpcFail int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			start := time.Now()
			resp, err := client.Get("http://" + httpAddr + "/healthz")
			ok := err == nil && resp.StatusCode == 200
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			d := time.Since(start)
			mu.Lock()
			if !ok {
				httpFail++
				d = 2 * time.Second
			}
			httpLat = append(httpLat, d)
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			start := time.Now()
			ok := func() bool {
				cc, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
				if err != nil {
					return false
				}
				defer cc.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				resp, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{})
				return err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING
			}()
			d := time.Since(start)
			mu.Lock()
			if !ok {
				grpcFail++
				d = 2 * time.Second
			}
			grpcLat = append(grpcLat, d)
			mu.Unlock()
		}
	}()
	<-stop
	wg.Wait()
	return
}

func pct(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// TestConnectionFlood makes 20,000 connection attempts, half to each public
// port, to a real gamerulesd with its default limits (--max-connections
// 1000 per port) and the manifest's --health-addr, holding every connection
// the server keeps open: idle, well-behaved gRPC connections (the HTTP/2
// preface and SETTINGS) and silent HTTP ones. The flood runs in a child
// process at nice 19 (floodInChild): on a real network the attacker's CPU
// is another machine's, and on this 2-core machine a flood at the server's
// priority measured the contention for the cores (probes up to 311 ms),
// not the server. Throughout, /healthz and gRPC
// health are checked on new connections to the health port, as a kubelet
// does (and /healthz on the public HTTP port, reported only: at the limit it
// is refused, which is why probes have their own port). Targets (issue 19):
// every probe answered within 100 ms; the server's RSS within the
// documented bound (docs/configuration.md: 45 MB above idle with both ports full). CI
// checks the same with margins for a loaded 2-core machine: no probe fails,
// the slowest within 1 s, RSS within 64 MB above idle. GAMERULES_LONG=1
// makes 100,000 attempts.
func TestConnectionFlood(t *testing.T) {
	attempts := 20_000
	if long() {
		attempts = 100_000
	}
	maxConns := server.DefaultOptions().MaxConnections
	need := uint64(2*maxConns + 4*64 + 500) // held + in flight + the test's own
	if lim := raiseFDLimit(t); lim < need {
		t.Skipf("the file limit is %d; this test needs %d (ulimit -n)", lim, need)
	}
	healthAddr := freePort(t)
	p := startProcess(t, "--health-addr", healthAddr)
	time.Sleep(200 * time.Millisecond)
	base := p.memKB(t, "VmRSS")
	stop := make(chan struct{})
	type probes struct {
		h, g         []time.Duration
		hFail, gFail int
	}
	res, public := make(chan probes, 1), make(chan probes, 1)
	go func() {
		var r probes
		r.h, r.g, r.hFail, r.gFail = probeLatencies(healthAddr, healthAddr, stop)
		res <- r
	}()
	go func() {
		var r probes
		r.h, r.g, r.hFail, r.gFail = probeLatencies(p.http, p.grpc, stop)
		public <- r
	}()
	g := floodInChild(t, p.grpc, attempts/2, true)
	afterGRPC := p.memKB(t, "VmRSS")
	h := floodInChild(t, p.http, attempts/2, false)
	afterHTTP := p.memKB(t, "VmRSS")
	time.Sleep(300 * time.Millisecond)
	close(stop)
	pr, pub := <-res, <-public
	peak := p.memKB(t, "VmHWM")

	perGRPC := float64(afterGRPC-base) / float64(max(g.Held, 1))
	perHTTP := float64(afterHTTP-afterGRPC) / float64(max(h.Held, 1))
	t.Logf("gRPC port: %d attempts in %v, %d held, %d refused; RSS %d → %d kB (%.1f kB per held connection)",
		g.Attempts, g.Dur.Round(time.Millisecond), g.Held, g.Refused, base, afterGRPC, perGRPC)
	t.Logf("HTTP port: %d attempts in %v, %d held, %d refused; RSS → %d kB (%.1f kB per held connection)",
		h.Attempts, h.Dur.Round(time.Millisecond), h.Held, h.Refused, afterHTTP, perHTTP)
	t.Logf("peak RSS %d kB, %d kB above idle (documented bound 45 MB; CI limit 64 MB)", peak, peak-base)
	t.Logf("health port /healthz: %d probes, %d failed, p50 %v, p99 %v, max %v (target ≤ 100 ms)",
		len(pr.h), pr.hFail, pct(pr.h, .5), pct(pr.h, .99), pct(pr.h, 1))
	t.Logf("health port gRPC health: %d probes, %d failed, p50 %v, p99 %v, max %v (target ≤ 100 ms)",
		len(pr.g), pr.gFail, pct(pr.g, .5), pct(pr.g, .99), pct(pr.g, 1))
	t.Logf("public ports (not asserted): /healthz %d probes, %d failed; gRPC health %d probes, %d failed",
		len(pub.h), pub.hFail, len(pub.g), pub.gFail)

	if g.Held > maxConns || h.Held > maxConns {
		t.Errorf("held %d gRPC and %d HTTP connections; the limit is %d", g.Held, h.Held, maxConns)
	}
	// A silent HTTP connection is held for the header timeout (10 s): a
	// flood slower than that (12 s once, at nice 19 under the race
	// detector beside the other packages' tests) finds none left when it
	// ends. The server's own count of connections refused at the limit
	// shows then that the flood reached it.
	metrics := metricsWhenFree(t, p.http)
	for _, port := range []struct {
		name string
		held int
		dur  time.Duration
	}{{"grpc", g.Held, g.Dur}, {"http", h.Held, h.Dur}} {
		refused := metricValue(metrics, `gamerules_connections_refused_total{port="`+port.name+`"}`)
		if refused == 0 || (port.held < maxConns/2 && port.dur < 10*time.Second) {
			t.Errorf("%s port: held only %d connections and refused %v at the limit: the flood did not reach the limit", port.name, port.held, refused)
		}
	}
	if pr.hFail > 0 || pr.gFail > 0 {
		t.Errorf("%d /healthz and %d gRPC health probes failed during the flood", pr.hFail, pr.gFail)
	}
	if m := max(pct(pr.h, 1), pct(pr.g, 1)); m > time.Second {
		t.Errorf("the slowest probe took %v (CI limit 1 s; target 100 ms)", m)
	}
	if peak-base > 64<<10 {
		t.Errorf("peak RSS %d kB above idle; CI limit 64 MB", peak-base)
	}
}

// floodDialers is how many goroutines of the test make the flood's
// connections: on a 2-core machine that the server shares, more only
// starve both of CPU, which measures the machine rather than the server.
var floodDialers = 16

// metricsWhenFree reads /metrics from the HTTP port at addr, which a flood
// may still fill (its silent connections leave at the 10 s header
// timeout): it tries again until a place is free, for at most 15 s.
func metricsWhenFree(t *testing.T, addr string) string {
	t.Helper()
	client := &http.Client{Timeout: 2 * time.Second}
	var err error
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		var resp *http.Response
		if resp, err = client.Get("http://" + addr + "/metrics"); err == nil {
			raw, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil && resp.StatusCode == http.StatusOK {
				return string(raw)
			}
			err = fmt.Errorf("status %d, %v", resp.StatusCode, rerr)
		}
	}
	t.Fatalf("GET /metrics after the flood: %v", err)
	return ""
}
