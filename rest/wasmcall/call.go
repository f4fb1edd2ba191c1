// Package wasmcall answers the service's REST JSON in process, for the
// WebAssembly build (the command in wasm/, a module of its own so that
// "GOOS=js GOARCH=wasm go build ./wasm" writes gamerules.wasm): Call takes
// an RPC's name and the REST body and returns the REST answer or error
// body, as the server would. It builds on every platform, so that its
// tests (the answers equal the server's) run natively. The RPCs come from
// the one table, service/rpcs; it links rest/restjson, not grpc-gateway
// nor grpc-go.
//
// Files:
//
//	call.go  Call: an RPC's name and REST body in, the REST answer or error body out
package wasmcall

import (
	"context"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/code"

	"github.com/gamerules/gamerules/rest/restjson"
	"github.com/gamerules/gamerules/service"
	"github.com/gamerules/gamerules/service/rpcs"
)

// methodNames is the sorted names of the RPCs, for the error of an
// unknown one.
func methodNames() string { return strings.Join(rpcs.Names(), ", ") }

// Call answers one request as the REST API does; see call.
func Call(s *service.Server, name string, body []byte) []byte { return call(s, name, body) }

// call answers one request as the REST API does: body is the request's
// JSON (the REST body, with the path's fields such as "game" in it; empty
// is an empty request), decoded and checked as the gateway does
// (restjson.DecodeRequest), and the answer is the REST answer's JSON
// (restjson.Marshal), or, for an error, the REST error's body (a
// google.rpc.Status with its details, restjson.ErrorBody). RenderState's
// answer, raw bytes over REST, is its google.api.HttpBody as JSON
// ({"contentType": ..., "data": base64, "extensions": []}). An unknown
// method is UNIMPLEMENTED. It never panics: a panic in the service is
// INTERNAL, as the server's recovery answers it.
func call(s *service.Server, name string, body []byte) (answer []byte) {
	defer func() {
		if p := recover(); p != nil {
			answer = restjson.ErrorBody(restjson.ErrPanic)
		}
	}()
	m, ok := rpcs.ByName(name)
	if !ok {
		return restjson.ErrorBody(service.Errorf(code.Code_UNIMPLEMENTED, "unknown method %q; the methods are %s", name, methodNames()))
	}
	req := m.NewRequest()
	if err := restjson.DecodeRequest(body, req); err != nil {
		return restjson.ErrorBody(err)
	}
	resp, err := m.Run(context.Background(), s, req)
	if err != nil {
		return restjson.ErrorBody(err)
	}
	b, err := restjson.Marshal(resp)
	if err != nil {
		return restjson.ErrorBody(service.Errorf(code.Code_INTERNAL, "encoding the answer: %v", err))
	}
	return b
}
