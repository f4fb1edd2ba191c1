package limit

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestLimiter: a slot is taken at once when free, waited for at most the
// queue wait, and never past the caller's context.
func TestLimiter(t *testing.T) {
	l := NewInFlight(2, 50*time.Millisecond)
	r1, err1 := l.Acquire(context.Background())
	r2, err2 := l.Acquire(context.Background())
	if err1 != nil || err2 != nil {
		t.Fatalf("two free slots: %v, %v", err1, err2)
	}
	if _, err := l.Acquire(context.Background()); !errors.Is(err, ErrBusy) {
		t.Errorf("third acquire = %v; want ErrBusy after the wait", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("acquire with a cancelled context = %v; want context.Canceled", err)
	}
	// A slot freed while waiting is taken.
	go func() { time.Sleep(10 * time.Millisecond); r1() }()
	r3, err := newWaitingAcquire(l)
	if err != nil {
		t.Errorf("acquire while a slot frees up: %v", err)
	}
	r2()
	r3()
	if len(l.slots) != 0 {
		t.Errorf("%d slots still taken after every release", len(l.slots))
	}
}

func newWaitingAcquire(l *InFlight) (func(), error) {
	l2 := &InFlight{slots: l.slots, wait: 5 * time.Second} // the same slots, a longer wait
	return l2.Acquire(context.Background())
}

// TestLimitUnary: with every slot held, an API request is refused
// RESOURCE_EXHAUSTED with reason OVERLOADED and a RetryInfo, while a health
// check (another service) still runs.
func TestLimitUnary(t *testing.T) {
	l := NewInFlight(1, 20*time.Millisecond)
	hold, _ := l.Acquire(context.Background())
	defer hold()
	intercept := l.UnaryServerInterceptor(MethodPrefix("/gamerules.v1.GameRules/"), nil)
	ran := false
	handler := func(context.Context, any) (any, error) { ran = true; return "ok", nil }
	_, err := intercept(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/LegalMoves"}, handler)
	st := status.Convert(err)
	var reason string
	var retry time.Duration
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			reason = d.GetReason()
		case *errdetails.RetryInfo:
			retry = d.GetRetryDelay().AsDuration()
		}
	}
	if st.Code() != codes.ResourceExhausted || reason != "OVERLOADED" || retry != time.Second || ran || !strings.Contains(st.Message(), "--max-in-flight") {
		t.Errorf("overloaded LegalMoves = %v (reason %q, retry %v, handler ran %v); want RESOURCE_EXHAUSTED, OVERLOADED, 1s, not run", err, reason, retry, ran)
	}
	if out, err := intercept(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/grpc.health.v1.Health/Check"}, handler); err != nil || out != "ok" {
		t.Errorf("health check under overload = %v, %v; want it exempt", out, err)
	}
}

// TestRequestTimeout: the server's deadline is applied to a call without
// one, and a client's shorter deadline wins.
func TestRequestTimeout(t *testing.T) {
	intercept := Deadline(2 * time.Second)
	var got time.Duration
	h := func(ctx context.Context, _ any) (any, error) {
		dl, _ := ctx.Deadline()
		got = time.Until(dl)
		return nil, nil
	}
	info := &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/Score"}
	_, _ = intercept(context.Background(), nil, info, h)
	if got <= time.Second || got > 2*time.Second {
		t.Errorf("no client deadline: handler sees %v; want about 2s", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, _ = intercept(ctx, nil, info, h)
	if got > 100*time.Millisecond {
		t.Errorf("client deadline 100ms: handler sees %v", got)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel2()
	_, _ = intercept(ctx2, nil, info, h)
	if got > 2*time.Second {
		t.Errorf("client deadline 1h: handler sees %v; want it cut to 2s", got)
	}
}

// TestHTTPReusedBuffersLeaveNothing: InFlight.HTTP reuses its answer
// buffers (header map and body); one answer's status, headers and body
// never show in the next, nor does the next change what an earlier
// answer's writer was given.
func TestHTTPReusedBuffersLeaveNothing(t *testing.T) {
	answers := []struct {
		code   int
		header map[string]string
		body   string
	}{
		{http.StatusCreated, map[string]string{"Content-Type": "application/json", "X-One": "1"}, strings.Repeat("first ", 1000)},
		{0, map[string]string{"Content-Type": "text/plain"}, "second"},
		{http.StatusTeapot, nil, ""},
		{0, map[string]string{"X-Four": "4"}, `{"fourth":true}`},
	}
	i := 0
	h := NewInFlight(1, time.Second).HTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[i]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		if a.code != 0 {
			w.WriteHeader(a.code)
		}
		_, _ = io.WriteString(w, a.body)
	}), nil)
	var recs []*httptest.ResponseRecorder
	for range 3 {
		for i = range answers {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/", nil))
			recs = append(recs, rec)
		}
	}
	for n, rec := range recs {
		a := answers[n%len(answers)]
		code := a.code
		if code == 0 {
			code = http.StatusOK
		}
		want := http.Header{}
		for k, v := range a.header {
			want.Set(k, v)
		}
		if a.body != "" {
			want.Set("Content-Length", strconv.Itoa(len(a.body)))
		}
		if rec.Code != code || rec.Body.String() != a.body || !reflect.DeepEqual(rec.Header(), want) {
			t.Errorf("answer %d: %d %v %.30q, want %d %v %.30q", n, rec.Code, rec.Header(), rec.Body.String(), code, want, a.body)
		}
	}
}

// TestHTTPContentLength: an answer InFlight.HTTP kept in memory goes out
// with its Content-Length, not chunked, above net/http's 2 KiB buffer too;
// a length the handler set stays, and an answer that may have no body
// (204, 304) gets none.
func TestHTTPContentLength(t *testing.T) {
	srv := httptest.NewServer(NewInFlight(4, time.Second).HTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if c := q.Get("code"); c != "" {
			n, _ := strconv.Atoi(c)
			w.WriteHeader(n)
			return
		}
		n, _ := strconv.Atoi(q.Get("n"))
		_, _ = io.WriteString(w, strings.Repeat("x", n/2))
		_, _ = io.WriteString(w, strings.Repeat("y", n-n/2))
	}), nil))
	defer srv.Close()
	for _, c := range []struct {
		query   string
		code    int
		length  int64
		chunked bool
	}{
		{"n=0", 200, 0, false},
		{"n=10", 200, 10, false},
		{"n=2048", 200, 2048, false},
		{"n=100000", 200, 100000, false},
		{"code=204", 204, 0, false},
		{"code=304", 304, 0, false},
	} {
		resp, err := http.Get(srv.URL + "/?" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		chunked := len(resp.TransferEncoding) > 0
		if resp.StatusCode != c.code || resp.ContentLength != c.length || chunked != c.chunked || int64(len(body)) != max(c.length, 0) {
			t.Errorf("%s: %d, length %d, chunked %v, %d bytes; want %d, length %d, chunked %v", c.query, resp.StatusCode, resp.ContentLength, chunked, len(body), c.code, c.length, c.chunked)
		}
		if h := resp.Header.Values("Content-Length"); c.code == 204 && len(h) > 0 {
			t.Errorf("%s: Content-Length %v on a 204", c.query, h)
		}
	}
}
