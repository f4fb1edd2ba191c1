package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
)

// newGateway returns the REST mux. JSON output uses protojson's lowerCamelCase
// names and includes zero values (so `"finished": false` and `"moves": []` are
// there to read); input accepts lowerCamelCase and proto names and refuses
// unknown fields, so a typo is an error rather than silently ignored. No gRPC
// metadata is copied into HTTP headers. A wrong HTTP method is 405 (the
// gateway's default is 501), and a body over the size limit is 413.
func newGateway() *runtime.ServeMux {
	none := func(string) (string, bool) { return "", false }
	return runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, &runtime.JSONPb{
			MarshalOptions:   protojson.MarshalOptions{EmitDefaultValues: true},
			UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: false},
		}),
		runtime.WithOutgoingHeaderMatcher(none),
		runtime.WithOutgoingTrailerMatcher(none),
		runtime.WithRoutingErrorHandler(routingError),
		runtime.WithErrorHandler(gatewayError),
	)
}

// routingError answers requests that match no route: 404 for an unknown
// path, 405 (with Allow) for a known path with the wrong method.
func routingError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	if httpStatus == http.StatusMethodNotAllowed {
		allow := http.MethodPost
		if r.URL.Path == "/v1/games" {
			allow = http.MethodGet
		}
		w.Header().Set("Allow", allow)
		writeStatus(w, http.StatusMethodNotAllowed, codes.Unimplemented,
			fmt.Sprintf("method %s is not allowed on %s; use %s", r.Method, r.URL.Path, allow))
		return
	}
	runtime.DefaultRoutingErrorHandler(ctx, mux, m, w, r, httpStatus)
}

// gatewayError is the gateway's default error path, except that a body cut
// off by the size limit is 413 RESOURCE_EXHAUSTED rather than 400 (the
// gateway reports http.MaxBytesReader's error as a plain InvalidArgument).
func gatewayError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if st, ok := status.FromError(err); ok && st.Code() == codes.InvalidArgument && strings.Contains(st.Message(), "http: request body too large") {
		writeStatus(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted, "request body is larger than the server's limit (--max-recv-bytes)")
		return
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}

// writeStatus writes a google.rpc.Status-shaped JSON error, as the gateway
// does, for errors raised before the gateway runs.
func writeStatus(w http.ResponseWriter, httpStatus int, code codes.Code, msg string) {
	body, _ := protojson.Marshal(status.New(code, msg).Proto())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}

// guardREST refuses, before the gateway reads anything, a body that says it
// is larger than limit (413) and a path that is not valid UTF-8 (400): the
// gateway would copy such a path into a protobuf string and fail with an
// internal error. Bodies without a length are still cut at limit.
func guardREST(next http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeStatus(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
				fmt.Sprintf("request body of %d bytes is larger than the server's limit of %d bytes", r.ContentLength, limit))
			return
		}
		if !utf8.ValidString(r.URL.Path) {
			writeStatus(w, http.StatusBadRequest, codes.InvalidArgument, "the request path is not valid UTF-8")
			return
		}
		http.MaxBytesHandler(next, limit).ServeHTTP(w, r)
	})
}

// httpMetrics are the HTTP port's own counters and latencies; calls that
// reach the gRPC server are also counted there per RPC, these also count
// what the gateway refuses (bad JSON, wrong method, too large).
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) httpMetrics {
	m := httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gamerules_http_requests_total",
			Help: "HTTP requests answered, by method and status code.",
		}, []string{"method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gamerules_http_request_duration_seconds",
			Help:    "HTTP request latency, by method and status code.",
			Buckets: latencyBuckets,
		}, []string{"method", "code"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// instrument counts and times every HTTP request, and logs the ones that
// fail (status 400 and up) at info level, the rest at debug level, with the
// client's address (REST calls also get a gRPC log line, whose peer is the
// gateway itself).
func instrument(next http.Handler, m httpMetrics, logger *zap.Logger) http.Handler {
	h := promhttp.InstrumentHandlerDuration(m.duration, promhttp.InstrumentHandlerCounter(m.requests, next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
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
				zap.String("remote", r.RemoteAddr), zap.Duration("duration", time.Since(start)))
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
