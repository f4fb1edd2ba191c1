package limit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestScopeOneCopy: Clients, Body and InFlight.HTTP, stacked as the
// gamerules server stacks them, hand the handler one copy of the request
// whose context is their one scope over the request's own, and in it the
// client's name, the body's budget hold and the in-flight slot (given back
// by yieldSlot: a second request then runs at once on the one slot); a
// Clients nested inside names its client for its own handler only.
func TestScopeOneCopy(t *testing.T) {
	type ctxKey struct{}
	lim := NewInFlight(1, 10*time.Millisecond)
	var seen []string
	var h http.Handler
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		s, ok := ctx.(*requestScope)
		if !ok || s.Context.Value(ctxKey{}) != "outer" || s.Context.Value(scopeKey{}) != nil {
			t.Errorf("handler's context %T is not one scope over the request's own", ctx)
		}
		c, _ := ClientOf(ctx)
		seen = append(seen, c)
		if ctx.Value(holdKey{}) == nil || ctx.Value(slotKey{}) == nil {
			t.Errorf("no hold (%v) or slot (%v) in the handler's context", ctx.Value(holdKey{}), ctx.Value(slotKey{}))
		}
		if r.URL.Path == "/nested" {
			r2 := httptest.NewRequest("GET", "/", nil)
			r2.RemoteAddr = "198.51.100.7:1"
			// A nested Clients on the same scope names its own client inside only.
			Clients(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				c, _ := ClientOf(r.Context())
				seen = append(seen, "nested "+c)
			}), nil).ServeHTTP(w, r2.WithContext(ctx))
			c, _ := ClientOf(ctx)
			seen = append(seen, "after "+c)
			return
		}
		// The slot given back, another request gets it within the wait.
		yieldSlot(ctx)
		if r.URL.Path == "/" {
			r2 := httptest.NewRequest("POST", "/second", strings.NewReader("{}"))
			r2 = r2.WithContext(context.WithValue(r2.Context(), ctxKey{}, "outer"))
			r2.RemoteAddr = "203.0.113.9:2"
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r2)
			if rec.Code != http.StatusOK {
				t.Errorf("second request while the first yielded its slot: %d %s", rec.Code, rec.Body)
			}
		}
	})
	h = Clients(Body(lim.HTTP(inner, nil), 1<<10, NewBodyBudget(1<<20, nil)), nil)
	for _, path := range []string{"/", "/nested"} {
		r := httptest.NewRequest("POST", path, strings.NewReader(`{"a":1}`))
		r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, "outer"))
		r.RemoteAddr = "192.0.2.1:1234"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
	want := "192.0.2.1 203.0.113.9 192.0.2.1 nested 198.51.100.7 after 192.0.2.1"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("clients seen: %q; want %q", got, want)
	}
}
