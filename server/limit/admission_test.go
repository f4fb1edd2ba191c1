package limit

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
)

// TestAdmission: the gate admits up to its cap of API streams, refuses the
// next at once, exempts other services, and frees a place when a stream's
// context ends.
func TestAdmission(t *testing.T) {
	a := &Admission{Cap: 2, Scope: MethodPrefix("/gamerules.v1.GameRules/"), ReadTimeout: time.Minute, RequestTimeout: time.Minute, Refused: prometheus.NewCounter(prometheus.CounterOpts{Name: "test_refused_total"})}
	api := &tap.Info{FullMethodName: "/gamerules.v1.GameRules/Score"}
	ctx1, end1 := context.WithCancel(context.Background())
	ctx2, end2 := context.WithCancel(context.Background())
	defer end2()
	for _, ctx := range []context.Context{ctx1, ctx2} {
		if _, err := a.TapHandle(ctx, api); err != nil {
			t.Fatalf("admission under the cap: %v", err)
		}
	}
	if _, err := a.TapHandle(context.Background(), api); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("admission over the cap = %v; want RESOURCE_EXHAUSTED", err)
	}
	if _, err := a.TapHandle(context.Background(), &tap.Info{FullMethodName: "/grpc.health.v1.Health/Check"}); err != nil {
		t.Errorf("health over the cap = %v; want it exempt", err)
	}
	end1()
	deadline := time.Now().Add(5 * time.Second)
	for a.n.Load() != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := a.TapHandle(context.Background(), api); err != nil {
		t.Errorf("admission after a stream ended = %v; want a free place", err)
	}
	if a.refusedN.Load() != 1 {
		t.Errorf("refused count %d; want 1", a.refusedN.Load())
	}
}
