package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"

	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	otelcodes "go.opentelemetry.io/otel/codes"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server/limit"
)

// restGateway builds the REST gateway (the grpc-gateway mux behind
// newHTTPHandler's guards) in cfg.RESTGateway's mode. In process, srv is
// wrapped in the REST links of apiInterceptors; over loopback, the gateway
// dials grpcAddr, its calls carrying adm's gateway token so that the gRPC
// port's admission gate and in-flight limit do not count them twice. The
// returned function releases what it holds (the loopback connection).
func restGateway(ctx context.Context, cfg Options, srv gamerulesv1grpc.GameRulesServer, chain []apiInterceptor, adm *limit.Admission, tlsSet *serverTLS, tr *tracing, grpcAddr net.Addr) (http.Handler, func(), error) {
	gw := newGateway()
	if cfg.RESTGateway == GatewayLoopback {
		conn, err := grpc.NewClient(dialTarget(grpcAddr), append([]grpc.DialOption{
			gatewayCredentials(tlsSet),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(2*cfg.MaxRecvBytes)),
			grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
				return invoker(metadata.AppendToOutgoingContext(ctx, limit.GatewayMetadata, adm.GatewayToken), method, req, reply, cc, opts...)
			}),
		}, tr.dialOptions()...)...)
		if err != nil {
			return nil, nil, fmt.Errorf("gateway connection: %w", err)
		}
		if err := gamerulesv1grpc.RegisterGameRulesHandler(ctx, gw, conn); err != nil {
			conn.Close()
			return nil, nil, fmt.Errorf("gateway: %w", err)
		}
		return strictQuery(gw, gw), func() { conn.Close() }, nil
	}
	if err := gamerulesv1grpc.RegisterGameRulesHandlerServer(ctx, gw, newChainedServer(srv, restInterceptors(chain))); err != nil {
		return nil, nil, fmt.Errorf("gateway: %w", err)
	}
	return strictQuery(gw, withPeer(gw)), func() {}, nil
}

// withPeer puts the HTTP client's address in the request's context as the
// gRPC peer, so that the RPC log line of an in-process REST call names the
// client (over loopback it named the gateway's own connection).
func withPeer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(peer.NewContext(r.Context(), &peer.Peer{Addr: remoteAddr(r.RemoteAddr)})))
	})
}

// remoteAddr is an HTTP request's RemoteAddr ("host:port") as a net.Addr.
type remoteAddr string

func (remoteAddr) Network() string  { return "tcp" }
func (a remoteAddr) String() string { return string(a) }

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

// chainedServer is the service as the in-process gateway calls it: every
// method runs chain (the REST links of apiInterceptors) around the real
// method, with the method's gRPC name in the grpc.UnaryServerInfo, as
// grpc-go's generated handlers do for a gRPC call. Every method of the
// service is wrapped (TestChainedServerWrapsEveryMethod).
type chainedServer struct {
	gamerulesv1grpc.UnimplementedGameRulesServer
	srv   gamerulesv1grpc.GameRulesServer
	chain grpc.UnaryServerInterceptor

	listGames, newGame, legalMoves, applyMove, score, observeState, renderState,
	getBoard, replayGame, importRecord, exportRecord, batch, expand, playout grpc.UnaryHandler
}

// newChainedServer wraps srv in the interceptors ics (ics[0] the
// outermost).
func newChainedServer(srv gamerulesv1grpc.GameRulesServer, ics []grpc.UnaryServerInterceptor) *chainedServer {
	s := &chainedServer{srv: srv, chain: chainUnaryInterceptors(ics)}
	// The handlers are made once, so that a call allocates none.
	s.listGames = func(ctx context.Context, req any) (any, error) {
		return srv.ListGames(ctx, req.(*gamerulesv1.ListGamesRequest))
	}
	s.newGame = func(ctx context.Context, req any) (any, error) {
		return srv.NewGame(ctx, req.(*gamerulesv1.NewGameRequest))
	}
	s.legalMoves = func(ctx context.Context, req any) (any, error) {
		return srv.LegalMoves(ctx, req.(*gamerulesv1.LegalMovesRequest))
	}
	s.applyMove = func(ctx context.Context, req any) (any, error) {
		return srv.ApplyMove(ctx, req.(*gamerulesv1.ApplyMoveRequest))
	}
	s.score = func(ctx context.Context, req any) (any, error) {
		return srv.Score(ctx, req.(*gamerulesv1.ScoreRequest))
	}
	s.observeState = func(ctx context.Context, req any) (any, error) {
		return srv.ObserveState(ctx, req.(*gamerulesv1.ObserveStateRequest))
	}
	s.renderState = func(ctx context.Context, req any) (any, error) {
		return srv.RenderState(ctx, req.(*gamerulesv1.RenderStateRequest))
	}
	s.getBoard = func(ctx context.Context, req any) (any, error) {
		return srv.GetBoard(ctx, req.(*gamerulesv1.GetBoardRequest))
	}
	s.replayGame = func(ctx context.Context, req any) (any, error) {
		return srv.ReplayGame(ctx, req.(*gamerulesv1.ReplayGameRequest))
	}
	s.importRecord = func(ctx context.Context, req any) (any, error) {
		return srv.ImportRecord(ctx, req.(*gamerulesv1.ImportRecordRequest))
	}
	s.exportRecord = func(ctx context.Context, req any) (any, error) {
		return srv.ExportRecord(ctx, req.(*gamerulesv1.ExportRecordRequest))
	}
	s.batch = func(ctx context.Context, req any) (any, error) {
		return srv.Batch(ctx, req.(*gamerulesv1.BatchRequest))
	}
	s.expand = func(ctx context.Context, req any) (any, error) {
		return srv.Expand(ctx, req.(*gamerulesv1.ExpandRequest))
	}
	s.playout = func(ctx context.Context, req any) (any, error) {
		return srv.Playout(ctx, req.(*gamerulesv1.PlayoutRequest))
	}
	return s
}

// The grpc.UnaryServerInfo of each method, made once.
var (
	infoListGames    = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_ListGames_FullMethodName}
	infoNewGame      = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_NewGame_FullMethodName}
	infoLegalMoves   = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_LegalMoves_FullMethodName}
	infoApplyMove    = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_ApplyMove_FullMethodName}
	infoScore        = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_Score_FullMethodName}
	infoObserveState = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_ObserveState_FullMethodName}
	infoRenderState  = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_RenderState_FullMethodName}
	infoGetBoard     = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_GetBoard_FullMethodName}
	infoReplayGame   = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_ReplayGame_FullMethodName}
	infoImportRecord = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_ImportRecord_FullMethodName}
	infoExportRecord = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_ExportRecord_FullMethodName}
	infoBatch        = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_Batch_FullMethodName}
	infoExpand       = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_Expand_FullMethodName}
	infoPlayout      = &grpc.UnaryServerInfo{FullMethod: gamerulesv1grpc.GameRules_Playout_FullMethodName}
)

// callChained runs handler for req through chain (directly when chain is
// nil) and returns its answer as a Resp (nil with the error when it failed).
func callChained[Resp any](ctx context.Context, chain grpc.UnaryServerInterceptor, info *grpc.UnaryServerInfo, req any, handler grpc.UnaryHandler) (*Resp, error) {
	var out any
	var err error
	if chain == nil {
		out, err = handler(ctx, req)
	} else {
		out, err = chain(ctx, req, info, handler)
	}
	resp, _ := out.(*Resp)
	return resp, err
}

func (s *chainedServer) ListGames(ctx context.Context, req *gamerulesv1.ListGamesRequest) (*gamerulesv1.ListGamesResponse, error) {
	return callChained[gamerulesv1.ListGamesResponse](ctx, s.chain, infoListGames, req, s.listGames)
}

func (s *chainedServer) NewGame(ctx context.Context, req *gamerulesv1.NewGameRequest) (*gamerulesv1.NewGameResponse, error) {
	return callChained[gamerulesv1.NewGameResponse](ctx, s.chain, infoNewGame, req, s.newGame)
}

func (s *chainedServer) LegalMoves(ctx context.Context, req *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error) {
	return callChained[gamerulesv1.LegalMovesResponse](ctx, s.chain, infoLegalMoves, req, s.legalMoves)
}

func (s *chainedServer) ApplyMove(ctx context.Context, req *gamerulesv1.ApplyMoveRequest) (*gamerulesv1.ApplyMoveResponse, error) {
	return callChained[gamerulesv1.ApplyMoveResponse](ctx, s.chain, infoApplyMove, req, s.applyMove)
}

func (s *chainedServer) Score(ctx context.Context, req *gamerulesv1.ScoreRequest) (*gamerulesv1.ScoreResponse, error) {
	return callChained[gamerulesv1.ScoreResponse](ctx, s.chain, infoScore, req, s.score)
}

func (s *chainedServer) ObserveState(ctx context.Context, req *gamerulesv1.ObserveStateRequest) (*gamerulesv1.ObserveStateResponse, error) {
	return callChained[gamerulesv1.ObserveStateResponse](ctx, s.chain, infoObserveState, req, s.observeState)
}

func (s *chainedServer) RenderState(ctx context.Context, req *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error) {
	return callChained[httpbody.HttpBody](ctx, s.chain, infoRenderState, req, s.renderState)
}

func (s *chainedServer) GetBoard(ctx context.Context, req *gamerulesv1.GetBoardRequest) (*gamerulesv1.GetBoardResponse, error) {
	return callChained[gamerulesv1.GetBoardResponse](ctx, s.chain, infoGetBoard, req, s.getBoard)
}

func (s *chainedServer) ReplayGame(ctx context.Context, req *gamerulesv1.ReplayGameRequest) (*gamerulesv1.ReplayGameResponse, error) {
	return callChained[gamerulesv1.ReplayGameResponse](ctx, s.chain, infoReplayGame, req, s.replayGame)
}

func (s *chainedServer) ImportRecord(ctx context.Context, req *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error) {
	return callChained[gamerulesv1.ImportRecordResponse](ctx, s.chain, infoImportRecord, req, s.importRecord)
}

func (s *chainedServer) ExportRecord(ctx context.Context, req *gamerulesv1.ExportRecordRequest) (*gamerulesv1.ExportRecordResponse, error) {
	return callChained[gamerulesv1.ExportRecordResponse](ctx, s.chain, infoExportRecord, req, s.exportRecord)
}

func (s *chainedServer) Batch(ctx context.Context, req *gamerulesv1.BatchRequest) (*gamerulesv1.BatchResponse, error) {
	return callChained[gamerulesv1.BatchResponse](ctx, s.chain, infoBatch, req, s.batch)
}

func (s *chainedServer) Expand(ctx context.Context, req *gamerulesv1.ExpandRequest) (*gamerulesv1.ExpandResponse, error) {
	return callChained[gamerulesv1.ExpandResponse](ctx, s.chain, infoExpand, req, s.expand)
}

func (s *chainedServer) Playout(ctx context.Context, req *gamerulesv1.PlayoutRequest) (*gamerulesv1.PlayoutResponse, error) {
	return callChained[gamerulesv1.PlayoutResponse](ctx, s.chain, infoPlayout, req, s.playout)
}

var _ gamerulesv1grpc.GameRulesServer = (*chainedServer)(nil)

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
