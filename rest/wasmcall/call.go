// Package wasmcall answers the service's REST JSON in process, for the
// WebAssembly build (the command in wasm/, a module of its own so that
// "GOOS=js GOARCH=wasm go build ./wasm" writes gamerules.wasm): Call takes
// an RPC's name and the REST body and returns the REST answer or error
// body, as the server would. It builds on every platform, so that its
// tests (the answers equal the server's) run natively.
package wasmcall

import (
	"context"
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/rest/restjson"
	"github.com/gamerules/gamerules/service"
)

// method is one RPC as call runs it: a new empty request, and the
// service's method on it.
type method struct {
	newRequest func() proto.Message
	run        func(context.Context, *service.Server, proto.Message) (proto.Message, error)
}

// rpc makes the method of one service.Server method f.
func rpc[Req any, PReq interface {
	*Req
	proto.Message
}, Resp proto.Message](f func(*service.Server, context.Context, PReq) (Resp, error)) method {
	return method{
		newRequest: func() proto.Message { return PReq(new(Req)) },
		run: func(ctx context.Context, s *service.Server, req proto.Message) (proto.Message, error) {
			return f(s, ctx, req.(PReq))
		},
	}
}

// methods are the RPCs of gamerules.v1.GameRules by name: every method of
// service.Server with an RPC's shape (TestMethodsAreTheService).
var methods = map[string]method{
	"ListGames":    rpc((*service.Server).ListGames),
	"NewGame":      rpc((*service.Server).NewGame),
	"LegalMoves":   rpc((*service.Server).LegalMoves),
	"ApplyMove":    rpc((*service.Server).ApplyMove),
	"Score":        rpc((*service.Server).Score),
	"ObserveState": rpc((*service.Server).ObserveState),
	"RenderState":  rpc((*service.Server).RenderState),
	"GetBoard":     rpc((*service.Server).GetBoard),
	"ReplayGame":   rpc((*service.Server).ReplayGame),
	"ImportRecord": rpc((*service.Server).ImportRecord),
	"ExportRecord": rpc((*service.Server).ExportRecord),
	"Batch":        rpc((*service.Server).Batch),
	"Expand":       rpc((*service.Server).Expand),
	"Playout":      rpc((*service.Server).Playout),
}

// methodNames is the sorted names of methods, for the error of an unknown
// one.
func methodNames() string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

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
	m, ok := methods[name]
	if !ok {
		return restjson.ErrorBody(service.Errorf(code.Code_UNIMPLEMENTED, "unknown method %q; the methods are %s", name, methodNames()))
	}
	req := m.newRequest()
	if err := restjson.DecodeRequest(body, req); err != nil {
		return restjson.ErrorBody(err)
	}
	resp, err := m.run(context.Background(), s, req)
	if err != nil {
		return restjson.ErrorBody(err)
	}
	b, err := restjson.Marshal(resp)
	if err != nil {
		return restjson.ErrorBody(service.Errorf(code.Code_INTERNAL, "encoding the answer: %v", err))
	}
	return b
}
