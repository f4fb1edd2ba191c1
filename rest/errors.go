package rest

import (
	"context"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/rest/restjson"
	"github.com/gamerules/gamerules/server/limit"
)

// withDetails gives a REST error that has no details the details of its
// kind, so that no REST error answers "details": []. The service's errors
// and the limits' refusals already carry theirs. An INVALID_ARGUMENT of the
// gateway's own is its reading of the request failing (the JSON body, or a
// GET :render query parameter): it is read again (readError) for the
// field, the expected shape and the line:column, as an INVALID_REQUEST with
// a BadRequest; anything else gets an ErrorInfo of its code
// (limit.ErrorStatus).
func withDetails(ctx context.Context, r *http.Request, err error) error {
	st, ok := status.FromError(err)
	if !ok {
		st = status.New(codes.Unknown, err.Error())
	}
	if len(st.Details()) > 0 {
		return err
	}
	if st.Code() == codes.InvalidArgument {
		if p := readError(ctx, r, st.Message()); p != nil {
			return p.Err()
		}
	}
	return limit.ErrorStatus(runtime.HTTPStatusFromCode(st.Code()), st.Code(), st.Message(), nil).Err()
}

// readError is the readProblem of a REST request the gateway could not
// read, found again as the JSON reader found it (restjson.CheckJSON on
// the body, held in memory by limit.Body; the query parameters of a GET),
// for the request message of the call's RPC. When nothing more precise is
// found, the gateway's message msg stands, for the body as a whole; nil when
// the call is not one of the API's RPCs.
func readError(ctx context.Context, r *http.Request, msg string) *readProblem {
	md := requestMessage(ctx)
	if md == nil {
		return nil
	}
	if r.Method == http.MethodGet {
		if p := checkQuery(md, r); p != nil {
			return p
		}
		return &readProblem{Field: "query", Msg: msg}
	}
	if b, ok := limit.BodyBytes(r.Body); ok {
		if p := restjson.CheckJSON(b, md); p != nil {
			return p
		}
	}
	return &readProblem{Field: "body", Msg: msg}
}

// requestMessage is the request message of the call's RPC (the gateway
// names the method in the context: runtime.RPCMethod), or nil.
func requestMessage(ctx context.Context) protoreflect.MessageDescriptor {
	full, ok := runtime.RPCMethod(ctx)
	if !ok {
		return nil
	}
	name, ok := strings.CutPrefix(full, "/"+string(gamerulesv1grpc.File_gamerules_v1_service_proto.Services().Get(0).FullName())+"/")
	if !ok {
		return nil
	}
	m := gamerulesv1grpc.File_gamerules_v1_service_proto.Services().Get(0).Methods().ByName(protoreflect.Name(name))
	if m == nil {
		return nil
	}
	return m.Input()
}

// checkQuery finds the query parameter of r that md's field cannot hold (as
// grpc-gateway's query parser reads it), or nil.
func checkQuery(md protoreflect.MessageDescriptor, r *http.Request) *readProblem {
	for key, vals := range r.URL.Query() {
		fd := queryFieldDescriptor(md, key)
		if fd == nil {
			continue // strictQuery refuses unknown parameters first
		}
		for _, v := range vals {
			if fd.Kind() == protoreflect.MessageKind {
				return &readProblem{Field: key, Msg: key + " is an object; give its fields as parameters (" + key + ".text=…)"}
			}
			if why := restjson.ScalarString(fd, v); why != "" {
				return &readProblem{Field: key, Msg: "query parameter " + key + " must be " + why + ", not " + restjson.Found(v)}
			}
		}
	}
	return nil
}

// queryFieldDescriptor is the field a query parameter names, as queryField
// reads it, or nil.
func queryFieldDescriptor(md protoreflect.MessageDescriptor, key string) protoreflect.FieldDescriptor {
	if !queryField(md, key) {
		return nil
	}
	parts := strings.Split(key, ".")
	var fd protoreflect.FieldDescriptor
	for _, p := range parts {
		if j := strings.IndexByte(p, '['); j >= 0 {
			p = p[:j]
		}
		if fd = restjson.FieldByName(md, p); fd == nil {
			return nil
		}
		if fd.Kind() == protoreflect.MessageKind {
			md = fd.Message()
		}
	}
	return fd
}

// readProblem is why a REST request could not be read (restjson.Problem:
// the field, what was expected there, the line and column).
type readProblem = restjson.Problem
