package limit

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ListenerOptions are the limits of a Listener.
type ListenerOptions struct {
	// Max is how many connections may be open at once (at least 1):
	// gamerulesd's --max-connections (default 1,000 per port).
	Max int
	// FirstUseTimeout closes a connection that has not been Used this long
	// after it was accepted (0, the default: never). The gamerules server
	// sets it on the gRPC port (--grpc-first-call-timeout, default 30 s); on
	// the HTTP port http.Server's ReadHeaderTimeout already bounds a
	// connection that sends no request.
	FirstUseTimeout time.Duration
	// Refused, when set, counts the connections refused (closed as soon as
	// accepted, before any byte is read or written) because Max were open.
	Refused Counter
}

// Listener is a net.Listener that holds at most Max connections open at
// once (ListenerOptions). Beyond them, a connection is refused: accepted
// and closed at once, before a byte is read or written. It refuses rather
// than blocks, as
// golang.org/x/net/netutil.LimitListener does, because a blocked Accept
// leaves new connections waiting in the kernel's accept queue, and a health
// probe's connection would wait behind all of them (and once the queue is
// full the kernel drops SYNs, which the client retries after a second).
// Accepting and closing keeps the queue empty and costs the server one
// accept and one close. A flood still takes every place, so health probes
// need a port of their own (the gamerules server's --health-addr). It is
// safe for concurrent use.
type Listener struct {
	net.Listener
	o ListenerOptions

	mu      sync.Mutex
	open    int // connections open
	byAddr  map[string]*limitedConn
	accepts atomic.Int64
	refused atomic.Int64
}

// NewListener wraps inner with the limits of o (o.Max < 1 counts as 1).
func NewListener(inner net.Listener, o ListenerOptions) *Listener {
	o.Max = max(o.Max, 1)
	return &Listener{Listener: inner, o: o, byAddr: map[string]*limitedConn{}}
}

// Accept returns the next connection within the limits; connections beyond
// them are closed here, and Accept waits for the next one.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.accepts.Add(1)
		lc := &limitedConn{Conn: c, l: l, key: c.RemoteAddr().String()}
		l.mu.Lock()
		ok := l.open < l.o.Max
		if ok {
			l.open++
			// The timer is set before the connection is published in
			// byAddr, where Used reads it.
			if d := l.o.FirstUseTimeout; d > 0 {
				lc.timer = time.AfterFunc(d, func() {
					if !lc.used.Load() {
						lc.Close()
					}
				})
			}
			l.byAddr[lc.key] = lc
		}
		l.mu.Unlock()
		if !ok {
			l.refuse()
			c.Close()
			continue
		}
		return lc, nil
	}
}

// Used marks the connection whose remote address is remote as having made
// a call (a gRPC stream began, an HTTP request arrived): its FirstUseTimeout
// no longer applies. An address with no open connection is ignored.
func (l *Listener) Used(remote net.Addr) {
	if remote == nil {
		return
	}
	l.mu.Lock()
	c := l.byAddr[remote.String()]
	l.mu.Unlock()
	if c != nil && !c.used.Swap(true) && c.timer != nil {
		c.timer.Stop()
	}
}

// Open is how many connections are open now.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

func (l *Listener) refuse() {
	l.refused.Add(1)
	inc(l.o.Refused)
}

// Refused is how many connections were refused so far (what
// ListenerOptions.Refused counts).
func (l *Listener) Refused() int64 { return l.refused.Load() }

// Accepted is how many connections Accept has taken from the inner
// listener, refused ones included.
func (l *Listener) Accepted() int64 { return l.accepts.Load() }

// limitedConn is a connection of a Listener: closing it frees its place.
type limitedConn struct {
	net.Conn
	l     *Listener
	key   string
	used  atomic.Bool
	timer *time.Timer
	once  sync.Once
}

// CloseWrite shuts down the writing side of the connection when the inner
// one can (a TCP connection), so that a GOAWAY reaches the client before
// the close (trackedConn.closeGoAway).
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		if c.timer != nil {
			c.timer.Stop()
		}
		l := c.l
		l.mu.Lock()
		l.open--
		if l.byAddr[c.key] == c {
			delete(l.byAddr, c.key)
		}
		l.mu.Unlock()
	})
	return err
}
