package rest

import (
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
)

// StrictQuery refuses a GET :render request (the one route whose request
// comes from the query string) with a query parameter that names no field
// of RenderStateRequest, as the JSON reader refuses an unknown field:
// INVALID_ARGUMENT, ErrorInfo reason INVALID_REQUEST with the parameter as
// its field, written by gw's error handler (HTTP 400). grpc-gateway itself
// ignores such a parameter, so that a typo (?hide_coordinate=true,
// ?state.txt=...) drew another image than asked without a word.
func StrictQuery(gw *runtime.ServeMux, next http.Handler) http.Handler {
	md := (&gamerulesv1.RenderStateRequest{}).ProtoReflect().Descriptor()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.RawQuery == "" || !strings.HasSuffix(r.URL.Path, ":render") {
			next.ServeHTTP(w, r)
			return
		}
		for key := range r.URL.Query() {
			if !queryField(md, key) {
				_, out := runtime.MarshalerForRequest(gw, r)
				gatewayError(r.Context(), gw, out, w, r, unknownQueryParameter(key))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// queryField reports whether key is a field path of md as grpc-gateway's
// query parser reads one: names separated by dots, each the field's proto
// name or its JSON name, every one but the last a message field; a map
// field's last segment may carry its key in brackets ("labels[k]").
func queryField(md protoreflect.MessageDescriptor, key string) bool {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if j := strings.IndexByte(p, '['); j >= 0 && i == len(parts)-1 {
			p = p[:j]
		}
		fields := md.Fields()
		fd := fields.ByName(protoreflect.Name(p))
		if fd == nil {
			fd = fields.ByJSONName(p)
		}
		if fd == nil {
			return false
		}
		if i == len(parts)-1 {
			return true
		}
		if fd.Kind() != protoreflect.MessageKind || fd.IsList() || fd.IsMap() {
			return false
		}
		md = fd.Message()
	}
	return false
}

// unknownQueryParameter is the INVALID_ARGUMENT status of a query parameter
// that names no field, in the service's form (service/errors.go): the
// message starts with the field, and the details are an ErrorInfo (reason
// INVALID_REQUEST, metadata field) and a BadRequest field violation.
func unknownQueryParameter(key string) error {
	const why = "unknown query parameter; the parameters of GET :render are RenderStateRequest's fields (state.text, size, hideCoordinates, side, highlightFrom, highlightTo, format, partialPlay; marks only in a POST body)"
	st := status.New(codes.InvalidArgument, key+": "+why)
	withDetails, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: service.ReasonInvalidRequest, Domain: service.ErrorDomain, Metadata: map[string]string{"field": key}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: key, Description: why, Reason: service.ReasonInvalidRequest}}},
	)
	if err != nil {
		return st.Err()
	}
	return withDetails.Err()
}
