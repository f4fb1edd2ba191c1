//go:build !(js && wasm)

package service

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

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
