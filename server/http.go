package server

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/cors"
	"go.uber.org/zap"

	"github.com/gamerules/gamerules/rest"
	"github.com/gamerules/gamerules/server/requestid"
)

// httpMetrics are the HTTP port's own counters and latencies; calls that
// reach the gRPC server are also counted there per RPC, these also count
// what the gateway refuses (bad JSON, wrong method, too large).
//
// They are the series promhttp's InstrumentHandlerCounter and
// InstrumentHandlerDuration kept with a "route" label from the request
// (the same names, help, labels, buckets and label values: the method as
// promhttp sanitizes it, "get", "post", … or "unknown", and the code as it
// does, "200" for a handler that wrote nothing), but a series' children are
// resolved once, on its first request, and a request then costs one map
// lookup and the two observations, where promhttp hashed the labels of
// both and wrapped the writer twice on every request (3% of a REST
// LegalMoves's server CPU, issue 35's profile).
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	series   *httpSeries
}

// httpSeries are the resolved children of httpMetrics, by label values;
// the map is copied on a write (a new series: few, bounded by the routes,
// methods and codes), so that a read takes no lock.
type httpSeries struct {
	mu sync.Mutex
	m  atomic.Pointer[map[httpSeriesKey]httpChildren]
}

// httpSeriesKey is one series' label values, sanitized.
type httpSeriesKey struct{ route, method, code string }

type httpChildren struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

func newHTTPMetrics(reg prometheus.Registerer) httpMetrics {
	m := makeHTTPMetrics()
	reg.MustRegister(m.requests, m.duration)
	return m
}

// makeHTTPMetrics is newHTTPMetrics's metrics, not registered.
func makeHTTPMetrics() httpMetrics {
	return httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamerules_http_requests_total",
			Help: "HTTP requests answered, by route, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gamerules_http_request_duration_seconds",
			Help:    "HTTP request latency, by route, method and status code.",
			Buckets: latencyBuckets,
		}, []string{"route", "method", "code"}),
		series: &httpSeries{},
	}
}

// observe counts one request of route and method (as the request has it)
// answered with status (0: none written, counted as 200) and taking
// seconds.
func (m httpMetrics) observe(route, method string, status int, seconds float64) {
	k := httpSeriesKey{route: route, method: sanitizeMethod(method), code: sanitizeCode(status)}
	c, ok := m.series.get(k)
	if !ok {
		c = m.series.add(k, m)
	}
	c.requests.Inc()
	c.duration.Observe(seconds)
}

func (s *httpSeries) get(k httpSeriesKey) (httpChildren, bool) {
	if m := s.m.Load(); m != nil {
		c, ok := (*m)[k]
		return c, ok
	}
	return httpChildren{}, false
}

// add resolves k's children and keeps them in a copy of the map.
func (s *httpSeries) add(k httpSeriesKey, m httpMetrics) httpChildren {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.get(k); ok {
		return c
	}
	c := httpChildren{
		requests: m.requests.WithLabelValues(k.route, k.method, k.code),
		duration: m.duration.WithLabelValues(k.route, k.method, k.code),
	}
	next := map[httpSeriesKey]httpChildren{k: c}
	if old := s.m.Load(); old != nil {
		for kk, cc := range *old {
			next[kk] = cc
		}
	}
	s.m.Store(&next)
	return c
}

// sanitizeMethod is promhttp's method label: the standard methods in lower
// case, any other "unknown".
func sanitizeMethod(m string) string {
	switch m {
	case "GET", "get":
		return "get"
	case "PUT", "put":
		return "put"
	case "HEAD", "head":
		return "head"
	case "POST", "post":
		return "post"
	case "DELETE", "delete":
		return "delete"
	case "CONNECT", "connect":
		return "connect"
	case "OPTIONS", "options":
		return "options"
	case "NOTIFY", "notify":
		return "notify"
	case "TRACE", "trace":
		return "trace"
	case "PATCH", "patch":
		return "patch"
	}
	return "unknown"
}

// statusCodes are the label values of the codes 100 to 599, made once.
var statusCodes = func() (c [600]string) {
	for i := 100; i < len(c); i++ {
		c[i] = strconv.Itoa(i)
	}
	return c
}()

// sanitizeCode is promhttp's code label: 0 (nothing written) is "200", a
// code of 100 to 599 its number, any other "unknown".
func sanitizeCode(s int) string {
	switch {
	case s == 0:
		return "200"
	case s >= 100 && s < len(statusCodes):
		return statusCodes[s]
	}
	return "unknown"
}

// instrument counts and times every HTTP request, and logs the ones that
// fail (status 400 and up) at info level, the rest at debug level, with the
// client's address (REST calls also get the RPC log line of their call,
// whose peer is the same client in process, the gateway itself over
// loopback).
func instrument(next http.Handler, m httpMetrics, logger *zap.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := statusRecorder{ResponseWriter: w}
		next.ServeHTTP(&rec, r)
		took := time.Since(start).Seconds()
		m.observe(routeOf(r.URL.Path), r.Method, rec.status, took)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		level := zap.DebugLevel
		if status >= 400 {
			level = zap.InfoLevel
		}
		if ce := logger.Check(level, "http request"); ce != nil {
			path := r.URL.Path
			if len(path) > 200 {
				path = path[:200] + "..."
			}
			ce.Write(zap.String("method", r.Method), zap.String("path", path), zap.Int("status", status),
				zap.String("remote", r.RemoteAddr), zap.Float64("duration", took),
				zap.String("request_id", requestid.From(r.Context())))
		}
	})
}

// statusRecorder remembers the status code written through it (0: none
// yet; a Write without one is 200, as net/http sends it).
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// routeOf is the route label of a request path, for metrics and span names:
// the API route's path template from the service descriptor
// ("/v1/games/{game}:applyMove", "/v1/games:batch",
// "/v1/games/{game}/boards/{name}": rest.RouteOf), the HTTP port's own
// paths as they are ("/healthz", "/docs", "/" the playground, "/static/"
// and "/wasm/" for their files), and "other" for a path that is no route,
// so that the label's values are few.
func routeOf(path string) string {
	switch path {
	case "/", "/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/docs/rapidoc-min.js", "/favicon.ico", "/mcp":
		return path
	}
	if t, ok := rest.RouteOf(path); ok {
		return t
	}
	for _, dir := range []string{"/static/", "/wasm/"} {
		if len(path) > len(dir) && strings.HasPrefix(path, dir) {
			return dir
		}
	}
	return "other"
}

// noSniff is the outermost wrapper of every HTTP answer of the stack (the
// REST API and its errors, the pages, /metrics, the probes): each carries
// X-Content-Type-Options: nosniff, so that a browser never reads an answer
// as another type than the one it declares (an error quoting its input as
// HTML, say). The header is set before the handler runs, so that it is there
// whoever writes the answer.
func noSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// withCORS lets the browser origins of cfg.CORSOrigins call the REST API
// (github.com/rs/cors): preflights are answered (204, with the allowed
// methods and headers, cached for 10 minutes), and answers carry
// Access-Control-Allow-Origin for an allowed origin. With no origins (the
// default) nothing changes: no CORS headers, and a preflight is 405.
func withCORS(cfg Options, next http.Handler) http.Handler {
	if len(cfg.CORSOrigins) == 0 {
		return next
	}
	return cors.New(cors.Options{
		AllowedOrigins: cfg.CORSOrigins,
		AllowedMethods: []string{http.MethodGet, http.MethodPost},
		AllowedHeaders: []string{"Content-Type", requestid.Header, "Traceparent", "Tracestate", "Mcp-Protocol-Version", "Mcp-Session-Id", "Accept"},
		ExposedHeaders: []string{requestid.Header, "Retry-After", "Mcp-Session-Id"},
		MaxAge:         600,
	}).Handler(next)
}
