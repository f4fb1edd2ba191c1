package server

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
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
// at a disabled level a call costs one time.Now and one level check. The
// stream interceptor (health Watch, reflection) is still the middleware's.
func logUnary(logger *zap.Logger) grpc.UnaryServerInterceptor {
	logger = logger.WithOptions(zap.WithCaller(false))
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		code := status.Code(err)
		ce := logger.Check(codeLevel(code), "finished call")
		if ce == nil {
			return resp, err
		}
		service, method := splitMethod(info.FullMethod)
		f := make([]zap.Field, 0, 13)
		f = append(f, zap.String("protocol", "grpc"), zap.String("grpc.component", "server"),
			zap.String("grpc.service", service), zap.String("grpc.method", method), zap.String("grpc.method_type", "unary"))
		if id := requestIDFrom(ctx); id != "" {
			f = append(f, zap.String("request_id", id))
		}
		if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
			f = append(f, zap.Stringer("peer.address", p.Addr))
		}
		f = append(f, zap.String("grpc.start_time", start.Format(time.RFC3339)))
		if d, ok := ctx.Deadline(); ok {
			f = append(f, zap.String("grpc.request.deadline", d.Format(time.RFC3339)))
		}
		if g, ok := req.(interface{ GetGame() string }); ok {
			f = append(f, zap.String("game", g.GetGame()))
		}
		f = append(f, zap.Stringer("grpc.code", code))
		if err != nil {
			f = append(f, zap.String("grpc.error", err.Error()))
		}
		ce.Write(append(f, zap.Float64("duration", time.Since(start).Seconds()))...)
		return resp, err
	}
}

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
