// Command fleet runs gamerulesd as a fleet on one machine and checks what
// its clients see: three replicas (one process each, the built gamerulesd)
// on 127.0.0.2-127.0.0.4, nginx (deploy/nginx/gamerules.conf, as shipped)
// in front of them, and a steady mixed load (LegalMoves, ApplyMove, Batch,
// Playout) from
//
//	(a) a Go gRPC client dialled with deploy/grpc-service-config.json
//	    (round_robin, health checks, retries) and a manual resolver listing
//	    the replicas (what dns:/// of a headless Service gives in Kubernetes);
//	(b) REST through nginx (HTTP/1.1, proxy_next_upstream non_idempotent);
//	(c) gRPC through nginx (grpc_pass), one connection, with the service
//	    config's retries too (nginx cannot resend a gRPC call whose body it
//	    has already streamed to a replica that then died: it answers 502,
//	    which the client sees as UNAVAILABLE), but not its healthCheckConfig,
//	    which through a proxy would watch whichever replica nginx sent the
//	    Watch to, and stop every call for the drain delay while that one
//	    drains (measured: the slowest call 1.0 s, the drain delay).
//
// During the run: a rolling restart of the three (SIGTERM, wait for the
// exit, start again, one at a time), a kill -9 of one replica mid-load (then
// started again), and a fourth replica added (127.0.0.5: the resolver
// updated, nginx reloaded). It reports per client the calls made and failed
// in each phase, the spread of calls over the replicas while all are up
// (read from each replica's /metrics), and how long the added replica took
// to get its share. It exits 1 when a call failed, when a replica got more
// than 1.3x the mean, or when the added replica did not get its share.
//
// Usage (from the repository root; needs Go and nginx, Debian's package):
//
//	go build -o .bin/gamerulesd ./cmd/gamerulesd
//	go run ./bench/fleet -bin .bin/gamerulesd [-steady 5s] [-pause 1s]
//
// scripts/fleet.sh does both. Every loop is bounded by count or time, only
// loopback addresses are used, and every process it started is stopped at
// the end (or on SIGINT).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/health" // the service config's healthCheckConfig
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/deploy"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

var (
	bin       = flag.String("bin", ".bin/gamerulesd", "the gamerulesd binary")
	nginxBin  = flag.String("nginx", "/usr/sbin/nginx", "the nginx binary")
	confDir   = flag.String("conf", "deploy/nginx", "the directory of gamerules.conf and nginx-test.conf")
	grpcPort  = flag.Int("grpc-port", 47051, "each replica's gRPC port (on its own 127.0.0.N)")
	httpPort  = flag.Int("http-port", 47080, "each replica's HTTP port")
	frontREST = flag.Int("front-rest-port", 47180, "nginx's REST port on 127.0.0.1")
	frontGRPC = flag.Int("front-grpc-port", 47151, "nginx's gRPC port on 127.0.0.1")
	steady    = flag.Duration("steady", 5*time.Second, "each window in which the spread is measured")
	pause     = flag.Duration("pause", time.Second, "the load between two faults")
	workers   = flag.Int("workers", 3, "callers per client (a), (b); (c) has one")
	rate      = flag.Int("rate", 60, "the most calls per second of one caller")
	drain     = flag.Duration("drain-delay", time.Second, "the replicas' --drain-delay")
	workDir   = flag.String("dir", "", "scratch directory (logs, nginx); default a new temporary one, removed at the end")
	jsonOut   = flag.String("json", "", "also write the figures to this file as JSON")
)

// The phases of the run: each call counts in the phase it began in.
var phaseNames = []string{"warm-up", "steady (3 up)", "rolling restart", "kill -9", "scale-up", "steady (4 up)"}

const (
	phWarm = iota
	phSteady3
	phRolling
	phKill
	phScaleUp
	phSteady4
)

var phase atomic.Int32

type replica struct {
	n    int // 2..5: 127.0.0.n
	cmd  *exec.Cmd
	done chan struct{}
}

func (r *replica) ip() string       { return "127.0.0." + strconv.Itoa(r.n) }
func (r *replica) grpcAddr() string { return net.JoinHostPort(r.ip(), strconv.Itoa(*grpcPort)) }
func (r *replica) httpAddr() string { return net.JoinHostPort(r.ip(), strconv.Itoa(*httpPort)) }

var dir string

func (r *replica) start() error {
	lf, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("replica-%d.log", r.n)), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	r.cmd = exec.Command(*bin, "--grpc-addr", r.grpcAddr(), "--http-addr", r.httpAddr(),
		"--drain-delay", drain.String(), "--shutdown-timeout", "10s", "--log-level", "warn")
	r.cmd.Stdout, r.cmd.Stderr = lf, lf
	if err := r.cmd.Start(); err != nil {
		lf.Close()
		return err
	}
	r.done = make(chan struct{})
	go func() { _ = r.cmd.Wait(); lf.Close(); close(r.done) }()
	// Ready: /readyz answers 200 (bounded: 15 s).
	c := &http.Client{Timeout: time.Second}
	for i := 0; i < 150; i++ {
		if resp, err := c.Get("http://" + r.httpAddr() + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-r.done:
			return fmt.Errorf("replica %s exited at start (see %s)", r.ip(), lf.Name())
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("replica %s not ready within 15 s", r.ip())
}

// stop signals the replica and waits for its exit (bounded: 30 s).
func (r *replica) stop(sig syscall.Signal) error {
	if r.cmd == nil || r.cmd.Process == nil {
		return nil
	}
	_ = r.cmd.Process.Signal(sig)
	select {
	case <-r.done:
		return nil
	case <-time.After(30 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.done
		return fmt.Errorf("replica %s did not exit within 30 s of %v", r.ip(), sig)
	}
}

// counts is one replica's API calls answered so far, from its /metrics:
// REST (gamerules_http_requests_total of POST) and gRPC
// (grpc_server_handled_total of gamerules.v1.GameRules, which counts the
// REST calls too, as the in-process gateway runs the same interceptors:
// they are taken off).
type counts struct{ grpc, rest float64 }

func scrape(r *replica) (counts, error) {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get("http://" + r.httpAddr() + "/metrics")
	if err != nil {
		return counts{}, err
	}
	defer resp.Body.Close()
	return parseCounts(resp.Body)
}

// parseCounts reads counts from a Prometheus text exposition.
func parseCounts(r io.Reader) (counts, error) {
	var out counts
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var into *float64
		switch {
		case strings.HasPrefix(line, "grpc_server_handled_total{") && strings.Contains(line, `grpc_service="gamerules.v1.GameRules"`):
			into = &out.grpc
		case strings.HasPrefix(line, "gamerules_http_requests_total{") && strings.Contains(line, `method="post"`):
			into = &out.rest
		default:
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			return counts{}, fmt.Errorf("metrics line %q: %v", line, err)
		}
		*into += v
	}
	out.grpc -= out.rest
	return out, sc.Err()
}

// tally is one client's calls made and failed, by phase.
type tally struct {
	name         string
	calls, fails [6]atomic.Int64
	slowest      [6]atomic.Int64 // nanoseconds
	mu           sync.Mutex
	firstErrs    []string
}

func (t *tally) record(ph int32, took time.Duration, err error) {
	for {
		old := t.slowest[ph].Load()
		if int64(took) <= old || t.slowest[ph].CompareAndSwap(old, int64(took)) {
			break
		}
	}
	t.calls[ph].Add(1)
	if err != nil {
		t.fails[ph].Add(1)
		t.mu.Lock()
		if len(t.firstErrs) < 5 {
			t.firstErrs = append(t.firstErrs, fmt.Sprintf("%s: %v", phaseNames[ph], err))
		}
		t.mu.Unlock()
	}
}

// The mix: the same four requests over both transports.
type mix struct {
	legal   *gamerulesv1.LegalMovesRequest
	apply   *gamerulesv1.ApplyMoveRequest
	batch   *gamerulesv1.BatchRequest
	playout *gamerulesv1.PlayoutRequest
}

func newMix(ctx context.Context, c gamerulesv1grpc.GameRulesClient) (*mix, error) {
	ng, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon", Seed: proto.Uint64(1)})
	if err != nil {
		return nil, err
	}
	st := ng.GetState()
	lm, err := c.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
	if err != nil {
		return nil, err
	}
	if len(lm.GetMoves()) == 0 {
		return nil, errors.New("no legal move in a new backgammon game")
	}
	legal := &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st}
	apply := &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: lm.GetMoves()[0].GetNotation()}, IncludeLegalMoves: true}
	gt, err := c.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "gravity_trap", Seed: proto.Uint64(1)})
	if err != nil {
		return nil, err
	}
	return &mix{
		legal: legal,
		apply: apply,
		batch: &gamerulesv1.BatchRequest{Requests: []*gamerulesv1.BatchRequestItem{
			{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: legal}},
			{Request: &gamerulesv1.BatchRequestItem_ApplyMove{ApplyMove: apply}},
			{Request: &gamerulesv1.BatchRequestItem_Score{Score: &gamerulesv1.ScoreRequest{Game: "backgammon", State: st}}},
		}},
		playout: &gamerulesv1.PlayoutRequest{Game: "gravity_trap", State: gt.GetState(), Games: 20, Seed: proto.Uint64(3)},
	}, nil
}

func grpcCall(ctx context.Context, c gamerulesv1grpc.GameRulesClient, m *mix, i int) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var err error
	switch i % 4 {
	case 0:
		_, err = c.LegalMoves(ctx, m.legal)
	case 1:
		_, err = c.ApplyMove(ctx, m.apply)
	case 2:
		var r *gamerulesv1.BatchResponse
		if r, err = c.Batch(ctx, m.batch); err == nil {
			for _, it := range r.GetResponses() {
				if e := it.GetError(); e != nil {
					err = fmt.Errorf("batch item: %v", e.GetMessage())
				}
			}
		}
	case 3:
		_, err = c.Playout(ctx, m.playout)
	}
	return err
}

// restBodies is the mix as REST paths and JSON bodies.
func restBodies(m *mix) (paths []string, bodies [][]byte) {
	add := func(p string, msg proto.Message) {
		b, err := protojson.Marshal(msg)
		if err != nil {
			log.Fatal(err)
		}
		paths, bodies = append(paths, p), append(bodies, b)
	}
	add("/v1/games/backgammon:legalMoves", m.legal)
	add("/v1/games/backgammon:applyMove", m.apply)
	add("/v1/games:batch", m.batch)
	add("/v1/games/gravity_trap:playout", m.playout)
	return
}

func restCall(ctx context.Context, c *http.Client, base string, paths []string, bodies [][]byte, i int) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+paths[i%4], bytes.NewReader(bodies[i%4]))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	// Every route is safe to send twice: the header tells Go's transport
	// so, and it then resends a request whose kept-alive connection nginx
	// closed as it was sent (nginx closes idle client connections on a
	// reload), as it does for a GET.
	req.Header.Set("Idempotency-Key", strconv.Itoa(i))
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d %.200s", paths[i%4], resp.StatusCode, raw)
	}
	if i%4 == 2 && bytes.Contains(raw, []byte(`"error"`)) {
		return fmt.Errorf("batch item error: %.200s", raw)
	}
	return nil
}

// loop calls call at most rate times a second until stop is closed.
func loop(stop <-chan struct{}, wg *sync.WaitGroup, t *tally, seed int, call func(i int) error) {
	defer wg.Done()
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	defer tick.Stop()
	for i := seed; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		ph := phase.Load()
		start := time.Now()
		err := call(i)
		t.record(ph, time.Since(start), err)
	}
}

// nginx is the front: its scratch directory and process.
type front struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func writeUpstreams(reps []*replica) error {
	var rest, grpcs strings.Builder
	for _, r := range reps {
		fmt.Fprintf(&rest, "server %s max_fails=1 fail_timeout=2s;\n", r.httpAddr())
		fmt.Fprintf(&grpcs, "server %s max_fails=1 fail_timeout=2s;\n", r.grpcAddr())
	}
	if err := os.WriteFile(filepath.Join(dir, "gamerules-rest-servers.conf"), []byte(rest.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "gamerules-grpc-servers.conf"), []byte(grpcs.String()), 0o644)
}

func startNginx(reps []*replica) (*front, error) {
	conf, err := os.ReadFile(filepath.Join(*confDir, "gamerules.conf"))
	if err != nil {
		return nil, err
	}
	s := string(conf)
	for old, repl := range map[string]string{
		"listen 8080;":        fmt.Sprintf("listen 127.0.0.1:%d;", *frontREST),
		"listen 50051 http2;": fmt.Sprintf("listen 127.0.0.1:%d http2;", *frontGRPC),
	} {
		if !strings.Contains(s, old) {
			return nil, fmt.Errorf("gamerules.conf: no %q to point at the test's port", old)
		}
		s = strings.Replace(s, old, repl, 1)
	}
	if err := os.WriteFile(filepath.Join(dir, "gamerules.conf"), []byte(s), 0o644); err != nil {
		return nil, err
	}
	main, err := os.ReadFile(filepath.Join(*confDir, "nginx-test.conf"))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx-test.conf"), main, 0o644); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		return nil, err
	}
	if err := writeUpstreams(reps); err != nil {
		return nil, err
	}
	args := []string{"-p", dir + "/", "-c", "nginx-test.conf"}
	if out, err := exec.Command(*nginxBin, append([]string{"-t", "-q"}, args...)...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("nginx -t: %v: %s", err, out)
	}
	f := &front{cmd: exec.Command(*nginxBin, args...), done: make(chan struct{})}
	f.cmd.Stderr = os.Stderr
	if err := f.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = f.cmd.Wait(); close(f.done) }()
	for i := 0; i < 100; i++ { // bounded: 10 s
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", *frontREST), time.Second); err == nil {
			c.Close()
			return f, nil
		}
		select {
		case <-f.done:
			log.Printf("nginx error.log:\n%s", readFile(filepath.Join(dir, "error.log")))
			return nil, errors.New("nginx exited at start")
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil, errors.New("nginx did not listen within 10 s")
}

func readFile(p string) string { b, _ := os.ReadFile(p); return string(b) }

// spread measures the calls each replica answered during d: for gRPC and
// for REST, each replica's share and the largest over the mean.
type spreadFig struct {
	GRPC, REST       []float64
	GRPCMax, RESTMax float64 // the most any replica got, over the mean
}

func measureSpread(reps []*replica, d time.Duration) (spreadFig, error) {
	before := make([]counts, len(reps))
	for i, r := range reps {
		c, err := scrape(r)
		if err != nil {
			return spreadFig{}, err
		}
		before[i] = c
	}
	time.Sleep(d)
	var f spreadFig
	for i, r := range reps {
		c, err := scrape(r)
		if err != nil {
			return spreadFig{}, err
		}
		f.GRPC = append(f.GRPC, c.grpc-before[i].grpc)
		f.REST = append(f.REST, c.rest-before[i].rest)
	}
	f.GRPCMax, f.RESTMax = maxOverMean(f.GRPC), maxOverMean(f.REST)
	return f, nil
}

func maxOverMean(v []float64) float64 {
	var sum, most float64
	for _, x := range v {
		sum += x
		most = max(most, x)
	}
	if sum == 0 {
		return 0
	}
	return most / (sum / float64(len(v)))
}

// shareWindow is the window over which the added replica's share is
// counted: 5 polls 100 ms apart.
const shareWindow = 5

// timeToShare polls every replica's counts every 100 ms after the newest
// was added at t0, and reports when the newest first answered a call, and
// when it answered, over the last 0.5 s, at least 1/1.3 of the mean of the
// others, for gRPC and for REST (bounded: 30 s; -1 when it never did).
func timeToShare(reps []*replica, t0 time.Time) (grpcFirst, restFirst, grpcT, restT time.Duration) {
	grpcFirst, restFirst, grpcT, restT = -1, -1, -1, -1
	var hist [][]counts
	last := len(reps) - 1
	for time.Since(t0) < 30*time.Second && (grpcT < 0 || restT < 0) {
		row := make([]counts, len(reps))
		for i, r := range reps {
			row[i], _ = scrape(r)
		}
		hist = append(hist, row)
		if grpcFirst < 0 && row[last].grpc > 0 {
			grpcFirst = time.Since(t0)
		}
		if restFirst < 0 && row[last].rest > 0 {
			restFirst = time.Since(t0)
		}
		if k := len(hist); k > shareWindow {
			old, now := hist[k-1-shareWindow], hist[k-1]
			var og, or float64
			for i := 0; i < len(reps)-1; i++ {
				og += now[i].grpc - old[i].grpc
				or += now[i].rest - old[i].rest
			}
			n := float64(len(reps) - 1)
			if grpcT < 0 && og > 0 && now[last].grpc-old[last].grpc >= og/n/1.3 {
				grpcT = time.Since(t0)
			}
			if restT < 0 && or > 0 && now[last].rest-old[last].rest >= or/n/1.3 {
				restT = time.Since(t0)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return grpcFirst, restFirst, grpcT, restT
}

func main() {
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	if err := run(); err != nil {
		log.Printf("FAIL: %v", err)
		os.Exit(1)
	}
}

func run() (err error) {
	if _, err := os.Stat(*nginxBin); err != nil {
		return fmt.Errorf("nginx: %v (Debian: apt-get install nginx)", err)
	}
	if *workDir != "" {
		dir = *workDir
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	} else {
		if dir, err = os.MkdirTemp("", "gamerules-fleet-"); err != nil {
			return err
		}
		defer func() {
			if err == nil {
				os.RemoveAll(dir)
			} else {
				log.Printf("logs kept in %s", dir)
			}
		}()
	}
	reps := []*replica{{n: 2}, {n: 3}, {n: 4}}
	var fr *front
	cleanup := func() {
		for _, r := range reps {
			if r.cmd != nil && r.cmd.ProcessState == nil {
				_ = r.stop(syscall.SIGKILL)
			}
		}
		if fr != nil {
			_ = fr.cmd.Process.Signal(syscall.SIGQUIT)
			select {
			case <-fr.done:
			case <-time.After(10 * time.Second):
				_ = fr.cmd.Process.Kill()
			}
		}
	}
	defer cleanup()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() { <-sigs; cleanup(); os.Exit(2) }()

	for _, r := range reps {
		if err := r.start(); err != nil {
			return err
		}
	}
	log.Printf("3 replicas ready: %s, %s, %s", reps[0].ip(), reps[1].ip(), reps[2].ip())
	if fr, err = startNginx(reps); err != nil {
		return err
	}
	log.Printf("nginx ready: REST 127.0.0.1:%d, gRPC 127.0.0.1:%d", *frontREST, *frontGRPC)

	// (a) the service config and a resolver listing the replicas. The
	// replicas restart on the same addresses here, so the reconnect backoff
	// is capped at 1 s (in Kubernetes a new pod has a new address, which
	// the resolver brings).
	res := manual.NewBuilderWithScheme("fleet")
	addrs := func(rs []*replica) resolver.State {
		var st resolver.State
		for _, r := range rs {
			st.Addresses = append(st.Addresses, resolver.Address{Addr: r.grpcAddr()})
		}
		return st
	}
	res.InitialState(addrs(reps))
	bo := backoff.DefaultConfig
	bo.MaxDelay = time.Second
	conn, err := grpc.NewClient("fleet:///gamerules", grpc.WithResolvers(res),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(deploy.ServiceConfig),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: bo, MinConnectTimeout: time.Second}))
	if err != nil {
		return err
	}
	defer conn.Close()
	ca := gamerulesv1grpc.NewGameRulesClient(conn)
	ctx := context.Background()
	m, err := newMix(ctx, ca)
	if err != nil {
		return fmt.Errorf("preparing the requests: %v", err)
	}
	// (c) gRPC through nginx: one connection, the service config's retries
	// but not its health check, which through a proxy would watch one
	// replica behind it and stop every call while that one drains.
	var proxyConfig map[string]any
	if err := json.Unmarshal([]byte(deploy.ServiceConfig), &proxyConfig); err != nil {
		return err
	}
	delete(proxyConfig, "healthCheckConfig")
	pc, _ := json.Marshal(proxyConfig)
	nconn, err := grpc.NewClient(fmt.Sprintf("127.0.0.1:%d", *frontGRPC), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(string(pc)))
	if err != nil {
		return err
	}
	defer nconn.Close()
	cc := gamerulesv1grpc.NewGameRulesClient(nconn)
	// (b) REST through nginx.
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * *workers}}
	base := fmt.Sprintf("http://127.0.0.1:%d", *frontREST)
	paths, bodies := restBodies(m)

	ta, tb, tc := &tally{name: "(a) gRPC, service config + resolver"}, &tally{name: "(b) REST through nginx"}, &tally{name: "(c) gRPC through nginx, retries"}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(2)
		go loop(stop, &wg, ta, w, func(i int) error { return grpcCall(ctx, ca, m, i) })
		go loop(stop, &wg, tb, w, func(i int) error { return restCall(ctx, hc, base, paths, bodies, i) })
	}
	wg.Add(1)
	go loop(stop, &wg, tc, 0, func(i int) error { return grpcCall(ctx, cc, m, i) })
	stopLoad := sync.OnceFunc(func() { close(stop); wg.Wait() })
	defer stopLoad()

	fig := struct {
		Spread3, Spread4                   spreadFig
		ShareGRPCSeconds, ShareRESTSeconds float64
		FirstGRPCSeconds, FirstRESTSeconds float64
		RollingSeconds                     float64
		Clients                            []map[string]any
	}{}
	time.Sleep(*pause)

	phase.Store(phSteady3)
	log.Printf("steady, 3 up: measuring the spread for %v", *steady)
	if fig.Spread3, err = measureSpread(reps, *steady); err != nil {
		return err
	}

	phase.Store(phRolling)
	t := time.Now()
	for _, r := range reps {
		log.Printf("rolling restart: SIGTERM %s", r.ip())
		if err := r.stop(syscall.SIGTERM); err != nil {
			return err
		}
		if err := r.start(); err != nil {
			return err
		}
		log.Printf("rolling restart: %s serving again", r.ip())
		time.Sleep(*pause)
	}
	fig.RollingSeconds = time.Since(t).Seconds()

	phase.Store(phKill)
	time.Sleep(*pause)
	log.Printf("kill -9 %s mid-load", reps[1].ip())
	if err := reps[1].stop(syscall.SIGKILL); err != nil {
		return err
	}
	time.Sleep(*pause)
	if err := reps[1].start(); err != nil {
		return err
	}
	log.Printf("%s started again", reps[1].ip())
	time.Sleep(*pause)

	phase.Store(phScaleUp)
	r4 := &replica{n: 5}
	if err := r4.start(); err != nil {
		return err
	}
	reps = append(reps, r4)
	t0 := time.Now()
	res.UpdateState(addrs(reps))
	if err := writeUpstreams(reps); err != nil {
		return err
	}
	_ = fr.cmd.Process.Signal(syscall.SIGHUP) // nginx reloads its configuration
	log.Printf("added %s: resolver updated, nginx reloaded", r4.ip())
	gf, rf, g, rt := timeToShare(reps, t0)
	fig.ShareGRPCSeconds, fig.ShareRESTSeconds = g.Seconds(), rt.Seconds()
	fig.FirstGRPCSeconds, fig.FirstRESTSeconds = gf.Seconds(), rf.Seconds()

	phase.Store(phSteady4)
	log.Printf("steady, 4 up: measuring the spread for %v", *steady)
	if fig.Spread4, err = measureSpread(reps, *steady); err != nil {
		return err
	}
	stopLoad()

	// The report.
	var failed []string
	fmt.Printf("\n%-38s", "calls (failed) slowest, by phase")
	for _, p := range phaseNames {
		fmt.Printf(" | %-16s", p)
	}
	fmt.Println(" | total")
	for _, t := range []*tally{ta, tb, tc} {
		fmt.Printf("%-38s", t.name)
		var calls, fails int64
		row := map[string]any{"client": t.name}
		for i, p := range phaseNames {
			c, f := t.calls[i].Load(), t.fails[i].Load()
			calls, fails = calls+c, fails+f
			fmt.Printf(" | %-16s", fmt.Sprintf("%d (%d) %.2fs", c, f, time.Duration(t.slowest[i].Load()).Seconds()))
			row[p] = []any{c, f, time.Duration(t.slowest[i].Load()).Seconds()}
		}
		fmt.Printf(" | %d (%d)\n", calls, fails)
		row["calls"], row["failed"] = calls, fails
		fig.Clients = append(fig.Clients, row)
		if fails > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d of %d calls failed, first: %v", t.name, fails, calls, t.firstErrs))
		}
	}
	pr := func(name string, s spreadFig) {
		fmt.Printf("spread, %s: gRPC %v (max %.2fx the mean), REST %v (max %.2fx the mean)\n", name, s.GRPC, s.GRPCMax, s.REST, s.RESTMax)
		if s.GRPCMax > 1.3 || s.RESTMax > 1.3 || s.GRPCMax == 0 || s.RESTMax == 0 {
			failed = append(failed, fmt.Sprintf("spread %s: gRPC %.2fx, REST %.2fx the mean; want at most 1.3x", name, s.GRPCMax, s.RESTMax))
		}
	}
	pr("3 replicas", fig.Spread3)
	pr("4 replicas", fig.Spread4)
	fmt.Printf("rolling restart of 3: %.1f s; the added replica's first call after: gRPC %.2f s, REST %.2f s; its share (>= mean/1.3 over 0.5 s) after: gRPC %.2f s, REST %.2f s (polled every 0.1 s)\n",
		fig.RollingSeconds, fig.FirstGRPCSeconds, fig.FirstRESTSeconds, fig.ShareGRPCSeconds, fig.ShareRESTSeconds)
	if g < 0 || rt < 0 {
		failed = append(failed, "the added replica did not get its share within 30 s")
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(fig, "", "  ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			return err
		}
	}
	// The replicas drain and exit on SIGTERM.
	for _, r := range reps {
		if err := r.stop(syscall.SIGTERM); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "\n"))
	}
	fmt.Println("PASS: no call failed; the spread within 1.3x; the added replica took its share")
	return nil
}
