package stacktest

import (
	"context"
	"fmt"
	"github.com/gamerules/gamerules/server"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/procmem"
)

// serverProcess is a gamerulesd binary built from this package and run as a
// child process on free loopback ports, so that its memory can be read.
type serverProcess struct {
	cmd        *exec.Cmd
	grpc, http string
}

var buildOnce struct {
	sync.Once
	path string
	err  error
}

// gamerulesdBinary builds gamerulesd, once per test binary, and answers
// its path.
func gamerulesdBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gamerulesd-test")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "gamerulesd")
		out, err := exec.Command("go", "build", "-o", buildOnce.path, "../../cmd/gamerulesd").CombinedOutput()
		if err != nil {
			buildOnce.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
	return buildOnce.path
}

// startProcess builds gamerulesd (once per test binary) and runs it with
// args; it is killed when the test ends.
func startProcess(t testing.TB, args ...string) *serverProcess {
	t.Helper()
	g, h := freePort(t), freePort(t)
	cmd := exec.Command(gamerulesdBinary(t), append([]string{"--grpc-addr", g, "--http-addr", h, "--log-level", "warn"}, args...)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := &serverProcess{cmd: cmd, grpc: g, http: h}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if resp, err := http.Get("http://" + h + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("gamerulesd did not become ready in 20 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// memKB reads a field of /proc/<pid>/status in kB: VmRSS (now) or VmHWM (peak).
func (p *serverProcess) memKB(t *testing.T, field string) int {
	t.Helper()
	n, err := procmem.KB(p.cmd.Process.Pid, field)
	if err != nil {
		t.Skipf("no memory figures here: %v", err)
	}
	return n
}

// hostileBodies are requests of just under the default size limit that
// cost the most to decode: tens of thousands of empty sub-objects.
func hostileBodies(limit int) (grpcMsgs []proto.Message, restBodies []string) {
	// gRPC: two bytes per empty sub-message.
	n := limit/2 - 64
	players := make([]*gamerulesv1.LabyrinthPlayer, n)
	steps := make([]*gamerulesv1.BackgammonStep, n)
	lines := make([]*gamerulesv1.GravityTrapLine, n)
	for i := range players {
		players[i], steps[i], lines[i] = &gamerulesv1.LabyrinthPlayer{}, &gamerulesv1.BackgammonStep{}, &gamerulesv1.GravityTrapLine{}
	}
	grpcMsgs = []proto.Message{
		&gamerulesv1.LegalMovesRequest{Game: "labyrinth", State: &gamerulesv1.GameState{State: &gamerulesv1.GameState_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthState{Players: players}}}},
		&gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg31}, Move: &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{Steps: steps}}}},
		&gamerulesv1.NewGameRequest{Game: "gravity_trap", Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: &gamerulesv1.GravityTrapBoard{Lines: lines}}}},
	}
	// REST: three bytes per empty object.
	k := (limit - 200) / 3
	restBodies = []string{
		"/v1/games/labyrinth:legalMoves " + `{"state":{"labyrinth":{"players":[` + repeatJSON("{}", k) + `]}}}`,
		"/v1/games/backgammon:applyMove " + `{"state":{"text":"` + bg31 + `"},"move":{"backgammon":{"steps":[` + repeatJSON("{}", k) + `]}}}`,
		"/v1/games/gravity_trap:new " + `{"gravityTrap":{"customBoard":{"lines":[` + repeatJSON("{}", k) + `]}}}`,
	}
	return grpcMsgs, restBodies
}

// TestHostileResources sends rounds of 16 concurrent maximum-size hostile
// requests (half gRPC, half REST) to a real gamerulesd process with its
// default limits, with a health check during each round, and reports the
// peak RSS and the latencies. Each request must be answered INVALID_ARGUMENT
// or refused RESOURCE_EXHAUSTED / 429, and the peak RSS must stay within
// 256 MB. One round by default; GAMERULES_LONG=1 runs 20.
func TestHostileResources(t *testing.T) {
	rounds := 1
	if long() {
		rounds = 20
	}
	p := startProcess(t)
	conn := dial(t, p.grpc)
	// The probe has its own connection, as a kubelet's or a load
	// balancer's has: on the attacker's connection it would queue behind
	// megabytes of DATA frames.
	health := healthpb.NewHealthClient(dial(t, p.grpc))
	base := p.memKB(t, "VmRSS")
	msgs, bodies := hostileBodies(server.DefaultOptions().MaxRecvBytes)
	// Marshalled once up front, so that the client's own work does not
	// count in the latencies.
	type wireMsg struct {
		method string
		bytes  []byte
	}
	var wire []wireMsg
	for _, m := range msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		method := map[string]string{"*gamerulesv1.LegalMovesRequest": "LegalMoves", "*gamerulesv1.ApplyMoveRequest": "ApplyMove", "*gamerulesv1.NewGameRequest": "NewGame"}[fmt.Sprintf("%T", m)]
		wire = append(wire, wireMsg{method, b})
	}
	var mu sync.Mutex
	var lat, healthLat []time.Duration
	codesSeen := map[string]int{}
	for r := 0; r < rounds; r++ {
		var wg sync.WaitGroup
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				start := time.Now()
				var outcome string
				if i%2 == 0 {
					m := wire[(i/2)%len(wire)]
					method := m.method
					var out []byte
					err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/"+method, m.bytes, &out, grpc.ForceCodec(rawCodec{}))
					outcome = "grpc " + status.Code(err).String()
					if c := status.Code(err); c != codes.InvalidArgument && c != codes.ResourceExhausted {
						t.Errorf("hostile gRPC %s: %v", method, err)
					}
				} else {
					path, body, _ := strings.Cut(bodies[(i/2)%len(bodies)], " ")
					resp, err := http.Post("http://"+p.http+path, "application/json", strings.NewReader(body))
					if err != nil {
						t.Errorf("hostile REST %s: %v", path, err)
						return
					}
					resp.Body.Close()
					outcome = "rest " + strconv.Itoa(resp.StatusCode)
					if resp.StatusCode != 400 && resp.StatusCode != 429 {
						t.Errorf("hostile REST %s: HTTP %d", path, resp.StatusCode)
					}
				}
				d := time.Since(start)
				mu.Lock()
				lat = append(lat, d)
				codesSeen[outcome]++
				mu.Unlock()
			}(i)
		}
		time.Sleep(20 * time.Millisecond)
		start := time.Now()
		if h, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health during the attack: %v, %v", h, err)
		}
		healthLat = append(healthLat, time.Since(start))
		wg.Wait()
	}
	peak := p.memKB(t, "VmHWM")
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Slice(healthLat, func(i, j int) bool { return healthLat[i] < healthLat[j] })
	t.Logf("%d rounds of 16 hostile requests of %d bytes: RSS before %d MB, peak %d MB; latency median %v, max %v; health check max %v; answers %v",
		rounds, server.DefaultOptions().MaxRecvBytes, base/1024, peak/1024, lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond),
		healthLat[len(healthLat)-1].Round(time.Millisecond), codesSeen)
	if peak > 256*1000 {
		t.Errorf("peak RSS %d MB; want at most 256 MB", peak/1024)
	}
	// The process still serves normally.
	if _, err := gamerulesv1grpc.NewGameRulesClient(conn).LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg31}}); err != nil {
		t.Errorf("LegalMoves after the attack: %v", err)
	}
}

// TestSIGTERMProcess: a real process with a Watch stream open exits cleanly
// on SIGTERM within its drain delay plus a second.
func TestSIGTERMProcess(t *testing.T) {
	p := startProcess(t, "--drain-delay", "300ms")
	conn := dial(t, p.grpc)
	w, err := healthpb.NewHealthClient(conn).Watch(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Recv(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = p.cmd.Wait()
	took := time.Since(start)
	t.Logf("SIGTERM with a Watch open: exit %v after %v", err, took.Round(time.Millisecond))
	if err != nil || took > 1300*time.Millisecond {
		t.Errorf("exit %v after %v; want a clean exit within 300ms + 1s", err, took)
	}
}

// TestSIGTERMTraceFlushBounded: with tracing on and an OTLP collector that
// accepts connections and never answers, a real process still exits on
// SIGTERM within --shutdown-timeout (plus a margin for a loaded machine):
// the traces are flushed within what is left of it (it was 5 s more).
func TestSIGTERMTraceFlushBounded(t *testing.T) {
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hang.Close()
	go func() {
		for {
			c, err := hang.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c) }() // never answers
		}
	}()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+hang.Addr().String())
	const shutdown = time.Second
	p := startProcess(t, "--drain-delay", "0s", "--shutdown-timeout", shutdown.String())
	resp, err := http.Post("http://"+p.http+"/v1/games/gravity_trap:legalMoves", "application/json", strings.NewReader(`{"state":{"text":"RoooBooooooooooooooooo r"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = p.cmd.Wait()
	took := time.Since(start)
	t.Logf("SIGTERM with traces to flush to a collector that never answers: exit %v after %v (--shutdown-timeout %v)", err, took.Round(time.Millisecond), shutdown)
	if err != nil || took > shutdown+2*time.Second {
		t.Errorf("exit %v after %v; want a clean exit within the shutdown timeout %v (+2 s margin)", err, took, shutdown)
	}
}
