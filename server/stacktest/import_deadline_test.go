package stacktest

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"github.com/gamerules/gamerules/server"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// hostileImport is an ImportRecord request of the largest legal size
// shaped to cost the most to read and replay.
type hostileImport struct {
	name, game, format string
	text               func(size int) string // a record of at most size bytes
}

// fillTo writes head, then line(1), line(2)… while the record stays within
// size bytes (or until line returns "").
func fillTo(size int, head string, line func(i int) string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 1; ; i++ {
		l := line(i)
		if l == "" || b.Len()+len(l) > size {
			return b.String()
		}
		b.WriteString(l)
	}
}

// hostileImports are the costliest records per format: .mat records of
// one-roll lines (what made reading quadratic), empty move lines and a
// session of many short games (as rules/backgammon/mat's limits test);
// APGN, a game of 9,000 plies read in full before its replay and one of
// numbered lines without moves, and the start of the MIGS archive (many
// games); JSON records of 9,000 moves and of an options object of empty
// objects.
func hostileImports(t testing.TB) []hostileImport {
	t.Helper()
	f, err := os.Open("../../testdata/abalone/migs-games.apgn.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	archive, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	matHead := " 5 point match\n\n Game 1\n White : 0                    Black : 0\n"
	apgnHead := "[Event \"x\"]\n[Black \"b\"]\n[White \"w\"]\n[Variant \"belgian\"]\n[Result \"*\"]\n\n"
	plies := strings.Fields("a1b2 a5b5 a2b3 b6c7 i9h8 i5h5 h8g7 g4g5 b3c4 c5c7d6 g7g8f7 h5g5 b1c2 d6e7 f8f7 h4g4")
	return []hostileImport{
		{"mat one-roll lines", "backgammon", "mat", func(n int) string {
			return fillTo(n, matHead, func(i int) string { return fmt.Sprintf("%3d) 31:\n", i) })
		}},
		{"mat empty lines", "backgammon", "mat", func(n int) string {
			return fillTo(n, matHead, func(i int) string { return fmt.Sprintf("%3d)\n", i) })
		}},
		{"mat session", "backgammon", "mat", func(n int) string {
			return fillTo(n, " 0 point match\n", func(i int) string {
				return fmt.Sprintf("\n Game %d\n White : 0                    Black : 0\n  1) 31: 8/5 6/5\n     Wins 1 point\n", i)
			})
		}},
		{"apgn 9000 plies", "abalone", "apgn", func(n int) string {
			return fillTo(n, apgnHead, func(i int) string {
				if i > 4500 {
					return ""
				}
				return fmt.Sprintf("%d. %s %s\n", i, plies[(2*i)%len(plies)], plies[(2*i+1)%len(plies)])
			})
		}},
		{"apgn empty move numbers", "abalone", "apgn", func(n int) string {
			return fillTo(n, apgnHead, func(i int) string { return fmt.Sprintf("%d. ", i) })
		}},
		{"apgn archive", "abalone", "apgn", func(n int) string {
			s := string(archive[:min(n, len(archive))])
			return s[:strings.LastIndex(s, "\n\n[Event")+1]
		}},
		{"json 9000 moves", "backgammon", "json", func(n int) string {
			return fillTo(n, `{"format":"gamerules-record/1","game":"backgammon","moves":["roll 3-1"`, func(i int) string {
				if i >= 9000 {
					return ""
				}
				return `,"8/5 6/5 8/5 6/5 13/10 13/10 24/21 24/21 roll 3-1"`
			}) + `]}`
		}},
		{"json options of empty objects", "backgammon", "json", func(n int) string {
			return fillTo(n-8, `{"format":"gamerules-record/1","game":"backgammon","moves":[],"options":{"x":[{}`, func(int) string { return ",{}" }) + `]}}`
		}},
	}
}

// grpcImport is the gRPC request of h: its record as large as the
// receive limit allows.
func (h hostileImport) grpcRequest(limit int) *gamerulesv1.ImportRecordRequest {
	return &gamerulesv1.ImportRecordRequest{Game: h.game, Format: h.format, Text: h.text(limit - 64)}
}

// restBody is the REST body of h: its record as large as the body limit
// allows once escaped as a JSON string.
func (h hostileImport) restBody(t testing.TB, limit int) string {
	t.Helper()
	for size := limit - 64; size > 0; {
		b, err := json.Marshal(map[string]string{"format": h.format, "text": h.text(size)})
		if err != nil {
			t.Fatal(err)
		}
		if len(b) <= limit {
			return string(b)
		}
		size -= len(b) - limit + 16
	}
	t.Fatalf("%s: no body fits", h.name)
	return ""
}

// importMargin is how late past its deadline an answer may come on a
// loaded 2-core machine running the race detector.
const importMargin = 1500 * time.Millisecond

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
	for _, h := range hostileImports(t) {
		if h.name == "mat one-roll lines" || h.name == "apgn 9000 plies" || h.name == "json 9000 moves" {
			reqs = append(reqs, h.grpcRequest(limit))
			bodies = append(bodies, h.restBody(t, limit))
			paths = append(paths, "/v1/games/"+h.game+":importRecord")
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
