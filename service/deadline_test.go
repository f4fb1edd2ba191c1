package service

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/gravitytrap"
)

// countdownCtx is a context whose deadline passes at its polls-th look
// (Err after polls calls of Err): a deterministic stand-in for a deadline
// that passes while a call works, so that a test knows the call looked at
// its context inside its loop, not only on entry.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func newCountdown(polls int) *countdownCtx {
	c := &countdownCtx{Context: context.Background()}
	c.left.Store(int64(polls))
	return c
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// worstRender is a RenderState of the largest custom Gravity Trap board:
// MaxStations stations and MaxLines lines of all but two stations each.
func worstRender(t *testing.T) *gamerulesv1.RenderStateRequest {
	def := gravitytrap.BoardDef{}
	for i := range gravitytrap.MaxStations {
		def.Stations = append(def.Stations, gravitytrap.Station{ID: i})
	}
	for a := 0; a < gravitytrap.MaxStations && len(def.Lines) < gravitytrap.MaxLines; a++ {
		for b := a + 1; b < gravitytrap.MaxStations && len(def.Lines) < gravitytrap.MaxLines; b++ {
			var l []int
			for k := range gravitytrap.MaxStations {
				if k != a && k != b {
					l = append(l, k)
				}
			}
			def.Lines = append(def.Lines, l)
		}
	}
	b, err := gravitytrap.NewBoard(def)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gravitytrap.New(gravitytrap.Options{Board: b})
	if err != nil {
		t.Fatal(err)
	}
	return &gamerulesv1.RenderStateRequest{Game: "gravity_trap", State: gravityTrapPos{s}.Encode()}
}

// TestDeadlinesInLongCalls is issue 30 item 1 at the service: every call
// whose work grows with its request, on its largest input (a 9,000-move
// replay, records of 2,250 games, a Batch of 1,000 items, Expand's and
// Playout's budgets, the largest picture), answers DEADLINE_EXCEEDED and
// no answer when its deadline has passed on entry (polls 0), and when it
// passes at the context's second look (polls 1): the call looks again
// while it works. The same calls with a live context answer (the inputs are
// valid), so the refusals are the deadline's.
func TestDeadlinesInLongCalls(t *testing.T) {
	srv := New()
	bg := context.Background()
	long := longMatchExport(10)
	mat, err := srv.ExportRecord(bg, long)
	if err != nil {
		t.Fatal(err)
	}
	jsonExport := &gamerulesv1.ExportRecordRequest{Game: bgGame, Replay: long.GetReplay()}
	js, err := srv.ExportRecord(bg, jsonExport)
	if err != nil {
		t.Fatal(err)
	}
	ng, err := srv.NewGame(bg, &gamerulesv1.NewGameRequest{Game: "abalone"})
	if err != nil {
		t.Fatal(err)
	}
	batch := &gamerulesv1.BatchRequest{}
	for range MaxBatchItems {
		batch.Requests = append(batch.Requests, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_Score{Score: &gamerulesv1.ScoreRequest{Game: "abalone", State: ng.GetState()}}})
	}
	render := worstRender(t)
	calls := []struct {
		name string
		call func(ctx context.Context) (any, error)
	}{
		{"ReplayGame", func(ctx context.Context) (any, error) { return srv.ReplayGame(ctx, long.GetReplay()) }},
		{"ExportRecord mat", func(ctx context.Context) (any, error) { return srv.ExportRecord(ctx, long) }},
		{"ExportRecord json", func(ctx context.Context) (any, error) { return srv.ExportRecord(ctx, jsonExport) }},
		{"ImportRecord mat", func(ctx context.Context) (any, error) {
			return srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: mat.GetText()})
		}},
		{"ImportRecord json", func(ctx context.Context) (any, error) {
			return srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Text: js.GetText()})
		}},
		{"Batch", func(ctx context.Context) (any, error) { return srv.Batch(ctx, batch) }},
		{"Expand", func(ctx context.Context) (any, error) {
			return srv.Expand(ctx, &gamerulesv1.ExpandRequest{Game: "abalone", State: ng.GetState(), Depth: 2, MaxNodes: MaxExpandNodes})
		}},
		{"Playout", func(ctx context.Context) (any, error) {
			return srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: "abalone", State: ng.GetState(), Games: 100, MaxPlies: 200})
		}},
		{"RenderState", func(ctx context.Context) (any, error) { return srv.RenderState(ctx, render) }},
	}
	for _, c := range calls {
		if _, err := c.call(bg); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, polls := range []int{0, 1} {
			resp, err := c.call(newCountdown(polls))
			if status.Code(err) != codes.DeadlineExceeded || !isNil(resp) {
				t.Errorf("%s, deadline at look %d: %s, %v; want DEADLINE_EXCEEDED and no answer", c.name, polls+1, fmt.Sprintf("%.80v", resp), err)
			}
		}
	}
}

// isNil reports whether an answer is nil or a nil pointer.
func isNil(v any) bool {
	return v == nil || reflect.ValueOf(v).Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil()
}
