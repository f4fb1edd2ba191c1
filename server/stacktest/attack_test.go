package stacktest

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/h2attack"
)

// Issue 19's attack catalogue on the gRPC port, each against a real
// gamerulesd process on loopback: answers never read, header-only churn,
// rapid reset, and a load tool's 16 streams on one connection. Each runs
// a few seconds (GAMERULES_LONG=1: 20 s); bench/attack prints the same
// figures.

// attackSeconds is how long each attack runs.
func attackSeconds() time.Duration {
	if long() {
		return 20 * time.Second
	}
	return 3 * time.Second
}

// largestAnswerRequest is the LegalMoves request (wire bytes) with the
// largest answer: Gravity Trap on the 64 × 256 custom board, with results.
func largestAnswerRequest(t testing.TB, addr string) []byte {
	t.Helper()
	ng, err := gamerulesv1grpc.NewGameRulesClient(dial(t, addr)).NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: h2attack.LargestBoard()}}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(&gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: ng.GetState(), IncludeResults: true})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// metric reads the value of one sample line of p's /metrics (0 when absent).
func (p *serverProcess) metric(t testing.TB, sample string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + p.http + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(sample) + ` (\S+)$`).FindSubmatch(body)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}

// TestUnreadAnswers: 5 connections announcing an HTTP/2 window of 0 send
// 100 calls each for the largest LegalMoves answer and read nothing. The
// RSS stays within 128 MB above idle (it was 504 MB), a polite client on
// its own connection is served throughout, and the attackers' connections
// are closed after --grpc-unread-timeout.
func TestUnreadAnswers(t *testing.T) {
	const unreadTimeout = 3 * time.Second
	p := startProcess(t, "--grpc-unread-timeout", unreadTimeout.String())
	msg := largestAnswerRequest(t, p.grpc)
	idle := p.memKB(t, "VmRSS")
	ctx, cancel := context.WithTimeout(context.Background(), unreadTimeout+2*time.Second)
	defer cancel()
	var polite h2attack.Polite
	done := make(chan struct{})
	go func() { _ = h2attack.RunPolite(ctx, p.grpc, 4, 10*time.Millisecond, &polite); close(done) }()
	start := time.Now()
	conns, err := h2attack.Unread(p.grpc, 5, 100, "/gamerules.v1.GameRules/LegalMoves", msg)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	unread := p.metric(t, "gamerules_grpc_unread_answer_bytes")
	closed := 0
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, c := range conns {
		wg.Add(1)
		go func(c *h2attack.Conn) {
			defer wg.Done()
			if c.WaitClosed(unreadTimeout + 5*time.Second) {
				mu.Lock()
				closed++
				mu.Unlock()
			}
			c.Close()
		}(c)
	}
	wg.Wait()
	took := time.Since(start)
	<-done
	left := p.metric(t, "gamerules_grpc_unread_answer_bytes")
	peak := p.memKB(t, "VmHWM")
	t.Logf("unread answers, 5 connections × 100 streams of %d-byte requests: RSS idle %d MB, peak %d MB (+%d MB); unread bytes after 1 s %.0f, at the end %.0f; %d/5 connections closed after %v; polite client %d ok, %d failed (%.1f%%); closed metric %v",
		len(msg), idle/1024, peak/1024, (peak-idle)/1024, unread, left, closed, took.Round(100*time.Millisecond), polite.OK.Load(), polite.Failed.Load(), 100*polite.Rate(),
		p.metric(t, `gamerules_grpc_connections_closed_total{reason="unread"}`))
	if peak-idle > 128*1000 {
		t.Errorf("RSS grew %d MB above idle; want at most 128 MB", (peak-idle)/1024)
	}
	// A connection whose calls were all refused (the gate, the total of
	// unread bytes) holds no unread answer, and is left to the idle limit.
	if closed == 0 || left != 0 {
		t.Errorf("%d of the 5 non-reading connections closed, %v unread bytes left; want those holding unread answers closed after --grpc-unread-timeout", closed, left)
	}
	if polite.Rate() < 0.9 {
		t.Errorf("polite client: %.1f%% success during the attack; want at least 90%%", 100*polite.Rate())
	}
}

// TestHeaderOnlyChurnFairness: one connection keeps 80 header-only streams
// open, reopening each the server ends (it was 1.8% success for a polite
// client); a polite client keeps at least 90% success.
func TestHeaderOnlyChurnFairness(t *testing.T) {
	p := startProcess(t)
	ctx, cancel := context.WithTimeout(context.Background(), attackSeconds())
	defer cancel()
	var st h2attack.Stats
	go h2attack.Churn(ctx, p.grpc, 80, &st)
	time.Sleep(200 * time.Millisecond) // the attack is in place first
	var polite h2attack.Polite
	_ = h2attack.RunPolite(ctx, p.grpc, 4, 10*time.Millisecond, &polite)
	t.Logf("header-only churn (80 streams on one connection) for %v: %d streams on %d connections (%d closed by the server, %d with GOAWAY); polite client %d ok, %d failed (%.1f%%, %v)",
		attackSeconds(), st.Streams.Load(), st.Conns.Load(), st.Closed.Load(), st.GoAways.Load(), polite.OK.Load(), polite.Failed.Load(), 100*polite.Rate(), polite.Codes())
	if polite.Rate() < 0.9 {
		t.Errorf("polite client: %.1f%% success during the churn; want at least 90%%", 100*polite.Rate())
	}
}

// TestRapidResetClosed: 2 connections send HEADERS + RST_STREAM pairs at
// full speed; each is closed past --grpc-max-resets (counted in
// gamerules_grpc_connections_closed_total{reason="resets"}), and a polite
// client keeps at least 90% success.
func TestRapidResetClosed(t *testing.T) {
	p := startProcess(t)
	ctx, cancel := context.WithTimeout(context.Background(), attackSeconds())
	defer cancel()
	var st h2attack.Stats
	for i := 0; i < 2; i++ {
		go h2attack.RapidReset(ctx, p.grpc, nil, &st)
	}
	time.Sleep(200 * time.Millisecond)
	var polite h2attack.Polite
	_ = h2attack.RunPolite(ctx, p.grpc, 4, 10*time.Millisecond, &polite)
	closedMetric := p.metric(t, `gamerules_grpc_connections_closed_total{reason="resets"}`)
	t.Logf("rapid reset (2 connections) for %v: %d pairs on %d connections (%d closed by the server, %d of them with GOAWAY; metric %v); polite client %d ok, %d failed (%.1f%%)",
		attackSeconds(), st.Streams.Load(), st.Conns.Load(), st.Closed.Load(), st.GoAways.Load(), closedMetric, polite.OK.Load(), polite.Failed.Load(), 100*polite.Rate())
	if st.Closed.Load() < 2 || closedMetric < 2 {
		t.Errorf("the server closed %d attacking connections (metric %v); want each of them closed", st.Closed.Load(), closedMetric)
	}
	// The GOAWAY is written only between two of grpc-go's frames; the
	// server's output to a rapid-reset client is small frames, so most
	// closes find a boundary.
	if st.GoAways.Load()*2 < st.Closed.Load() {
		t.Errorf("%d of the %d closed attacking connections got a GOAWAY first; want at least half", st.GoAways.Load(), st.Closed.Load())
	}
	if polite.Rate() < 0.9 {
		t.Errorf("polite client: %.1f%% success during rapid reset; want at least 90%%", 100*polite.Rate())
	}
}

// TestLoadToolServed: a load tool's 16 streams on one connection are all
// served, waiting within --queue-wait past the connection's share, while a
// polite client on another connection is served too.
func TestLoadToolServed(t *testing.T) {
	p := startProcess(t)
	ctx, cancel := context.WithTimeout(context.Background(), attackSeconds())
	defer cancel()
	var tool, polite h2attack.Polite
	done := make(chan struct{})
	go func() { _ = h2attack.RunPolite(ctx, p.grpc, 16, 0, &tool); close(done) }()
	_ = h2attack.RunPolite(ctx, p.grpc, 2, 10*time.Millisecond, &polite)
	<-done
	t.Logf("load tool, 16 streams on one connection for %v: %d ok, %d failed (%.2f%%, %v); polite client %d ok, %d failed (%v)",
		attackSeconds(), tool.OK.Load(), tool.Failed.Load(), 100*tool.Rate(), tool.Codes(), polite.OK.Load(), polite.Failed.Load(), polite.Codes())
	// Unloaded: 100%. On a loaded 2-core machine (CI runs every package's
	// tests at once under the race detector) 3-21% of the tool's calls
	// were seen to pass their 2 s client deadline (0-7% under -race
	// alone, before and after issue 35): those are not refusals. A
	// server that refused the tool's streams past its share (what this
	// guards against) answers RESOURCE_EXHAUSTED and served a few
	// percent, so: no refusal beyond 1%, and most calls served.
	for name, p := range map[string]*h2attack.Polite{"load tool": &tool, "polite client": &polite} {
		refused := 0
		for code, n := range p.Codes() {
			if code != codes.DeadlineExceeded {
				refused += n
			}
		}
		total := p.OK.Load() + p.Failed.Load()
		if total == 0 || p.Rate() < 0.5 || float64(refused) > 0.01*float64(total) {
			t.Errorf("%s: %.2f%% success, %d of %d calls refused or failed otherwise (%v); want at least 50%% served and at most 1%% refused", name, 100*p.Rate(), refused, total, p.Codes())
		}
	}
}
