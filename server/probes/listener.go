package probes

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Listener is the health port's listener: it holds at most max connections
// and never refuses a new one. When a connection arrives with max open, one
// already open is closed to make room (evicted), chosen so that the probes'
// connections survive whoever fills the port:
//
//  1. from the remote host holding the most connections (per-address
//     fairness: a kubelet that holds one connection is never the one
//     closed while another address holds more; the newcomer's own host
//     counts too, so a host that floods evicts its own connections);
//  2. among that host's connections, one with no request in flight (idle
//     between requests, or still sending its first request: partial
//     requests, silent connections, HTTP/2 prefaces with no stream), then
//     one answering a request after earlier ones (a keep-alive flooder),
//     then one fresh (younger than freshGrace, 250 ms) that has sent no
//     request yet, and last one answering its first request: a probe's
//     connection, opened a moment ago, outlives the connections of an
//     attacker even on its own address (rank);
//  3. the oldest first.
//
// A request is in flight from the moment its handler starts until it
// returns (Track, ConnContext). Evicting is cheap for the server (one
// close) and harmless to an honest client (an HTTP client retries an idle
// keep-alive connection that closed; a probe opens a new one each time).
// It is safe for concurrent use.
type Listener struct {
	net.Listener
	max int

	mu      sync.Mutex
	seq     uint64
	conns   map[*probeConn]struct{}
	perHost map[string]int

	evicted atomic.Int64
}

// NewListener wraps inner so that it holds at most n connections (at
// least 1), evicting as Listener says.
func NewListener(inner net.Listener, n int) *Listener {
	return &Listener{Listener: inner, max: max(n, 1), conns: map[*probeConn]struct{}{}, perHost: map[string]int{}}
}

// Accept returns the next connection, having closed one already open when
// max were.
func (l *Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	pc := &probeConn{Conn: c, l: l, host: hostOf(c.RemoteAddr())}
	var victim *probeConn
	l.mu.Lock()
	if len(l.conns) >= l.max {
		victim = l.victimLocked(pc.host)
		if victim != nil {
			l.forgetLocked(victim)
		}
	}
	l.seq++
	pc.born = l.seq
	pc.since = time.Now()
	l.conns[pc] = struct{}{}
	l.perHost[pc.host]++
	l.mu.Unlock()
	if victim != nil {
		l.evicted.Add(1)
		victim.Conn.Close()
	}
	return pc, nil
}

// victimLocked is the connection to close for a newcomer from host: see
// Listener. l.mu is held.
func (l *Listener) victimLocked(host string) *probeConn {
	count := func(h string) int {
		n := l.perHost[h]
		if h == host {
			n++ // the newcomer
		}
		return n
	}
	now := time.Now()
	var best *probeConn
	var bestN, bestRank int
	for c := range l.conns {
		n, rank := count(c.host), c.rank(now)
		switch {
		case best == nil:
		case n != bestN:
			if n < bestN {
				continue
			}
		case rank != bestRank:
			if rank > bestRank {
				continue
			}
		case c.born > best.born:
			continue
		}
		best, bestN, bestRank = c, n, rank
	}
	return best
}

// freshGrace is how long a new connection that has not yet had a request
// answered is kept while its host has others to give: long enough for a
// probe to send its request, short against an attacker's churn.
const freshGrace = 250 * time.Millisecond

// rank orders a host's connections for eviction, the lowest first:
// 0 idle (answered before, or older than freshGrace), 1 answering on a
// connection already used for an earlier request (a keep-alive flooder),
// 2 idle and fresh (a probe about to send its request), 3 answering its
// first request (a probe being answered).
func (c *probeConn) rank(now time.Time) int {
	busy, begun := c.busy.Load() > 0, c.begun.Load()
	switch {
	case busy && begun > 1:
		return 1
	case busy:
		return 3
	case begun == 0 && now.Sub(c.since) < freshGrace:
		return 2
	}
	return 0
}

// forgetLocked removes c from the accounting (once). l.mu is held.
func (l *Listener) forgetLocked(c *probeConn) {
	if c.gone {
		return
	}
	c.gone = true
	delete(l.conns, c)
	if l.perHost[c.host]--; l.perHost[c.host] <= 0 {
		delete(l.perHost, c.host)
	}
}

// Open is how many connections are open now.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// Evicted is how many connections were closed to make room so far.
func (l *Listener) Evicted() int64 { return l.evicted.Load() }

// hostOf is the host part of a remote address (the whole of it when it has
// no port).
func hostOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	s := a.String()
	if h, _, err := net.SplitHostPort(s); err == nil {
		return h
	}
	return s
}

// probeConn is a connection of a Listener.
type probeConn struct {
	net.Conn
	l     *Listener
	host  string
	born  uint64       // order of acceptance
	gone  bool         // no longer counted (l.mu)
	since time.Time    // when accepted
	busy  atomic.Int32 // requests in flight (Track)
	begun atomic.Int32 // requests begun (Track)
}

func (c *probeConn) Close() error {
	err := c.Conn.Close()
	c.l.mu.Lock()
	c.l.forgetLocked(c)
	c.l.mu.Unlock()
	return err
}

type connKey struct{}

// ConnContext is the http.Server ConnContext of the health port: it
// remembers the connection so that Track can mark its requests in flight.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if pc, ok := c.(*probeConn); ok {
		return context.WithValue(ctx, connKey{}, pc)
	}
	return ctx
}

// Track marks the connection of each request as answering while next
// runs, so that a Listener evicts it only after its idle ones (HTTP/1 and
// HTTP/2 alike: an HTTP/2 connection's requests share its context).
func Track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if pc, ok := r.Context().Value(connKey{}).(*probeConn); ok {
			pc.begun.Add(1)
			pc.busy.Add(1)
			defer pc.busy.Add(-1)
		}
		next.ServeHTTP(w, r)
	})
}
