package service

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gamerules/gamerules/rules/game"
)

// ErrorDomain is the google.rpc.ErrorInfo domain of every error the service
// returns.
const ErrorDomain = "gamerules"

// ErrorInfo reasons. Every one comes with code INVALID_ARGUMENT: in a
// stateless service the state is part of the request, so all of them are
// faults of the request.
const (
	ReasonUnknownGame    = "UNKNOWN_GAME"    // the game id is not served
	ReasonInvalidState   = "INVALID_STATE"   // malformed or impossible state, or text and typed disagree
	ReasonIllegalMove    = "ILLEGAL_MOVE"    // malformed move, or not legal in the state
	ReasonGameOver       = "GAME_OVER"       // a move for a finished game
	ReasonInvalidOptions = "INVALID_OPTIONS" // NewGame options out of range or for another game
	ReasonInvalidRequest = "INVALID_REQUEST" // a required field is missing or out of range
)

// errUnknownGame and errInvalidRequest are the service's own error kinds,
// next to the rules' kinds in package game.
var (
	errUnknownGame    = errors.New("unknown game")
	errInvalidRequest = errors.New("invalid request")
)

// toStatus is the one place that turns an error into a gRPC status. field is
// the request field the error is about (e.g. "state", "move.notation"). Rules
// error kinds become INVALID_ARGUMENT with an ErrorInfo reason and a
// BadRequest field violation; context errors keep their codes; anything else
// is a bug and becomes INTERNAL.
func toStatus(field string, err error) error {
	return toStatusMeta(field, err, nil)
}

// toStatusMeta is toStatus with more ErrorInfo metadata beside "field"
// (ReplayGame: the index of the bad move and the state before it).
func toStatusMeta(field string, err error, meta map[string]string) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	var sf *subFieldError
	if errors.As(err, &sf) {
		if sf.abs {
			field = sf.path
		} else {
			field += "." + sf.path
		}
	}
	var reason string
	switch {
	case errors.Is(err, errUnknownGame):
		reason = ReasonUnknownGame
	case errors.Is(err, game.ErrGameOver):
		reason = ReasonGameOver
	case errors.Is(err, game.ErrIllegalMove):
		reason = ReasonIllegalMove
	case errors.Is(err, game.ErrInvalidState):
		reason = ReasonInvalidState
	case errors.Is(err, game.ErrInvalidOptions):
		reason = ReasonInvalidOptions
	case errors.Is(err, errInvalidRequest):
		reason = ReasonInvalidRequest
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	default:
		return status.Error(codes.Internal, fmt.Sprintf("internal error: %v", err))
	}
	msg := fmt.Sprintf("%s: %v", field, err)
	st := status.New(codes.InvalidArgument, msg)
	withDetails, derr := st.WithDetails(
		&errdetails.ErrorInfo{Reason: reason, Domain: ErrorDomain, Metadata: metadata(field, meta)},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: field, Description: err.Error(), Reason: reason}}},
	)
	if derr != nil {
		return st.Err()
	}
	return withDetails.Err()
}

// subFieldError is an error about a field inside the one toStatus is told
// (a Gravity Trap board's station coordinate inside "state"): toStatus
// names path instead, appended to its field after a dot, or in its place
// when abs (path is then the field's whole path in the request).
type subFieldError struct {
	path string
	abs  bool
	err  error
}

func (e *subFieldError) Error() string { return e.err.Error() }
func (e *subFieldError) Unwrap() error { return e.err }

// metadata is an ErrorInfo's metadata: the field and the extra entries.
func metadata(field string, extra map[string]string) map[string]string {
	m := make(map[string]string, len(extra)+1)
	for k, v := range extra {
		m[k] = v
	}
	m["field"] = field
	return m
}

// RequestError is the INVALID_ARGUMENT status of a request that cannot be
// read as its message (a REST body's wrong JSON type, unknown field or name,
// a bad query parameter), in the form of every other error of the service:
// message msg, which starts with the field or says it; a google.rpc.ErrorInfo
// (reason ReasonInvalidRequest, domain ErrorDomain, metadata "field" and the
// entries of meta, such as "line" and "column"); and a google.rpc.BadRequest
// field violation of field with description msg. The server's transports
// build their reading errors with it, so that a client reads one shape.
func RequestError(field, msg string, meta map[string]string) *status.Status {
	st := status.New(codes.InvalidArgument, msg)
	withDetails, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: ReasonInvalidRequest, Domain: ErrorDomain, Metadata: metadata(field, meta)},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: field, Description: msg, Reason: ReasonInvalidRequest}}},
	)
	if err != nil {
		return st
	}
	return withDetails
}
