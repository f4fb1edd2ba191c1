package limit

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/stats"
)

// PendingPerConn bounds the streams of one connection that hold places in
// the admission gate while their message has not arrived (their handler
// has not started): at most that many may wait for it over 300 ms (staleAfter); a
// further one is ended then, and new streams are refused at once while the
// connection has that many. A connection from an address whose connection
// was closed by a limit in the last 10 s is strict: its new streams are
// refused at once while it has that many without a message and no more
// that delivered theirs, until PendingPerConn of its streams have
// delivered their message (an honest client sharing the address of an
// attacker, behind a NAT or a proxy, shows itself so). So header-only streams on one connection cannot
// hold the shared gate, and a client sending its calls is never refused by
// it, however many it sends at once.
const PendingPerConn = 16

// TrackConns wraps a gRPC listener so that the Admission gate can close a
// connection that breaks its limits (too many streams reset or abandoned
// before their message, answers left unread past UnreadTimeout): each
// accepted connection's RemoteAddr carries a handle to it, which
// Admission.TagConn finds. Without it the limits that need a close only
// refuse and count.
func TrackConns(l net.Listener) net.Listener { return trackingListener{l} }

type trackingListener struct{ net.Listener }

func (l trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c}
	tc.remote = &connAddr{Addr: c.RemoteAddr(), conn: tc}
	return tc, nil
}

// connAddr is a remote address that also holds its connection.
type connAddr struct {
	net.Addr
	conn net.Conn
}

// connKey keys a connection's *connState in the connection's context.
type connKey struct{}

// connState is what the gate knows of one gRPC connection.
type connState struct {
	adm     *Admission
	conn    net.Conn      // nil when the listener was not wrapped by TrackConns
	places  chan struct{} // its in-flight places: running, or an answer not yet written
	stale   atomic.Int64  // streams whose message has not come for staleAfter
	pending atomic.Int64  // streams in the gate whose message has not come
	started atomic.Int64  // streams in the gate whose handler started
	// strict: another connection from its address (the secondary key)
	// was closed by a limit less than suspectFor ago, so its streams whose
	// message has not come are held to PendingPerConn at once, not after
	// staleAfter (a client reconnecting to burst header-only streams).
	strict bool
	// delivered counts the streams whose handler got a place
	// (holdPlace): past PendingPerConn the connection is no longer strict,
	// for an honest client behind the address of an attacker has shown
	// itself by then.
	delivered atomic.Int64
	// deadlineEnds counts the streams that ended before their message
	// under deadline pressure (not resets: abandoned).
	deadlineEnds atomic.Int64
	dead         atomic.Bool // closed by a limit

	mu       sync.Mutex
	closed   bool      // the connection ended (or was closed by a limit)
	unread   int64     // bytes of answers handed to the transport and not yet written
	held     int       // those answers
	progress time.Time // when held last became non-zero or an answer was written
	window   time.Time // the start of the current second of the abandoned count
	bad      int       // streams abandoned in this window
	// refWindow is the start of the current second of refusals, refN
	// their count, refDelivered the delivered count when it began.
	refWindow    time.Time
	refN         int
	refDelivered int64
}

// overPending reports whether cs's new streams are refused at once: it
// holds PendingPerConn stale streams, or, when strict, PendingPerConn
// streams whose message has not come and no more streams that delivered
// theirs (a client whose calls deliver their messages may have many on
// their way).
func (cs *connState) overPending() bool {
	if cs.stale.Load() >= PendingPerConn {
		return true
	}
	if !cs.strict || cs.delivered.Load() >= PendingPerConn {
		return false
	}
	p := cs.pending.Load()
	return p >= PendingPerConn && p >= cs.started.Load()
}

// suspectFor is how long, after one of its connections was closed by a
// limit, an address's new connections are strict (connState.strict).
const suspectFor = 10 * time.Second

// host is the address of a connection without its port.
func host(a net.Addr) string {
	if a == nil {
		return ""
	}
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

func connFrom(ctx context.Context) *connState {
	cs, _ := ctx.Value(connKey{}).(*connState)
	return cs
}

// TagConn gives a new connection its state; the server's stats handler
// must call it from its own TagConn (and ConnEnd when it ends).
func (a *Admission) TagConn(ctx context.Context, info *stats.ConnTagInfo) context.Context {
	cs := &connState{adm: a, places: make(chan struct{}, max(1, a.ConnSlots))}
	if ca, ok := info.RemoteAddr.(*connAddr); ok {
		cs.conn = ca.conn
	}
	if at, ok := a.suspects.Load(host(info.RemoteAddr)); ok && time.Since(at.(time.Time)) < suspectFor {
		cs.strict = true
	}
	a.conns.Store(cs, struct{}{})
	return context.WithValue(ctx, connKey{}, cs)
}

// ConnEnd forgets a connection that ended: the unread bytes of its answers
// no longer count in the total.
func (a *Admission) ConnEnd(ctx context.Context) {
	cs := connFrom(ctx)
	if cs == nil {
		return
	}
	a.conns.Delete(cs)
	cs.mu.Lock()
	if !cs.closed {
		cs.closed = true
		a.unread.Add(-cs.unread)
	}
	cs.mu.Unlock()
}

// UnreadBytes is the bytes of gRPC answers handed to the transport and not
// yet written to their connections, in total.
func (a *Admission) UnreadBytes() int64 { return a.unread.Load() }

// streamClock is when a stream's headers came and the deadline its client
// gave it (grpc-timeout; zero when none), for telling a client that gives
// up because its deadline passed from one that abuses resets.
type streamClock struct {
	arrived, deadline time.Time
}

// clockOf is the clock of a stream whose headers come now with ctx (the
// transport's stream context, which carries the client's deadline).
func clockOf(ctx context.Context) streamClock {
	dl, _ := ctx.Deadline()
	return streamClock{arrived: time.Now(), deadline: dl}
}

// minHonestTimeout is the shortest client deadline under which a stream
// that ends for lack of time counts as honest: a rapid-reset client that
// sends grpc-timeout: 1n cannot make its resets free, and one that sends
// 10 ms keeps each stream open at least half of that, no faster than the
// calls of an honest client with such deadlines.
const minHonestTimeout = 10 * time.Millisecond

// pressed reports whether a stream ending at now, before its message was
// read (before its handler started), ends under deadline pressure: its
// client gave it a deadline of at least minHonestTimeout and at least half
// of it has passed (the client's clock starts before the server's, by the
// time the headers took to come in and be read on a busy server: a client
// whose deadline passed resets its stream, RST_STREAM(CANCEL), when the
// server still sees some of it left). Such a stream is not a reset.
func (c streamClock) pressed(now time.Time) bool {
	if c.deadline.IsZero() {
		return false
	}
	timeout := c.deadline.Sub(c.arrived)
	return timeout >= minHonestTimeout && now.Sub(c.arrived) >= timeout/2
}

// abandoned counts one stream of cs reset or ended before its message,
// unless it ended under deadline pressure (streamClock.pressed: a client
// that gives up because its deadline passed is no rapid-reset client);
// past MaxResets in one second the connection is closed. Streams refused
// by the gate are not counted: a refusal is the server's doing, and
// counting it made a loop (a strict connection refused, its refusals
// closing it, its next connection strict again).
func (cs *connState) abandoned(c streamClock) {
	a := cs.adm
	if a.MaxResets <= 0 {
		return
	}
	if c.pressed(time.Now()) {
		cs.deadlineEnds.Add(1)
		return
	}
	now := time.Now()
	cs.mu.Lock()
	if now.Sub(cs.window) >= time.Second {
		cs.window, cs.bad = now, 0
	}
	cs.bad++
	over := cs.bad == a.MaxResets+1
	cs.mu.Unlock()
	if over {
		a.closeConn(cs, "resets", zap.Int("streams_per_second", a.MaxResets+1))
	}
}

// refusalsPerReset is how many refusals, per MaxResets, a connection may
// have in one second in which none of its streams delivered a message.
const refusalsPerReset = 10

// refused counts one stream of cs refused by its own limit
// (PendingPerConn). A refusal is no reset (abandoned), but a connection
// that has more than refusalsPerReset × MaxResets streams refused in one
// second in which none delivered its message is closed ("refusals"): a
// header-only churner that only ever gets refused, never a client whose
// calls run, however short their deadlines or busy the server.
func (cs *connState) refused() {
	a := cs.adm
	if a.MaxResets <= 0 {
		return
	}
	now, delivered := time.Now(), cs.delivered.Load()
	cs.mu.Lock()
	if now.Sub(cs.refWindow) >= time.Second || delivered != cs.refDelivered {
		cs.refWindow, cs.refN, cs.refDelivered = now, 0, delivered
	}
	cs.refN++
	over := cs.refN == refusalsPerReset*a.MaxResets+1
	cs.mu.Unlock()
	if over {
		a.closeConn(cs, "refusals", zap.Int("refused_per_second", cs.refN))
	}
}

// closeConn closes cs's connection (when TrackConns gives a handle to it),
// logging once and counting in ConnsClosed.
func (a *Admission) closeConn(cs *connState, reason string, fields ...zap.Field) {
	if cs.conn == nil {
		return
	}
	cs.dead.Store(true)
	a.suspects.Store(host(cs.conn.RemoteAddr()), time.Now())
	if a.ConnsClosed != nil {
		a.ConnsClosed(reason)
	}
	if a.Logger != nil {
		a.Logger.Warn("closing a gRPC connection past its limit", append([]zap.Field{zap.String("reason", reason), zap.String("peer.address", cs.conn.RemoteAddr().String())}, fields...)...)
	}
	if tc, ok := cs.conn.(*trackedConn); ok {
		tc.closeGoAway("gamerules: " + reason)
	} else {
		_ = cs.conn.Close()
	}
}

// checkUnread closes every connection whose answers have stayed unwritten
// for longer than UnreadTimeout.
func (a *Admission) checkUnread(now time.Time) {
	a.suspects.Range(func(k, v any) bool {
		if now.Sub(v.(time.Time)) >= suspectFor {
			a.suspects.Delete(k)
		}
		return true
	})
	if a.UnreadTimeout <= 0 {
		return
	}
	a.conns.Range(func(k, _ any) bool {
		cs := k.(*connState)
		cs.mu.Lock()
		stuck := !cs.closed && cs.held > 0 && now.Sub(cs.progress) > a.UnreadTimeout
		unread, held := cs.unread, cs.held
		if stuck {
			cs.closed = true
			a.unread.Add(-cs.unread)
		}
		cs.mu.Unlock()
		if stuck {
			a.closeConn(cs, "unread", zap.Int64("unread_bytes", unread), zap.Int("answers", held), zap.Duration("unread_timeout", a.UnreadTimeout))
		}
		return true
	})
}

// acquirePlace takes one of cs's in-flight places, waiting until timer
// fires or ctx ends; while the total of unread answers is over
// MaxUnreadBytes, a connection that has unread answers of its own does not
// get one. It reports whether it got a place.
func (cs *connState) acquirePlace(ctx context.Context, timer <-chan time.Time) bool {
	for {
		if !cs.overUnread() {
			select {
			case cs.places <- struct{}{}:
				return true
			default:
			}
		}
		if timer == nil {
			return false
		}
		if cs.overUnread() {
			select {
			case <-timer:
				return false
			case <-ctx.Done():
				return false
			case <-time.After(5 * time.Millisecond):
			}
			continue
		}
		select {
		case cs.places <- struct{}{}:
			return true
		case <-timer:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// stuck reports whether cs has answers the transport has not written,
// none written for at least wait (the client does not read them), and a
// new call of cs would have to wait for a place: all its places are taken,
// or the unread answers of all connections are past MaxUnreadBytes (then
// cs gets none while it has unread answers, overUnread). Such a call would
// wait for a place that is not coming, holding a place of the gate
// meanwhile, so the gate refuses it at once (Admission.AnswerWait). A
// client that reads, however slowly, has an answer written every wait.
func (cs *connState) stuck(wait time.Duration) bool {
	if wait <= 0 {
		return false
	}
	a := cs.adm
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed || cs.held == 0 || time.Since(cs.progress) < wait {
		return false
	}
	return len(cs.places) >= cap(cs.places) || (a.MaxUnreadBytes > 0 && a.unread.Load() >= a.MaxUnreadBytes)
}

func (cs *connState) overUnread() bool {
	a := cs.adm
	if a.MaxUnreadBytes <= 0 || a.unread.Load() < a.MaxUnreadBytes {
		return false
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.unread > 0
}

// The states of an admitted stream's in-flight place (admitted.hold).
const (
	holdNone     int32 = iota // no place
	holdRunning               // its handler runs, or its answer is not yet marshalled
	holdAnswer                // its marshalled answer holds it until written
	holdReleased              // given back
)

// holdPlace records that the stream holds a place of its connection
// (ad.cs, set when the stream was admitted and never written again: the
// gate's end reads it from another goroutine).
func (ad *admitted) holdPlace() {
	ad.hold.Store(holdRunning)
	if ad.cs != nil {
		ad.cs.delivered.Add(1)
	}
}

// releasePlace gives back the place if the answer did not take it over.
func (ad *admitted) releasePlace() {
	if ad.hold.CompareAndSwap(holdRunning, holdReleased) {
		<-ad.cs.places
	}
}

// claim hands the place over to the marshalled answer of size bytes, which
// keeps it until the transport has written the answer (Put).
func (ad *admitted) claim(size int) bool {
	if !ad.hold.CompareAndSwap(holdRunning, holdAnswer) {
		return false
	}
	ad.size = int64(size)
	ad.leaveGate()
	cs := ad.cs
	cs.mu.Lock()
	if !cs.closed {
		cs.unread += ad.size
		cs.adm.unread.Add(ad.size)
	}
	if cs.held == 0 {
		cs.progress = time.Now()
	}
	cs.held++
	cs.mu.Unlock()
	return true
}

// Get is the default buffer pool's: admitted is a mem.BufferPool so that
// the transport's freeing of a written answer (Put) tells the gate.
func (ad *admitted) Get(length int) *[]byte { return mem.DefaultBufferPool().Get(length) }

// Put is called once the transport has written (or dropped) the answer:
// its bytes no longer count, and its place is given back.
func (ad *admitted) Put(buf *[]byte) {
	mem.DefaultBufferPool().Put(buf)
	if !ad.hold.CompareAndSwap(holdAnswer, holdReleased) {
		return
	}
	cs := ad.cs
	cs.mu.Lock()
	if !cs.closed {
		cs.unread -= ad.size
		cs.adm.unread.Add(-ad.size)
	}
	cs.held--
	cs.progress = time.Now()
	cs.mu.Unlock()
	<-cs.places
}
