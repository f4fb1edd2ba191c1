package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/grpc"
)

type deadlineTestKey struct{}

// TestCallDeadline checks the deadline a handler sees through callDeadline
// against context.WithTimeout's, for a call outside the API's scope (a
// lazyDeadline) and one in it (limit.Deadline): the deadline itself, the
// parent's values, Err and Done before the deadline, after it, after the
// parent's cancellation and after the call has returned, context.Cause,
// and the cancellation of a child context and of context.AfterFunc.
func TestCallDeadline(t *testing.T) {
	const d = time.Hour
	scope := func(m string) bool { return m == "/in.Scope/Call" }
	cd := callDeadline(d, scope)
	run := func(method string, parent context.Context, f func(ctx context.Context)) context.Context {
		var seen context.Context
		_, _ = cd(parent, nil, &grpc.UnaryServerInfo{FullMethod: method}, func(ctx context.Context, _ any) (any, error) {
			seen = ctx
			f(ctx)
			return nil, nil
		})
		return seen
	}
	for _, method := range []string{"/grpc.health.v1.Health/Check", "/in.Scope/Call"} {
		parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), deadlineTestKey{}, "v"))
		before := time.Now()
		var child context.Context
		afterFunc := make(chan struct{})
		ctx := run(method, parent, func(ctx context.Context) {
			dl, ok := ctx.Deadline()
			if !ok || dl.Before(before.Add(d)) || dl.After(time.Now().Add(d)) {
				t.Errorf("%s: deadline %v %v, want %v from now", method, dl, ok, d)
			}
			if ctx.Value(deadlineTestKey{}) != "v" {
				t.Errorf("%s: the parent's value is lost", method)
			}
			if ctx.Err() != nil || context.Cause(ctx) != nil {
				t.Errorf("%s: Err %v, Cause %v before the deadline", method, ctx.Err(), context.Cause(ctx))
			}
			select {
			case <-ctx.Done():
				t.Errorf("%s: done before the deadline", method)
			default:
			}
			var cancelChild context.CancelFunc
			child, cancelChild = context.WithCancel(ctx)
			t.Cleanup(cancelChild)
			context.AfterFunc(ctx, func() { close(afterFunc) })
		})
		cancelParent()
		// The call has returned: its context is cancelled, its child and
		// AfterFunc with it.
		<-ctx.Done()
		<-child.Done()
		<-afterFunc
		if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(child.Err(), context.Canceled) || !errors.Is(context.Cause(ctx), context.Canceled) {
			t.Errorf("%s: after the call Err %v, child %v, Cause %v; want Canceled", method, ctx.Err(), child.Err(), context.Cause(ctx))
		}
	}
	// Untouched until the call ends: done and Canceled after it.
	ctx := run("/grpc.health.v1.Health/Check", context.Background(), func(context.Context) {})
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(context.Cause(ctx), context.Canceled) {
		t.Errorf("untouched: after the call Err %v, Cause %v; want Canceled", ctx.Err(), context.Cause(ctx))
	}
	// A parent cancelled during the call: Canceled at once, asked or not.
	parent, cancelParent := context.WithCancel(context.Background())
	run("/grpc.health.v1.Health/Check", parent, func(ctx context.Context) {
		cancelParent()
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("parent cancelled: Err %v; want Canceled", ctx.Err())
		}
		<-ctx.Done()
	})
	// A deadline passed during the call (a 1 ns limit): DeadlineExceeded,
	// through Err alone and through Done and Cause.
	short := callDeadline(time.Nanosecond, scope)
	for _, ask := range []string{"Err", "Done"} {
		_, _ = short(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/grpc.health.v1.Health/Check"}, func(ctx context.Context, _ any) (any, error) {
			for dl, _ := ctx.Deadline(); time.Now().Before(dl); {
			}
			if ask == "Done" {
				<-ctx.Done()
				if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
					t.Errorf("Cause %v past the deadline; want DeadlineExceeded", context.Cause(ctx))
				}
			}
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.Errorf("%s: Err %v past the deadline; want DeadlineExceeded", ask, ctx.Err())
			}
			return nil, nil
		})
	}
	// A client's shorter deadline is kept as it is.
	parent, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run("/grpc.health.v1.Health/Check", parent, func(ctx context.Context) {
		if ctx != parent {
			t.Errorf("a shorter deadline was replaced")
		}
	})
}
