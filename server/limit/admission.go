package limit

import (
	"context"
	"crypto/subtle"
	"fmt"
	"math"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/proto"
)

// Admission is the first, instant gate of a gRPC request: its TapHandle runs
// (as the server's grpc.InTapHandle) when a stream's headers arrive, before
// the request message is read, and refuses the stream at once when Cap
// requests are already admitted and not yet finished: RESOURCE_EXHAUSTED
// with OverloadStatus's ErrorInfo (reason OVERLOADED) and RetryInfo (1 s).
// Admitted requests then decode their message and wait for an InFlight
// slot, so admission bounds the memory that decoded requests hold, whatever
// the number of connections. A request stays admitted until its stream ends
// (the stream's context is done) or its answer is handed to the transport,
// whichever comes first (an unwritten answer is its connection's to bound:
// ConnSlots, MaxUnreadBytes, UnreadTimeout, AnswerWait).
//
// An admitted stream must deliver its message within ReadTimeout (its
// handler must start: Started must be the server's first unary
// interceptor), and finish within RequestTimeout of its headers: otherwise
// its context is cancelled and the stream ends, so that streams which send
// headers and no message cannot hold the gate. Calls that carry
// GatewayToken under the GatewayMetadata key (the gamerules REST gateway's
// own calls) are not counted: the REST port's limits already bound them.
//
// Per connection (a client: behind a load balancer many people share one
// address, so the gate keys on the connection, which the server's stats
// handler tags with TagConn): at most PendingPerConn streams whose message
// has not arrived hold places in the gate, the next are refused at once;
// ConnSlots bounds the connection's in-flight places (InFlight's
// interceptor: a place is held from the handler's start until the
// transport has written its answer; the gate's own place is given back
// when the answer is handed to the transport, and AnswerWait refuses the
// new streams of a connection that does not read); streams reset or
// ended before their message, not under deadline pressure (streamClock.pressed), past
// MaxResets in one second
// close the connection (with TrackConns), as do answers left unwritten
// for UnreadTimeout.
//
// Set the fields, then use it by pointer; it is safe for concurrent use.
type Admission struct {
	// Cap is how many streams may be admitted at once (gamerulesd:
	// --max-in-flight + --max-waiting).
	Cap int64
	// Scope is the methods the gate counts (nil: every method); the
	// gamerules server counts its API, not health or reflection.
	Scope func(fullMethod string) bool
	// Refused counts the refused streams (nil: not counted).
	Refused Counter
	// ReadTimeout bounds how long an admitted stream's message may take to
	// arrive (--grpc-read-timeout, default 2 s); RequestTimeout, its whole
	// life (--request-timeout, default 5 s). Both must be set.
	ReadTimeout, RequestTimeout time.Duration
	// GatewayToken, when not empty, exempts calls that carry it.
	GatewayToken string

	// ConnSlots is how many of one connection's calls may run, or have
	// answers not yet written by the transport, at once
	// (--grpc-max-in-flight-per-conn); past it a call waits within the
	// InFlight's wait like one waiting for a slot. 0 means 1.
	ConnSlots int
	// MaxUnreadBytes bounds the bytes of answers handed to the transport
	// and not yet written, in total (--grpc-max-unread-bytes): past it, a
	// connection that has unread answers of its own gets no place until
	// they drain (within InFlight's wait). 0: no bound.
	MaxUnreadBytes int64
	// UnreadTimeout closes a connection whose answers stay unwritten (the
	// client does not read them) this long (--grpc-unread-timeout); 0:
	// never. Checked once a second by LogRefusals.
	UnreadTimeout time.Duration
	// AnswerWait, when not 0, refuses a connection's new streams at once
	// (before their message is read) while it has answers the transport
	// has not written, none written for AnswerWait, and a new call would
	// wait for a place (its ConnSlots taken, or MaxUnreadBytes passed).
	// gamerulesd sets --queue-wait, the longest such a call would wait
	// for a place anyway. A client that does not read its answers would
	// otherwise keep the gate's places filled with calls waiting behind
	// them (issue 30: 5 connections reopening window-0 streams left a
	// polite connection 57–63% of its calls). Not counted as resets.
	AnswerWait time.Duration
	// MaxResets is how many of one connection's streams may, in one
	// second, be reset or end before their message, not under deadline
	// pressure (--grpc-max-resets); the next closes the connection.
	// 0: no limit.
	MaxResets int
	// ConnsClosed, when not nil, is told of each connection closed by a
	// limit ("resets", "refusals", "unread"); Logger, when not nil, logs it, once.
	ConnsClosed func(reason string)
	Logger      *zap.Logger

	// Heavy, when not nil, is the heavy lane of calls that buy much work
	// (CostGate). HeavyMethod tells the methods whose calls may be heavy,
	// before their message is read: a stream of one is counted toward its
	// client's share of the lane from its headers (Heavy.AdmitStream), so
	// that at most Share+Queue of one connection's such streams, and at
	// most half of Cap in all, hold places in the gate; the next is
	// refused at once. So one connection's 100 Playout streams hold a few
	// places, not the whole gate.
	Heavy       *Heavy
	HeavyMethod func(fullMethod string) bool
	// TrustedProxies are the peers (reverse proxies, such as nginx's
	// grpc_pass) whose x-forwarded-for metadata names the caller of a gRPC
	// call for the heavy lane's shares (Client); the gate's own
	// per-connection bounds still key on the connection.
	TrustedProxies []netip.Prefix

	conns    sync.Map     // *connState of the open connections
	suspects sync.Map     // address -> time.Time its connection was closed by a limit
	unread   atomic.Int64 // unread answer bytes, in total
	n        atomic.Int64
	refusedN atomic.Int64 // the refused count, for LogRefusals
	running  atomic.Int64 // handlers in scope running now (for shutdown)
	arriving atomic.Int64 // streams in scope whose handler has not started, nor their stream ended
}

// admittedKey keys an admitted stream's *admitted in its context.
type admittedKey struct{}

// admitted is what the gate knows of one admitted stream.
//
// It embeds the stream's answer once its handler has returned (InFlight's
// interceptor sets it), so that the codec, which Marshal gives it, can hand
// the stream's in-flight place over to the marshalled answer (claim); it is
// the answer buffer's mem.BufferPool, whose Put the transport calls once
// the answer is written.
type admitted struct {
	proto.Message
	state atomic.Int32               // pending, started (the message arrived), or abandoned
	cs    *connState                 // its connection (nil: untracked)
	hold  atomic.Int32               // holdNone… (conn.go)
	size  int64                      // the answer's bytes, once claimed
	timer atomic.Pointer[time.Timer] // its read timer (atomic: its own callback resets it)
	clock streamClock                // its arrival and the client's deadline (perconn.go)
	// gate is the admission count the stream holds a place of (nil: not
	// counted, a gateway call); leaveGate gives the place back once, when
	// its answer is handed to the transport or when the stream ends.
	gate   *atomic.Int64
	inGate atomic.Bool
}

// leaveGate gives back the stream's place in the admission gate (Cap),
// once. An answer handed to the transport and not yet written holds no
// place of the gate: its connection's places (ConnSlots), the unread
// bytes (MaxUnreadBytes, UnreadTimeout) and AnswerWait bound those, so
// that answers a client does not read never crowd out other clients'
// calls (issue 30: 20 connections of unread answers, 3 each, held 60 of
// the 68 places until their deadline).
func (ad *admitted) leaveGate() {
	if ad.gate != nil && ad.inGate.CompareAndSwap(true, false) {
		ad.gate.Add(-1)
	}
}

// The states of an admitted stream (admitted.state).
const (
	streamPending   int32 = iota // headers only
	streamStarted                // its handler started: the message arrived
	streamAbandoned              // it ended before its message
	streamStale                  // headers only for longer than staleAfter
)

// staleAfter is how long a tracked connection's stream may wait for its
// message before it counts among the connection's PendingPerConn. The
// message is seen only when the stream's handler starts, so on a starved
// machine a polite client's streams look stale too: at 100 ms, 64 callers
// on one connection were refused under the race detector and two other
// test suites on 2 cores; at 300 ms they were not, and a churning client
// still leaves a polite one 97% of its calls (TestHeaderOnlyChurnFairness).
const staleAfter = 300 * time.Millisecond

// end moves a pending or stale stream to state to (started, abandoned),
// giving back its stale place; it reports whether it did.
func (ad *admitted) end(to int32) bool {
	cs := ad.cs
	switch {
	case ad.state.CompareAndSwap(streamPending, to):
	case ad.state.CompareAndSwap(streamStale, to):
		cs.stale.Add(-1)
	default:
		if to == streamAbandoned && cs != nil && ad.state.Load() == streamStarted {
			cs.started.Add(-1) // a started stream ends
		}
		return false
	}
	if cs != nil {
		cs.pending.Add(-1)
		if to == streamStarted {
			cs.started.Add(1)
		}
	}
	return true
}

// admittedFrom is the stream's *admitted, nil outside the gate's scope.
func admittedFrom(ctx context.Context) *admitted {
	ad, _ := ctx.Value(admittedKey{}).(*admitted)
	return ad
}

// GatewayMetadata is the metadata key under which the gateway's own calls
// carry the process's random gateway token (Admission.GatewayToken).
const GatewayMetadata = "x-gamerules-gateway"

// fromGateway reports whether metadata md carries the gateway token.
func (a *Admission) fromGateway(md metadata.MD) bool {
	return a.isToken(md.Get(GatewayMetadata))
}

// FromGateway reports whether the incoming metadata of a call's ctx
// carries the gateway token (without copying the metadata, as
// metadata.FromIncomingContext would). It is InFlight's exempt for the
// gamerules server.
func (a *Admission) FromGateway(ctx context.Context) bool {
	return a.isToken(metadata.ValueFromIncomingContext(ctx, GatewayMetadata))
}

// isToken reports whether v, a metadata key's values, is the gateway token.
func (a *Admission) isToken(v []string) bool {
	return a.GatewayToken != "" && len(v) == 1 && subtle.ConstantTimeCompare([]byte(v[0]), []byte(a.GatewayToken)) == 1
}

// TapHandle is the gate, a tap.ServerInHandle: pass it to grpc.InTapHandle.
func (a *Admission) TapHandle(ctx context.Context, info *tap.Info) (context.Context, error) {
	if !inScope(a.Scope, info.FullMethodName) {
		return ctx, nil
	}
	counted := !a.fromGateway(info.Header)
	var cs *connState
	if counted {
		if cs = connFrom(ctx); cs != nil && cs.dead.Load() {
			// Closed by a limit: what is left of its frames costs nothing more.
			return nil, OverloadStatus("this connection is being closed: too many streams reset or abandoned").Err()
		}
		if cs != nil && cs.overPending() {
			// Not counted as a reset (issue 30): a refusal is the server's
			// own doing, and counting it closed honest connections in a
			// loop. Only a connection refused and delivering nothing is
			// closed (connState.refused).
			inc(a.Refused)
			a.refusedN.Add(1)
			cs.refused()
			return nil, OverloadStatus(fmt.Sprintf("this connection has %d calls whose message has not arrived, its limit", PendingPerConn)).Err()
		}
		if cs != nil && cs.stuck(a.AnswerWait) {
			// Not counted by cs.refused (deliberately): a client slow to
			// read its answers is not abusing resets; its unread answers'
			// own bound (UnreadTimeout, the unread bytes) closes the
			// connection if it never reads them.
			inc(a.Refused)
			a.refusedN.Add(1)
			return nil, OverloadStatus(fmt.Sprintf("this connection has answers it has not read for %v and no place for another call (--grpc-max-in-flight-per-conn %d, --grpc-max-unread-bytes): read them first", a.AnswerWait, cap(cs.places))).Err()
		}
		if a.n.Add(1) > a.Cap {
			a.n.Add(-1)
			inc(a.Refused)
			a.refusedN.Add(1)
			return nil, OverloadStatus(fmt.Sprintf("the server has %d requests in flight or waiting, its limit (--max-in-flight, --max-waiting)", a.Cap)).Err()
		}
	}
	var endHeavy func()
	if counted && a.Heavy != nil && a.HeavyMethod != nil && a.HeavyMethod(info.FullMethodName) {
		var key any = cs
		if cs == nil {
			key = a.Client(ctx)
		}
		var ok bool
		if endHeavy, ok = a.Heavy.AdmitStream(key, a.Cap/2); !ok {
			a.n.Add(-1)
			inc(a.Refused)
			a.refusedN.Add(1)
			return nil, OverloadStatus(fmt.Sprintf("this connection has %d calls that may be heavy (Playout, Expand, Batch, replays, records, pictures) on their way, its share of the heavy lane (--heavy-seats), or the server has %d, half its limit (--max-in-flight, --max-waiting)", max(1, a.Heavy.Share)+max(0, a.Heavy.Queue), a.Cap/2)).Err()
		}
	}
	ad := &admitted{cs: cs, clock: clockOf(ctx)}
	if counted {
		ad.gate = &a.n
		ad.inGate.Store(true)
	}
	ctx, cancel := context.WithTimeout(ctx, a.RequestTimeout)
	if cs != nil {
		cs.pending.Add(1)
	}
	ctx = context.WithValue(ctx, admittedKey{}, ad)
	a.arriving.Add(1)
	// This runs in the transport's reader with its lock held: start a
	// timer, nothing that blocks. A stream of a tracked connection whose
	// message has not come after staleAfter becomes one of its
	// connection's PendingPerConn stale streams, or is ended at once when
	// they are all taken; any other, at ReadTimeout.
	first := a.ReadTimeout
	if cs != nil {
		first = min(staleAfter, a.ReadTimeout)
	}
	// The timer is stored before it is started, so that its callback
	// (which resets it) always finds it.
	t := time.AfterFunc(time.Duration(math.MaxInt64), func() {
		if cs != nil && first < a.ReadTimeout && ad.state.Load() == streamPending {
			if cs.stale.Add(1) <= PendingPerConn && ad.state.CompareAndSwap(streamPending, streamStale) {
				ad.timer.Load().Reset(a.ReadTimeout - first)
				return
			}
			cs.stale.Add(-1)
		}
		if s := ad.state.Load(); s == streamPending || s == streamStale {
			cancel()
		}
	})
	ad.timer.Store(t)
	t.Reset(first)
	context.AfterFunc(ctx, func() {
		ad.timer.Load().Stop()
		cancel()
		if ad.end(streamAbandoned) {
			a.arriving.Add(-1)
			if cs != nil {
				cs.abandoned(ad.clock)
			}
		}
		if ad.hold.Load() == holdRunning {
			ad.releasePlace()
		}
		ad.leaveGate()
		if endHeavy != nil {
			endHeavy()
		}
	})
	return ctx, nil
}

// Started must be the server's first unary interceptor: it tells the gate
// that a stream's message arrived (so its read timer stops mattering), and
// counts the handlers in scope running (Running), which shutdown waits for.
// A stream counts as running before it stops counting as arriving
// (Arriving), so that the two together never miss it.
func (a *Admission) Started(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ad, _ := ctx.Value(admittedKey{}).(*admitted)
	if !inScope(a.Scope, info.FullMethod) {
		if ad != nil && ad.end(streamStarted) {
			a.arriving.Add(-1)
		}
		return handler(ctx, req)
	}
	a.running.Add(1)
	defer a.running.Add(-1)
	if ad != nil && ad.end(streamStarted) {
		a.arriving.Add(-1)
	}
	return handler(ctx, req)
}

// Running is the number of handlers in scope running now.
func (a *Admission) Running() int64 { return a.running.Load() }

// Arriving is the number of admitted streams whose handler has not started
// and which have not ended: header-only streams, and streams whose message
// has arrived in the transport but whose handler has not yet been
// scheduled (grpc-go gives no sign of a message's arrival before the
// stream's own goroutine reads it: its InPayload event comes from that
// goroutine, just before the handler). Shutdown waits for them a moment
// (see the server's Run), so that a starved handler is not cut off.
func (a *Admission) Arriving() int64 { return a.arriving.Load() }

// PublicSize is the unary interceptor that refuses, RESOURCE_EXHAUSTED, a
// request larger than limit bytes (its protobuf size) that does not come
// from the gateway, counting it on tooLarge (nil: not counted). With the
// loopback gateway the gamerules server's own receive limit
// (grpc.MaxRecvMsgSize) is twice the public one, because the gateway's
// protobuf form of a JSON body can be larger than the JSON (a number such
// as 1e9 is 3 bytes of JSON and a 5-byte varint); the REST port enforces the
// limit on the JSON body itself. Otherwise the receive limit is the public
// one and this is a second check of the decoded size.
func (a *Admission) PublicSize(limit int, tooLarge Counter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if m, ok := req.(proto.Message); ok {
			if n := proto.Size(m); n > limit {
				if !a.FromGateway(ctx) {
					inc(tooLarge)
					return nil, status.Errorf(codes.ResourceExhausted, "request of %d bytes is larger than the server's limit of %d bytes (--max-recv-bytes)", n, limit)
				}
			}
		}
		return handler(ctx, req)
	}
}

// LogRefusals logs, at most once a second until ctx is done, how many
// requests the gate refused, so that an overload shows in the logs without
// one line per refused request; at each tick it also closes the
// connections whose answers stayed unread past UnreadTimeout.
func (a *Admission) LogRefusals(ctx context.Context, logger *zap.Logger) {
	var last int64
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			a.checkUnread(now)
			if v := a.refusedN.Load(); v > last {
				logger.Warn("requests refused: too many in flight", zap.Int("refused", int(v-last)))
				last = v
			}
		}
	}
}
