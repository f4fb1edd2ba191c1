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
//     request, checked on its wire bytes before it is decoded (the same
//     budget on a REST JSON body is the REST reader's: rest/restjson);
//   - Heavy, the heavy lane: seats for calls that buy much work (a cost the
//     caller computes), a share of them per client and a fair queue, apart
//     from the light calls' slots (Admission.CostGate), and Clients, the
//     REST caller's name behind trusted proxies;
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
//
// It is a leaf: it imports the standard library, grpc-go, the protobuf
// runtime, zap and Prometheus, and nothing of the game stack (go list -deps
// lists no gamerules package), so that a program can put it in front of its
// own handlers without linking the games.
//
// Files:
//
//	limit.go      the refusals: OverloadStatus, ErrorStatus, WriteStatus, WriteOverloaded, WriteError, CodeName, MethodPrefix
//	admission.go  Admission: the gRPC port's gate before a message is read
//	perconn.go    TrackConns and the per-connection limits of the admission gate (slots, unread answers, resets)
//	inflight.go   InFlight: requests at once and the queue wait, gRPC and HTTP; Deadline
//	heavy.go      Heavy, Admission.CostGate, Admission.Client: the heavy lane, seats by cost, a share per client, fair queues
//	httpresets.go HTTPResets: HTTP/2 requests reset before their body, per connection of an HTTP port
//	clients.go    Clients, ClientAddr, ParsePrefixes: a REST caller's address, X-Forwarded-For from trusted proxies
//	body.go       Body, BodyBudget, BodyBytes: an HTTP body's size and the bytes held at once
//	scope.go      the one request copy and context value Clients, Body and InFlight.HTTP share
//	elements.go   MaxElements, Codec, ElementGate: the element budget on a gRPC request's wire bytes
//	conn.go       Listener, NewListener: the connections a port holds open
//	goaway.go     closing a connection past its limits with a GOAWAY
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
// before a gateway runs; its details are ErrorStatus's ErrorInfo.
func WriteError(w http.ResponseWriter, httpStatus int, code codes.Code, msg string) {
	WriteStatus(w, httpStatus, ErrorStatus(httpStatus, code, msg, nil))
}

// ErrorInfo reasons of the HTTP errors that are not the service's (its
// reasons are in package service) nor overload (ReasonOverloaded); ReasonFor
// picks one by HTTP status.
const (
	ReasonNotFound             = "NOT_FOUND"              // 404: no such route
	ReasonMethodNotAllowed     = "METHOD_NOT_ALLOWED"     // 405: the route takes another method (the Allow header)
	ReasonRequestTimeout       = "REQUEST_TIMEOUT"        // 408: the body did not arrive in time
	ReasonRequestTooLarge      = "REQUEST_TOO_LARGE"      // 413: the body is over --max-recv-bytes
	ReasonUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE" // 415: a body the server cannot read
	ReasonUnavailable          = "UNAVAILABLE"            // 503: shutting down
)

// ReasonFor is the ErrorInfo reason of an HTTP error of httpStatus and code:
// 400 ReasonInvalidRequest (for INVALID_ARGUMENT), 404 ReasonNotFound, 405 ReasonMethodNotAllowed,
// 408 ReasonRequestTimeout, 413 ReasonRequestTooLarge, 415
// ReasonUnsupportedMediaType, 429 ReasonOverloaded, 503 ReasonUnavailable;
// otherwise code's canonical name ("DEADLINE_EXCEEDED", "INTERNAL").
func ReasonFor(httpStatus int, code codes.Code) string {
	switch httpStatus {
	case http.StatusBadRequest:
		if code == codes.InvalidArgument {
			return ReasonInvalidRequest
		}
	case http.StatusNotFound:
		return ReasonNotFound
	case http.StatusMethodNotAllowed:
		return ReasonMethodNotAllowed
	case http.StatusRequestTimeout:
		return ReasonRequestTimeout
	case http.StatusRequestEntityTooLarge:
		return ReasonRequestTooLarge
	case http.StatusUnsupportedMediaType:
		return ReasonUnsupportedMediaType
	case http.StatusTooManyRequests:
		return ReasonOverloaded
	case http.StatusServiceUnavailable:
		return ReasonUnavailable
	}
	return CodeName(code)
}

// CodeName is a gRPC code's canonical name, as google.rpc.Code and otelgrpc
// write it: "OK", "INVALID_ARGUMENT", "CANCELLED".
func CodeName(c codes.Code) string {
	switch c {
	case codes.OK:
		return "OK"
	case codes.Canceled:
		return "CANCELLED"
	}
	var b strings.Builder
	for i, r := range c.String() {
		if i > 0 && 'A' <= r && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// ErrorStatus is the status of an HTTP error that is not the service's:
// code and msg with a google.rpc.ErrorInfo (reason ReasonFor(httpStatus,
// code), domain Domain, metadata meta), so that every error a client reads
// names its kind in the details.
func ErrorStatus(httpStatus int, code codes.Code, msg string, meta map[string]string) *status.Status {
	st := status.New(code, msg)
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Reason: ReasonFor(httpStatus, code), Domain: Domain, Metadata: meta}); err == nil {
		return d
	}
	return st
}

// WriteStatus is WriteError for a status that may carry details: st as
// protojson, Content-Type application/json, HTTP status httpStatus.
func WriteStatus(w http.ResponseWriter, httpStatus int, st *status.Status) {
	body, _ := protojson.Marshal(st.Proto())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}
