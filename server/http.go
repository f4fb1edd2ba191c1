package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/cors"
	"go.uber.org/zap"

	"github.com/gamerules/gamerules/rest"
	"github.com/gamerules/gamerules/server/requestid"
)

// httpMetrics are the HTTP port's own counters and latencies; calls that
// reach the gRPC server are also counted there per RPC, these also count
// what the gateway refuses (bad JSON, wrong method, too large).
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
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
	}
}

// instrument counts and times every HTTP request, and logs the ones that
// fail (status 400 and up) at info level, the rest at debug level, with the
// client's address (REST calls also get the RPC log line of their call,
// whose peer is the same client in process, the gateway itself over
// loopback).
func instrument(next http.Handler, m httpMetrics, logger *zap.Logger) http.Handler {
	route := promhttp.WithLabelFromCtx("route", func(ctx context.Context) string { return routeFromCtx(ctx) })
	h := promhttp.InstrumentHandlerDuration(m.duration, promhttp.InstrumentHandlerCounter(m.requests, next, route), route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r = r.WithContext(context.WithValue(r.Context(), routeCtxKey{}, routeOf(r.URL.Path)))
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		level := zap.DebugLevel
		if rec.status >= 400 {
			level = zap.InfoLevel
		}
		if ce := logger.Check(level, "http request"); ce != nil {
			path := r.URL.Path
			if len(path) > 200 {
				path = path[:200] + "..."
			}
			ce.Write(zap.String("method", r.Method), zap.String("path", path), zap.Int("status", rec.status),
				zap.String("remote", r.RemoteAddr), zap.Float64("duration", time.Since(start).Seconds()),
				zap.String("request_id", requestid.From(r.Context())))
		}
	})
}

// statusRecorder remembers the status code written through it.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

type routeCtxKey struct{}

func routeFromCtx(ctx context.Context) string {
	r, _ := ctx.Value(routeCtxKey{}).(string)
	return r
}

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
