package limit

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// TestHTTPResets: an HTTP/2 connection's requests reset before their
// handler began are not run and are counted; the connection is closed at
// the (Max+1)th in a second, and its later requests do nothing. HTTP/1.1
// requests and requests whose body had arrived are never counted.
func TestHTTPResets(t *testing.T) {
	var closed counter
	core, logs := observer.New(zap.InfoLevel)
	h := &HTTPResets{Max: 3, Closed: &closed, Logger: zap.New(core)}
	ran := 0
	handler := h.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran++
		_, _ = r.Body.Read(make([]byte, 64))
	}))
	server, client := net.Pipe()
	defer client.Close()
	connCtx := h.ConnContext(context.Background(), server)
	call := func(major int, reset bool, body string) {
		ctx, cancel := context.WithCancel(connCtx)
		if reset {
			cancel()
		}
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/v1/games/backgammon:legalMoves", strings.NewReader(body))
		r.ProtoMajor = major
		handler.ServeHTTP(httptest.NewRecorder(), r)
	}
	for range 5 {
		call(1, true, `{}`) // HTTP/1.1: a reset costs the client its connection
	}
	call(2, false, `{}`) // read whole, answered
	if ran != 6 || closed.n != 0 {
		t.Fatalf("after 5 HTTP/1.1 resets and one HTTP/2 call: handler ran %d times, %d connections closed; want 6 (HTTP/1.1 is passed through), 0", ran, closed.n)
	}
	for i := range 3 {
		call(2, true, `{}`)
		if closed.n != 0 {
			t.Fatalf("closed after %d resets; want after %d", i+1, h.Max+1)
		}
	}
	if ran != 6 {
		t.Errorf("the handler ran for requests reset before it began: %d runs; want 6", ran)
	}
	call(2, true, `{}`)
	if closed.n != 1 {
		t.Fatalf("after %d resets in a second: %d connections closed; want 1", h.Max+1, closed.n)
	}
	if _, err := client.Write([]byte("x")); err == nil {
		t.Error("the connection still takes writes after its close")
	}
	if e := logs.FilterMessage("closing an HTTP/2 connection past its limit").All(); len(e) != 1 ||
		e[0].Level != zap.WarnLevel || e[0].ContextMap()["reason"] != "resets" || e[0].ContextMap()["streams_per_second"] != int64(h.Max+1) {
		t.Errorf("the close's log: %+v; want one warn line, reason resets, streams_per_second %d", logs.All(), h.Max+1)
	}
	call(2, false, `{}`)
	if ran != 6 {
		t.Errorf("a request of the closed connection ran")
	}
}

// TestGRPCTimeout: the Grpc-Timeout values gRPC and grpc-gateway write.
func TestGRPCTimeout(t *testing.T) {
	for v, want := range map[string]time.Duration{"100m": 100 * time.Millisecond, "2S": 2 * time.Second, "1H": time.Hour, "5000u": 5 * time.Millisecond, "99999999n": 99999999} {
		if got, ok := grpcTimeout(v); !ok || got != want {
			t.Errorf("grpcTimeout(%q) = %v, %v; want %v", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "m", "100", "100x", "-5m", "123456789m", "99999999H"} {
		if got, ok := grpcTimeout(v); ok {
			t.Errorf("grpcTimeout(%q) = %v; want not a timeout", v, got)
		}
	}
}

// counter is a Counter that counts.
type counter struct{ n int }

func (c *counter) Inc() { c.n++ }
