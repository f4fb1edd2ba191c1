package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/server/requestid"
)

// TestLogUnaryDisabledLevelIsFree: when the line's level is disabled, the
// logging interceptor allocates nothing (the issue's "zero cost for
// disabled log levels"); at error level an OK call writes no line and an
// INTERNAL one does.
func TestLogUnaryDisabledLevelIsFree(t *testing.T) {
	core, logs := observer.New(zapcore.ErrorLevel)
	li := logUnary(zap.New(core))
	info := &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/LegalMoves"}
	req := &gamerulesv1.LegalMovesRequest{Game: "abalone"}
	ok := func(context.Context, any) (any, error) { return req, nil }
	ctx := context.Background()
	if n := testing.AllocsPerRun(1000, func() { _, _ = li(ctx, req, info, ok) }); n != 0 {
		t.Errorf("an OK call at --log-level error allocates %v times in the logging interceptor; want 0", n)
	}
	if logs.Len() != 0 {
		t.Fatalf("lines written at error level for OK calls: %v", logs.All())
	}
	_, _ = li(ctx, req, info, func(context.Context, any) (any, error) { return nil, status.Error(codes.Internal, "boom") })
	if logs.Len() != 1 || logs.All()[0].Level != zapcore.ErrorLevel {
		t.Fatalf("an INTERNAL call at error level: lines %v; want one at error", logs.All())
	}
}

// TestLogUnaryFields: the line of a call has the fields the logging
// middleware wrote, in its order, and the code's level.
func TestLogUnaryFields(t *testing.T) {
	var out strings.Builder
	enc := zap.NewProductionEncoderConfig()
	enc.TimeKey = ""
	li := logUnary(zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.AddSync(&out), zapcore.InfoLevel)))
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}})
	ctx = requestid.NewContext(ctx, "id-1")
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	info := &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/ApplyMove"}
	_, _ = li(ctx, &gamerulesv1.ApplyMoveRequest{Game: "labyrinth"}, info, func(context.Context, any) (any, error) {
		return nil, status.Error(codes.ResourceExhausted, "busy")
	})
	var line map[string]any
	if err := json.Unmarshal([]byte(out.String()), &line); err != nil {
		t.Fatalf("%v: %q", err, out.String())
	}
	want := map[string]any{"level": "warn", "msg": "finished call", "protocol": "grpc", "grpc.component": "server",
		"grpc.service": "gamerules.v1.GameRules", "grpc.method": "ApplyMove", "grpc.method_type": "unary",
		"request_id": "id-1", "peer.address": "127.0.0.1:4242", "game": "labyrinth", "grpc.code": "ResourceExhausted",
		"grpc.error": "rpc error: code = ResourceExhausted desc = busy"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v; want %v", k, line[k], v)
		}
	}
	for _, k := range []string{"grpc.start_time", "grpc.request.deadline", "duration"} {
		if _, ok := line[k]; !ok {
			t.Errorf("no %s in %s", k, out.String())
		}
	}
	order := []string{`"protocol"`, `"grpc.method"`, `"request_id"`, `"peer.address"`, `"grpc.start_time"`, `"game"`, `"grpc.code"`, `"duration"`}
	for i := 1; i < len(order); i++ {
		if strings.Index(out.String(), order[i-1]) > strings.Index(out.String(), order[i]) {
			t.Errorf("%s after %s in %s", order[i-1], order[i], out.String())
		}
	}
}

// TestBufferedLoggerWritesEveryLine: a Server's own logger (stderr behind
// a buffer, newBufferedLogger) loses no line and keeps their order, more
// lines than its 32 KiB buffer holds included, once stop has flushed it.
func TestBufferedLoggerWritesEveryLine(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	cfg := DefaultOptions()
	cfg.LogLevel, cfg.LogFormat = "info", "json"
	logger, stop, err := newBufferedLogger(cfg)
	os.Stderr = stderr
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		read <- b
	}()
	const n = 2000 // about 200 KB of lines
	for i := 0; i < n; i++ {
		logger.Info("finished call", zap.Int("i", i), zap.String("pad", strings.Repeat("x", 40)))
	}
	logger.Debug("not written at info level")
	stop()
	w.Close()
	lines := strings.Split(strings.TrimSpace(string(<-read)), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines written, want %d", len(lines), n)
	}
	for i, line := range lines {
		var got struct {
			Msg string `json:"msg"`
			I   int    `json:"i"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil || got.Msg != "finished call" || got.I != i {
			t.Fatalf("line %d: %q (%v), want finished call with i=%d", i, line, err, i)
		}
	}
}

// TestLogUnaryKeptMethodLine: a method's kept logger (its first five fields
// encoded once, methodLoggers) writes the same line, byte for byte in JSON
// and console format, as a method past maxMethodLoggers, whose line carries
// all its fields itself.
func TestLogUnaryKeptMethodLine(t *testing.T) {
	times := regexp.MustCompile(`("?(grpc\.start_time|grpc\.request\.deadline|duration)"?[:=]\s*)"?[^",}]*"?`)
	for _, format := range []string{"json", "console"} {
		var out strings.Builder
		enc := zap.NewProductionEncoderConfig()
		enc.TimeKey = ""
		e := zapcore.NewJSONEncoder(enc)
		if format == "console" {
			e = zapcore.NewConsoleEncoder(enc)
		}
		li := logUnary(zap.New(zapcore.NewCore(e, zapcore.AddSync(&out), zapcore.InfoLevel)).Named("rpc"))
		ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}})
		ctx = requestid.NewContext(ctx, "id-1")
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		req := &gamerulesv1.ApplyMoveRequest{Game: "labyrinth"}
		call := func(method string) string {
			out.Reset()
			_, _ = li(ctx, req, &grpc.UnaryServerInfo{FullMethod: "/gamerules.v1.GameRules/" + method}, func(context.Context, any) (any, error) {
				return nil, status.Error(codes.InvalidArgument, "bad \"move\"")
			})
			return times.ReplaceAllString(out.String(), "${1}T")
		}
		kept := strings.ReplaceAll(call("Kept"), "Kept", "M")
		for i := 1; i < maxMethodLoggers; i++ {
			call(fmt.Sprint("Other", i))
		}
		notKept := strings.ReplaceAll(call("NotKept"), "NotKept", "M")
		cancel()
		if kept != notKept || !strings.Contains(kept, "grpc.method_type") || !strings.Contains(kept, "id-1") {
			t.Errorf("%s: kept method's line\n%s\nnot kept\n%s", format, kept, notKept)
		}
	}
}
