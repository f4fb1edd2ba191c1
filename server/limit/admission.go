package limit

import (
	"context"
	"crypto/subtle"
	"fmt"
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
// (the stream's context is done).
//
// An admitted stream must deliver its message within ReadTimeout (its
// handler must start: Started must be the server's first unary
// interceptor), and finish within RequestTimeout of its headers: otherwise
// its context is cancelled and the stream ends, so that streams which send
// headers and no message cannot hold the gate. Calls that carry
// GatewayToken under the GatewayMetadata key (the gamerules REST gateway's
// own calls) are not counted: the REST port's limits already bound them.
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

	n        atomic.Int64
	refusedN atomic.Int64 // the refused count, for LogRefusals
	running  atomic.Int64 // handlers in scope running now (for shutdown)
}

// admittedKey keys an admitted stream's *admitted in its context.
type admittedKey struct{}

// admitted is what the gate knows of one admitted stream.
type admitted struct {
	started atomic.Bool // its handler has started: the message arrived
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
	if counted {
		if a.n.Add(1) > a.Cap {
			a.n.Add(-1)
			inc(a.Refused)
			a.refusedN.Add(1)
			return nil, OverloadStatus(fmt.Sprintf("the server has %d requests in flight or waiting, its limit (--max-in-flight, --max-waiting)", a.Cap)).Err()
		}
	}
	ctx, cancel := context.WithTimeout(ctx, a.RequestTimeout)
	ad := &admitted{}
	ctx = context.WithValue(ctx, admittedKey{}, ad)
	// This runs in the transport's reader with its lock held: start a
	// timer, nothing that blocks.
	t := time.AfterFunc(a.ReadTimeout, func() {
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

// Started must be the server's first unary interceptor: it tells the gate
// that a stream's message arrived (so its read timer stops mattering), and
// counts the handlers in scope running (Running), which shutdown waits for.
func (a *Admission) Started(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if ad, ok := ctx.Value(admittedKey{}).(*admitted); ok {
		ad.started.Store(true)
	}
	if !inScope(a.Scope, info.FullMethod) {
		return handler(ctx, req)
	}
	a.running.Add(1)
	defer a.running.Add(-1)
	return handler(ctx, req)
}

// Running is the number of handlers in scope running now.
func (a *Admission) Running() int64 { return a.running.Load() }

// PublicSize is the unary interceptor that refuses, RESOURCE_EXHAUSTED, a
// request larger than limit bytes (its protobuf size) that does not come
// from the gateway, counting it on tooLarge (nil: not counted). The
// gamerules server's own receive limit (grpc.MaxRecvMsgSize) is twice the
// public one, because the gateway's protobuf form of a JSON body can be
// larger than the JSON (a number such as 1e9 is 3 bytes of JSON and a
// 5-byte varint); the REST port enforces the limit on the JSON body itself.
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
// one line per refused request.
func (a *Admission) LogRefusals(ctx context.Context, logger *zap.Logger) {
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
