package rest

import (
	"net/http"
	"strings"
	"testing"
)

// TestRoutesAreTheDescriptor: every RPC of the service descriptor has a
// route, from its google.api.http annotation; every route's label is its
// own template (no two RPCs share one), found again from a request path
// made from it; a path that is no route has none.
func TestRoutesAreTheDescriptor(t *testing.T) {
	rpcOf := map[string]string{} // template → RPC
	has := map[string]bool{}
	for _, r := range Routes() {
		has[r.RPC] = true
		if strings.Contains(r.Template, "=") || strings.Contains(r.Template, "*") {
			t.Errorf("%s: template %s has a variable of more than one segment, which match does not read", r.RPC, r.Template)
		}
		if other, ok := rpcOf[r.Template]; ok && other != r.RPC {
			t.Errorf("%s and %s share the template %s", other, r.RPC, r.Template)
		}
		rpcOf[r.Template] = r.RPC
		path := r.Template
		for strings.Contains(path, "{") {
			i, j := strings.IndexByte(path, '{'), strings.IndexByte(path, '}')
			path = path[:i] + "backgammon" + path[j+1:]
		}
		if got, ok := RouteOf(path); !ok || got != r.Template {
			t.Errorf("RouteOf(%q) = %q, %v; want %q", path, got, ok, r.Template)
		}
	}
	ms := gameRules.Methods()
	for i := range ms.Len() {
		if name := string(ms.Get(i).Name()); !has[name] {
			t.Errorf("%s: no route", name)
		}
	}
	for path, want := range map[string]string{
		"/v1/games/backgammon:playout":       "/v1/games/{game}:playout",
		"/v1/games:batch":                    "/v1/games:batch",
		"/v1/games/gravity_trap/boards/ring": "/v1/games/{game}/boards/{name}",
		"/v1/games/abalone:render":           "/v1/games/{game}:render",
		"/v1/games/abalone:expand":           "/v1/games/{game}:expand",
		"/v1/games":                          "/v1/games",
	} {
		if got, ok := RouteOf(path); !ok || got != want {
			t.Errorf("RouteOf(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	for _, path := range []string{"", "/", "/v1", "/v1/games/", "/v1/games/x", "/v1/games/x:nothing", "/v1/games/:legalMoves",
		"/v1/games/x/y:legalMoves", "/v1/games/x/boards/", "/v1/games/x/boards/y/z", "/v1/games:batchx", "v1/games", "/favicon.ico", "/v1/gamesx"} {
		if got, ok := RouteOf(path); ok {
			t.Errorf("RouteOf(%q) = %q; want no route", path, got)
		}
	}
}

// TestAllow: a 405's Allow header, from the routes.
func TestAllow(t *testing.T) {
	for path, want := range map[string]string{
		"/v1/games":                    http.MethodGet,
		"/v1/games/x/boards/y":         http.MethodGet,
		"/v1/games/x:render":           "GET, POST",
		"/v1/games/x:legalMoves":       http.MethodPost,
		"/v1/games:batch":              http.MethodPost,
		"/v1/games/backgammon:playout": http.MethodPost,
		"/no/route/is/here":            http.MethodPost,
	} {
		if got := Allow(path); got != want {
			t.Errorf("Allow(%q) = %q; want %q", path, got, want)
		}
	}
}

// BenchmarkRouteOf: the route label of a request path, found by matching
// the descriptor's templates, allocates nothing.
func BenchmarkRouteOf(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := RouteOf("/v1/games/backgammon:playout"); !ok {
			b.Fatal("no route")
		}
	}
}
