package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/gamerules/gamerules/server"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/rest/restjson"
)

// TestOverloadOverTheWire: with one slot and no wait, concurrent expensive
// calls are either answered or refused as the API says — REST 429 with
// Retry-After and the OVERLOADED reason, gRPC RESOURCE_EXHAUSTED — and
// nothing else; the health check still answers.
func TestOverloadOverTheWire(t *testing.T) {
	a := startServerWith(t, func(c *server.Options) { c.MaxInFlight, c.MaxWaiting, c.QueueWait = 1, 1, 0 })
	conn := dial(t, a.GRPC)
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	body := `{"state":{"text":"` + labMove + `"},"includeResults":true}`
	var ok, restRefused, grpcRefused, other atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if i%2 == 0 {
					resp, err := http.Post("http://"+a.HTTP+"/v1/games/labyrinth:legalMoves", "application/json", strings.NewReader(body))
					if err != nil {
						other.Add(1)
						continue
					}
					raw, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					switch {
					case resp.StatusCode == 200:
						ok.Add(1)
					case resp.StatusCode == 429 && resp.Header.Get("Retry-After") == "1" && strings.Contains(string(raw), `"OVERLOADED"`):
						restRefused.Add(1)
					default:
						other.Add(1)
						t.Errorf("REST under overload: %d %s", resp.StatusCode, raw)
					}
					continue
				}
				_, err := client.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "labyrinth", State: &gamerulesv1.GameState{Text: labMove}, IncludeResults: true})
				switch status.Code(err) {
				case codes.OK:
					ok.Add(1)
				case codes.ResourceExhausted:
					grpcRefused.Add(1)
				default:
					other.Add(1)
					t.Errorf("gRPC under overload: %v", err)
				}
			}
		}(i)
	}
	if h, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health during the overload = %v, %v", h, err)
	}
	wg.Wait()
	t.Logf("overload: %d answered, %d REST 429, %d gRPC RESOURCE_EXHAUSTED, %d other", ok.Load(), restRefused.Load(), grpcRefused.Load(), other.Load())
	if ok.Load() == 0 || restRefused.Load()+grpcRefused.Load() == 0 || other.Load() != 0 {
		t.Errorf("want some answered, some refused and nothing else")
	}
	_, metrics := get(t, a.HTTP, "/metrics")
	if !strings.Contains(metrics, `gamerules_requests_refused_total{port="http",reason="overloaded"}`) {
		t.Errorf("/metrics lacks the HTTP refusals")
	}
}

// TestStalledBody: a REST body that stops arriving is answered 408 once the
// read timeout passes, without echoing socket addresses.
func TestStalledBody(t *testing.T) {
	a := startServerWith(t, func(c *server.Options) { c.HTTPReadTimeout = 500 * time.Millisecond })
	c, err := net.Dial("tcp", a.HTTP)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "POST /v1/games/backgammon:legalMoves HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"state\":")
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	out, _ := io.ReadAll(c)
	if statusOf(string(out)) != http.StatusRequestTimeout || !strings.Contains(string(out), "did not arrive in time") || strings.Contains(string(out), "127.0.0.1") {
		t.Errorf("stalled body answered %q; want 408 saying the body did not arrive, with no address", out)
	}
}

// idleConns opens n raw TCP connections to the gRPC port; with settings,
// each sends the HTTP/2 client preface and an empty SETTINGS frame and then
// only reads (it never answers a ping: a silent client), else only the
// preface. It returns a channel that receives each connection's lifetime
// when the server closes it.
func idleConns(t *testing.T, addr string, n int, settings bool) <-chan time.Duration {
	return idleConnsMode(t, addr, n, settings, false)
}

// idleConnsMode is idleConns; with answer, each connection also answers the
// server's SETTINGS and PING frames, as an HTTP/2 client library does.
func idleConnsMode(t *testing.T, addr string, n int, settings, answer bool) <-chan time.Duration {
	t.Helper()
	closed := make(chan time.Duration, n)
	for i := 0; i < n; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		t.Cleanup(func() { c.Close() })
		start := time.Now()
		_, _ = io.WriteString(c, http2.ClientPreface)
		if settings {
			_ = http2.NewFramer(c, nil).WriteSettings()
		}
		go func() {
			if !answer {
				_, _ = io.Copy(io.Discard, c) // until the server closes it
				closed <- time.Since(start)
				return
			}
			fr := http2.NewFramer(c, c)
			for {
				f, err := fr.ReadFrame()
				if err != nil {
					closed <- time.Since(start)
					return
				}
				switch f := f.(type) {
				case *http2.SettingsFrame:
					if !f.IsAck() {
						_ = fr.WriteSettingsAck()
					}
				case *http2.PingFrame:
					if !f.IsAck() {
						_ = fr.WritePing(true, f.Data)
					}
				}
			}
		}()
	}
	return closed
}

// TestIdleConnectionsClosed: connections that never finish the handshake are
// closed at the handshake timeout, and connections that finish it but make
// no call are closed after --grpc-max-connection-idle: about a second later
// when they answer the server's GOAWAY ping as client libraries do (grpc-go's
// two-step GOAWAY), up to 5 s more when they stay silent (grpc-go waits that
// long for the ping's answer before the final GOAWAY). The long version opens 2,000 of each.
func TestIdleConnectionsClosed(t *testing.T) {
	n := 50
	if long() {
		n = 2000
	}
	const idle, handshake = time.Second, 2 * time.Second
	a := startServerWith(t, func(c *server.Options) {
		c.GRPCMaxConnectionIdle = idle
		c.GRPCHandshakeTimeout = handshake
	})
	prefaceOnly := idleConns(t, a.GRPC, n, false)
	silent := idleConns(t, a.GRPC, n, true)
	polite := idleConnsMode(t, a.GRPC, n, true, true)
	for _, tc := range []struct {
		name   string
		ch     <-chan time.Duration
		within time.Duration
	}{
		{"preface only", prefaceOnly, handshake + 3*time.Second},
		{"handshake done, no call, pings answered", polite, idle + 2*time.Second},
		{"handshake done, no call, silent", silent, idle + 5*time.Second + 3*time.Second},
	} {
		var longest time.Duration
		timeout := time.After(tc.within + 10*time.Second)
		for i := 0; i < n; i++ {
			select {
			case d := <-tc.ch:
				longest = max(longest, d)
			case <-timeout:
				t.Fatalf("%s: only %d of %d connections closed by the server", tc.name, i, n)
			}
		}
		t.Logf("%s: %d connections closed by the server, the last after %v", tc.name, n, longest.Round(time.Millisecond))
		if longest > tc.within {
			t.Errorf("%s: a connection lived %v; want closed within %v", tc.name, longest, tc.within)
		}
	}
}

// TestShutdownWithWatch: with a health Watch stream open and 64 gRPC and
// 16 REST clients calling in a loop, shutdown tells the watcher NOT_SERVING, ends its stream
// after the drain delay, fails no call, and returns within the drain delay
// plus a second.
func TestShutdownWithWatch(t *testing.T) {
	const drain = 500 * time.Millisecond
	a, cancel, done := runUntilCancelled(t, func(c *server.Options) {
		c.DrainDelay = drain
		// 80 callers share 8 slots per port: on a loaded machine a call may
		// wait longer than the default 250 ms for one, which is not what
		// this test is about.
		c.QueueWait = 5 * time.Second
	})
	conn := dial(t, a.GRPC)
	w, err := healthpb.NewHealthClient(conn).Watch(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := w.Recv(); err != nil || m.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first Watch message = %v, %v; want SERVING", m, err)
	}
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	var calls, failed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, err := client.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg31}})
				calls.Add(1)
				if err != nil {
					failed.Add(1)
					t.Errorf("call during shutdown: %v", err)
				}
			}
		}()
	}
	// And REST callers, whose calls take the gateway's hop to the gRPC
	// port; they go on through the whole shutdown: a call refused at the
	// door (the listener closed) is fine, one answered with an error is not.
	restStop := make(chan struct{})
	var restWG sync.WaitGroup
	for i := 0; i < 16; i++ {
		restWG.Add(1)
		go func() {
			defer restWG.Done()
			for {
				select {
				case <-restStop:
					return
				default:
				}
				resp, err := http.Post("http://"+a.HTTP+"/v1/games/backgammon:legalMoves", "application/json", strings.NewReader(`{"state":{"text":"`+bg31+`"}}`))
				if err != nil {
					time.Sleep(time.Millisecond)
					continue // not in flight: the server no longer takes new calls
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				calls.Add(1)
				if resp.StatusCode != 200 {
					failed.Add(1)
					t.Errorf("REST call during shutdown: %d %.200s", resp.StatusCode, raw)
				}
			}
		}()
	}
	defer func() { close(restStop); restWG.Wait() }()
	time.Sleep(100 * time.Millisecond) // calls in flight
	start := time.Now()
	cancel() // SIGTERM
	m, err := w.Recv()
	if err != nil || m.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Errorf("Watch after the signal = %v, %v; want NOT_SERVING", m, err)
	}
	time.Sleep(drain / 2) // still draining: keep calling, then stop
	close(stop)
	wg.Wait()
	_, err = w.Recv()
	if status.Code(err) != codes.Unavailable {
		t.Errorf("Watch stream end = %v; want UNAVAILABLE (shutting down)", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run = %v", err)
		}
	case <-time.After(drain + 10*time.Second):
		t.Fatal("server did not stop")
	}
	took := time.Since(start)
	t.Logf("shutdown with a Watch open and 64 callers: %d calls, %d failed, exit after %v (drain delay %v)", calls.Load(), failed.Load(), took.Round(time.Millisecond), drain)
	if took > drain+time.Second {
		t.Errorf("shutdown took %v; want within the drain delay + 1s (%v)", took, drain+time.Second)
	}
}

// long reports whether the opt-in long checks run (GAMERULES_LONG=1).
func long() bool { return os.Getenv("GAMERULES_LONG") != "" }

// TestLargestLegitimateRequest: the largest request a game can need — a
// Gravity Trap state on a custom board of the most stations (64, with
// coordinates and an opposite map) and the most lines (256, of 62 or 63
// stations each) — is accepted under the default limits on both
// transports, with room: compact, under a quarter of --max-recv-bytes and
// of the element budget; pretty-printed, under --max-recv-bytes.
func TestLargestLegitimateRequest(t *testing.T) {
	a := startServerWith(t, func(c *server.Options) {})
	board := largestBoard()
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC))
	ng, err := client.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: board}}})
	if err != nil {
		t.Fatalf("NewGame on the largest board: %v", err)
	}
	req := &gamerulesv1.LegalMovesRequest{Game: "gravity_trap", State: ng.GetState(), IncludeResults: true}
	if _, err := client.LegalMoves(context.Background(), req); err != nil {
		t.Fatalf("gRPC LegalMoves on the largest board: %v", err)
	}
	// protojson's spacing varies from build to build; measure the compact
	// form, and the form a client pretty-printing with a 2-space indent sends.
	raw, _ := protojson.Marshal(req)
	var compact, indented bytes.Buffer
	_ = json.Compact(&compact, raw)
	_ = json.Indent(&indented, compact.Bytes(), "", "  ")
	js := compact.Bytes()
	wire, _ := proto.Marshal(req)
	n, _ := restjson.JSONElements(js)
	t.Logf("largest legitimate request: %d bytes of compact JSON (%d indented), %d of protobuf, %d JSON elements", len(js), indented.Len(), len(wire), n)
	limit := server.DefaultOptions().MaxRecvBytes
	if len(js) > limit/4 || indented.Len() > limit || n > server.MaxElements/4 {
		t.Errorf("the largest request (%d bytes compact, %d indented, %d elements) leaves too little room under the limits (%d bytes, %d elements)", len(js), indented.Len(), n, limit, server.MaxElements)
	}
	if code, body := postRaw(t, a.HTTP, "/v1/games/gravity_trap:legalMoves", indented.String()); code != 200 {
		t.Errorf("REST LegalMoves on the largest board, indented: %d %.300s", code, body)
	}
	code, body := postRaw(t, a.HTTP, "/v1/games/gravity_trap:legalMoves", string(js))
	if code != 200 {
		t.Errorf("REST LegalMoves on the largest board: %d %.300s", code, body)
	}
}

// TestBodyBudget: the bytes of REST bodies being read share a budget, so
// slow uploads cannot pile up memory: with room for two bodies of the
// maximum size, two uploads stalled near their end make a third request
// 429 with Retry-After (connections that only declare a length spend
// nothing), and once they time out (408) the budget is free again.
func TestBodyBudget(t *testing.T) {
	a := startServerWith(t, func(c *server.Options) {
		c.MaxInFlight, c.MaxWaiting, c.MaxRecvBytes = 1, 1, 1000
		c.HTTPReadTimeout = time.Second
	})
	var stalled []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", a.HTTP)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// Nearly the whole body arrives, then the upload stalls.
		_, _ = io.WriteString(c, "POST /v1/games/backgammon:score HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"+strings.Repeat(" ", 990))
		stalled = append(stalled, c)
	}
	// A declared length that never comes costs nothing: many such
	// connections do not spend the budget.
	for i := 0; i < 10; i++ {
		c, err := net.Dial("tcp", a.HTTP)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = io.WriteString(c, "POST /v1/games/backgammon:score HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
	}
	time.Sleep(200 * time.Millisecond) // both are being read
	resp, err := http.Post("http://"+a.HTTP+"/v1/games/backgammon:score", "application/json", strings.NewReader(`{"state":{"text":"`+bg31+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(raw), "bytes of request bodies and answers") {
		t.Errorf("request beyond the body budget = %d %q %s; want 429, Retry-After 1, naming the budget", resp.StatusCode, resp.Header.Get("Retry-After"), raw)
	}
	for _, c := range stalled {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		out, _ := io.ReadAll(c)
		if statusOf(string(out)) != http.StatusRequestTimeout {
			t.Errorf("stalled upload answered %.100q; want 408", out)
		}
	}
	resp, err = http.Post("http://"+a.HTTP+"/v1/games/backgammon:score", "application/json", strings.NewReader(`{"state":{"text":"`+bg31+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("after the stalled uploads ended: %d; want 200 (the budget given back)", resp.StatusCode)
	}
}

// holdStreams opens n API streams on one connection that send their
// headers and never their message, as an attacker holding the admission
// gate would. The streams end when the test does or the server ends them.
func holdStreams(t *testing.T, addr string, n int) []grpc.ClientStream {
	t.Helper()
	conn := dial(t, addr)
	var out []grpc.ClientStream
	for i := 0; i < n; i++ {
		s, err := conn.NewStream(context.Background(), &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, "/gamerules.v1.GameRules/NewGame")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestHeaderOnlyStreamsCannotHoldTheGate: streams that send headers and no
// message take places in the admission gate only until --grpc-read-timeout,
// then the server ends them and normal calls are admitted again.
func TestHeaderOnlyStreamsCannotHoldTheGate(t *testing.T) {
	a := startServerWith(t, func(c *server.Options) { c.MaxInFlight, c.MaxWaiting, c.GRPCReadTimeout = 2, 2, 2*time.Second })
	held := holdStreams(t, a.GRPC, 4)
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC))
	time.Sleep(100 * time.Millisecond)
	if _, err := client.Score(context.Background(), &gamerulesv1.ScoreRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg31}}); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a call while 4 header-only streams fill the gate of 4 = %v; want RESOURCE_EXHAUSTED", err)
	}
	for _, s := range held {
		var out gamerulesv1.NewGameResponse
		if err := s.RecvMsg(&out); status.Code(err) != codes.Canceled && status.Code(err) != codes.DeadlineExceeded {
			t.Errorf("header-only stream ended with %v; want it cut by the server", err)
		}
	}
	if _, err := client.Score(context.Background(), &gamerulesv1.ScoreRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg31}}); err != nil {
		t.Errorf("a call after the read timeout = %v; want it admitted", err)
	}
}

// TestShutdownNotHeldByStreams: a reflection stream and a header-only API
// stream left open, and a REST body that never arrives, do not hold the
// shutdown: the server stops within the drain delay plus a second.
func TestShutdownNotHeldByStreams(t *testing.T) {
	const drain = 200 * time.Millisecond
	a, cancel, done := runUntilCancelled(t, func(c *server.Options) { c.DrainDelay, c.GRPCReadTimeout = drain, time.Minute })
	conn := dial(t, a.GRPC)
	if _, err := conn.NewStream(context.Background(), &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"); err != nil {
		t.Fatal(err)
	}
	holdStreams(t, a.GRPC, 1)
	c, err := net.Dial("tcp", a.HTTP)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "POST /v1/games/backgammon:score HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run = %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop")
	}
	took := time.Since(start)
	t.Logf("shutdown with a reflection stream, a header-only stream and a stalled body open: %v (drain %v)", took.Round(time.Millisecond), drain)
	if took > drain+time.Second {
		t.Errorf("shutdown took %v; want within the drain delay + 1s", took)
	}
}

// TestSlowReaderHoldsNoSlot: a REST client that asks for a large answer and
// never reads it does not keep its request slot while the server waits to
// write: with one slot, the next REST call is answered once that answer
// has been produced.
func TestSlowReaderHoldsNoSlot(t *testing.T) {
	// One slot, and a wait long enough for the answer to be produced even
	// under the race detector, but far shorter than the write timeout (70 s
	// here) a non-reading client would hold the slot for if the slot
	// covered the write.
	a := startServerWith(t, func(c *server.Options) {
		c.MaxInFlight, c.QueueWait, c.HTTPReadTimeout = 1, 15*time.Second, time.Minute
	})
	body := largestBoardRequest(t, a)
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	for i := 0; i < 1; i++ {
		c, err := d.Dial("tcp", a.HTTP)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /v1/games/gravity_trap:legalMoves HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	time.Sleep(500 * time.Millisecond) // the answer (3 MB) is being produced, then stuck in the socket
	code, raw := postRaw(t, a.HTTP, "/v1/games/backgammon:score", `{"state":{"text":"`+bg31+`"}}`)
	if code != 200 {
		t.Errorf("a REST call while a client does not read its answer = %d %.200s; want 200", code, raw)
	}
}

// largestBoardRequest is the JSON of a LegalMoves request with results on
// the largest custom Gravity Trap board (64 stations, 256 lines).
func largestBoardRequest(t *testing.T, a server.Addrs) string {
	t.Helper()
	board := largestBoard()
	ng, err := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC)).NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: board}}})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := protojson.Marshal(&gamerulesv1.LegalMovesRequest{State: ng.GetState(), IncludeResults: true})
	return string(js)
}

// runUntilCancelled runs the server on free loopback ports with the
// defaults changed by set; cancel is the shutdown signal, and run's result
// arrives on done.
func runUntilCancelled(t *testing.T, set func(*server.Options)) (server.Addrs, context.CancelFunc, <-chan error) {
	t.Helper()
	cfg := server.DefaultOptions()
	cfg.GRPCAddr, cfg.HTTPAddr, cfg.LogLevel = "127.0.0.1:0", "127.0.0.1:0", "error"
	set(&cfg)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ready := make(chan server.Addrs, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ready) }()
	select {
	case a := <-ready:
		return a, cancel, done
	case err := <-done:
		t.Fatalf("run: %v", err)
	}
	return server.Addrs{}, nil, nil
}

// largestBoard is the largest custom Gravity Trap board: 64 stations (with
// coordinates and an opposite map) and 256 lines of 62 or 63 stations.
func largestBoard() *gamerulesv1.GravityTrapBoard {
	board := &gamerulesv1.GravityTrapBoard{}
	for i := 0; i < 64; i++ {
		board.Stations = append(board.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: -2.598076211353316 + float64(i)/7, Y: 1.4999999999999996 - float64(i)/9})
		board.Opposite = append(board.Opposite, uint32(i^1))
	}
	for l := 0; l < 256; l++ {
		skip1, skip2 := l%64, (l/64*17+l)%64 // 64 lines leave out one station, the rest two
		var line []uint32
		for s := 0; s < 64; s++ {
			if s != skip1 && (l < 64 || s != skip2) {
				line = append(line, uint32(s))
			}
		}
		board.Lines = append(board.Lines, &gamerulesv1.GravityTrapLine{Stations: line})
	}
	return board
}

// TestGRPCSizeLimitNamed: over the wire, every gRPC request larger than
// --max-recv-bytes is RESOURCE_EXHAUSTED with a text naming that limit
// (524288), whatever its size: with the in-process gateway grpc-go's own
// receive limit is the public one; with the loopback gateway the port reads
// up to twice it (the gateway's protobuf form of a JSON body) and
// adm.PublicSize refuses, in our words, what lies between; only a client
// sending more than twice the limit then reads grpc-go's text naming twice it.
func TestGRPCSizeLimitNamed(t *testing.T) {
	limit := server.DefaultOptions().MaxRecvBytes
	// msg is a LegalMoves request of n bytes in all: field 1 (game), a
	// string of n-1-len(varint) bytes.
	msg := func(n int) []byte {
		for k := 1; k < 6; k++ {
			body := n - 1 - k
			v := protowire.AppendVarint(nil, uint64(body))
			if len(v) == k {
				return append(append([]byte{0x0a}, v...), make([]byte, body)...)
			}
		}
		panic("no size")
	}
	ours := fmt.Sprintf("larger than the server's limit of %d bytes", limit)
	for _, gw := range []string{server.GatewayInProcess, server.GatewayLoopback} {
		t.Run(gw, func(t *testing.T) {
			a := startServerWith(t, func(c *server.Options) { c.RESTGateway = gw })
			conn := dial(t, a.GRPC)
			for _, n := range []int{limit + 1, limit + 100_000, 2*limit - 10, 2*limit + 10, 3 << 20} {
				var out []byte
				err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/LegalMoves", msg(n), &out, grpc.ForceCodec(rawCodec{}))
				s := status.Convert(err)
				want := fmt.Sprintf("larger than max (%d vs. %d)", n, limit)
				if gw == server.GatewayLoopback {
					want = ours
					if n > 2*limit {
						want = fmt.Sprintf("larger than max (%d vs. %d)", n, 2*limit)
					}
				}
				if s.Code() != codes.ResourceExhausted || !strings.Contains(s.Message(), want) {
					t.Errorf("%d bytes: %v %q; want RESOURCE_EXHAUSTED containing %q", n, s.Code(), s.Message(), want)
				}
			}
			// At the limit the size passes: the request is judged on what it says.
			var out []byte
			err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/LegalMoves", msg(limit), &out, grpc.ForceCodec(rawCodec{}))
			if s := status.Convert(err); s.Code() == codes.ResourceExhausted {
				t.Errorf("%d bytes (the limit): %v %q; want it past the size check", limit, s.Code(), s.Message())
			}
		})
	}
}
