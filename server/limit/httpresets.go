package limit

import (
	"context"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// HTTPResets bounds, per HTTP/2 connection of an HTTP port, the requests
// its client resets (RST_STREAM) or abandons before their body has
// arrived, as Admission.MaxResets does for gRPC (the rapid reset attack,
// CVE-2023-44487, on the REST port: net/http's HTTP/2 server starts a
// handler for each stream and closes no connection for resets, so a client
// sending HEADERS + RST_STREAM at full speed made 42,000 handlers a second
// on one connection): past Max such requests in one second the connection
// is closed, and the handlers of its streams still arriving do nothing.
// Resets are counted against the requests the connection delivers in the
// same second (their body arrived): only while it resets more than it
// delivers does it near Max (a rapid-reset client delivers none).
//
// A request is not counted when its client's deadline (the Grpc-Timeout
// header, of 10 ms or more) has half passed when it ends: a client that
// cancels because its deadline passed is honest. Nor is one whose body had
// all arrived when its handler began or while it ran (the handler's limits
// then refused it or ran it: the client left while it ran, the server's
// own time); one reset before its handler began is counted, whatever its
// body, and its handler not run. HTTP/1.1 requests are never
// counted (a reset there costs the client its connection).
//
// Set Max (0: no limit) and Closed, put ConnContext in the http.Server and
// wrap its handler with Handler, outermost.
type HTTPResets struct {
	// Max is how many of one connection's requests may be reset or
	// abandoned, not under deadline pressure, in one second (gamerulesd:
	// --grpc-max-resets, default 100); the next closes the connection.
	Max int
	// Closed, when not nil, counts the connections closed.
	Closed Counter
	// Logger, when not nil, logs each connection closed, once, at warn
	// level, as Admission does a gRPC connection's.
	Logger *zap.Logger
}

// httpConnKey keys an HTTP connection's *httpConn in its context.
type httpConnKey struct{}

// httpConn is what HTTPResets knows of one connection.
type httpConn struct {
	conn      net.Conn
	dead      atomic.Bool
	mu        sync.Mutex
	window    time.Time // the start of the current second
	n         int       // requests reset in it
	delivered int       // requests delivered in it
}

// ConnContext is the http.Server's ConnContext: it gives each connection
// its count.
func (h *HTTPResets) ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, httpConnKey{}, &httpConn{conn: c})
}

// Handler counts next's HTTP/2 requests that their client resets before
// their body has arrived, and closes their connection past Max a second.
func (h *HTTPResets) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hc, _ := r.Context().Value(httpConnKey{}).(*httpConn)
		if h.Max <= 0 || r.ProtoMajor != 2 || hc == nil {
			next.ServeHTTP(w, r)
			return
		}
		if hc.dead.Load() {
			return // closed for resets: what is left of its streams costs nothing more
		}
		arrived := time.Now()
		body := &bodyWatch{ReadCloser: r.Body}
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			body.done.Store(true)
		} else {
			r.Body = body
		}
		early := r.Context().Err() != nil // reset before its handler began: nothing to do
		if !early {
			next.ServeHTTP(w, r)
		}
		if !early && (r.Context().Err() == nil || body.done.Load()) {
			hc.count(arrived, false)
			return
		}
		if pressedHTTP(r, arrived) || (early && shortDeadline(r)) {
			return
		}
		if n := hc.count(arrived, true); n > h.Max && hc.dead.CompareAndSwap(false, true) {
			inc(h.Closed)
			if h.Logger != nil {
				h.Logger.Warn("closing an HTTP/2 connection past its limit", zap.String("reason", "resets"),
					zap.String("peer.address", hc.conn.RemoteAddr().String()), zap.Int("streams_per_second", n))
			}
			_ = hc.conn.Close()
		}
	})
}

// count counts, in the second of now, one request reset (reset) or
// delivered (its body arrived, or it ran to its end); it answers the
// resets of the second that exceed its deliveries (0 while the client
// delivers as many requests as it resets: an honest client on a loaded
// server, whose handlers start after some of its deadlines have passed).
func (c *httpConn) count(now time.Time, reset bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Sub(c.window) >= time.Second {
		c.window, c.n, c.delivered = now, 0, 0
	}
	if !reset {
		c.delivered++
		return 0
	}
	c.n++
	if c.n <= c.delivered {
		return 0
	}
	return c.n
}

// bodyWatch is a request body that remembers whether it was read to its
// end.
type bodyWatch struct {
	io.ReadCloser
	done atomic.Bool
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.done.Store(true)
	}
	return n, err
}

// pressedHTTP reports whether r's client deadline (its Grpc-Timeout
// header, at least 10 ms) has half passed since it arrived.
func pressedHTTP(r *http.Request, arrived time.Time) bool {
	d, ok := grpcTimeout(r.Header.Get("Grpc-Timeout"))
	return ok && streamClock{arrived: arrived, deadline: arrived.Add(d)}.pressed(time.Now())
}

// shortDeadline reports whether r's client named a deadline (Grpc-Timeout)
// of 10 ms to 2 s. Its arrival is not known (net/http tells no stream's
// arrival, only its handler's start), so a request of such a deadline
// reset before its handler began is taken for one whose deadline passed
// while it waited on a loaded server, as an honest client's do, and is not
// counted (counting them closed an honest 50-worker HTTP/2 client with 20–
// 100 ms deadlines beside 4 heavy callers). A rapid-reset client that
// names such deadlines is not closed for it, but its streams run no
// handler, and net/http bounds the handlers queued on one connection.
func shortDeadline(r *http.Request) bool {
	d, ok := grpcTimeout(r.Header.Get("Grpc-Timeout"))
	return ok && d >= minHonestTimeout && d <= 2*time.Second
}

// grpcTimeout reads a Grpc-Timeout value: up to 8 digits and a unit (H, M,
// S, m, u, n), as gRPC over HTTP/2 and grpc-gateway write it.
func grpcTimeout(v string) (time.Duration, bool) {
	if len(v) < 2 || len(v) > 9 {
		return 0, false
	}
	n, err := strconv.ParseInt(v[:len(v)-1], 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	var unit time.Duration
	switch v[len(v)-1] {
	case 'H':
		unit = time.Hour
	case 'M':
		unit = time.Minute
	case 'S':
		unit = time.Second
	case 'm':
		unit = time.Millisecond
	case 'u':
		unit = time.Microsecond
	case 'n':
		unit = time.Nanosecond
	default:
		return 0, false
	}
	if n > math.MaxInt64/int64(unit) { // 99999999H overflows a Duration
		return 0, false
	}
	return time.Duration(n) * unit, true
}
