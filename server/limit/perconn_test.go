package limit

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// TestAnswerKeepsItsPlaceUntilWritten: with one place per connection, a
// call whose large answer the transport has not yet written (its buffer
// not freed) leaves the connection's next call waiting, then refused;
// once the buffer is freed, the next call runs, and the unread bytes are
// counted meanwhile. A small answer gives its place back at once.
func TestAnswerKeepsItsPlaceUntilWritten(t *testing.T) {
	a := &Admission{Cap: 10, ReadTimeout: time.Minute, RequestTimeout: time.Minute, ConnSlots: 1}
	conn := a.TagConn(context.Background(), &stats.ConnTagInfo{})
	info := &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/ListGames"}
	ic := NewInFlight(4, 50*time.Millisecond).UnaryServerInterceptor(nil, nil)
	codec := Codec()
	call := func(answer *gamerulesv1.ListGamesResponse) (any, error) {
		ctx, err := a.TapHandle(conn, &tap.Info{FullMethodName: info.FullMethod})
		if err != nil {
			t.Fatal(err)
		}
		return a.Started(ctx, nil, info, func(ctx context.Context, req any) (any, error) {
			return ic(ctx, req, info, func(context.Context, any) (any, error) { return answer, nil })
		})
	}
	large := &gamerulesv1.ListGamesResponse{Games: []*gamerulesv1.GameInfo{{Id: strings.Repeat("x", 4096)}}}
	resp, err := call(large)
	if err != nil {
		t.Fatal(err)
	}
	data, err := codec.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.UnreadBytes(); got < 4096 {
		t.Errorf("unread bytes while the answer is queued = %d; want its size", got)
	}
	if _, err := call(&gamerulesv1.ListGamesResponse{}); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a call while the connection's one place holds an unwritten answer = %v; want RESOURCE_EXHAUSTED after the wait", err)
	}
	data.Free() // the transport wrote it
	if got := a.UnreadBytes(); got != 0 {
		t.Errorf("unread bytes once written = %d; want 0", got)
	}
	for i := 0; i < 3; i++ {
		resp, err := call(&gamerulesv1.ListGamesResponse{})
		if err != nil {
			t.Fatalf("call %d after the answer was written: %v", i, err)
		}
		small, err := codec.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		small.Free()
	}
}

// TestStaleStreamsPerConnection: a connection's streams without a message
// hold the gate only up to PendingPerConn after staleAfter; the rest are
// ended then, and new ones refused at once.
func TestStaleStreamsPerConnection(t *testing.T) {
	a := &Admission{Cap: 100, ReadTimeout: time.Minute, RequestTimeout: time.Minute, ConnSlots: 1}
	conn := a.TagConn(context.Background(), &stats.ConnTagInfo{})
	var ctxs []context.Context
	for i := 0; i < PendingPerConn+4; i++ {
		ctx, err := a.TapHandle(conn, &tap.Info{FullMethodName: "/gamerules.v1.GameRules/Score"})
		if err != nil {
			t.Fatalf("stream %d refused at once: %v", i, err)
		}
		ctxs = append(ctxs, ctx)
	}
	time.Sleep(staleAfter + 100*time.Millisecond)
	ended := 0
	for _, ctx := range ctxs {
		if ctx.Err() != nil {
			ended++
		}
	}
	if ended != 4 {
		t.Errorf("%d streams ended after %v; want the 4 past PendingPerConn", ended, staleAfter)
	}
	if _, err := a.TapHandle(conn, &tap.Info{FullMethodName: "/gamerules.v1.GameRules/Score"}); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a new stream while %d are stale = %v; want RESOURCE_EXHAUSTED", PendingPerConn, err)
	}
	other := a.TagConn(context.Background(), &stats.ConnTagInfo{})
	if _, err := a.TapHandle(other, &tap.Info{FullMethodName: "/gamerules.v1.GameRules/Score"}); err != nil {
		t.Errorf("another connection's stream = %v; want admitted", err)
	}
}

// TestUnreadAnswersLeaveTheGate: answers handed to the transport and not
// written hold their connection's places, not the gate's. With a gate of
// 4 and 2 places per connection, two connections' 4 unread answers leave
// the gate empty (it was full: a third connection's calls were refused
// until the streams' deadline); once a connection's answers have stayed
// unwritten for AnswerWait with its places taken, its new streams are
// refused at once, before their message (they would have waited for a
// place, holding one of the gate), while another connection's are
// admitted; once the answers are written, its streams are admitted again.
func TestUnreadAnswersLeaveTheGate(t *testing.T) {
	const wait = 50 * time.Millisecond
	a := &Admission{Cap: 4, ReadTimeout: time.Minute, RequestTimeout: time.Minute, ConnSlots: 2, AnswerWait: wait}
	info := &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/ListGames"}
	ic := NewInFlight(8, wait).UnaryServerInterceptor(nil, nil)
	codec := Codec()
	large := &gamerulesv1.ListGamesResponse{Games: []*gamerulesv1.GameInfo{{Id: strings.Repeat("x", 4096)}}}
	call := func(conn context.Context) (any, error) {
		ctx, err := a.TapHandle(conn, &tap.Info{FullMethodName: info.FullMethod})
		if err != nil {
			return nil, err
		}
		return a.Started(ctx, nil, info, func(ctx context.Context, req any) (any, error) {
			return ic(ctx, req, info, func(context.Context, any) (any, error) { return large, nil })
		})
	}
	var unwritten []interface{ Free() }
	readers := []context.Context{a.TagConn(context.Background(), &stats.ConnTagInfo{}), a.TagConn(context.Background(), &stats.ConnTagInfo{})}
	for _, conn := range readers {
		for range 2 {
			resp, err := call(conn)
			if err != nil {
				t.Fatal(err)
			}
			data, err := codec.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			unwritten = append(unwritten, data)
		}
	}
	if n := a.n.Load(); n != 0 {
		t.Errorf("gate places held by 4 answers handed to the transport = %d; want 0", n)
	}
	polite := a.TagConn(context.Background(), &stats.ConnTagInfo{})
	for i := range 4 {
		resp, err := call(polite)
		if err != nil {
			t.Fatalf("another connection's call %d while 4 answers are unread: %v", i, err)
		}
		data, err := codec.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		data.Free() // this client reads
	}
	time.Sleep(wait + 10*time.Millisecond)
	start := time.Now()
	_, err := a.TapHandle(readers[0], &tap.Info{FullMethodName: info.FullMethod})
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(status.Convert(err).Message(), "not read") {
		t.Errorf("a new stream of a connection whose 2 places hold answers unread for %v = %v; want RESOURCE_EXHAUSTED at once, saying so", wait, err)
	}
	if d := time.Since(start); d > wait/2 {
		t.Errorf("the refusal took %v; want it at once", d)
	}
	for _, d := range unwritten[:2] {
		d.Free() // the transport wrote readers[0]'s answers
	}
	if _, err := call(readers[0]); err != nil {
		t.Errorf("a call once the connection's answers were written: %v", err)
	}
}
