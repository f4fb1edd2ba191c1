package probes

import (
	"errors"
	"net"
	"testing"
	"time"
)

// fakeConn is a connection from a given remote address that records its
// close.
type fakeConn struct {
	net.Conn
	remote net.Addr
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.remote }
func (c *fakeConn) Close() error         { c.closed = true; return nil }

// fakeListener hands out the connections of next, one per Accept.
type fakeListener struct {
	net.Listener
	next []*fakeConn
}

func (l *fakeListener) Accept() (net.Conn, error) {
	if len(l.next) == 0 {
		return nil, errors.New("no more")
	}
	c := l.next[0]
	l.next = l.next[1:]
	return c, nil
}

func from(host string, port int) *fakeConn {
	return &fakeConn{remote: &net.TCPAddr{IP: net.ParseIP(host), Port: port}}
}

// TestListenerEvicts: the listener never refuses; with its places full it
// closes a connection of the address holding the most, an idle one before
// one answering, a fresh one last, the oldest first.
func TestListenerEvicts(t *testing.T) {
	fl := &fakeListener{}
	l := NewListener(fl, 4)
	accept := func(c *fakeConn) *probeConn {
		t.Helper()
		fl.next = append(fl.next, c)
		got, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		return got.(*probeConn)
	}
	probe := from("10.0.0.1", 1)
	a1, a2, a3 := from("10.0.0.2", 1), from("10.0.0.2", 2), from("10.0.0.2", 3)
	pc := accept(probe)
	pa1 := accept(a1)
	accept(a2)
	accept(a3)
	// All fresh: the attacker's address holds 3, the probe's 1.
	pa1.busy.Add(1) // answering its first request
	pa1.begun.Add(1)
	n1 := from("10.0.0.2", 4)
	accept(n1)
	if probe.closed || a1.closed || !a2.closed {
		t.Fatalf("with the attacker's address holding 3 of 4: closed probe %v a1 %v a2 %v; want a2 (its oldest fresh, not answering)", probe.closed, a1.closed, a2.closed)
	}
	if l.Open() != 4 || l.Evicted() != 1 {
		t.Fatalf("open %d, evicted %d; want 4 and 1", l.Open(), l.Evicted())
	}
	// Past freshGrace, the idle ones go before the answering one.
	for c := range l.conns {
		c.since = c.since.Add(-time.Second)
	}
	accept(from("10.0.0.2", 5))
	if !a3.closed || a1.closed {
		t.Fatalf("closed a3 %v a1 %v; want a3 (idle, older than the newer idle ones)", a3.closed, a1.closed)
	}
	// A newcomer from the probe's address still evicts the attacker's.
	accept(from("10.0.0.1", 2))
	if probe.closed {
		t.Fatal("the probe's connection was closed while another address held more")
	}
	// A connection closed by its server goes out of the count once.
	pc.Close()
	pc.Close()
	if l.Open() != 3 {
		t.Fatalf("open %d after a close; want 3", l.Open())
	}
}
