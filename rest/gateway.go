package rest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/rest/restjson"
	"github.com/gamerules/gamerules/server/limit"
)

// NewMux returns the REST gateway's mux, with no route yet (register the
// service on it with gamerulesv1grpc.RegisterGameRulesHandlerServer or
// RegisterGameRulesHandler); md gives a call's gRPC metadata from its HTTP
// request (the request id). JSON output uses protojson's lowerCamelCase
// names and includes zero values (so `"finished": false` and `"moves": []` are
// there to read); input accepts lowerCamelCase and proto names and refuses
// unknown fields, so a typo is an error rather than silently ignored. No gRPC
// metadata is copied into HTTP headers. A wrong HTTP method is 405 (the
// gateway's default is 501), and a body over the size limit is 413.
func NewMux(md func(context.Context, *http.Request) metadata.MD) *runtime.ServeMux {
	none := func(string) (string, bool) { return "", false }
	return runtime.NewServeMux(
		// HTTPBodyMarshaler writes a google.api.HttpBody answer
		// (RenderState's SVG) as the raw bytes with its content type; it
		// decodes requests with the marshaler it wraps.
		// strictJSON writes the answers protojson would, with
		// rest/fastjson.
		runtime.WithMarshalerOption(runtime.MIMEWildcard, &runtime.HTTPBodyMarshaler{Marshaler: strictJSON{&runtime.JSONPb{
			MarshalOptions:   restjson.MarshalOptions,
			UnmarshalOptions: restjson.UnmarshalOptions,
		}}}),
		runtime.WithOutgoingHeaderMatcher(none),
		runtime.WithOutgoingTrailerMatcher(none),
		runtime.WithRoutingErrorHandler(routingError),
		runtime.WithErrorHandler(gatewayError),
		runtime.WithMetadata(md),
	)
}

// routingError answers requests that match no route: 404 for an unknown
// path, 405 (with Allow) for a known path with the wrong method.
func routingError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	if httpStatus == http.StatusMethodNotAllowed {
		allow := Allow(r.URL.Path)
		w.Header().Set("Allow", allow)
		limit.WriteStatus(w, http.StatusMethodNotAllowed, limit.ErrorStatus(http.StatusMethodNotAllowed, codes.Unimplemented,
			fmt.Sprintf("method %s is not allowed on %s; use %s", r.Method, r.URL.Path, allow),
			map[string]string{"method": r.Method, "allow": allow}))
		return
	}
	if httpStatus == http.StatusNotFound {
		path := r.URL.Path // valid UTF-8: limit.Body refused any other
		if len(path) > 200 {
			cut := 200
			for cut > 0 && !utf8.RuneStart(path[cut]) {
				cut--
			}
			path = path[:cut] + "..."
		}
		limit.WriteStatus(w, http.StatusNotFound, limit.ErrorStatus(http.StatusNotFound, codes.NotFound,
			fmt.Sprintf("no route %s %s: the API's routes are GET /v1/games, GET /v1/games/{game}/boards/{name} and POST /v1/games/{game}:{method} (see /docs and /openapi.json)", r.Method, path),
			map[string]string{"path": path}))
		return
	}
	runtime.DefaultRoutingErrorHandler(ctx, mux, m, w, r, httpStatus)
}

// gatewayError is the gateway's default error path (a google.rpc.Status as
// JSON, with the HTTP status of its code), plus a Retry-After header when
// the status carries a RetryInfo (a request refused as OVERLOADED: 429).
func gatewayError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unavailable && len(st.Details()) == 0 {
		// The gateway's own hop to the gRPC port failed (shutting down):
		// say so without grpc-go's text, which names the internal address.
		err = limit.ErrorStatus(http.StatusServiceUnavailable, codes.Unavailable, "the server is shutting down; retry on another instance", nil).Err()
	}
	err = withDetails(ctx, r, err)
	if st, ok := status.FromError(err); ok && st.Code() == codes.ResourceExhausted {
		for _, d := range st.Details() {
			if ri, ok := d.(*errdetails.RetryInfo); ok {
				limit.SetRetryAfter(w.Header(), ri.GetRetryDelay().AsDuration())
			}
		}
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}

// strictJSON is the gateway's JSON marshaler (protojson through
// runtime.JSONPb) with a stricter decoder: a request body must be exactly one
// JSON value, with nothing but white space after it, so that
// `{"state":...} GARBAGE` or two concatenated objects are refused instead of
// silently read as the first. An empty body is still an empty request.
type strictJSON struct {
	*runtime.JSONPb
}

// Marshal implements runtime.Marshaler. A message of the API is written by
// rest/fastjson: protojson's JSON (EmitDefaultValues), compact, through the
// generated gamerulesv1json (about fifty times faster than protojson, with
// no allocation but the answer's); what
// fastjson does not write (well-known types; the error Status, whose
// details are Any) and what fails (a string that is not UTF-8) goes to
// protojson, which writes or refuses it as before.
func (m strictJSON) Marshal(v any) ([]byte, error) {
	if pm, ok := v.(proto.Message); ok && pm != nil && pm.ProtoReflect().IsValid() {
		return restjson.Marshal(pm)
	}
	return m.JSONPb.Marshal(v)
}

// NewDecoder implements runtime.Marshaler. The body is already in memory
// (limit.Body), so reading it whole costs nothing extra.
func (m strictJSON) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		var b []byte
		if mb, ok := limit.BodyBytes(r); ok {
			b = mb // unread: its bytes as they are, no copy
		} else {
			var err error
			if b, err = io.ReadAll(r); err != nil {
				return err
			}
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return io.EOF // the gateway reads an empty body as an empty request
		}
		return restjson.Decode(b, v, m.unmarshal)
	})
}

// unmarshal decodes a body that restjson.Decode has checked is exactly one
// JSON value: a message straight with protojson (runtime.JSONPb would
// first copy the value out through an encoding/json Decoder, a second
// scan of the body). What protojson refuses goes to JSONPb, as before, so
// that a refused body's error is the same, word for word.
func (m strictJSON) unmarshal(b []byte, v any) error {
	if pm, ok := v.(proto.Message); ok && m.JSONPb.UnmarshalOptions.Unmarshal(b, pm) == nil {
		return nil
	}
	return m.JSONPb.Unmarshal(b, v)
}
