package limit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// InFlight bounds the requests running at once (its slots) and how long a
// request may wait for a slot (its wait). It is safe for concurrent use. One
// InFlight may guard a gRPC server (UnaryServerInterceptor) or an HTTP
// handler (HTTP); the gamerules server gives each port its own.
type InFlight struct {
	slots   chan struct{}
	wait    time.Duration
	running atomic.Int64 // REST requests past the body read, waiting or running, not writing (for shutdown)
}

// NewInFlight returns a limit of n requests running at once (n ≥ 1), each
// waiting at most wait for a slot (0: no wait, refused at once when every
// slot is taken). gamerulesd's --max-in-flight and --queue-wait set them
// (defaults 4 × GOMAXPROCS and 250 ms).
func NewInFlight(n int, wait time.Duration) *InFlight {
	return &InFlight{slots: make(chan struct{}, n), wait: wait}
}

// ErrBusy is Acquire's answer when no slot freed up in time.
var ErrBusy = errors.New("busy")

// Acquire takes a slot, waiting at most l's wait (and never past ctx), and
// returns the function that gives it back. It fails with ErrBusy, or with
// ctx's error when the caller gave up first.
func (l *InFlight) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	default:
	}
	if l.wait <= 0 {
		return nil, ErrBusy
	}
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *InFlight) release() { <-l.slots }

// Running is the number of HTTP requests inside HTTP's limit now, waiting
// for a slot or running (not those writing a produced answer): what a
// graceful shutdown waits for.
func (l *InFlight) Running() int64 { return l.running.Load() }

// UnaryServerInterceptor is the unary interceptor that runs at most n (of
// NewInFlight) requests at once; a request waits for a slot at most the
// limit's wait, then is refused with OverloadStatus: RESOURCE_EXHAUSTED,
// ErrorInfo reason OVERLOADED, RetryInfo 1 s. A caller that gives up while
// waiting gets its context's error (CANCELED, DEADLINE_EXCEEDED). Methods
// outside scope (nil: every method) run unlimited, as do calls for which
// exempt (nil: none) reports true — the gamerules server exempts health and
// reflection, and its gateway's calls, which the REST port's limit counted.
//
// A call of a connection tagged by Admission.TagConn first takes one of
// that connection's places (Admission.ConnSlots) within the same wait,
// and keeps it until the transport has written its answer: so that one
// client cannot take every slot, nor leave more than ConnSlots answers
// unread. Such a call's answer is returned wrapped for limit.Codec, which
// must be the server's codec.
func (l *InFlight) UnaryServerInterceptor(scope func(fullMethod string) bool, exempt func(ctx context.Context) bool) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !inScope(scope, info.FullMethod) {
			return handler(ctx, req)
		}
		if exempt != nil && exempt(ctx) {
			return handler(ctx, req) // already counted on the REST port
		}
		ad := admittedFrom(ctx)
		if ad == nil || ad.cs == nil {
			release, err := l.Acquire(ctx)
			if err != nil {
				return nil, l.busy(err)
			}
			ctx, release = holdSlot(ctx, release) // a heavy call gives it back early (CostGate)
			defer release()
			return handler(ctx, req)
		}
		return l.connCall(ctx, req, ad, handler)
	}
}

// busy is the error of a failed Acquire.
func (l *InFlight) busy(err error) error {
	if errors.Is(err, ErrBusy) {
		return OverloadStatus(fmt.Sprintf("the server is running %d requests, its limit (--max-in-flight), and none finished within %v (--queue-wait)", cap(l.slots), l.wait)).Err()
	}
	return status.FromContextError(err).Err()
}

// connCall runs a call of a tracked connection: it takes one of the
// connection's places (Admission.ConnSlots), then a slot, both within the
// one wait; the slot is given back when the handler returns, the place
// once the transport has written the answer (the answer, returned wrapped
// in ad, hands it to the codec: Admission's claim and Put).
func (l *InFlight) connCall(ctx context.Context, req any, ad *admitted, handler grpc.UnaryHandler) (any, error) {
	cs := ad.cs
	var timer *time.Timer
	if !cs.acquirePlace(ctx, nil) {
		if l.wait <= 0 {
			return nil, connBusy(cs)
		}
		timer = time.NewTimer(l.wait)
		defer timer.Stop()
		if !cs.acquirePlace(ctx, timer.C) {
			if ctx.Err() != nil {
				return nil, status.FromContextError(ctx.Err()).Err()
			}
			return nil, connBusy(cs)
		}
	}
	ad.holdPlace()
	release, err := l.acquireTimer(ctx, timer)
	if err != nil {
		ad.releasePlace()
		return nil, l.busy(err)
	}
	ctx, release = holdSlot(ctx, release) // a heavy call gives it back early (CostGate)
	resp, err := handler(ctx, req)
	release()
	m, ok := resp.(proto.Message)
	if err != nil || !ok || m == nil {
		ad.releasePlace()
		return resp, err
	}
	ad.Message = m
	return ad, nil
}

// connBusy is the error of a call that got none of its connection's places.
func connBusy(cs *connState) error {
	return OverloadStatus(fmt.Sprintf("this connection has %d calls running or with answers not yet read, its limit (--grpc-max-in-flight-per-conn), and none finished within --queue-wait", cap(cs.places))).Err()
}

// acquireTimer is Acquire with the wait's timer already running (nil: not
// yet started).
func (l *InFlight) acquireTimer(ctx context.Context, timer *time.Timer) (func(), error) {
	if timer == nil {
		return l.Acquire(ctx)
	}
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	default:
	}
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	case <-timer.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Deadline is the unary interceptor that gives every request a deadline of
// at most d: a client's shorter deadline wins, a longer one or none is cut
// to d (gamerulesd's --request-timeout, default 5 s).
func Deadline(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > d {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return handler(ctx, req)
	}
}

// HTTP runs at most n (of NewInFlight) requests at once through next;
// beyond that a request waits at most the limit's wait and is then refused
// (WriteOverloaded: 429, Retry-After: 1, the OVERLOADED status as JSON),
// counted on refused (nil: not counted). next's answer is produced into
// memory and the slot given back before it is written, so that a client
// that reads slowly holds no slot; being whole, it goes out with its
// Content-Length (not chunked, whatever its size). Behind Body, that answer is charged to
// the request's body budget, and refused (429 again) past it. It should sit
// after the body has been read (Body), so that a slow upload holds no slot.
func (l *InFlight) HTTP(next http.Handler, refused Counter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := newBufferedResponse()
		if !l.produce(w, r, next, buf, refused) {
			return
		}
		// The answer was produced into memory and the slot given back
		// before it is written, so that a client that reads slowly (or not
		// at all) holds no slot while the write timeout runs. The bytes it
		// holds are charged to the request's body budget; past the budget
		// the answer is refused instead.
		if h, ok := r.Context().Value(holdKey{}).(*budgetHold); ok && !h.take(int64(buf.body.Len())) {
			WriteOverloaded(w, h.budget.overMessage())
			return
		}
		buf.writeTo(w)
		buf.free()
	})
}

// produce runs next into buf within a slot, and reports whether it did (it
// answers 429 itself when no slot came). While it runs, the request counts
// in l.running, which shutdown waits for; writing the answer does not.
func (l *InFlight) produce(w http.ResponseWriter, r *http.Request, next http.Handler, buf *bufferedResponse, refused Counter) bool {
	l.running.Add(1)
	defer l.running.Add(-1)
	release, err := l.Acquire(r.Context())
	if err != nil {
		inc(refused)
		WriteOverloaded(w, fmt.Sprintf("the server is running %d REST requests, its limit (--max-in-flight), and none finished within %v (--queue-wait)", cap(l.slots), l.wait))
		return false
	}
	// A heavy call gives its slot back when it enters the heavy lane
	// (Admission.CostGate), so that heavy work leaves the slots to light.
	r, s := scopeOf(r, func(s *requestScope) bool { return s.slot != nil })
	hold := &slotHold{release: release}
	defer hold.give()
	s.slot = hold
	next.ServeHTTP(buf, r)
	return true
}

// bufferedResponse is an http.ResponseWriter that keeps the answer in
// memory (the gateway writes its marshalled message in one piece anyway).
type bufferedResponse struct {
	header http.Header
	code   int
	wrote  bool
	body   bytes.Buffer
}

// bufferedResponses are the bufferedResponses written and freed (free),
// reused so that a REST call does not allocate a header map and a body
// buffer of its answer's size each time.
var bufferedResponses = sync.Pool{New: func() any { return &bufferedResponse{header: http.Header{}} }}

// maxPooledBody is the largest body buffer kept for reuse: a bigger
// one (a big Batch's answer) is left to the garbage collector.
const maxPooledBody = 256 << 10

func newBufferedResponse() *bufferedResponse {
	b := bufferedResponses.Get().(*bufferedResponse)
	b.code = http.StatusOK
	return b
}

// free empties b and keeps it for reuse. Only once b has been written out
// (writeTo: w copied the bytes; the header's values are in w's header,
// which b's emptied map no longer shares) and nothing else holds it.
func (b *bufferedResponse) free() {
	if b.body.Cap() > maxPooledBody {
		return
	}
	clear(b.header)
	b.code, b.wrote = 0, false
	b.body.Reset()
	bufferedResponses.Put(b)
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(code int) {
	if !b.wrote {
		b.code, b.wrote = code, true
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.wrote = true
	return b.body.Write(p)
}

// writeTo sends the kept answer to w. The whole body being known, it
// carries a Content-Length (unless the handler set one, or a
// Transfer-Encoding): net/http gives one by itself only to an answer that
// fits its 2 KiB buffer, and sends a larger one chunked; with the length
// the answer has no chunk framing and the client knows its size.
func (b *bufferedResponse) writeTo(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	if n := b.body.Len(); n > 0 && bodyAllowed(b.code) && h["Content-Length"] == nil && h["Transfer-Encoding"] == nil {
		h["Content-Length"] = []string{strconv.Itoa(n)}
	}
	w.WriteHeader(b.code)
	_, _ = w.Write(b.body.Bytes())
}

// bodyAllowed reports whether an answer of status code may have a body
// (RFC 9110: not 1xx, 204 or 304).
func bodyAllowed(code int) bool {
	return code >= 200 && code != http.StatusNoContent && code != http.StatusNotModified
}
