package stacktest

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gamerules/gamerules/server"
)

// TestNoSniffEverywhere checks that every kind of HTTP answer of the stack
// carries X-Content-Type-Options: nosniff (issue 30, item 8): REST answers
// and REST errors (400, 404, 405), the pages, /metrics, /mcp (whatever it
// answers a call without a session), the probes on the
// HTTP port and on the health port, and a path that is no route.
func TestNoSniffEverywhere(t *testing.T) {
	var healthAddr string
	a := startServerWith(t, func(c *server.Options) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		healthAddr = l.Addr().String()
		l.Close()
		c.HealthAddr = healthAddr
	})
	client := &http.Client{Timeout: 5 * time.Second}
	for _, tc := range []struct {
		method, url, body string
		code              int
	}{
		{"GET", "http://" + a.HTTP + "/v1/games", "", 200},
		{"POST", "http://" + a.HTTP + "/v1/games/chess:new", "{}", 400},
		{"POST", "http://" + a.HTTP + "/v1/games/backgammon:legalMoves", `{"state":{"text":"not a state"}}`, 400},
		{"POST", "http://" + a.HTTP + "/v1/games/backgammon:legalMoves", `{`, 400},
		{"DELETE", "http://" + a.HTTP + "/v1/games", "", 405},
		{"GET", "http://" + a.HTTP + "/no/such/path", "", 404},
		{"GET", "http://" + a.HTTP + "/healthz", "", 200},
		{"GET", "http://" + a.HTTP + "/readyz", "", 200},
		{"GET", "http://" + a.HTTP + "/metrics", "", 200},
		{"GET", "http://" + a.HTTP + "/openapi.json", "", 200},
		{"GET", "http://" + a.HTTP + "/docs", "", 200},
		{"POST", "http://" + a.HTTP + "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 0},
		{"GET", "http://" + healthAddr + "/healthz", "", 200},
		{"GET", "http://" + healthAddr + "/readyz", "", 200},
		{"GET", "http://" + healthAddr + "/nothing", "", 404},
	} {
		req, err := http.NewRequest(tc.method, tc.url, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.method, tc.url, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if tc.code != 0 && resp.StatusCode != tc.code {
			t.Errorf("%s %s = %d; want %d", tc.method, tc.url, resp.StatusCode, tc.code)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s (%d): X-Content-Type-Options = %q; want nosniff", tc.method, tc.url, resp.StatusCode, got)
		}
	}
}
