package server

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/internal/benchcpu"
	"github.com/gamerules/gamerules/internal/hostiletest"
	"github.com/gamerules/gamerules/service"
)

// checkCtx is a context whose deadline passes at its expireAt-th
// consultation (a call of Done or Err; 0: never), not at a time: a test of
// "the call stops at its deadline" built on it asks whether the handler
// looks at its context between units of work and returns once it is done,
// whatever the machine's speed. It counts the consultations.
type checkCtx struct {
	context.Context
	expireAt int64
	checks   atomic.Int64
	atExpiry atomic.Int64 // checks when it expired
	done     chan struct{}
	once     sync.Once
}

func newCheckCtx(parent context.Context, expireAt int64) *checkCtx {
	return &checkCtx{Context: parent, expireAt: expireAt, done: make(chan struct{})}
}

func (c *checkCtx) check() {
	n := c.checks.Add(1)
	if c.expireAt > 0 && n >= c.expireAt {
		c.once.Do(func() { c.atExpiry.Store(n); close(c.done) })
	}
}

func (c *checkCtx) Done() <-chan struct{} { c.check(); return c.done }

func (c *checkCtx) Err() error {
	c.check()
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return c.Context.Err()
	}
}

// expiringImports is the real service, except that ImportRecord runs under
// a checkCtx expiring at its next expireAt-th consultation; the last one
// is kept for the test to read.
type expiringImports struct {
	gamerulesv1grpc.GameRulesServer
	expireAt atomic.Int64
	mu       sync.Mutex
	last     *checkCtx
}

func (e *expiringImports) ImportRecord(ctx context.Context, req *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error) {
	c := newCheckCtx(ctx, e.expireAt.Load())
	e.mu.Lock()
	e.last = c
	e.mu.Unlock()
	return e.GameRulesServer.ImportRecord(c, req)
}

// cpuWindow is how long the process's CPU is watched after an answer, and
// cpuKept the CPU over that window (beyond the quiet baseline's) that
// counts as a core kept: half the window, generous on a loaded machine (a
// handler left running takes a whole core's worth, less only when the
// machine's other processes starve this one).
const cpuWindow, cpuKept = 200 * time.Millisecond, 100 * time.Millisecond

// uncheckedImports are the costly imports refused before their handler
// first looks at its context: the JSON reader's element limit stops them
// within bounded work (record.MaxElements).
var uncheckedImports = map[string]bool{"json options of empty objects": true}

// TestImportRecordDeadline: every costliest ImportRecord of the largest
// legal size (hostiletest.Imports), over gRPC and REST, stops when its
// deadline passes, judged by what the handler does and not by the clock.
// Each import runs once with a deadline that never passes, counting how
// often it looks at its context (its checks); then with a deadline that
// passes at its first check, and at its middle check: the answer must be
// DEADLINE_EXCEEDED (REST 504) whenever the deadline passed, with at most
// one more check after it (the handler returned at the next), and over
// the window after the last answer the process must use little CPU beyond
// a quiet baseline (no work left running). Every import but
// uncheckedImports must check its context at least once. An import that
// ignored its deadline answers its ordinary answer instead and fails here
// on any machine, fast or loaded.
func TestImportRecordDeadline(t *testing.T) {
	svc := &expiringImports{GameRulesServer: NewGRPCService(service.New())}
	st := newGatewayStack(t, svc, func(c *Options) {})
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, st.grpc))
	limit := DefaultOptions().MaxRecvBytes
	// The quiet baseline: this process's CPU over a window with no call.
	time.Sleep(100 * time.Millisecond)
	c0 := benchcpu.ProcessOrSkip(t)
	time.Sleep(cpuWindow)
	quiet := benchcpu.ProcessOrSkip(t) - c0
	t.Logf("quiet baseline: %v of CPU over %v", quiet, cpuWindow)
	last := func() *checkCtx {
		svc.mu.Lock()
		defer svc.mu.Unlock()
		return svc.last
	}
	// call makes the import over one transport with the deadline passing at
	// check expireAt (0: never), and returns the answer's code, the checks
	// made and the check at which the deadline passed (0: it did not).
	call := func(h hostiletest.Import, transport string, expireAt int64) (code codes.Code, checks, atExpiry int64) {
		svc.expireAt.Store(expireAt)
		if transport == "gRPC" {
			_, err := client.ImportRecord(context.Background(), h.GRPCRequest(limit))
			code = status.Code(err)
		} else {
			rec := st.serve(http.MethodPost, "/v1/games/"+h.Game+":importRecord", h.RESTBody(t, limit))
			code = map[int]codes.Code{200: codes.OK, 400: codes.InvalidArgument, 504: codes.DeadlineExceeded}[rec.Code]
			if _, known := map[int]bool{200: true, 400: true, 504: true}[rec.Code]; !known {
				t.Errorf("%s over REST: %d %.200s", h.Name, rec.Code, rec.Body)
				code = codes.Unknown
			}
		}
		c := last()
		return code, c.checks.Load(), c.atExpiry.Load()
	}
	for _, h := range hostiletest.Imports(t, "..") {
		for _, transport := range []string{"gRPC", "REST"} {
			answer, n, _ := call(h, transport, 0)
			line := h.Name + " over " + transport + ": " + answer.String() + " after " + strconv.FormatInt(n, 10) + " checks"
			if n == 0 && !uncheckedImports[h.Name] {
				t.Errorf("%s over %s: answered %v without looking at its context once", h.Name, transport, answer)
			}
			var at []int64 // the checks at which the deadline passes: the first and the middle
			if n > 0 {
				at = append(at, 1)
			}
			if mid := (n + 1) / 2; mid > 1 {
				at = append(at, mid)
			}
			for _, k := range at {
				code, checks, expired := call(h, transport, k)
				line += "; deadline at check " + strconv.FormatInt(k, 10) + ": " + code.String() + " after " + strconv.FormatInt(checks-expired, 10) + " more"
				if expired == 0 || code != codes.DeadlineExceeded || checks-expired > 1 {
					t.Errorf("%s over %s, the deadline passing at check %d of %d: answered %v after %d more checks; want DEADLINE_EXCEEDED at the next check", h.Name, transport, k, n, code, checks-expired)
				}
			}
			before := benchcpu.ProcessOrSkip(t)
			time.Sleep(cpuWindow)
			kept := benchcpu.ProcessOrSkip(t) - before - quiet
			t.Logf("%s; CPU in the %v after the last answer %v beyond the quiet baseline", line, cpuWindow, kept)
			if kept > cpuKept {
				t.Errorf("%s over %s: the process used %v of CPU beyond the quiet baseline in the %v after the answer; work was left running", h.Name, transport, kept, cpuWindow)
			}
		}
	}
}
