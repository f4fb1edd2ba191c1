// Package limit holds the gamerules server's request limits, each usable
// alone in front of a program's own handlers, as go-grpc-middleware's
// interceptors are:
//
//   - Admission, a gRPC InTapHandle that refuses a stream at once, before
//     its message is read, when too many are admitted (with read and request
//     timeouts so that streams sending headers and no message cannot hold it);
//   - InFlight, a bound on the requests running at once with a queue wait,
//     as a unary interceptor (UnaryServerInterceptor) or HTTP middleware
//     (HTTP);
//   - Body, HTTP middleware that bounds a request body's bytes and the bytes
//     of bodies and answers held in memory at once (BodyBudget);
//   - Codec and ElementGate, the element budget (MaxElements) of a gRPC
//     request, checked on its wire bytes before it is decoded, and
//     JSONElements, the same budget on a JSON body;
//   - Deadline, a cap on every call's deadline;
//   - Listener (NewListener), a cap on the connections a port holds open,
//     refusing beyond it rather than queueing, with a timeout for
//     connections that never make a call.
//
// A request refused for overload is the same everywhere (OverloadStatus):
// gRPC RESOURCE_EXHAUSTED with an ErrorInfo (Reason ReasonOverloaded, Domain
// Domain) and a RetryInfo of RetryAfter; on HTTP, status 429 with that
// status as JSON (WriteStatus) and a Retry-After header (WriteOverloaded).
//
// The refusal messages name the gamerulesd flags that set each limit.
package limit

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Domain is the ErrorInfo domain of the errors this package builds (the same
// as the service's, service.ErrorDomain).
const Domain = "gamerules"

// ReasonOverloaded is the ErrorInfo reason of a request refused because the
// server already has as many requests in flight (or bytes held) as it allows.
const ReasonOverloaded = "OVERLOADED"

// ReasonInvalidRequest is the ErrorInfo reason of a request over the element
// budget (the same as the service's, service.ReasonInvalidRequest).
const ReasonInvalidRequest = "INVALID_REQUEST"

// RetryAfter is what a refused client is told to wait before trying again
// (RetryInfo on gRPC, Retry-After on REST). Requests take microseconds to
// milliseconds, so a second is plenty for the queue to clear.
const RetryAfter = time.Second

// Counter counts refusals; a prometheus.Counter is one. A nil Counter
// counts nothing.
type Counter interface{ Inc() }

func inc(c Counter) {
	if c != nil {
		c.Inc()
	}
}

// MethodPrefix is a scope of the gRPC limits: the methods whose full name
// ("/package.Service/Method") starts with prefix, such as
// "/gamerules.v1.GameRules/" for one service. A nil scope is every method.
func MethodPrefix(prefix string) func(fullMethod string) bool {
	return func(fullMethod string) bool { return strings.HasPrefix(fullMethod, prefix) }
}

// inScope reports whether scope (nil: every method) holds fullMethod.
func inScope(scope func(string) bool, fullMethod string) bool {
	return scope == nil || scope(fullMethod)
}

// OverloadStatus is the status of a request refused for overload:
// RESOURCE_EXHAUSTED with message what+"; retry in a moment", an ErrorInfo
// (Reason ReasonOverloaded, Domain Domain) and a RetryInfo of RetryAfter.
func OverloadStatus(what string) *status.Status {
	st := status.New(codes.ResourceExhausted, what+"; retry in a moment")
	if d, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: ReasonOverloaded, Domain: Domain},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(RetryAfter)},
	); err == nil {
		return d
	}
	return st
}

// WriteOverloaded answers an HTTP request refused for overload: status 429
// (Too Many Requests), a Retry-After header of RetryAfter (in seconds), and
// OverloadStatus(what) as JSON.
func WriteOverloaded(w http.ResponseWriter, what string) {
	SetRetryAfter(w.Header(), RetryAfter)
	WriteStatus(w, http.StatusTooManyRequests, OverloadStatus(what))
}

// SetRetryAfter sets h's Retry-After header to d in whole seconds (rounded,
// at least 1).
func SetRetryAfter(h http.Header, d time.Duration) {
	h.Set("Retry-After", strconv.Itoa(max(1, int(d.Round(time.Second)/time.Second))))
}

// WriteError writes a google.rpc.Status-shaped JSON error of code and msg
// with HTTP status httpStatus, as grpc-gateway does, for errors raised
// before a gateway runs.
func WriteError(w http.ResponseWriter, httpStatus int, code codes.Code, msg string) {
	WriteStatus(w, httpStatus, status.New(code, msg))
}

// WriteStatus is WriteError for a status that may carry details: st as
// protojson, Content-Type application/json, HTTP status httpStatus.
func WriteStatus(w http.ResponseWriter, httpStatus int, st *status.Status) {
	body, _ := protojson.Marshal(st.Proto())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}
