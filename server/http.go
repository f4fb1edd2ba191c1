package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/internal/fastjson"
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
		// HTTPBodyMarshaler writes a google.api.HttpBody answer
		// (RenderState's SVG) as the raw bytes with its content type; it
		// decodes requests with the marshaler it wraps.
		// strictJSON writes the answers protojson would, with
		// internal/fastjson.
		runtime.WithMarshalerOption(runtime.MIMEWildcard, &runtime.HTTPBodyMarshaler{Marshaler: strictJSON{&runtime.JSONPb{
			MarshalOptions:   protojson.MarshalOptions{EmitDefaultValues: true},
			UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: false},
		}}}),
		runtime.WithOutgoingHeaderMatcher(none),
		runtime.WithOutgoingTrailerMatcher(none),
		runtime.WithRoutingErrorHandler(routingError),
		runtime.WithErrorHandler(gatewayError),
		runtime.WithMetadata(requestIDMetadata),
	)
}

// routingError answers requests that match no route: 404 for an unknown
// path, 405 (with Allow) for a known path with the wrong method.
func routingError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	if httpStatus == http.StatusMethodNotAllowed {
		allow := http.MethodPost
		if r.URL.Path == "/v1/games" || strings.Contains(r.URL.Path, "/boards/") {
			allow = http.MethodGet
		} else if strings.HasSuffix(r.URL.Path, ":render") {
			allow = http.MethodGet + ", " + http.MethodPost
		}
		w.Header().Set("Allow", allow)
		writeStatus(w, http.StatusMethodNotAllowed, codes.Unimplemented,
			fmt.Sprintf("method %s is not allowed on %s; use %s", r.Method, r.URL.Path, allow))
		return
	}
	runtime.DefaultRoutingErrorHandler(ctx, mux, m, w, r, httpStatus)
}

// gatewayError is the gateway's default error path (a google.rpc.Status as
// JSON, with the HTTP status of its code), plus a Retry-After header when
// the status carries a RetryInfo (a request refused as OVERLOADED: 429).
func gatewayError(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unavailable {
		// The gateway's own hop to the gRPC port failed (shutting down):
		// say so without grpc-go's text, which names the internal address.
		err = status.Error(codes.Unavailable, "the server is shutting down; retry on another instance")
	}
	if st, ok := status.FromError(err); ok && st.Code() == codes.ResourceExhausted {
		for _, d := range st.Details() {
			if ri, ok := d.(*errdetails.RetryInfo); ok {
				w.Header().Set("Retry-After", strconv.Itoa(max(1, int(ri.GetRetryDelay().AsDuration().Round(time.Second)/time.Second))))
			}
		}
	}
	runtime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}

// writeStatus writes a google.rpc.Status-shaped JSON error, as the gateway
// does, for errors raised before the gateway runs.
func writeStatus(w http.ResponseWriter, httpStatus int, code codes.Code, msg string) {
	writeStatusProto(w, httpStatus, status.New(code, msg))
}

// writeStatusProto is writeStatus for a status that may carry details.
func writeStatusProto(w http.ResponseWriter, httpStatus int, st *status.Status) {
	body, _ := protojson.Marshal(st.Proto())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}

// guardREST refuses, before the gateway reads anything, a body that says it
// is larger than limit (413) and a path that is not valid UTF-8 (400): the
// gateway would copy such a path into a protobuf string and fail with an
// internal error. Then it reads the whole body (readBody), so that what
// follows works on bytes in memory and no slow client holds a request slot.
// The bytes of request bodies as they arrive, and of answers kept in memory
// for a client that reads them slowly, share budget (bodyBudget): a request
// that would pass it is refused, 429 with Retry-After, so that neither slow
// uploads nor slow readers can hold unbounded memory. Bytes are charged as
// they arrive, so a declared length that never comes costs nothing.
func guardREST(next http.Handler, limit int64, budget *bodyBudget) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeStatus(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
				fmt.Sprintf("request body of %d bytes is larger than the server's limit of %d bytes (--max-recv-bytes)", r.ContentLength, limit))
			return
		}
		if !utf8.ValidString(r.URL.Path) {
			writeStatus(w, http.StatusBadRequest, codes.InvalidArgument, "the request path is not valid UTF-8")
			return
		}
		held := &budgetHold{budget: budget}
		defer held.release()
		if !readBody(w, r, limit, held) {
			return
		}
		next.ServeHTTP(w, withHold(r, held))
	})
}

// bodyBudget bounds the bytes of REST request bodies being read or held at
// once. It is safe for concurrent use.
type bodyBudget struct {
	max     int64
	used    atomic.Int64
	refused prometheus.Counter
}

func (b *bodyBudget) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

func (b *bodyBudget) give(n int64) { b.used.Add(-n) }

// errBudget is a budgetReader's error when the budget is spent.
var errBudget = errors.New("body budget spent")

// budgetHold is what one request has taken from the budget; release gives
// it all back when the request is done.
type budgetHold struct {
	budget *bodyBudget
	n      int64
}

func (h *budgetHold) take(n int64) bool {
	if !h.budget.take(n) {
		h.budget.refused.Inc()
		return false
	}
	h.n += n
	return true
}

func (h *budgetHold) release() { h.budget.give(h.n); h.n = 0 }

// budgetReader charges the bytes it reads to a hold.
type budgetReader struct {
	r    io.Reader
	hold *budgetHold
}

func (b budgetReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 && !b.hold.take(int64(n)) {
		return n, errBudget
	}
	return n, err
}

type holdKey struct{}

// withHold passes a request's budget hold to limitHTTP, which charges the
// answer it keeps in memory to it.
func withHold(r *http.Request, h *budgetHold) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), holdKey{}, h))
}

// readBody reads r's whole body, at most limit bytes, and puts it back as an
// in-memory reader. When it cannot, it answers and returns false: 413 for a
// body over the limit, 408 for a body that stalls past the server's read
// timeout, 400 for one that ends before its declared length. The messages
// never echo socket addresses or the reader's own error text.
func readBody(w http.ResponseWriter, r *http.Request, limit int64, held *budgetHold) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	var buf bytes.Buffer // grown as bytes arrive, not from the declared length
	_, err := buf.ReadFrom(budgetReader{http.MaxBytesReader(w, r.Body, limit), held})
	var tooLarge *http.MaxBytesError
	switch {
	case errors.Is(err, errBudget):
		w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		writeStatusProto(w, http.StatusTooManyRequests, overloadStatus(fmt.Sprintf("the server holds %d bytes of request bodies and answers, its limit ((--max-in-flight + --max-waiting) × --max-recv-bytes)", held.budget.max)))
		return false
	case err == nil:
		r.Body = memBody{bytes.NewReader(buf.Bytes()), buf.Bytes()}
		r.ContentLength = int64(buf.Len())
		return true
	case errors.As(err, &tooLarge):
		writeStatus(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
			fmt.Sprintf("request body is larger than the server's limit of %d bytes (--max-recv-bytes)", limit))
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		writeStatus(w, http.StatusRequestTimeout, codes.DeadlineExceeded,
			fmt.Sprintf("the request body did not arrive in time: %d bytes came before the server's read timeout", buf.Len()))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		writeStatus(w, http.StatusBadRequest, codes.InvalidArgument,
			fmt.Sprintf("the request body ended after %d of its %d declared bytes", buf.Len(), r.ContentLength))
	default:
		writeStatus(w, http.StatusBadRequest, codes.InvalidArgument,
			fmt.Sprintf("the request body could not be read (%d bytes came)", buf.Len()))
	}
	return false
}

// strictJSON is the gateway's JSON marshaler (protojson through
// runtime.JSONPb) with a stricter decoder: a request body must be exactly one
// JSON value, with nothing but white space after it, so that
// `{"state":...} GARBAGE` or two concatenated objects are refused instead of
// silently read as the first. An empty body is still an empty request.
type strictJSON struct {
	*runtime.JSONPb
}

// Marshal implements runtime.Marshaler. A message of the API is written by
// internal/fastjson: protojson's JSON (EmitDefaultValues), compact, about
// five times faster and with a twenty-fifth of the allocations; what
// fastjson does not write (well-known types; the error Status, whose
// details are Any) and what fails (a string that is not UTF-8) goes to
// protojson, which writes or refuses it as before.
func (m strictJSON) Marshal(v any) ([]byte, error) {
	if pm, ok := v.(proto.Message); ok && pm != nil && pm.ProtoReflect().IsValid() {
		if b, err := fastjson.Append(make([]byte, 0, 4096), pm.ProtoReflect()); err == nil {
			return b, nil
		}
	}
	return m.JSONPb.Marshal(v)
}

// NewDecoder implements runtime.Marshaler. The body is already in memory
// (readBody), so reading it whole costs nothing extra.
func (m strictJSON) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		var b []byte
		if mb, ok := r.(memBody); ok && mb.Len() == len(mb.b) {
			b = mb.b // unread: its bytes as they are, no copy
		} else {
			var err error
			if b, err = io.ReadAll(r); err != nil {
				return err
			}
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return io.EOF // the gateway reads an empty body as an empty request
		}
		// The element count first: it is a single pass that allocates
		// nothing, where the JSON check builds the decoder's state.
		if n, over := jsonElements(b); over {
			return fmt.Errorf("the request body holds more than %d JSON objects and strings (%d); no game needs that many, so it was not decoded", MaxElements, n)
		}
		if err := oneJSONValue(b); err != nil {
			return err
		}
		return m.JSONPb.Unmarshal(b, v)
	})
}

// memBody is a request body readBody holds in memory: a reader of b that
// the gateway's decoder (strictJSON) may take b from without copying it.
type memBody struct {
	*bytes.Reader
	b []byte
}

func (memBody) Close() error { return nil }

// oneJSONValue reports an error unless b holds exactly one JSON value.
// json.Valid decides (a scan that allocates nothing); only a body it
// refuses is decoded again to say what is wrong.
func oneJSONValue(b []byte) error {
	if json.Valid(b) {
		return noLoneSurrogate(b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	if end := dec.InputOffset(); len(bytes.TrimSpace(b[end:])) > 0 {
		return fmt.Errorf("the request body has more data after its JSON value (at byte %d); send exactly one JSON object", end)
	}
	return noLoneSurrogate(b)
}

// noLoneSurrogate reports a \u escape in valid JSON b that is half of a
// surrogate pair: encoding/json reads it as U+FFFD and protojson fails with
// a bare "unexpected EOF", so say what is wrong instead.
func noLoneSurrogate(b []byte) error {
	if at := loneSurrogate(b); at >= 0 {
		return fmt.Errorf("the request body has a \\u escape at byte %d that is half of a UTF-16 surrogate pair (such as \\ud800 alone); JSON strings must be valid Unicode", at)
	}
	return nil
}

// loneSurrogate returns the offset of the first \u escape in b that is a
// UTF-16 surrogate without its other half, or -1. b is valid JSON, so every
// backslash starts an escape inside a string.
func loneSurrogate(b []byte) int {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // a two-character escape such as \\ or \"
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if lo, ok := hex4(i + 6); ok && lo >= 0xdc00 && lo < 0xe000 {
				i += 11
				continue
			}
			return i
		case r >= 0xdc00 && r < 0xe000:
			return i
		}
		i += 5
	}
	return -1
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
			Help: "HTTP requests answered, by route, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "gamerules_http_request_duration_seconds",
			Help:    "HTTP request latency, by route, method and status code.",
			Buckets: latencyBuckets,
		}, []string{"route", "method", "code"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
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
				zap.String("request_id", requestIDFrom(r.Context())))
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
// the API route pattern ("/v1/games/{game}:applyMove"), the fixed paths as
// they are, and "other" for the rest, so that the label's values are few.
func routeOf(path string) string {
	switch path {
	case "/v1/games", "/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/docs/rapidoc-min.js":
		return path
	}
	if rest, ok := strings.CutPrefix(path, "/v1/games/"); ok {
		if i := strings.LastIndexByte(rest, ':'); i >= 0 {
			switch verb := rest[i+1:]; verb {
			case "new", "legalMoves", "applyMove", "score", "observe", "replay", "importRecord", "exportRecord":
				return "/v1/games/{game}:" + verb
			}
		}
	}
	return "other"
}
