package stacktest

import (
	"bufio"
	"github.com/gamerules/gamerules/server"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDrainClosesKeepAlives: as soon as shutdown begins, an idle REST
// keep-alive connection is closed, while the drain delay still serves
// new connections (/readyz answers 503 on one afterwards), so that a proxy
// or client reconnects, to another replica once its balancer has dropped
// this one, before the listener closes; and an answer given during the
// drain carries Connection: close.
func TestDrainClosesKeepAlives(t *testing.T) {
	a, cancel, done := runUntilCancelled(t, func(c *server.Options) { c.DrainDelay = 2 * time.Second })
	conn, err := net.Dial("tcp", a.HTTP)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	body := `{"state":{"text":"` + bg31 + `"}}`
	req := "POST /v1/games/backgammon:legalMoves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("before shutdown: status %d, close %v; want 200 on a kept-alive connection", resp.StatusCode, resp.Close)
	}
	cancel() // SIGTERM
	if n, err := br.Read(make([]byte, 1)); err == nil {
		t.Fatalf("the idle keep-alive connection sent %d bytes after shutdown began; want it closed", n)
	}
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	r, err := fresh.Get("http://" + a.HTTP + "/readyz")
	if err != nil {
		t.Fatalf("after the idle connection closed, a new one is refused (%v): it was closed by the listener's close, not at the drain's start", err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusServiceUnavailable || !r.Close {
		t.Errorf("/readyz during the drain: %d, close %v; want 503 with Connection: close", r.StatusCode, r.Close)
	}
	// A keep-alive client's answer during the drain closes its connection.
	keep := &http.Client{Transport: &http.Transport{}}
	r, err = keep.Post("http://"+a.HTTP+"/v1/games/backgammon:legalMoves", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !r.Close {
		t.Errorf("a call during the drain: %d, close %v; want 200 with Connection: close", r.StatusCode, r.Close)
	}
	if err := <-done; err != nil {
		t.Errorf("run = %v", err)
	}
}
