package service

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

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

// Error is an error of the service: a google.rpc.Status (its code, message
// and details), the form of every error the service's methods return. It
// is the service's own type rather than grpc-go's status error so that a
// program that links package service without gRPC (the WebAssembly build,
// wasm/) links no gRPC code; outside js/wasm it has a GRPCStatus method
// (errors_grpc.go), so that grpc-go's status.FromError, status.Code and
// status.Convert, the gRPC server and the REST gateway read it as the same
// status as grpc-go's status.Error would be. Its text is grpc-go's ("rpc
// error: code = InvalidArgument desc = …"). An error the service made from
// another (a rules error, a context's end) unwraps to it (Unwrap), so that
// a Go program that embeds the service can test it with errors.Is and
// errors.As, as it would the engine's own error.
type Error struct {
	st    *spb.Status // not nil; never modified once made
	cause error       // what the status was made from (Unwrap); nil for none
}

// Error is the error's text, as grpc-go's status error writes it.
func (e *Error) Error() string {
	return "rpc error: code = " + codeName(code.Code(e.st.GetCode())) + " desc = " + e.st.GetMessage()
}

// Proto is the error as a google.rpc.Status: a copy, which the caller may
// change.
func (e *Error) Proto() *spb.Status { return proto.Clone(e.st).(*spb.Status) }

// Code is the error's google.rpc.Code.
func (e *Error) Code() code.Code { return code.Code(e.st.GetCode()) }

// Unwrap is the error the status was made from, for errors.Is and
// errors.As: the rules error of an INVALID_ARGUMENT with an ErrorInfo
// reason (it wraps game.ErrInvalidState, game.ErrIllegalMove,
// game.ErrGameOver or game.ErrInvalidOptions for those reasons, and
// *game.ParseError for a text that could not be read, where an engine
// says so), the context's error of a CANCELLED or DEADLINE_EXCEEDED
// (context.Canceled, context.DeadlineExceeded), the failure behind an
// INTERNAL; nil for an error made by Errorf or InvalidRequest, which has
// no cause. It changes nothing of the status: code, message and details
// are the same whether or not a cause is kept.
func (e *Error) Unwrap() error { return e.cause }

// Is reports whether target is an *Error with an equal status (code,
// message and details), as grpc-go's status errors compare.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && proto.Equal(e.st, t.st)
}

// Errorf is an error of code c (not code.Code_OK) with the message
// fmt.Sprintf(format, a...) and no details, as grpc-go's status.Errorf.
func Errorf(c code.Code, format string, a ...any) error {
	return &Error{st: &spb.Status{Code: int32(c), Message: fmt.Sprintf(format, a...)}}
}

// newError is an error of code c with message msg and the details, each as
// a google.protobuf.Any; a detail that cannot be marshalled leaves the
// error without details, as grpc-go's Status.WithDetails fails.
func newError(c code.Code, msg string, details ...proto.Message) *Error {
	st := &spb.Status{Code: int32(c), Message: msg}
	for _, d := range details {
		a, err := anypb.New(d)
		if err != nil {
			st.Details = nil
			break
		}
		st.Details = append(st.Details, a)
	}
	return &Error{st: st}
}

// codeNames are grpc-go's names of the codes (codes.Code's String), for
// Error's text.
var codeNames = [...]string{
	code.Code_OK:                  "OK",
	code.Code_CANCELLED:           "Canceled",
	code.Code_UNKNOWN:             "Unknown",
	code.Code_INVALID_ARGUMENT:    "InvalidArgument",
	code.Code_DEADLINE_EXCEEDED:   "DeadlineExceeded",
	code.Code_NOT_FOUND:           "NotFound",
	code.Code_ALREADY_EXISTS:      "AlreadyExists",
	code.Code_PERMISSION_DENIED:   "PermissionDenied",
	code.Code_RESOURCE_EXHAUSTED:  "ResourceExhausted",
	code.Code_FAILED_PRECONDITION: "FailedPrecondition",
	code.Code_ABORTED:             "Aborted",
	code.Code_OUT_OF_RANGE:        "OutOfRange",
	code.Code_UNIMPLEMENTED:       "Unimplemented",
	code.Code_INTERNAL:            "Internal",
	code.Code_UNAVAILABLE:         "Unavailable",
	code.Code_DATA_LOSS:           "DataLoss",
	code.Code_UNAUTHENTICATED:     "Unauthenticated",
}

// codeName is c's name as grpc-go writes it: "InvalidArgument", or
// "Code(17)" for a code it does not name (grpc-go's codes are unsigned).
func codeName(c code.Code) string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "Code(" + strconv.FormatUint(uint64(uint32(c)), 10) + ")"
}

// toStatus is the one place that turns an error into the service's error
// (an *Error: a status). field is the request field the error is about
// (e.g. "state", "move.notation"). Rules error kinds become
// INVALID_ARGUMENT with an ErrorInfo reason and a BadRequest field
// violation; context errors keep their codes; anything else is a bug and
// becomes INTERNAL. The *Error unwraps to err (Error.Unwrap).
func toStatus(field string, err error) error {
	return toStatusMeta(field, err, nil)
}

// toStatusMeta is toStatus with more ErrorInfo metadata beside "field"
// (ReplayGame: the index of the bad move and the state before it).
func toStatusMeta(field string, err error, meta map[string]string) error {
	if err == nil {
		return nil
	}
	if isStatus(err) {
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
		return &Error{st: &spb.Status{Code: int32(code.Code_CANCELLED), Message: err.Error()}, cause: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{st: &spb.Status{Code: int32(code.Code_DEADLINE_EXCEEDED), Message: err.Error()}, cause: err}
	default:
		return &Error{st: &spb.Status{Code: int32(code.Code_INTERNAL), Message: "internal error: " + err.Error()}, cause: err}
	}
	e := newError(code.Code_INVALID_ARGUMENT, fmt.Sprintf("%s: %v", field, err),
		&errdetails.ErrorInfo{Reason: reason, Domain: ErrorDomain, Metadata: metadata(field, meta)},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: field, Description: err.Error(), Reason: reason}}},
	)
	e.cause = err
	return e
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

// InvalidRequest is the INVALID_ARGUMENT error of a request that cannot be
// read as its message (a REST body's wrong JSON type, unknown field or
// name, a bad query parameter), in the form of every other error of the
// service: message msg, which starts with the field or says it; a
// google.rpc.ErrorInfo (reason ReasonInvalidRequest, domain ErrorDomain,
// metadata "field" and the entries of meta, such as "line" and "column");
// and a google.rpc.BadRequest field violation of field with description
// msg. The transports build their reading errors with it (or with
// RequestError, its gRPC status), so that a client reads one shape.
func InvalidRequest(field, msg string, meta map[string]string) *Error {
	return newError(code.Code_INVALID_ARGUMENT, msg,
		&errdetails.ErrorInfo{Reason: ReasonInvalidRequest, Domain: ErrorDomain, Metadata: metadata(field, meta)},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: field, Description: msg, Reason: ReasonInvalidRequest}}},
	)
}
