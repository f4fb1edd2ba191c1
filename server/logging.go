package server

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"github.com/gamerules/gamerules/server/requestid"
)

// logUnary writes one log line per finished unary call, "finished call",
// with the fields go-grpc-middleware's logging interceptor wrote (protocol,
// grpc.component, grpc.service, grpc.method, grpc.method_type, request_id,
// peer.address, grpc.start_time, grpc.request.deadline, game, grpc.code,
// grpc.error) and the duration in seconds, at that interceptor's level for
// the code (codeLevel).
//
// It replaces that interceptor for unary calls because the middleware
// builds every field (59 allocations, about 4.6 µs a call) before its
// logger can tell that the level is disabled; logUnary asks zap first, so
// at a disabled level a call costs one time.Now, the lookup of its
// method's logger (methodLoggers) and one level check. The
// stream interceptor (health Watch, reflection) is still the middleware's.
func logUnary(logger *zap.Logger) grpc.UnaryServerInterceptor {
	ml := &methodLoggers{base: logger.WithOptions(zap.WithCaller(false))}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		code := status.Code(err)
		l, kept := ml.of(info.FullMethod)
		ce := l.Check(codeLevel(code), "finished call")
		if ce == nil {
			return resp, err
		}
		// Room for a call's own fields (request_id … duration); a method
		// not kept adds its five.
		f := make([]zap.Field, 0, 8)
		if !kept {
			f = append(f, methodFields(info.FullMethod)...)
		}
		if id := requestid.From(ctx); id != "" {
			f = append(f, zap.String("request_id", id))
		}
		if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
			f = append(f, zap.String("peer.address", lastPeer.text(p.Addr)))
		}
		f = append(f, zap.String("grpc.start_time", lastStart.format(start)))
		if d, ok := ctx.Deadline(); ok {
			f = append(f, zap.String("grpc.request.deadline", lastDeadline.format(d)))
		}
		if g, ok := req.(interface{ GetGame() string }); ok {
			f = append(f, zap.String("game", g.GetGame()))
		}
		f = append(f, zap.String("grpc.code", code.String()))
		if err != nil {
			f = append(f, zap.String("grpc.error", err.Error()))
		}
		ce.Write(append(f, zap.Float64("duration", time.Since(start).Seconds()))...)
		return resp, err
	}
}

// methodLoggers are the access log's loggers of each method, the base
// logger with the line's first five fields (protocol, grpc.component,
// grpc.service, grpc.method, grpc.method_type), which zap encodes once,
// in With, instead of on every line: a call then encodes only its own.
// At most maxMethodLoggers are kept (the registered methods are far
// fewer); past them a line carries the five fields itself.
type methodLoggers struct {
	base *zap.Logger
	m    sync.Map // full method -> *zap.Logger
	n    atomic.Int32
}

const maxMethodLoggers = 256

// of is the logger of fullMethod, with its first five fields (kept), or
// the base logger when no more are kept.
func (ml *methodLoggers) of(fullMethod string) (l *zap.Logger, kept bool) {
	if l, ok := ml.m.Load(fullMethod); ok {
		return l.(*zap.Logger), true
	}
	if ml.n.Add(1) > maxMethodLoggers {
		ml.n.Add(-1)
		return ml.base, false
	}
	l2, _ := ml.m.LoadOrStore(fullMethod, ml.base.With(methodFields(fullMethod)...))
	return l2.(*zap.Logger), true
}

// methodFields are the first five fields of a call's line.
func methodFields(fullMethod string) []zap.Field {
	service, method := splitMethod(fullMethod)
	return []zap.Field{zap.String("protocol", "grpc"), zap.String("grpc.component", "server"),
		zap.String("grpc.service", service), zap.String("grpc.method", method), zap.String("grpc.method_type", "unary")}
}

// timeText is a time's text in one layout, kept for the times of the same
// unit (a second for RFC 3339, a millisecond for the line's time): the
// access log writes three of them a call.
type timeText struct {
	layout string
	unit   func(time.Time) int64 // t.Unix or t.UnixMilli
	p      atomic.Pointer[timeTextEntry]
}

type timeTextEntry struct {
	unit int64
	loc  *time.Location
	text string
}

// lastStart and lastDeadline are the texts of the last call's start and
// deadline, lastPeer its peer's address.
var (
	lastStart    = timeText{layout: time.RFC3339, unit: time.Time.Unix}
	lastDeadline = timeText{layout: time.RFC3339, unit: time.Time.Unix}
	lastPeer     addrText
)

// format is t.Format(c.layout), from the last one when t is in the same
// unit and location: the text depends on nothing else.
func (c *timeText) format(t time.Time) string {
	u := c.unit(t)
	if e := c.p.Load(); e != nil && e.unit == u && e.loc == t.Location() {
		return e.text
	}
	text := t.Format(c.layout)
	c.p.Store(&timeTextEntry{unit: u, loc: t.Location(), text: text})
	return text
}

// addrText is the text of the last peer address logged: the calls of one
// connection share their address (grpc-go gives every stream of a
// connection the connection's, here limit's wrapper of its *net.TCPAddr).
type addrText struct {
	p atomic.Pointer[addrTextEntry]
}

type addrTextEntry struct {
	addr net.Addr // a pointer
	text string
}

// text is a.String(), from the last one when a is the same pointer (an
// address does not change once its connection has it); an address that
// is not a pointer is formatted each time.
func (c *addrText) text(a net.Addr) string {
	if reflect.TypeOf(a).Kind() != reflect.Pointer {
		return a.String()
	}
	if e := c.p.Load(); e != nil && e.addr == a {
		return e.text
	}
	text := a.String()
	c.p.Store(&addrTextEntry{addr: a, text: text})
	return text
}

// iso8601 is zapcore.ISO8601TimeEncoder ("2006-01-02T15:04:05.000Z0700"),
// the text kept for the lines of the same millisecond.
func iso8601(t time.Time, enc zapcore.PrimitiveArrayEncoder) {
	enc.AppendString(lastLineTime.format(t))
}

// lastLineTime is the text of the last log line's time.
var lastLineTime = timeText{layout: "2006-01-02T15:04:05.000Z0700", unit: time.Time.UnixMilli}

// codeLevel is the level of a call's log line by its status code, as
// go-grpc-middleware's DefaultServerCodeToLevel: client errors and success
// at info; deadline, permission, exhaustion, precondition, abort, range and
// unavailability at warn; the rest (unknown, unimplemented, internal, data
// loss) at error.
func codeLevel(c codes.Code) zapcore.Level {
	switch c {
	case codes.OK, codes.NotFound, codes.Canceled, codes.AlreadyExists, codes.InvalidArgument, codes.Unauthenticated:
		return zapcore.InfoLevel
	case codes.DeadlineExceeded, codes.PermissionDenied, codes.ResourceExhausted, codes.FailedPrecondition, codes.Aborted,
		codes.OutOfRange, codes.Unavailable:
		return zapcore.WarnLevel
	default:
		return zapcore.ErrorLevel
	}
}

// splitMethod splits "/package.Service/Method" into its service and
// method names.
func splitMethod(full string) (service, method string) {
	full = strings.TrimPrefix(full, "/")
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		return full[:i], full[i+1:]
	}
	return "unknown", full
}

// newLogger builds the zap logger from the config.
func newLogger(cfg Options) (*zap.Logger, error) {
	l, _, err := buildLogger(cfg, false)
	return l, err
}

// logFlushInterval is how long a log line may wait in the buffer of a
// Server's own logger (newBufferedLogger) before it is written.
const logFlushInterval = 100 * time.Millisecond

// newBufferedLogger is newLogger writing to stderr through a 32 KiB
// buffer, flushed every logFlushInterval, when full, on a line above error
// level (zap syncs those) and by stop (which Server calls where it syncs
// its logger): one write system call per 100 ms instead of one per log
// line. The access log writes a line per call, and its write was about a
// tenth of a light call's server CPU (issue 35's profile).
func newBufferedLogger(cfg Options) (l *zap.Logger, stop func(), err error) {
	return buildLogger(cfg, true)
}

// buildLogger is newLogger, buffered or not; stop is never nil (a no-op
// when there is no buffer).
func buildLogger(cfg Options, buffered bool) (*zap.Logger, func(), error) {
	noStop := func() {}
	level, err := zapcore.ParseLevel(cfg.LogLevel)
	if err != nil {
		return nil, noStop, fmt.Errorf("--log-level %q: want debug, info, warn or error", cfg.LogLevel)
	}
	var zc zap.Config
	switch cfg.LogFormat {
	case "json":
		zc = zap.NewProductionConfig()
	case "console":
		zc = zap.NewDevelopmentConfig()
	default:
		return nil, noStop, fmt.Errorf("--log-format %q: want json or console", cfg.LogFormat)
	}
	zc.Level = zap.NewAtomicLevelAt(level)
	zc.Sampling = nil
	zc.EncoderConfig.TimeKey = "time"
	zc.EncoderConfig.EncodeTime = iso8601
	if cfg.logOutput != nil {
		return zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zc.EncoderConfig), zapcore.AddSync(cfg.logOutput), zc.Level)), noStop, nil
	}
	if !buffered {
		l, err := zc.Build()
		return l, noStop, err
	}
	// zc.Build's logger (its options: caller, stack traces, error
	// output), with its core's stderr behind the buffer.
	enc := zapcore.NewJSONEncoder(zc.EncoderConfig)
	if zc.Encoding == "console" {
		enc = zapcore.NewConsoleEncoder(zc.EncoderConfig)
	}
	ws := &zapcore.BufferedWriteSyncer{WS: zapcore.Lock(os.Stderr), Size: 32 << 10, FlushInterval: logFlushInterval}
	l, err := zc.Build(zap.WrapCore(func(zapcore.Core) zapcore.Core { return zapcore.NewCore(enc, ws, zc.Level) }))
	if err != nil {
		return nil, noStop, err
	}
	return l, func() { _ = ws.Stop() }, nil
}

// zapLogger adapts zap to go-grpc-middleware's logging.Logger.
func zapLogger(l *zap.Logger) logging.Logger {
	return logging.LoggerFunc(func(_ context.Context, lvl logging.Level, msg string, fields ...any) {
		f := make([]zap.Field, 0, len(fields)/2)
		for i := 0; i+1 < len(fields); i += 2 {
			key, _ := fields[i].(string)
			if key == "grpc.time_ms" {
				// The middleware writes milliseconds as a string; log the
				// duration as the HTTP line does: "duration", float seconds.
				if ms, err := strconv.ParseFloat(fmt.Sprint(fields[i+1]), 64); err == nil {
					f = append(f, zap.Float64("duration", ms/1000))
					continue
				}
			}
			f = append(f, zap.Any(key, fields[i+1]))
		}
		l := l.WithOptions(zap.WithCaller(false)).With(f...)
		switch lvl {
		case logging.LevelDebug:
			l.Debug(msg)
		case logging.LevelInfo:
			l.Info(msg)
		case logging.LevelWarn:
			l.Warn(msg)
		default:
			l.Error(msg)
		}
	})
}

// httpErrorLog is http.Server's error log: its lines at info level, as
// zap.NewStdLog writes them, except the "TLS handshake error" lines, one per
// failed handshake (a scanner or a flood would write thousands a second),
// which are written at most once a minute with how many were left out.
func httpErrorLog(logger *zap.Logger) *log.Logger {
	return log.New(&errorLogWriter{logger: logger.WithOptions(zap.WithCaller(false)), every: time.Minute}, "", 0)
}

// errorLogWriter is httpErrorLog's writer.
type errorLogWriter struct {
	logger  *zap.Logger
	every   time.Duration
	mu      sync.Mutex
	last    time.Time
	skipped int
}

func (w *errorLogWriter) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	if !strings.HasPrefix(line, "http: TLS handshake error") {
		w.logger.Info(line)
		return len(p), nil
	}
	w.mu.Lock()
	now := time.Now()
	if !w.last.IsZero() && now.Sub(w.last) < w.every {
		w.skipped++
		w.mu.Unlock()
		return len(p), nil
	}
	skipped := w.skipped
	w.last, w.skipped = now, 0
	w.mu.Unlock()
	w.logger.Info(line, zap.Int("tls_handshake_errors_not_logged", skipped), zap.Duration("at_most_one_line_per", w.every))
	return len(p), nil
}
