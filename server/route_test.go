package server

import (
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rest"
)

// TestRouteLabels: every RPC's REST route is labelled in the HTTP metrics
// and span names by its own path template (no two RPCs share a label, none
// is "other"), the HTTP port's own paths by themselves, and only a path that
// is no route is "other".
func TestRouteLabels(t *testing.T) {
	labelRPC := map[string]string{}
	for _, r := range rest.Routes() {
		path := r.Template
		for strings.Contains(path, "{") {
			i, j := strings.IndexByte(path, '{'), strings.IndexByte(path, '}')
			path = path[:i] + "labyrinth" + path[j+1:]
		}
		got := routeOf(path)
		if got != r.Template {
			t.Errorf("%s %s: label %q; want its template %q", r.RPC, path, got, r.Template)
		}
		if other, ok := labelRPC[got]; ok && other != r.RPC {
			t.Errorf("%s and %s share the label %q", other, r.RPC, got)
		}
		labelRPC[got] = r.RPC
	}
	if len(labelRPC) < 14 {
		t.Errorf("%d route labels %v; want one per RPC at least", len(labelRPC), labelRPC)
	}
	for path, want := range map[string]string{
		"/v1/games/backgammon:playout":        "/v1/games/{game}:playout",
		"/v1/games/backgammon:expand":         "/v1/games/{game}:expand",
		"/v1/games/backgammon:render":         "/v1/games/{game}:render",
		"/v1/games:batch":                     "/v1/games:batch",
		"/v1/games/gravity_trap/boards/rings": "/v1/games/{game}/boards/{name}",
		"/v1/games":                           "/v1/games",
		"/v1/games/abalone:legalMoves":        "/v1/games/{game}:legalMoves",
		"/healthz":                            "/healthz",
		"/metrics":                            "/metrics",
		"/docs":                               "/docs",
		"/":                                   "/",
		"/static/app.js":                      "/static/",
		"/wasm/gamerules.wasm":                "/wasm/",
		"/favicon.ico":                        "/favicon.ico",
		"/v1/games/abalone:nothing":           "other",
		"/v1/nothing":                         "other",
		"/wp-login.php":                       "other",
		"/static/":                            "other",
		"/v1/games/x/y/z":                     "other",
	} {
		if got := routeOf(path); got != want {
			t.Errorf("routeOf(%q) = %q; want %q", path, got, want)
		}
	}
}
