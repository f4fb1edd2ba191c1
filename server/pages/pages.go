// Package pages serves the HTTP port's pages, apart from the API: the
// OpenAPI document (/openapi.json), its reader (/docs, RapiDoc, embedded
// from docsui/), and the playground (package web: "/", /static/, and the
// offline mode's /wasm/), behind a small limit of their own (Limit).
//
// Files:
//
//	pages.go  Register, Limit, InFlight and MetricsInFlight
//	docs.go   /docs and its script (docsui/rapidoc-min.js.gz)
//	wasm.go   /wasm/: js/build.sh's output, gzipped for clients that take it
package pages

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamerules/gamerules/gen/openapiv2"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/web"
)

// Paths are the patterns Register serves, for the HTTP port's mux to send
// them to the pages' handler.
var Paths = []string{"GET /openapi.json", "GET /docs", "GET /docs/rapidoc-min.js", "GET /static/", "GET /favicon.ico", "GET /wasm/", "GET /{$}"}

// Register serves the pages on mux: /openapi.json, /docs and its script,
// and the playground (package web) at "/" with its assets under
// "/static/"; with wasmDir (Options.PlaygroundWasmDir), the offline mode's
// files are served from it under "/wasm/".
func Register(mux *http.ServeMux, wasmDir string) {
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapiv2.GameRules)
	})
	web.Register(mux)
	registerWasm(mux, wasmDir)
	registerDocs(mux)
}

// How many page requests (/docs and its script, /openapi.json, the
// playground's files) and /metrics scrapes are served at once. They are
// exempt from --max-in-flight, which is the API's, but not unbounded: the
// docs script is unzipped for each client that does not take gzip, and a
// scrape gathers every metric.
const (
	InFlight        = 8
	MetricsInFlight = 4
)

// Limit serves next at most cap(lim) requests at once; a request that
// finds no slot within the limit's wait (--queue-wait) is refused 429 with
// Retry-After, counted on refused.
func Limit(next http.Handler, lim *limit.InFlight, refused prometheus.Counter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release, err := lim.Acquire(r.Context())
		if err != nil {
			refused.Inc()
			limit.WriteOverloaded(w, fmt.Sprintf("the server is serving %d page requests (/docs, /openapi.json, the playground) at once, its limit", InFlight))
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}
