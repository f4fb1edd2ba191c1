package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/gamerules/gamerules/server/limit"
)

// callDeadline is limit.Deadline(d) (every call's deadline at most d), and
// for the calls outside scope (health checks, reflection), whose handlers
// answer without waiting on their context, the same deadline made lazily
// (lazyDeadline): its timer and Done channel only if something asks for
// them. context.WithTimeout on every Health/Check, its timer, its cancel
// context and its place in the stream context's children, was 4 to 6% of
// the call's server CPU (issue 35); the API's calls have their deadline
// from the admission gate already (limit.Admission.TapHandle) and keep
// limit.Deadline's.
func callDeadline(d time.Duration, scope func(fullMethod string) bool) grpc.UnaryServerInterceptor {
	inScope := limit.Deadline(d)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if scope(info.FullMethod) {
			return inScope(ctx, req, info, handler)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
			return handler(ctx, req)
		}
		lc := &lazyDeadline{Context: ctx, at: time.Now().Add(d)}
		defer lc.stop()
		return handler(lc, req)
	}
}

// lazyDeadline is a context whose deadline is at, as
// context.WithDeadline(parent, at) until the call ends (stop), then
// cancelled; that context (made) is made only when its Done channel or
// its cancellation is first asked for. Until then Err reads the parent and
// the clock.
type lazyDeadline struct {
	context.Context // the parent
	at              time.Time
	mu              sync.Mutex // making or stopping it
	made            atomic.Pointer[context.Context]
	cancel          context.CancelFunc
}

// canceledCtx and expiredCtx are the context of a lazyDeadline stopped
// before anything asked for its Done channel: done, Canceled, or
// DeadlineExceeded when its deadline had passed (as its timer would have
// fired first).
var (
	canceledCtx = func() context.Context {
		c, cancel := context.WithCancel(context.Background())
		cancel()
		return c
	}()
	expiredCtx, _ = context.WithDeadline(context.Background(), time.Unix(0, 0)) // done already: nothing to cancel
)

func (c *lazyDeadline) ctx() context.Context {
	if m := c.made.Load(); m != nil {
		return *m
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.made.Load(); m != nil {
		return *m
	}
	ctx, cancel := context.WithDeadline(c.Context, c.at)
	c.cancel = cancel
	c.made.Store(&ctx)
	return ctx
}

// stop ends the call: the context is cancelled, made or not.
func (c *lazyDeadline) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.made.Load() == nil {
		switch {
		case c.Context.Err() != nil:
			c.made.Store(&c.Context) // done already: its error
		case !time.Now().Before(c.at):
			c.made.Store(&expiredCtx)
		default:
			c.made.Store(&canceledCtx)
		}
	}
	if c.cancel != nil {
		c.cancel()
	}
}

func (c *lazyDeadline) Deadline() (time.Time, bool) { return c.at, true }

func (c *lazyDeadline) Done() <-chan struct{} { return c.ctx().Done() }

func (c *lazyDeadline) Err() error {
	if m := c.made.Load(); m != nil {
		return (*m).Err()
	}
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.at) {
		return context.DeadlineExceeded
	}
	return nil
}

// Value is the parent's, but for package context's own key (an *int, by
// which context.Cause and a child's cancellation find the nearest
// cancelable context): that is the made context's.
func (c *lazyDeadline) Value(key any) any {
	if _, internal := key.(*int); internal {
		if v := c.ctx().Value(key); v != nil {
			return v
		}
	}
	return c.Context.Value(key)
}

func (c *lazyDeadline) String() string { return "lazyDeadline" }
