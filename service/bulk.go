package service

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// MaxBatchItems is the most calls one Batch takes. A batch of that many
// small items (a state text each: 4 elements) stays inside the transport's
// element budget (server/limit MaxElements, 10,000: over REST that budget,
// which counts every JSON key, bounds a batch first — about 700 applyMove
// items of a state text and a notation), so it is the item count and the
// answer's size that bound the work of a call.
const MaxBatchItems = 1_000

// MaxBatchAnswerBytes bounds a Batch answer (its protobuf size; JSON is
// about three times that): a batch whose answers pass it fails whole
// (INVALID_REQUEST on requests), not retryable, rather than answer tens of
// MiB. 4 MiB of protobuf is about 12 MB of JSON, which the REST port's
// budget of answers held for clients (37.7 MB at the defaults) takes; at
// 32 MiB a batch of 900 Labyrinth LegalMoves with results was refused as
// OVERLOADED after its work, or its connection closed without an answer.
const MaxBatchAnswerBytes = 4 << 20

// batchSerial is the batch size up to which Batch works in the calling
// goroutine: below it starting workers costs more than it saves.
const batchSerial = 8

// Batch answers each item of the request as its single call would, in
// order; an item that fails carries its error (the single call's
// status). See MaxBatchItems and MaxBatchAnswerBytes for its limits; the
// deadline is checked before each item, and a call past it fails whole.
func (s *Server) Batch(ctx context.Context, req *gamerulesv1.BatchRequest) (*gamerulesv1.BatchResponse, error) {
	items := req.GetRequests()
	if n := len(items); n > MaxBatchItems {
		return nil, toStatus("requests", fmt.Errorf("%w: %d requests; at most %d per call", errInvalidRequest, n, MaxBatchItems))
	}
	out := make([]*gamerulesv1.BatchResponseItem, len(items))
	var size atomic.Int64
	work := func(i int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		out[i] = s.batchItem(ctx, i, items[i])
		if size.Add(int64(sizeOf(out[i]))) > MaxBatchAnswerBytes {
			return fmt.Errorf("%w: the answers of the first items take more than %d bytes; send fewer requests per call, or ask for less (read_mask, no include_results)", errInvalidRequest, MaxBatchAnswerBytes)
		}
		return nil
	}
	if err := parallel(len(items), batchSerial, work); err != nil {
		return nil, toStatus("requests", err)
	}
	return &gamerulesv1.BatchResponse{Responses: out}, nil
}

// batchItem answers item i of a batch: the single call's answer, or its
// error as a google.rpc.Status. A panic of the call (a bug) fails the item
// only, INTERNAL, as the server's recovery would fail the single call.
func (s *Server) batchItem(ctx context.Context, i int, item *gamerulesv1.BatchRequestItem) (resp *gamerulesv1.BatchResponseItem) {
	defer func() {
		if p := recover(); p != nil {
			resp = batchError(Errorf(code.Code_INTERNAL, "internal error"))
		}
	}()
	var err error
	switch r := item.GetRequest().(type) {
	case *gamerulesv1.BatchRequestItem_NewGame:
		var a *gamerulesv1.NewGameResponse
		if a, err = s.NewGame(ctx, r.NewGame); err == nil {
			return &gamerulesv1.BatchResponseItem{Response: &gamerulesv1.BatchResponseItem_NewGame{NewGame: a}}
		}
	case *gamerulesv1.BatchRequestItem_LegalMoves:
		var a *gamerulesv1.LegalMovesResponse
		if a, err = s.LegalMoves(ctx, r.LegalMoves); err == nil {
			return &gamerulesv1.BatchResponseItem{Response: &gamerulesv1.BatchResponseItem_LegalMoves{LegalMoves: a}}
		}
	case *gamerulesv1.BatchRequestItem_ApplyMove:
		var a *gamerulesv1.ApplyMoveResponse
		if a, err = s.ApplyMove(ctx, r.ApplyMove); err == nil {
			return &gamerulesv1.BatchResponseItem{Response: &gamerulesv1.BatchResponseItem_ApplyMove{ApplyMove: a}}
		}
	case *gamerulesv1.BatchRequestItem_Score:
		var a *gamerulesv1.ScoreResponse
		if a, err = s.Score(ctx, r.Score); err == nil {
			return &gamerulesv1.BatchResponseItem{Response: &gamerulesv1.BatchResponseItem_Score{Score: a}}
		}
	case *gamerulesv1.BatchRequestItem_ObserveState:
		var a *gamerulesv1.ObserveStateResponse
		if a, err = s.ObserveState(ctx, r.ObserveState); err == nil {
			return &gamerulesv1.BatchResponseItem{Response: &gamerulesv1.BatchResponseItem_ObserveState{ObserveState: a}}
		}
	default:
		err = toStatus("requests["+strconv.Itoa(i)+"]", fmt.Errorf("%w: the item names no call; want one of new_game, legal_moves, apply_move, score, observe_state", errInvalidRequest))
	}
	return batchError(err)
}

// batchError is an item's error answer.
func batchError(err error) *gamerulesv1.BatchResponseItem {
	return &gamerulesv1.BatchResponseItem{Response: &gamerulesv1.BatchResponseItem_Error{Error: StatusOf(err)}}
}

// sizeOf is m's protobuf size: by vtprotobuf's generated sizer when m has
// one and it is linked (vtSize), else by proto.Size, which counts the same
// bytes.
func sizeOf(m proto.Message) int {
	if n, ok := vtSize(m); ok {
		return n
	}
	return proto.Size(m)
}

// parallel runs work(0..n-1) over the cores (GOMAXPROCS goroutines taking
// the next index in turn; in the caller's goroutine when n <= serial) and
// returns the first error; after an error, the indexes not yet taken are
// not run.
func parallel(n, serial int, work func(i int) error) error {
	workers := runtime.GOMAXPROCS(0)
	if n <= serial || workers == 1 {
		for i := range n {
			if err := work(i); err != nil {
				return err
			}
		}
		return nil
	}
	workers = min(workers, n)
	var next atomic.Int64
	var failed atomic.Bool
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := work(i); err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}
