//go:build !(js && wasm)

package service

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// TestErrorIsGRPCStatus checks that the service's own error type reads,
// through grpc-go, as the status grpc-go's own constructors make: the same
// code, message and details, text, Is and status.Convert of a wrapped one.
func TestErrorIsGRPCStatus(t *testing.T) {
	for c := code.Code(-1); c <= 18; c++ {
		if got, want := codeName(c), codes.Code(c).String(); got != want {
			t.Errorf("codeName(%d) = %q, grpc-go names it %q", c, got, want)
		}
	}

	err := toStatus("move.notation", fmt.Errorf("%w: 24/23 blocked", game.ErrIllegalMove))
	want := status.New(codes.InvalidArgument, "move.notation: illegal move: 24/23 blocked")
	want, werr := want.WithDetails(
		&errdetails.ErrorInfo{Reason: ReasonIllegalMove, Domain: ErrorDomain, Metadata: map[string]string{"field": "move.notation"}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "move.notation", Description: "illegal move: 24/23 blocked", Reason: ReasonIllegalMove}}},
	)
	if werr != nil {
		t.Fatal(werr)
	}
	st, ok := status.FromError(err)
	if !ok || !proto.Equal(st.Proto(), want.Proto()) {
		t.Fatalf("status.FromError(%v) = %v, %v; want %v", err, st.Proto(), ok, want.Proto())
	}
	if err.Error() != want.Err().Error() {
		t.Errorf("text %q, grpc-go's %q", err.Error(), want.Err().Error())
	}
	if !proto.Equal(StatusOf(err), want.Proto()) || status.Code(err) != codes.InvalidArgument {
		t.Errorf("StatusOf = %v, status.Code = %v", StatusOf(err), status.Code(err))
	}
	if !errors.Is(err, toStatus("move.notation", fmt.Errorf("%w: 24/23 blocked", game.ErrIllegalMove))) || errors.Is(err, Errorf(code.Code_INVALID_ARGUMENT, "x")) {
		t.Error("Is does not compare statuses")
	}
	if toStatus("state", err) != err {
		t.Error("toStatus changed an error that is already a status")
	}

	wrapped := fmt.Errorf("batch: %w", Errorf(code.Code_UNIMPLEMENTED, "no %s", "pictures"))
	if got, want := StatusOf(wrapped), status.Convert(fmt.Errorf("batch: %w", status.Errorf(codes.Unimplemented, "no pictures"))).Proto(); !proto.Equal(got, want) {
		t.Errorf("StatusOf(wrapped) = %v, grpc-go's %v", got, want)
	}
	if got := StatusOf(errors.New("plain")); got.GetCode() != int32(codes.Unknown) || got.GetMessage() != "plain" {
		t.Errorf("StatusOf(plain) = %v", got)
	}
	if got := status.Code(toStatus("state", context.DeadlineExceeded)); got != codes.DeadlineExceeded {
		t.Errorf("a deadline is %v", got)
	}
	if got, want := RequestError("body", "bad", nil).Proto(), InvalidRequest("body", "bad", nil).Proto(); !proto.Equal(got, want) || got.GetCode() != int32(codes.InvalidArgument) || len(got.GetDetails()) != 2 {
		t.Errorf("RequestError = %v, InvalidRequest %v", got, want)
	}
}

// TestErrorUnwrap: an error of the service unwraps to the error it was made
// from, so that errors.Is and errors.As see the rules' kinds through it,
// one call of every kind: each of the rules' kinds (with its reason, as
// the status says), the service's own (unknown game, invalid request), a
// context's end, an internal failure; the errors made without a cause
// unwrap to nil.
func TestErrorUnwrap(t *testing.T) {
	srv := New()
	ctx := context.Background()
	const abStart = "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"
	apply := func(game, state, move string) func() error {
		return func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: game, State: textState(state), Move: &gamerulesv1.Move{Notation: move}})
			return err
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	late, cancelLate := context.WithDeadline(ctx, time.Unix(1, 0))
	defer cancelLate()
	playout := func(ctx context.Context, games int32) func() error {
		return func() error {
			_, err := srv.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: "abalone", State: textState(abStart), Games: games, Seed: proto.Uint64(1)})
			return err
		}
	}
	bgOptions := func(o *gamerulesv1.BackgammonOptions) func() error {
		return func() error {
			_, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon", Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: o}})
			return err
		}
	}
	var parseErr *game.ParseError
	tests := []struct {
		name   string
		call   func() error
		kind   error  // errors.Is(err, kind)
		reason string // the status's ErrorInfo reason ("" for a code other than INVALID_ARGUMENT)
		code   codes.Code
		parse  bool // errors.As(err, &parseErr)
	}{
		{"invalid state", apply("abalone", "5/6/7/8/9/8/2bbb2/bbbbbb/bbbbb b", "a1b2"), game.ErrInvalidState, ReasonInvalidState, codes.InvalidArgument, false},
		{"unreadable state", apply("backgammon", "not a position", "roll 3-1"), game.ErrInvalidState, ReasonInvalidState, codes.InvalidArgument, true},
		{"illegal move", apply("abalone", abStart, "i5h5"), game.ErrIllegalMove, ReasonIllegalMove, codes.InvalidArgument, false},
		{"unreadable move", apply("abalone", abStart, "a1a0"), game.ErrIllegalMove, ReasonIllegalMove, codes.InvalidArgument, true},
		{"game over", apply("abalone", "wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w", "i5h5"), game.ErrGameOver, ReasonGameOver, codes.InvalidArgument, false},
		{"invalid options", bgOptions(&gamerulesv1.BackgammonOptions{MatchLength: 5, Beavers: true}), game.ErrInvalidOptions, ReasonInvalidOptions, codes.InvalidArgument, false},
		{"unknown game", apply("chess", "x", "e4"), errUnknownGame, ReasonUnknownGame, codes.InvalidArgument, false},
		{"invalid request", playout(ctx, 0), errInvalidRequest, ReasonInvalidRequest, codes.InvalidArgument, false},
		{"cancelled", playout(cancelled, 4), context.Canceled, "", codes.Canceled, false},
		{"deadline", playout(late, 4), context.DeadlineExceeded, "", codes.DeadlineExceeded, false},
		{"internal", func() error { return toStatus("state", errBug) }, errBug, "", codes.Internal, false},
	}
	kinds := []error{game.ErrInvalidState, game.ErrIllegalMove, game.ErrGameOver, game.ErrInvalidOptions, errUnknownGame, errInvalidRequest, context.Canceled, context.DeadlineExceeded, errBug}
	for _, tt := range tests {
		err := tt.call()
		var se *Error
		if !errors.As(err, &se) || se.Unwrap() == nil {
			t.Errorf("%s: %v (%T): not an *Error with a cause", tt.name, err, err)
			continue
		}
		if status.Code(err) != tt.code {
			t.Errorf("%s: code %v; want %v", tt.name, status.Code(err), tt.code)
		}
		if tt.reason != "" {
			if r := reasonOf(t, err); r != tt.reason {
				t.Errorf("%s: reason %s; want %s", tt.name, r, tt.reason)
			}
		}
		for _, k := range kinds {
			if got := errors.Is(err, k); got != (k == tt.kind) {
				t.Errorf("%s: errors.Is(%v, %v) = %v", tt.name, err, k, got)
			}
		}
		if got := errors.As(err, &parseErr); got != tt.parse {
			t.Errorf("%s: errors.As(%v, *game.ParseError) = %v; want %v", tt.name, err, got, tt.parse)
		}
		// The cause changes nothing of the status.
		if got, want := StatusOf(err), StatusOf(&Error{st: se.st}); !proto.Equal(got, want) || err.Error() != (&Error{st: se.st}).Error() {
			t.Errorf("%s: status %v; without its cause %v", tt.name, got, want)
		}
	}
	for _, err := range []error{Errorf(code.Code_UNIMPLEMENTED, "no pictures"), InvalidRequest("body", "bad", nil)} {
		if u := errors.Unwrap(err); u != nil {
			t.Errorf("%v unwraps to %v; want nil", err, u)
		}
	}
}

// errBug stands for an engine's bug, which toStatus makes INTERNAL.
var errBug = errors.New("a listed move does not apply")
