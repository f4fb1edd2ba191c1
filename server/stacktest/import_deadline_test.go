package stacktest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/hostiletest"
	"github.com/gamerules/gamerules/server"
)

// TestSIGTERMWithImports: a real gamerulesd with --shutdown-timeout 2s and
// 8 clients (4 over gRPC, 4 over REST) sending the costliest
// maximum-size ImportRecord requests in a loop, so that some are in
// flight at any time, exits on SIGTERM within the shutdown timeout plus a
// margin for a loaded machine. The calls in flight at the signal and the
// exit time are logged.
func TestSIGTERMWithImports(t *testing.T) {
	const shutdown = 2 * time.Second
	p := startProcess(t, "--shutdown-timeout", shutdown.String(), "--drain-delay", "0s")
	limit := server.DefaultOptions().MaxRecvBytes
	var reqs []*gamerulesv1.ImportRecordRequest
	var bodies []string
	var paths []string
	for _, h := range hostiletest.Imports(t, "../..") {
		if h.Name == "mat one-roll lines" || h.Name == "apgn 9000 plies" || h.Name == "json 9000 moves" {
			reqs = append(reqs, h.GRPCRequest(limit))
			bodies = append(bodies, h.RESTBody(t, limit))
			paths = append(paths, "/v1/games/"+h.Game+":importRecord")
		}
	}
	conn := dial(t, p.grpc)
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	var inFlight, calls atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				inFlight.Add(1)
				if i%2 == 0 {
					_, _ = client.ImportRecord(context.Background(), reqs[k%len(reqs)])
				} else {
					resp, err := http.Post("http://"+p.http+paths[k%len(paths)], "application/json", strings.NewReader(bodies[k%len(bodies)]))
					if err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
				inFlight.Add(-1)
				calls.Add(1)
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	// Let the loops run until at least 8 calls have been answered.
	for deadline := time.Now().Add(10 * time.Second); calls.Load() < 8 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	before, atSignal := calls.Load(), inFlight.Load()
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(shutdown + 10*time.Second):
		t.Fatal("gamerulesd did not exit")
	}
	took := time.Since(start)
	t.Logf("SIGTERM with %d ImportRecord calls in flight (%d answered before): exit %v after %v (--shutdown-timeout %v)", atSignal, before, err, took.Round(time.Millisecond), shutdown)
	if atSignal == 0 {
		t.Errorf("no call in flight at the signal")
	}
	if err != nil || took > shutdown+2*time.Second {
		t.Errorf("exit %v after %v; want a clean exit within %v + 2s", err, took, shutdown)
	}
}
