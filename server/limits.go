package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// gameRulesPrefix is the full-method prefix of the API's own RPCs. Only they
// count against the request limits: health checks, reflection and /metrics
// are exempt, so probes and monitoring still answer under overload.
var gameRulesPrefix = "/" + gamerulesv1.GameRules_ServiceDesc.ServiceName + "/"

// reasonOverloaded is the ErrorInfo reason of a request refused because the
// server already has as many requests in flight as it allows.
const reasonOverloaded = "OVERLOADED"

// retryAfter is what a refused client is told to wait before trying again
// (RetryInfo on gRPC, Retry-After on REST). Requests take microseconds to
// milliseconds, so a second is plenty for the queue to clear.
const retryAfter = time.Second

// limiter bounds the requests running at once (slots) and how long a request
// may wait for a slot (wait). It is safe for concurrent use.
type limiter struct {
	slots   chan struct{}
	wait    time.Duration
	running atomic.Int64 // REST requests past the body read, waiting or running, not writing (for shutdown)
}

func newLimiter(n int, wait time.Duration) *limiter {
	return &limiter{slots: make(chan struct{}, n), wait: wait}
}

// errBusy is acquire's answer when no slot freed up in time.
var errBusy = errors.New("busy")

// acquire takes a slot, waiting at most l.wait (and never past ctx), and
// returns the function that gives it back. It fails with errBusy, or with
// ctx's error when the caller gave up first.
func (l *limiter) acquire(ctx context.Context) (release func(), err error) {
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	default:
	}
	if l.wait <= 0 {
		return nil, errBusy
	}
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return l.release, nil
	case <-t.C:
		return nil, errBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *limiter) release() { <-l.slots }

// overloadStatus is the status of a refused request: RESOURCE_EXHAUSTED with
// an ErrorInfo (reason OVERLOADED) and a RetryInfo saying when to retry.
func overloadStatus(what string) *status.Status {
	st := status.New(codes.ResourceExhausted, what+"; retry in a moment")
	if d, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: reasonOverloaded, Domain: "gamerules"},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(retryAfter)},
	); err == nil {
		return d
	}
	return st
}

// admission is the first, instant gate of a gRPC request: it runs (as the
// server's InTapHandle) when a stream's headers arrive, before the request
// message is read, and refuses the stream at once when cap requests are
// already admitted and not yet finished. Admitted requests then decode their
// message and wait for a limiter slot, so admission bounds the memory that
// decoded requests hold, whatever the number of connections. A request stays
// admitted until its stream ends (the stream's context is done).
//
// An admitted stream must deliver its message within readTimeout (its
// handler must start), and finish within requestTimeout of its headers:
// otherwise its context is cancelled and the stream ends, so that streams
// which send headers and no message cannot hold the gate. The gateway's own
// calls (they carry gatewayToken) are not counted: the REST port's limits
// already bound them.
type admission struct {
	cap            int64
	n              atomic.Int64
	refused        prometheus.Counter
	refusedN       atomic.Int64 // the same count, for logRefusals
	readTimeout    time.Duration
	requestTimeout time.Duration
	gatewayToken   string
	running        atomic.Int64 // API handlers running now (for shutdown)
}

// admittedKey keys an admitted stream's *admitted in its context.
type admittedKey struct{}

// admitted is what the gate knows of one admitted stream.
type admitted struct {
	started atomic.Bool // its handler has started: the message arrived
}

// gatewayMetadata is the metadata key under which the gateway's own calls
// carry the process's random gateway token.
const gatewayMetadata = "x-gamerules-gateway"

// fromGateway reports whether metadata md carries the gateway token.
func (a *admission) fromGateway(md metadata.MD) bool {
	return a.isToken(md.Get(gatewayMetadata))
}

// callFromGateway reports whether the incoming metadata of a call's ctx
// carries the gateway token (without copying the metadata, as
// metadata.FromIncomingContext would).
func (a *admission) callFromGateway(ctx context.Context) bool {
	return a.isToken(metadata.ValueFromIncomingContext(ctx, gatewayMetadata))
}

// isToken reports whether v, a metadata key's values, is the gateway token.
func (a *admission) isToken(v []string) bool {
	return a.gatewayToken != "" && len(v) == 1 && subtle.ConstantTimeCompare([]byte(v[0]), []byte(a.gatewayToken)) == 1
}

func (a *admission) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	if !strings.HasPrefix(info.FullMethodName, gameRulesPrefix) {
		return ctx, nil
	}
	counted := !a.fromGateway(info.Header)
	if counted {
		if a.n.Add(1) > a.cap {
			a.n.Add(-1)
			a.refused.Inc()
			a.refusedN.Add(1)
			return nil, overloadStatus(fmt.Sprintf("the server has %d requests in flight or waiting, its limit (--max-in-flight, --max-waiting)", a.cap)).Err()
		}
	}
	ctx, cancel := context.WithTimeout(ctx, a.requestTimeout)
	ad := &admitted{}
	ctx = context.WithValue(ctx, admittedKey{}, ad)
	// This runs in the transport's reader with its lock held: start a
	// timer, nothing that blocks.
	t := time.AfterFunc(a.readTimeout, func() {
		if !ad.started.Load() {
			cancel()
		}
	})
	context.AfterFunc(ctx, func() {
		t.Stop()
		cancel()
		if counted {
			a.n.Add(-1)
		}
	})
	return ctx, nil
}

// started is the first unary interceptor: it tells the admission gate that
// a stream's message arrived (so its read timer stops mattering), and
// counts the API handlers running, which shutdown waits for.
func (a *admission) started(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if ad, ok := ctx.Value(admittedKey{}).(*admitted); ok {
		ad.started.Store(true)
	}
	if !strings.HasPrefix(info.FullMethod, gameRulesPrefix) {
		return handler(ctx, req)
	}
	a.running.Add(1)
	defer a.running.Add(-1)
	return handler(ctx, req)
}

// publicSize refuses, RESOURCE_EXHAUSTED, a request larger than limit bytes
// that does not come from the gateway. The server's own receive limit is
// twice the public one, because the gateway's protobuf form of a JSON body
// can be larger than the JSON (a number such as 1e9 is 3 bytes of JSON and a
// 5-byte varint); the REST port enforces the limit on the JSON body itself.
func (a *admission) publicSize(limit int, tooLarge prometheus.Counter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if m, ok := req.(proto.Message); ok {
			if n := proto.Size(m); n > limit {
				if !a.callFromGateway(ctx) {
					tooLarge.Inc()
					return nil, status.Errorf(codes.ResourceExhausted, "request of %d bytes is larger than the server's limit of %d bytes (--max-recv-bytes)", n, limit)
				}
			}
		}
		return handler(ctx, req)
	}
}

// limitUnary is the unary interceptor that runs at most len(l.slots) API
// requests at once; a request waits for a slot at most l.wait, then is
// refused RESOURCE_EXHAUSTED (with RetryInfo). Other services, and the
// gateway's calls (counted by the REST port's own limiter), are exempt.
func limitUnary(l *limiter, a *admission) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !strings.HasPrefix(info.FullMethod, gameRulesPrefix) {
			return handler(ctx, req)
		}
		if a != nil && a.callFromGateway(ctx) {
			return handler(ctx, req) // already counted on the REST port
		}
		release, err := l.acquire(ctx)
		if err != nil {
			if errors.Is(err, errBusy) {
				return nil, overloadStatus(fmt.Sprintf("the server is running %d requests, its limit (--max-in-flight), and none finished within %v (--queue-wait)", cap(l.slots), l.wait)).Err()
			}
			return nil, status.FromContextError(err).Err()
		}
		defer release()
		return handler(ctx, req)
	}
}

// deadlineUnary gives every API request a deadline of at most d: a client's
// shorter deadline wins, a longer one or none is cut to d.
func deadlineUnary(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > d {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return handler(ctx, req)
	}
}

// limitHTTP runs at most len(l.slots) REST requests at once past this point
// (where the gateway decodes the JSON body); beyond that a request waits at
// most l.wait and is then refused 429 with Retry-After. It must sit after
// the body has been read (readBody), so that a slow client holds no slot.
func limitHTTP(next http.Handler, l *limiter, refused prometheus.Counter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := &bufferedResponse{header: http.Header{}, code: http.StatusOK}
		if !l.produce(w, r, next, buf, refused) {
			return
		}
		// The answer was produced into memory and the slot given back
		// before it is written, so that a client that reads slowly (or not
		// at all) holds no slot while the write timeout runs. The bytes it
		// holds are charged to the request's body budget; past the budget
		// the answer is refused instead.
		if h, ok := r.Context().Value(holdKey{}).(*budgetHold); ok && !h.take(int64(buf.body.Len())) {
			w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
			writeStatusProto(w, http.StatusTooManyRequests, overloadStatus(fmt.Sprintf("the server holds %d bytes of request bodies and answers, its limit ((--max-in-flight + --max-waiting) × --max-recv-bytes)", h.budget.max)))
			return
		}
		buf.writeTo(w)
	})
}

// produce runs next into buf within a slot, and reports whether it did (it
// answers 429 itself when no slot came). While it runs, the request counts
// in l.running, which shutdown waits for; writing the answer does not.
func (l *limiter) produce(w http.ResponseWriter, r *http.Request, next http.Handler, buf *bufferedResponse, refused prometheus.Counter) bool {
	l.running.Add(1)
	defer l.running.Add(-1)
	release, err := l.acquire(r.Context())
	if err != nil {
		refused.Inc()
		w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		writeStatusProto(w, http.StatusTooManyRequests, overloadStatus(fmt.Sprintf("the server is running %d REST requests, its limit (--max-in-flight), and none finished within %v (--queue-wait)", cap(l.slots), l.wait)))
		return false
	}
	defer release()
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

// writeTo sends the kept answer to w.
func (b *bufferedResponse) writeTo(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	w.WriteHeader(b.code)
	_, _ = w.Write(b.body.Bytes())
}

// refusedCounter is the metric of requests refused by a limit before any
// handler ran, by port and reason.
func refusedCounter(reg prometheus.Registerer) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gamerules_requests_refused_total",
		Help: "Requests refused before reaching a handler, by port (grpc, http) and reason (overloaded, malformed, too_large).",
	}, []string{"port", "reason"})
	reg.MustRegister(c)
	return c
}

// logRefusals logs, at most once a second, how many requests the admission
// gate refused, so that an overload shows in the logs without one line per
// refused request.
func (a *admission) logRefusals(ctx context.Context, logger *zap.Logger) {
	var last int64
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if v := a.refusedN.Load(); v > last {
				logger.Warn("requests refused: too many in flight", zap.Int("refused", int(v-last)))
				last = v
			}
		}
	}
}
