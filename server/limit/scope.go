package limit

import (
	"context"
	"net/http"
)

// requestScope is what this package's HTTP layers (Clients, Body,
// InFlight.HTTP) hand inward for one request: the client's name, the body
// budget's hold and the in-flight slot, in one context made by the first
// of those layers, and so one copy of the request (http.Request.WithContext),
// where each layer made its own (three copies and three context values per
// REST call, issue 35). Its Value answers their keys (clientKey, holdKey,
// slotKey) once a layer has set them, and any other key, or one not set,
// from the request's context, so that the lookups (ClientOf,
// Admission.Client, yieldSlot) see what they saw before. A layer sets its
// field once, before it calls the next handler, and never again, so that
// nothing the handler starts can see it change; a layer nested in another
// of the same kind (its field already set) makes a scope of its own over
// the outer one, which it shadows for its handler only, as a context value
// would.
type requestScope struct {
	context.Context
	client any // a string, once Clients has run; kept as an interface, so that Value does not convert it each time
	hold   *budgetHold
	slot   *slotHold
}

// scopeKey finds a request's requestScope.
type scopeKey struct{}

// Value is context.Context's.
func (s *requestScope) Value(key any) any {
	switch key.(type) {
	case scopeKey:
		return s
	case clientKey:
		if s.client != nil {
			return s.client
		}
	case holdKey:
		if s.hold != nil {
			return s.hold
		}
	case slotKey:
		if s.slot != nil {
			return s.slot
		}
	}
	return s.Context.Value(key)
}

// scopeOf is r's scope, and r with it: r itself when an outer layer made
// the scope and set reports the caller's field unset in it, else a copy of
// r whose context is a new scope.
func scopeOf(r *http.Request, set func(*requestScope) bool) (*http.Request, *requestScope) {
	if s, ok := r.Context().Value(scopeKey{}).(*requestScope); ok && !set(s) {
		return r, s
	}
	s := &requestScope{Context: r.Context()}
	return r.WithContext(s), s
}
