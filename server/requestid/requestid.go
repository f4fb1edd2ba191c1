// Package requestid gives every request of the server an id: an HTTP
// request its client's X-Request-Id when valid, else a new one (HTTP), a
// gRPC call its x-request-id metadata likewise (Unary); the id is sent
// back, kept in the context (From) for the log lines, and passed on from a
// REST request to its gRPC call (Metadata).
//
// Files:
//
//	requestid.go  Header, Key, Valid, New, NewContext, From, HTTP, Metadata, Unary
package requestid

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// Header is the HTTP header, and Key the gRPC metadata
// key, of a request's id.
const (
	Header = "X-Request-Id"
	Key    = "x-request-id"
)

// Valid reports whether a client's id is used as given: 1 to 128
// characters of letters, digits and . _ : - (so it is safe on a log line and
// in a header). Anything else is replaced by a new id.
func Valid(s string) bool {
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

// New returns a fresh id: 32 hex digits (128 random bits, from the
// runtime's ChaCha8 generator, seeded by the system: unique, without a
// system call per request; an id is not a secret).
func New() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

type requestIDCtxKey struct{}

// NewContext is ctx with the request id id, as HTTP and Unary keep it.
func NewContext(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDCtxKey{}, id)
}

// From returns the id HTTP put in ctx ("" if none).
func From(ctx context.Context) string {
	id, _ := ctx.Value(requestIDCtxKey{}).(string)
	return id
}

// HTTP gives every HTTP request an id: the client's X-Request-Id
// when valid, else a new one. The id is returned in the answer's
// X-Request-Id, kept in the request's context (for the log line) and passed
// to the gRPC call by the gateway (Metadata).
func HTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(Header)
		if !Valid(id) {
			id = New()
		}
		w.Header().Set(Header, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDCtxKey{}, id)))
	})
}

// Metadata is the gateway's metadata for a REST call: its request
// id, so that the gRPC log line of the call carries the same id.
func Metadata(ctx context.Context, _ *http.Request) metadata.MD {
	if id := From(ctx); id != "" {
		return metadata.Pairs(Key, id)
	}
	return nil
}

// Unary gives every gRPC call an id: the x-request-id metadata
// when valid, else a new one; it is sent back as response header metadata
// and added to the call's log line. It runs before the logging interceptor.
func Unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	id := ""
	if v := metadata.ValueFromIncomingContext(ctx, Key); len(v) > 0 {
		id = v[0]
	}
	if !Valid(id) {
		id = New()
	}
	_ = grpc.SetHeader(ctx, metadata.MD{Key: []string{id}}) // Key is lower case, as Pairs would make it
	return handler(context.WithValue(ctx, requestIDCtxKey{}, id), req)
}
