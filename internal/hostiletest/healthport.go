package hostiletest

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// HealthAttack is one of issue 30's attacks on the health port
// (--health-addr): N attackers, each running Hold on a connection it
// opened, then opening another at once when Hold returns, for as long as
// the attack lasts, so that the port is never given back.
type HealthAttack struct {
	Name string
	N    int
	// Hold does one attacker's work on c until c fails or stop closes.
	Hold func(c net.Conn, stop <-chan struct{})
}

// HealthAttacks are the health port's attacks, as server/stacktest's
// TestHealthPortUnderAttack and bench/attack's peak run them: idle
// connections, partial requests, h2c prefaces with no stream, and
// keep-alive flooders of GET /healthz.
var HealthAttacks = []HealthAttack{
	{"idle connections", 32, func(c net.Conn, stop <-chan struct{}) { WaitClosed(c, stop) }},
	{"partial requests", 32, func(c net.Conn, stop <-chan struct{}) {
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n"); err == nil {
			WaitClosed(c, stop)
		}
	}},
	{"h2c prefaces", 32, func(c net.Conn, stop <-chan struct{}) {
		// The client preface and an empty SETTINGS frame, then no stream.
		const settings = "\x00\x00\x00\x04\x00\x00\x00\x00\x00"
		if _, err := io.WriteString(c, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"+settings); err == nil {
			WaitClosed(c, stop)
		}
	}},
	{"keep-alive flooders", 64, func(c net.Conn, stop <-chan struct{}) {
		br := bufio.NewReader(c)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				return
			}
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}},
}

// WaitClosed returns when the server closes c or stop closes.
func WaitClosed(c net.Conn, stop <-chan struct{}) {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, c)
		close(done)
	}()
	select {
	case <-done:
	case <-stop:
	}
}
