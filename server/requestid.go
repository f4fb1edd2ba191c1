package server

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// requestIDHeader is the HTTP header, and requestIDKey the gRPC metadata
// key, of a request's id.
const (
	requestIDHeader = "X-Request-Id"
	requestIDKey    = "x-request-id"
)

// validRequestID reports whether a client's id is used as given: 1 to 128
// characters of letters, digits and . _ : - (so it is safe on a log line and
// in a header). Anything else is replaced by a new id.
func validRequestID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// newRequestID returns a fresh id: 32 hex digits (128 random bits).
func newRequestID() string {
	var b [16]byte
	_, _ = crand.Read(b[:]) // never fails on supported platforms
	return hex.EncodeToString(b[:])
}

type requestIDCtxKey struct{}

// requestIDFrom returns the id withRequestID put in ctx ("" if none).
func requestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDCtxKey{}).(string)
	return id
}

// withRequestID gives every HTTP request an id: the client's X-Request-Id
// when valid, else a new one. The id is returned in the answer's
// X-Request-Id, kept in the request's context (for the log line) and passed
// to the gRPC call by the gateway (requestIDMetadata).
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(requestIDHeader)
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set(requestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDCtxKey{}, id)))
	})
}

// requestIDMetadata is the gateway's metadata for a REST call: its request
// id, so that the gRPC log line of the call carries the same id.
func requestIDMetadata(ctx context.Context, _ *http.Request) metadata.MD {
	if id := requestIDFrom(ctx); id != "" {
		return metadata.Pairs(requestIDKey, id)
	}
	return nil
}

// requestIDUnary gives every gRPC call an id: the x-request-id metadata
// when valid, else a new one; it is sent back as response header metadata
// and added to the call's log line. It runs before the logging interceptor.
func requestIDUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	id := ""
	if v := metadata.ValueFromIncomingContext(ctx, requestIDKey); len(v) > 0 {
		id = v[0]
	}
	if !validRequestID(id) {
		id = newRequestID()
	}
	_ = grpc.SetHeader(ctx, metadata.Pairs(requestIDKey, id))
	return handler(context.WithValue(ctx, requestIDCtxKey{}, id), req)
}
