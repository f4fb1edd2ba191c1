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
	// Reserve is how many connections beyond Max are still accepted, for
	// health checks and probes (default 0; the gamerules server keeps 64
	// per port). A connection in the reserve lives at most ReserveLifetime;
	// when the reserve is full, a newcomer takes the place of the oldest
	// reserve connection that has not been Used yet (else the oldest), so
	// that connections which sit silent cannot keep a probe out: a probe
	// asks at once, and is pushed out only if Reserve newer connections
	// arrive before its question does.
	Reserve int
	// ReserveLifetime is the longest a reserve connection stays open
	// (default 5 s): its reads and writes fail after it, whatever deadline
	// the server sets.
	ReserveLifetime time.Duration
	// FirstUseTimeout closes a connection that has not been Used this long
	// after it was accepted (0, the default: never). The gamerules server
	// sets it on the gRPC port (--grpc-first-call-timeout, default 30 s); on
	// the HTTP port http.Server's ReadHeaderTimeout already bounds a
	// connection that sends no request.
	FirstUseTimeout time.Duration
	// Refused, when set, counts the connections refused (closed as soon as
	// accepted, before any byte is read or written) because Max and Reserve
	// were full, and the reserve connections pushed out by a newcomer.
	Refused Counter
}

// Listener is a net.Listener that holds at most Max connections open at
// once plus a small reserve (ListenerOptions). Beyond them, a connection is
// refused: accepted and closed at once. It refuses rather than blocks, as
// golang.org/x/net/netutil.LimitListener does, because a blocked Accept
// leaves new connections waiting in the kernel's accept queue, and a health
// probe's connection would wait behind all of them (and once the queue is
// full the kernel drops SYNs, which the client retries after a second).
// Accepting and closing keeps the queue empty, so a probe's connection
// reaches the reserve within a millisecond. It is safe for concurrent use.
type Listener struct {
	net.Listener
	o ListenerOptions

	mu      sync.Mutex
	open    int            // connections counted in Max
	reserve []*limitedConn // reserve connections, oldest first
	byAddr  map[string]*limitedConn
	accepts atomic.Int64
	refused atomic.Int64
}

// NewListener wraps inner with the limits of o (o.Max < 1 counts as 1;
// o.ReserveLifetime 0 as 5 s).
func NewListener(inner net.Listener, o ListenerOptions) *Listener {
	o.Max = max(o.Max, 1)
	o.Reserve = max(o.Reserve, 0)
	if o.ReserveLifetime <= 0 {
		o.ReserveLifetime = 5 * time.Second
	}
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
		var evict *limitedConn
		l.mu.Lock()
		switch {
		case l.open < l.o.Max:
			l.open++
		case l.o.Reserve == 0:
			lc = nil
		default:
			if len(l.reserve) >= l.o.Reserve {
				evict = l.oldestReserve()
				l.dropReserve(evict)
			}
			lc.reserved = true
			lc.until = time.Now().Add(l.o.ReserveLifetime)
			l.reserve = append(l.reserve, lc)
		}
		if lc != nil {
			l.byAddr[lc.key] = lc
		}
		l.mu.Unlock()
		if evict != nil {
			l.refuse()
			evict.Conn.Close() // its server sees the error and lets go of it
		}
		if lc == nil {
			l.refuse()
			c.Close()
			continue
		}
		if lc.reserved {
			_ = c.SetDeadline(lc.until)
		}
		if d := l.o.FirstUseTimeout; d > 0 {
			lc.timer = time.AfterFunc(d, func() {
				if !lc.used.Load() {
					lc.Close()
				}
			})
		}
		return lc, nil
	}
}

// oldestReserve is the reserve connection to push out: the oldest not yet
// used, else the oldest. l.mu is held and the reserve is not empty.
func (l *Listener) oldestReserve() *limitedConn {
	for _, c := range l.reserve {
		if !c.used.Load() {
			return c
		}
	}
	return l.reserve[0]
}

// dropReserve removes c from the reserve list and the address index; l.mu
// is held.
func (l *Listener) dropReserve(c *limitedConn) {
	for i, r := range l.reserve {
		if r == c {
			l.reserve = append(l.reserve[:i], l.reserve[i+1:]...)
			break
		}
	}
	if l.byAddr[c.key] == c {
		delete(l.byAddr, c.key)
	}
}

// Used marks the connection whose remote address is remote as having made
// a call (a gRPC stream began, an HTTP request arrived): its FirstUseTimeout
// no longer applies, and in the reserve it is pushed out only after every
// unused one. An address with no open connection is ignored.
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

// Reserved reports whether the open connection from remote is one of the
// reserve's (beyond Max).
func (l *Listener) Reserved(remote net.Addr) bool {
	if remote == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.byAddr[remote.String()]
	return c != nil && c.reserved
}

// Open is how many connections are open now, the reserve's included.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open + len(l.reserve)
}

func (l *Listener) refuse() {
	l.refused.Add(1)
	inc(l.o.Refused)
}

// Refused is how many connections were refused or pushed out of the
// reserve so far (what ListenerOptions.Refused counts).
func (l *Listener) Refused() int64 { return l.refused.Load() }

// Accepted is how many connections Accept has taken from the inner
// listener, refused ones included.
func (l *Listener) Accepted() int64 { return l.accepts.Load() }

// limitedConn is a connection of a Listener: closing it frees its place.
type limitedConn struct {
	net.Conn
	l        *Listener
	key      string
	reserved bool
	until    time.Time // a reserve connection's end
	used     atomic.Bool
	timer    *time.Timer
	once     sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		if c.timer != nil {
			c.timer.Stop()
		}
		l := c.l
		l.mu.Lock()
		if c.reserved {
			l.dropReserve(c) // nothing left to do if a newcomer pushed it out
		} else {
			l.open--
			if l.byAddr[c.key] == c {
				delete(l.byAddr, c.key)
			}
		}
		l.mu.Unlock()
	})
	return err
}

// A reserve connection's deadlines never pass its end.
func (c *limitedConn) clamp(t time.Time) time.Time {
	if c.reserved && (t.IsZero() || t.After(c.until)) {
		return c.until
	}
	return t
}

func (c *limitedConn) SetDeadline(t time.Time) error     { return c.Conn.SetDeadline(c.clamp(t)) }
func (c *limitedConn) SetReadDeadline(t time.Time) error { return c.Conn.SetReadDeadline(c.clamp(t)) }
func (c *limitedConn) SetWriteDeadline(t time.Time) error {
	return c.Conn.SetWriteDeadline(c.clamp(t))
}
