//go:build js && wasm

package service

import (
	"errors"

	"google.golang.org/genproto/googleapis/rpc/code"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
)

// This file is errors_grpc.go for the WebAssembly build, without gRPC:
// the only statuses are the service's *Error.

// StatusOf is err as a google.rpc.Status (a copy, which the caller may
// change), as grpc-go's status.Convert(err).Proto() reads an *Error: its
// status (wrapped, with err's text as its message); UNKNOWN with err's
// text for any other error; nil for nil.
func StatusOf(err error) *spb.Status {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		return unknownStatus(err)
	}
	st := proto.Clone(e.st).(*spb.Status)
	if e != err {
		st.Message = err.Error()
	}
	return st
}

// isStatus reports whether err is or wraps an *Error, which toStatus
// passes through unchanged.
func isStatus(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// unknownStatus is the status of an error that is no *Error: UNKNOWN with
// its text, as grpc-go's status.Convert makes it.
func unknownStatus(err error) *spb.Status {
	return &spb.Status{Code: int32(code.Code_UNKNOWN), Message: err.Error()}
}
