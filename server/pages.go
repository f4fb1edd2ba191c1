package server

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gamerules/gamerules/server/limit"
)

// How many page requests (/docs and its script, /openapi.json, the
// playground's files) and /metrics scrapes are served at once. They are
// exempt from --max-in-flight, which is the API's, but not unbounded: the
// docs script is unzipped for each client that does not take gzip, and a
// scrape gathers every metric.
const (
	pagesInFlight   = 8
	metricsInFlight = 4
)

// pagesLimit serves next at most cap(lim) requests at once; a request that
// finds no slot within the limit's wait (--queue-wait) is refused 429 with
// Retry-After, counted on refused.
func pagesLimit(next http.Handler, lim *limit.InFlight, refused prometheus.Counter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release, err := lim.Acquire(r.Context())
		if err != nil {
			refused.Inc()
			limit.WriteOverloaded(w, fmt.Sprintf("the server is serving %d page requests (/docs, /openapi.json, the playground) at once, its limit", pagesInFlight))
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}
