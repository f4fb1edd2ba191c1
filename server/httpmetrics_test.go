package server

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
)

// TestHTTPMetricsAsPromhttp checks instrument's series against the ones
// promhttp's InstrumentHandlerDuration and InstrumentHandlerCounter keep
// (as instrument used them before issue 35, with the route label from the
// request's context): the same names, help, labels and values, and the
// same counts, over requests of every kind of method and code.
func TestHTTPMetricsAsPromhttp(t *testing.T) {
	// The handler answers the status of ?code= (none: writes nothing;
	// "write": writes a body without a status).
	answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch c := r.URL.Query().Get("code"); c {
		case "":
		case "write":
			_, _ = w.Write([]byte("body"))
		default:
			n, _ := strconv.Atoi(c)
			w.WriteHeader(n)
			_, _ = w.Write([]byte("body"))
		}
	})
	type routeKey struct{}
	promhttpInstrument := func(next http.Handler, m httpMetrics) http.Handler {
		route := promhttp.WithLabelFromCtx("route", func(ctx context.Context) string { s, _ := ctx.Value(routeKey{}).(string); return s })
		h := promhttp.InstrumentHandlerDuration(m.duration, promhttp.InstrumentHandlerCounter(m.requests, next, route), route)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), routeKey{}, routeOf(r.URL.Path))))
		})
	}
	exposition := func(wrap func(http.Handler, httpMetrics) http.Handler) string {
		reg := prometheus.NewRegistry()
		h := wrap(answer, newHTTPMetrics(reg))
		for _, method := range []string{"GET", "POST", "get", "HEAD", "PURGE", "OPTIONS", "PATCH"} {
			for _, path := range []string{"/v1/games/backgammon:legalMoves", "/v1/games:batch", "/healthz", "/static/app.js", "/nowhere"} {
				for _, code := range []string{"", "write", "200", "204", "400", "418", "429", "503", "599", "700", "103"} {
					h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, path+"?code="+code, nil))
				}
			}
		}
		// A second round of one series: counts, not only presence.
		for range 3 {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/v1/games/abalone:applyMove?code=400", nil))
		}
		text := gatherText(t, reg)
		// The durations differ; their counts do not.
		return regexp.MustCompile(`(?m)^(gamerules_http_request_duration_seconds_(bucket|sum)\{.*\}) .*$`).ReplaceAllString(text, "$1 X")
	}
	want := exposition(promhttpInstrument)
	got := exposition(func(next http.Handler, m httpMetrics) http.Handler { return instrument(next, m, zap.NewNop()) })
	if got != want {
		t.Errorf("exposition differs from promhttp's:\n--- got\n%s\n--- want\n%s", got, want)
	}
	for _, line := range []string{
		`gamerules_http_requests_total{code="200",method="get",route="/healthz"} 6`, // GET and get, with codes "", "write" and "200"
		`gamerules_http_requests_total{code="400",method="post",route="/v1/games/{game}:applyMove"} 3`,
		`gamerules_http_requests_total{code="599",method="unknown",route="other"} 1`,
		`gamerules_http_request_duration_seconds_count{code="204",method="head",route="/static/"} 1`,
	} {
		if !bytes.Contains([]byte(got), []byte(line)) {
			t.Errorf("exposition lacks %s", line)
		}
	}
}
