package limit

import (
	"context"
	"errors"
	"net"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// lane is a heavy lane of seats seats, a client's share share, queue
// queued calls per client, a wait of 5 s (the tests end waits themselves),
// costs from 100, 1,000 per extra seat.
func lane(seats, share, queue int) *Heavy {
	return &Heavy{Seats: seats, Share: share, Queue: queue, Wait: 5 * time.Second, MinCost: 100, CostPerSeat: 1000}
}

// TestHeavyWidth: a call under MinCost is light (no seat); a heavy one
// takes one seat plus one per CostPerSeat beyond MinCost, at most Share.
func TestHeavyWidth(t *testing.T) {
	h := lane(8, 3, 2)
	for cost, want := range map[int64]int{1: 0, 99: 0, 100: 1, 1099: 1, 1100: 2, 2100: 3, 1 << 40: 3} {
		if got := h.Width(cost); got != want {
			t.Errorf("Width(%d) = %d; want %d", cost, got, want)
		}
	}
	release, err := h.Acquire(context.Background(), "a", 1)
	if release != nil || err != nil || h.InUse() != 0 {
		t.Errorf("light Acquire = %v, %v, %d seats in use; want nothing taken", release != nil, err, h.InUse())
	}
}

// acquireAsync starts Acquire for client in a goroutine and returns its
// result channel once the call waits in the lane.
func acquireAsync(t *testing.T, h *Heavy, ctx context.Context, client string, cost int64) <-chan error {
	t.Helper()
	before := waiting(h)
	done := make(chan error, 1)
	go func() {
		release, err := h.Acquire(ctx, client, cost)
		if err == nil {
			t.Cleanup(release)
		}
		done <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); waiting(h) == before; time.Sleep(time.Millisecond) {
		select {
		case err := <-done:
			done <- err // granted or refused at once
			return done
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the call neither waits nor ends")
		}
	}
	return done
}

// waiting is the number of calls waiting in h.
func waiting(h *Heavy) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, f := range h.flows {
		n += len(f.waiting)
	}
	return n
}

// TestHeavyShare: a client holds at most its share; past it its calls
// wait, at most Queue of them, the next refused at once with OVERLOADED;
// another client still gets the free seats; a waiting call gets its seat
// when its client's frees; when all is given back the lane is empty.
func TestHeavyShare(t *testing.T) {
	h := lane(3, 2, 1)
	ctx := context.Background()
	ra, err := h.Acquire(ctx, "a", 1100) // 2 seats: a's whole share
	if err != nil {
		t.Fatal(err)
	}
	queued := acquireAsync(t, h, ctx, "a", 100)
	if _, err := h.Acquire(ctx, "a", 100); status.Code(err) != codes.ResourceExhausted || reason(err) != ReasonOverloaded {
		t.Errorf("a's call past its share and queue = %v; want RESOURCE_EXHAUSTED, OVERLOADED", err)
	}
	rb, err := h.Acquire(ctx, "b", 100)
	if err != nil {
		t.Fatalf("b's call with a seat free = %v; want it granted", err)
	}
	select {
	case err := <-queued:
		t.Fatalf("a's queued call ended (%v) while a holds its share", err)
	default:
	}
	ra()
	if err := <-queued; err != nil {
		t.Errorf("a's queued call after a's seats were freed = %v; want granted", err)
	}
	rb()
	ra() // a second release changes nothing
	h.mu.Lock()
	used, flows := h.used, len(h.flows)
	h.mu.Unlock()
	if used != 1 || flows != 1 {
		t.Errorf("after the releases: %d seats used, %d clients known; want 1 and 1 (a's queued call)", used, flows)
	}
}

// TestHeavyRoundRobin: with one seat, the queues of two clients are served
// in turn, whatever the order their calls came in: one client's many
// calls do not make another wait for all of them.
func TestHeavyRoundRobin(t *testing.T) {
	h := lane(1, 1, 4)
	ctx := context.Background()
	first, err := h.Acquire(ctx, "hog", 100)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	enqueue := func(client string) {
		before := waiting(h)
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := h.Acquire(ctx, client, 100)
			if err != nil {
				t.Errorf("%s: %v", client, err)
				return
			}
			mu.Lock()
			order = append(order, client)
			mu.Unlock()
			release()
		}()
		for waiting(h) == before {
			time.Sleep(time.Millisecond)
		}
	}
	for range 4 {
		enqueue("hog")
	}
	enqueue("polite")
	enqueue("polite")
	first()
	wg.Wait()
	want := []string{"hog", "polite", "hog", "polite", "hog", "hog"}
	if len(order) != len(want) {
		t.Fatalf("grant order %v; want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("grant order %v; want %v (turns)", order, want)
		}
	}
}

// TestHeavyWaitEnds: a queued call is refused OVERLOADED after Wait, or
// ends with its context's error when its caller gives up; either way it
// leaves the queue, and the seats are all given back.
func TestHeavyWaitEnds(t *testing.T) {
	h := lane(1, 1, 2)
	h.Wait = 30 * time.Millisecond
	release, err := h.Acquire(context.Background(), "a", 100)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Acquire(context.Background(), "b", 100); status.Code(err) != codes.ResourceExhausted || reason(err) != ReasonOverloaded {
		t.Errorf("a call that waited past Wait = %v; want RESOURCE_EXHAUSTED, OVERLOADED", err)
	}
	h.Wait = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	done := acquireAsync(t, h, ctx, "b", 100)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("a waiting call whose caller gave up = %v; want context.Canceled", err)
	}
	release()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.used != 0 || len(h.flows) != 0 || len(h.ring) != 0 {
		t.Errorf("after every call: %d seats used, %d clients, %d queues; want none", h.used, len(h.flows), len(h.ring))
	}
}

// TestAdmitStream: one client has at most Share+Queue streams of heavy
// methods admitted, all clients at most the bound given; ending one frees
// its place.
func TestAdmitStream(t *testing.T) {
	h := lane(2, 1, 2)
	var ends []func()
	for i := range 3 {
		end, ok := h.AdmitStream("a", 5)
		if !ok {
			t.Fatalf("a's stream %d refused; want 3 admitted", i)
		}
		ends = append(ends, end)
	}
	if _, ok := h.AdmitStream("a", 5); ok {
		t.Error("a's 4th stream admitted; want it refused (share 1 + queue 2)")
	}
	for i := range 2 {
		if _, ok := h.AdmitStream("b", 5); !ok {
			t.Fatalf("b's stream %d refused; want it admitted", i)
		}
	}
	if _, ok := h.AdmitStream("c", 5); ok {
		t.Error("a 6th stream in all admitted; want it refused (bound 5)")
	}
	ends[0]()
	if _, ok := h.AdmitStream("a", 6); !ok {
		t.Error("a's stream after one ended refused; want it admitted")
	}
}

// TestCostGateYieldsSlot: a heavy call gives its in-flight slot back when
// it enters the heavy lane, so that a light call runs beside it with one
// slot; a light call keeps its slot; the heavy call's seat is given back
// when its handler returns.
func TestCostGateYieldsSlot(t *testing.T) {
	l := NewInFlight(1, 20*time.Millisecond)
	a := &Admission{Heavy: lane(1, 1, 0)}
	cost := func(method string, _ any) int64 {
		if method == "/s/Heavy" {
			return 500
		}
		return 1
	}
	inflight, gate := l.UnaryServerInterceptor(nil, nil), a.CostGate(nil, cost)
	call := func(method string, handler grpc.UnaryHandler) error {
		_, err := inflight(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: method}, func(ctx context.Context, req any) (any, error) {
			return gate(ctx, req, &grpc.UnaryServerInfo{FullMethod: method}, handler)
		})
		return err
	}
	running, finish := make(chan struct{}), make(chan struct{})
	heavyDone := make(chan error, 1)
	go func() {
		heavyDone <- call("/s/Heavy", func(context.Context, any) (any, error) {
			close(running)
			<-finish
			return "ok", nil
		})
	}()
	<-running
	if err := call("/s/Light", func(context.Context, any) (any, error) { return "ok", nil }); err != nil {
		t.Errorf("a light call beside a running heavy one = %v; want it run", err)
	}
	if a.Heavy.InUse() != 1 {
		t.Errorf("%d seats in use while the heavy call runs; want 1", a.Heavy.InUse())
	}
	lightRunning := make(chan struct{})
	lightDone := make(chan error, 1)
	go func() {
		lightDone <- call("/s/Light", func(context.Context, any) (any, error) { close(lightRunning); <-finish; return "ok", nil })
	}()
	<-lightRunning
	if err := call("/s/Light", func(context.Context, any) (any, error) { return "ok", nil }); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a light call while another holds the one slot = %v; want RESOURCE_EXHAUSTED", err)
	}
	close(finish)
	if err := <-heavyDone; err != nil {
		t.Errorf("heavy call: %v", err)
	}
	if err := <-lightDone; err != nil {
		t.Errorf("light call: %v", err)
	}
	if a.Heavy.InUse() != 0 || len(l.slots) != 0 {
		t.Errorf("after both: %d seats, %d slots taken; want none", a.Heavy.InUse(), len(l.slots))
	}
}

// TestClients: a REST caller is its connection's address without the
// port; X-Forwarded-For names it only when that address is a trusted
// proxy, read from the right past the trusted hops.
func TestClients(t *testing.T) {
	trusted, err := ParsePrefixes("10.0.0.0/8, 192.168.1.7 ,::1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		remote string
		xff    []string
		want   string
	}{
		{"203.0.113.5:4711", nil, "203.0.113.5"},
		{"203.0.113.5:4711", []string{"1.2.3.4"}, "203.0.113.5"},           // not a proxy: the header is the client's own word
		{"10.1.2.3:80", []string{"1.2.3.4"}, "1.2.3.4"},                    // nginx in front
		{"10.1.2.3:80", []string{"6.6.6.6, 1.2.3.4, 10.9.9.9"}, "1.2.3.4"}, // a forged left part is skipped
		{"10.1.2.3:80", []string{"6.6.6.6", "1.2.3.4"}, "1.2.3.4"},         // two header lines
		{"192.168.1.7:80", []string{"10.0.0.1"}, "10.0.0.1"},               // only proxies: the leftmost
		{"10.1.2.3:80", []string{"junk, 1.2.3.4"}, "1.2.3.4"},
		{"10.1.2.3:80", []string{"1.2.3.4, junk"}, "10.1.2.3"}, // a malformed hop: the proxy itself
		{"10.1.2.3:80", nil, "10.1.2.3"},
		{"[::1]:80", []string{"2001:db8::1"}, "2001:db8::1"},
		{"[::ffff:203.0.113.5]:1", nil, "203.0.113.5"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := ClientAddr(r, trusted); got != c.want {
			t.Errorf("ClientAddr(%s, X-Forwarded-For %q) = %q; want %q", c.remote, c.xff, got, c.want)
		}
	}
	if _, err := ParsePrefixes("10.0.0.0/8,nginx"); err == nil {
		t.Error(`ParsePrefixes("10.0.0.0/8,nginx") = nil error; want one naming "nginx"`)
	}
	if got, _ := ParsePrefixes("10.1.2.3/8"); len(got) != 1 || got[0] != netip.MustParsePrefix("10.0.0.0/8") {
		t.Errorf("ParsePrefixes(10.1.2.3/8) = %v; want 10.0.0.0/8", got)
	}
}

// reason is the ErrorInfo reason of a status error.
func reason(err error) string {
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(interface{ GetReason() string }); ok {
			return ei.GetReason()
		}
	}
	return ""
}

// TestClientKey: a call's client is the REST caller WithClient names, or
// the one the loopback gateway names beside its token (and only with it),
// else its peer's address.
func TestClientKey(t *testing.T) {
	a := &Admission{GatewayToken: "token"}
	bg := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5}})
	for _, c := range []struct {
		ctx  context.Context
		want any
	}{
		{WithClient(bg, "203.0.113.1"), "rest 203.0.113.1"},
		{metadata.NewIncomingContext(bg, metadata.Pairs(GatewayMetadata, "token", ClientMetadata, "198.51.100.7")), "rest 198.51.100.7"},
		{metadata.NewIncomingContext(bg, metadata.Pairs(GatewayMetadata, "forged", ClientMetadata, "198.51.100.7")), "127.0.0.1:5"},
		{metadata.NewIncomingContext(bg, metadata.Pairs(ClientMetadata, "198.51.100.7")), "127.0.0.1:5"},
		{bg, "127.0.0.1:5"},
	} {
		if got := a.Client(c.ctx); got != c.want {
			t.Errorf("Client = %v; want %v", got, c.want)
		}
	}
}

// TestHeavyNoQueue: with no queue, a call that fits is granted even while
// another client's call waits (over its share), and one that does not fit
// is refused at once.
func TestHeavyNoQueue(t *testing.T) {
	h := lane(2, 1, 1)
	ra, err := h.Acquire(context.Background(), "a", 100)
	if err != nil {
		t.Fatal(err)
	}
	waiting := acquireAsync(t, h, context.Background(), "a", 100) // over a's share: it waits
	h.Queue = 0
	rb, err := h.Acquire(context.Background(), "b", 100)
	if err != nil {
		t.Fatalf("b's call with a seat free while a's waits = %v; want it granted", err)
	}
	if _, err := h.Acquire(context.Background(), "b", 100); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("b's second call, no queue = %v; want RESOURCE_EXHAUSTED at once", err)
	}
	rb()
	select {
	case err := <-waiting:
		t.Errorf("a's waiting call ended (%v) while a holds its share", err)
	default:
	}
	ra()
	if err := <-waiting; err != nil {
		t.Errorf("a's waiting call once a's seat was freed = %v; want granted", err)
	}
}

// TestClientKeyForwarded: a gRPC call's x-forwarded-for names its client
// only when its peer is a trusted proxy.
func TestClientKeyForwarded(t *testing.T) {
	a := &Admission{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	from := func(addr string) context.Context {
		ap := netip.MustParseAddrPort(addr)
		ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: net.TCPAddrFromAddrPort(ap)})
		return metadata.NewIncomingContext(ctx, metadata.Pairs("x-forwarded-for", "6.6.6.6, 203.0.113.9"))
	}
	if got := a.Client(from("10.1.1.1:443")); got != "grpc 203.0.113.9" {
		t.Errorf("Client via a trusted proxy = %v; want grpc 203.0.113.9", got)
	}
	if got := a.Client(from("198.51.100.1:443")); got != "198.51.100.1:443" {
		t.Errorf("Client from an untrusted peer with x-forwarded-for = %v; want the peer itself", got)
	}
}
