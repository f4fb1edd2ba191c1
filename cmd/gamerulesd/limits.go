package main

import (
	"context"
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
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
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
	slots chan struct{}
	wait  time.Duration
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
type admission struct {
	cap      int64
	n        atomic.Int64
	refused  prometheus.Counter
	refusedN atomic.Int64 // the same count, for logRefusals
}

func (a *admission) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	if !strings.HasPrefix(info.FullMethodName, gameRulesPrefix) {
		return ctx, nil
	}
	if a.n.Add(1) > a.cap {
		a.n.Add(-1)
		a.refused.Inc()
		a.refusedN.Add(1)
		return nil, overloadStatus(fmt.Sprintf("the server has %d requests in flight or waiting, its limit (--max-in-flight, --max-waiting)", a.cap)).Err()
	}
	context.AfterFunc(ctx, func() { a.n.Add(-1) })
	return ctx, nil
}

// limitUnary is the unary interceptor that runs at most len(l.slots) API
// requests at once; a request waits for a slot at most l.wait, then is
// refused RESOURCE_EXHAUSTED (with RetryInfo). Other services are exempt.
func limitUnary(l *limiter) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !strings.HasPrefix(info.FullMethod, gameRulesPrefix) {
			return handler(ctx, req)
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
		release, err := l.acquire(r.Context())
		if err != nil {
			refused.Inc()
			w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
			writeStatusProto(w, http.StatusTooManyRequests, overloadStatus(fmt.Sprintf("the server is running %d REST requests, its limit (--max-in-flight), and none finished within %v (--queue-wait)", cap(l.slots), l.wait)))
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
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
