//go:build !(js && wasm)

package restjson

import "google.golang.org/grpc/status"

// Status is p as the service's INVALID_ARGUMENT gRPC status (Err's), for
// the server's transports.
func (p *Problem) Status() *status.Status { return p.serviceError().GRPCStatus() }
