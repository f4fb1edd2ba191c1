package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"

	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	otelcodes "go.opentelemetry.io/otel/codes"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/rest"
	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/server/requestid"
)

// restGateway builds the REST gateway (the grpc-gateway mux behind
// newHTTPHandler's guards) in cfg.RESTGateway's mode. In process, srv is
// wrapped in the REST links of apiInterceptors; over loopback, the gateway
// dials grpcAddr, its calls carrying adm's gateway token so that the gRPC
// port's admission gate and in-flight limit do not count them twice. The
// returned function releases what it holds (the loopback connection).
func restGateway(ctx context.Context, cfg Options, srv gamerulesv1grpc.GameRulesServer, chain []apiInterceptor, adm *limit.Admission, tlsSet *serverTLS, tr *tracing, grpcAddr net.Addr) (http.Handler, func(), error) {
	gw := rest.NewMux(requestid.Metadata)
	if cfg.RESTGateway == GatewayLoopback {
		conn, err := grpc.NewClient(dialTarget(grpcAddr), append([]grpc.DialOption{
			gatewayCredentials(tlsSet),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(2*cfg.MaxRecvBytes)),
			grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
				ctx = metadata.AppendToOutgoingContext(ctx, limit.GatewayMetadata, adm.GatewayToken)
				if c, ok := limit.ClientOf(ctx); ok { // the REST caller, for the heavy lane's shares
					ctx = metadata.AppendToOutgoingContext(ctx, limit.ClientMetadata, c)
				}
				return invoker(ctx, method, req, reply, cc, opts...)
			}),
		}, tr.dialOptions()...)...)
		if err != nil {
			return nil, nil, fmt.Errorf("gateway connection: %w", err)
		}
		if err := gamerulesv1grpc.RegisterGameRulesHandler(ctx, gw, conn); err != nil {
			conn.Close()
			return nil, nil, fmt.Errorf("gateway: %w", err)
		}
		return rest.StrictQuery(gw, gw), func() { conn.Close() }, nil
	}
	if err := gamerulesv1grpc.RegisterGameRulesHandlerServer(ctx, gw, rest.NewServer(srv, restInterceptors(chain))); err != nil {
		return nil, nil, fmt.Errorf("gateway: %w", err)
	}
	return rest.StrictQuery(gw, rest.WithPeer(gw)), func() {}, nil
}

// restSpan is the span of an in-process REST call, a child of the HTTP
// request's span, named as otelgrpc names a gRPC call's server span
// ("gamerules.v1.GameRules/LegalMoves"), with its rpc.* attributes and the
// call's status code; nil when tracing is off. Over gRPC the stats handler
// makes that span instead.
func (t *tracing) restSpan() grpc.UnaryServerInterceptor {
	if t == nil {
		return nil
	}
	tracer := t.tp.Tracer("github.com/gamerules/gamerules/server")
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		name := strings.TrimPrefix(info.FullMethod, "/")
		ctx, span := tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal),
			trace.WithAttributes(semconv.RPCSystemNameGRPC, semconv.RPCMethod(name)))
		defer span.End()
		resp, err := handler(ctx, req)
		code := status.Code(err)
		span.SetAttributes(semconv.RPCResponseStatusCode(grpcCodeName(code)))
		switch code {
		case codes.Unknown, codes.DeadlineExceeded, codes.Unimplemented, codes.Internal, codes.Unavailable, codes.DataLoss:
			// The server's errors, as otelgrpc marks them on a server span.
			span.SetStatus(otelcodes.Error, status.Convert(err).Message())
		}
		return resp, err
	}
}

// grpcCodeName is a code's canonical name ("INVALID_ARGUMENT"), as otelgrpc
// writes it (limit.CodeName).
func grpcCodeName(c codes.Code) string { return limit.CodeName(c) }

// dialTarget turns a listener address into one the gateway can dial: an
// unspecified host (":50051", "[::]:50051") becomes loopback.
func dialTarget(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || tcp.IP == nil || tcp.IP.IsUnspecified() {
		_, port, _ := net.SplitHostPort(a.String())
		return net.JoinHostPort("127.0.0.1", port)
	}
	return tcp.String()
}
