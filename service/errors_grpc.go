//go:build !(js && wasm)

package service

import (
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/status"
)

// This file joins the service's errors to grpc-go's statuses everywhere
// but in the WebAssembly build (errors_wasm.go), which links no gRPC code.

// GRPCStatus is the error as grpc-go's status, for status.FromError,
// status.Code and status.Convert (and so the gRPC server and the REST
// gateway).
func (e *Error) GRPCStatus() *status.Status { return status.FromProto(e.st) }

// RequestError is InvalidRequest(field, msg, meta) as a gRPC status (the
// server's transports build their reading errors with it).
func RequestError(field, msg string, meta map[string]string) *status.Status {
	return InvalidRequest(field, msg, meta).GRPCStatus()
}

// StatusOf is err as a google.rpc.Status (a copy, which the caller may
// change), as grpc-go's status.Convert(err).Proto(): the status of an
// *Error or of any error with a gRPC status (wrapped, its message is err's
// text); UNKNOWN with err's text for any other error; nil for nil.
func StatusOf(err error) *spb.Status {
	return status.Convert(err).Proto()
}

// isStatus reports whether err is or wraps a status (an *Error or a gRPC
// status), which toStatus passes through unchanged.
func isStatus(err error) bool {
	_, ok := status.FromError(err)
	return ok
}
