package limit

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// Heavy is the heavy lane of the admission: seats for calls that buy much
// work, apart from the in-flight slots of light calls, shared fairly
// between clients, after Kubernetes' API Priority and Fairness (seats by
// cost, a fair queue per flow).
//
// A call's cost is a number of work units that the caller computes where
// the request is understood (the gamerules server: service/rpcs.Cost,
// microseconds of CPU measured per ply played, node built, item, record
// move or byte; a light call costs 20) and hands to Acquire. A call costing less than MinCost is light
// and never enters the lane. A heavy call takes a width of seats, 1 +
// (cost-MinCost)/CostPerSeat, at most Share; the lane has Seats in all.
//
// A client (Client: a gRPC connection, or a REST caller's address) holds
// at most Share seats at once. Its calls that find no seat wait in its
// own FIFO queue, at most Queue of them (the next is refused at once), and
// the queues are served round-robin, one call per client in turn, as
// seats free up; a call waits at most Wait (and never past its deadline),
// then is refused. So one client's many heavy calls cost others one turn
// of the queue at most, and light calls, which never wait here, keep
// their own slots: a heavy call gives back the in-flight slot it came in
// with (InFlight's, on either port) when it enters the lane.
//
// Seats are held while the handler runs and given back when it returns,
// not when the client has read the answer: a client that does not read its
// answers holds no seat (its connection's places bound those answers:
// Admission.ConnSlots, MaxUnreadBytes).
//
// Set the fields, then use it by pointer; it is safe for concurrent use.
type Heavy struct {
	// Seats is the lane's capacity (gamerulesd: --heavy-seats, default
	// GOMAXPROCS: as many heavy calls at once as there are cores).
	Seats int
	// Share is the most seats one client holds at once (default, in the
	// gamerules server: half of Seats, at least 1), and the widest call.
	Share int
	// Queue is the most calls of one client waiting for seats; beyond,
	// refused at once.
	Queue int
	// Wait is the longest a call waits for seats.
	Wait time.Duration
	// MinCost is the cost from which a call is heavy; CostPerSeat, the
	// cost of each seat beyond the first.
	MinCost, CostPerSeat int64
	// Refused counts the calls refused (nil: not counted).
	Refused Counter

	mu    sync.Mutex
	used  int           // seats held
	flows map[any]*flow // clients with calls in the lane (or admitted toward it)
	ring  []*flow       // clients with calls waiting, in turn order
	turn  int           // the ring's next client
	gated atomic.Int64  // streams admitted toward the lane (AdmitStream), in total
}

// flow is one client's part of the lane.
type flow struct {
	key      any
	seats    int       // seats held
	waiting  []*waiter // its queue, oldest first
	admitted int       // its streams admitted toward the lane (AdmitStream)
}

// waiter is a call waiting for seats.
type waiter struct {
	width   int
	granted chan struct{} // closed when its seats are granted
}

// Width is the seats a call of cost takes (0: a light call).
func (h *Heavy) Width(cost int64) int {
	if cost < h.MinCost {
		return 0
	}
	w := 1 + (cost-h.MinCost)/max(1, h.CostPerSeat)
	return int(min(w, int64(max(1, h.Share))))
}

// Acquire takes the seats of a call of cost for client, waiting in the
// client's queue at most Wait and never past ctx. It returns the function
// that gives the seats back (nil for a light call, which takes none), or
// the overload error (OverloadStatus) when the client's queue is full or
// no seat came in time, or ctx's error when the caller gave up first.
func (h *Heavy) Acquire(ctx context.Context, client any, cost int64) (release func(), err error) {
	width := h.Width(cost)
	if width == 0 {
		return nil, nil
	}
	h.mu.Lock()
	f := h.flow(client)
	// No queued call fits now (dispatch runs whenever seats free up or a
	// call queues), so one that fits takes its seats at once, ahead of
	// none: the calls waiting are over their client's share, or wider than
	// the seats free. (A wide call may so wait while narrow ones pass;
	// Wait bounds it.)
	if len(f.waiting) == 0 && h.fits(f, width) {
		h.grant(f, width)
		h.mu.Unlock()
		return h.releaser(f, width), nil
	}
	if len(f.waiting) >= max(0, h.Queue) {
		seats, waiting := f.seats, len(f.waiting) // read under h.mu
		h.drop(f)
		h.mu.Unlock()
		inc(h.Refused)
		return nil, OverloadStatus(fmt.Sprintf("this client holds %d seats of the heavy lane and has %d calls waiting for more, its share (--heavy-seats %d; a Playout, Expand, Batch, replay or record is heavy by what it asks for)", seats, waiting, h.Seats)).Err()
	}
	w := &waiter{width: width, granted: make(chan struct{})}
	f.waiting = append(f.waiting, w)
	if len(f.waiting) == 1 {
		h.ring = append(h.ring, f)
	}
	h.dispatch()
	h.mu.Unlock()

	t := time.NewTimer(h.Wait)
	defer t.Stop()
	select {
	case <-w.granted:
		return h.releaser(f, width), nil
	case <-t.C:
		err = OverloadStatus(fmt.Sprintf("the heavy lane's %d seats (--heavy-seats) stayed taken for %v; a Playout, Expand, Batch, replay or record is heavy by what it asks for", h.Seats, h.Wait)).Err()
		inc(h.Refused)
	case <-ctx.Done():
		err = ctx.Err()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-w.granted: // granted as it gave up: give the seats back
		h.release(f, width)
	default:
		h.unqueue(f, w)
	}
	return nil, err
}

// flow is client's flow, made when it has none. h.mu is held.
func (h *Heavy) flow(client any) *flow {
	if h.flows == nil {
		h.flows = map[any]*flow{}
	}
	f := h.flows[client]
	if f == nil {
		f = &flow{key: client}
		h.flows[client] = f
	}
	return f
}

// drop forgets f when nothing of it is left. h.mu is held.
func (h *Heavy) drop(f *flow) {
	if f.seats == 0 && len(f.waiting) == 0 && f.admitted == 0 {
		delete(h.flows, f.key)
	}
}

// fits reports whether f may take width more seats now. h.mu is held.
func (h *Heavy) fits(f *flow, width int) bool {
	return h.used+width <= max(1, h.Seats) && f.seats+width <= max(1, h.Share)
}

func (h *Heavy) grant(f *flow, width int) {
	h.used += width
	f.seats += width
}

// releaser is the once-only release of f's width seats.
func (h *Heavy) releaser(f *flow, width int) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			h.release(f, width)
			h.mu.Unlock()
		})
	}
}

// release gives back f's width seats and serves the queues. h.mu is held.
func (h *Heavy) release(f *flow, width int) {
	h.used -= width
	f.seats -= width
	h.dispatch()
	h.drop(f)
}

// unqueue takes w, which gave up, out of f's queue. h.mu is held.
func (h *Heavy) unqueue(f *flow, w *waiter) {
	for i, x := range f.waiting {
		if x == w {
			f.waiting = append(f.waiting[:i], f.waiting[i+1:]...)
			break
		}
	}
	if len(f.waiting) == 0 {
		h.unring(f)
	}
	h.drop(f)
	h.dispatch() // w may have blocked the calls behind it
}

// unring takes f, whose queue is empty, out of the ring. h.mu is held.
func (h *Heavy) unring(f *flow) {
	for i, x := range h.ring {
		if x == f {
			h.ring = append(h.ring[:i], h.ring[i+1:]...)
			if h.turn > i {
				h.turn--
			}
			break
		}
	}
	if h.turn >= len(h.ring) {
		h.turn = 0
	}
}

// dispatch grants seats to the queues' first calls, one client at a time
// in the ring's order from the client whose turn it is, while any fits; the
// turn passes to the next client only when a call is granted. h.mu is held.
func (h *Heavy) dispatch() {
	for len(h.ring) > 0 {
		granted := false
		for i := range len(h.ring) {
			idx := (h.turn + i) % len(h.ring)
			f := h.ring[idx]
			w := f.waiting[0]
			if !h.fits(f, w.width) {
				continue
			}
			h.grant(f, w.width)
			close(w.granted)
			f.waiting = f.waiting[1:]
			granted = true
			h.turn = idx + 1
			if len(f.waiting) == 0 {
				h.unring(f) // the next client takes f's place in the ring
			}
			if h.turn >= len(h.ring) {
				h.turn = 0
			}
			break
		}
		if !granted {
			return
		}
	}
}

// AdmitStream counts a stream of client that may be heavy (by its method)
// from its headers to its end, before its message is read; it reports
// false, counting nothing, when the client already has Share+Queue such
// streams, or the lane has max of them in all. end, called once when the
// stream ends, uncounts it. The admission gate calls it (Admission.Heavy).
func (h *Heavy) AdmitStream(client any, most int64) (end func(), ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.flow(client)
	if f.admitted >= max(1, h.Share)+max(0, h.Queue) || (most > 0 && h.gated.Load() >= most) {
		h.drop(f)
		return nil, false
	}
	f.admitted++
	h.gated.Add(1)
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		f.admitted--
		h.gated.Add(-1)
		h.drop(f)
	}, true
}

// InUse is the seats held now.
func (h *Heavy) InUse() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.used
}

// clientKey keys a REST caller's address (Clients) in a request's context.
type clientKey struct{}

// WithClient returns ctx naming its call's client as client (an address);
// the heavy lane keys its shares on it.
func WithClient(ctx context.Context, client string) context.Context {
	return context.WithValue(ctx, clientKey{}, client)
}

// ClientMetadata is the metadata key under which the loopback gateway's
// calls name their REST caller (trusted with the gateway token only).
const ClientMetadata = "x-gamerules-client"

// Client is the client a call of ctx belongs to, for the heavy lane's
// shares: the REST caller's address (WithClient; over the loopback
// gateway, ClientMetadata with the gateway token); for a gRPC call from a
// peer in TrustedProxies with x-forwarded-for metadata, the caller it
// names (as Clients reads the header); else its gRPC connection
// (TagConn), else its peer's address ("host:port").
func (a *Admission) Client(ctx context.Context) any {
	if c, ok := ctx.Value(clientKey{}).(string); ok {
		return "rest " + c
	}
	if a.FromGateway(ctx) {
		if v := metadata.ValueFromIncomingContext(ctx, ClientMetadata); len(v) == 1 {
			return "rest " + v[0]
		}
	}
	if len(a.TrustedProxies) > 0 {
		if hops := metadata.ValueFromIncomingContext(ctx, "x-forwarded-for"); len(hops) > 0 {
			if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
				if ap, err := netip.ParseAddrPort(p.Addr.String()); err == nil && inPrefixes(a.TrustedProxies, ap.Addr().Unmap()) {
					return "grpc " + forwardedClient(p.Addr.String(), hops, a.TrustedProxies)
				}
			}
		}
	}
	if ad := admittedFrom(ctx); ad != nil && ad.cs != nil {
		return ad.cs
	}
	if cs := connFrom(ctx); cs != nil {
		return cs
	}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		return p.Addr.String()
	}
	return ""
}

// CostGate is the unary interceptor of the heavy lane (Admission.Heavy;
// nil: it passes every call): cost (nil: none) is a call's cost in work
// units, given its full method and its decoded request; a heavy one gives
// back its in-flight slot (InFlight's, when the call holds one) and takes
// its seats for its Client (Heavy.Acquire) until its handler returns. It
// must sit inside the in-flight limit, on both ports.
func (a *Admission) CostGate(scope func(fullMethod string) bool, cost func(fullMethod string, req any) int64) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		h := a.Heavy
		if h == nil || cost == nil || !inScope(scope, info.FullMethod) {
			return handler(ctx, req)
		}
		c := cost(info.FullMethod, req)
		if h.Width(c) == 0 {
			return handler(ctx, req)
		}
		yieldSlot(ctx)
		release, err := h.Acquire(ctx, a.Client(ctx), c)
		if err != nil {
			return nil, statusOf(err)
		}
		defer release()
		return handler(ctx, req)
	}
}

// slotKey keys a call's *slotHold in its context.
type slotKey struct{}

// slotHold is an in-flight slot a call holds, which it gives back once:
// when it enters the heavy lane, or when it ends.
type slotHold struct {
	once    sync.Once
	release func()
}

func (s *slotHold) give() { s.once.Do(s.release) }

// holdSlot puts release, an in-flight slot's, in ctx for yieldSlot, and
// returns the once-only release to call when the call ends.
func holdSlot(ctx context.Context, release func()) (context.Context, func()) {
	s := &slotHold{release: release}
	return context.WithValue(ctx, slotKey{}, s), s.give
}

// yieldSlot gives back the in-flight slot the call of ctx holds, if any.
func yieldSlot(ctx context.Context) {
	if s, ok := ctx.Value(slotKey{}).(*slotHold); ok {
		s.give()
	}
}

// statusOf is err as a gRPC status error: a context's error as its code
// (CANCELED, DEADLINE_EXCEEDED), any other as it is.
func statusOf(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return status.FromContextError(err).Err()
	}
	return err
}
