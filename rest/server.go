package rest

import (
	"context"
	"net/http"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/grpc"
	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service/rpcs"
)

// Server is the service as a gamerulesv1grpc.GameRulesServer: every
// method runs an interceptor chain (the REST links of the server's
// interceptors, for the in-process gateway; none for the gRPC port, whose
// server runs its own) around the service's method of that name, with the
// method's gRPC name in the grpc.UnaryServerInfo, as grpc-go's generated
// handlers do for a gRPC call. Its calls come from one table (package
// rpcs); the forwarders below are what Go's interface asks for, one line
// each, and a test fails if one of the descriptor's RPCs is missing
// (TestServerWrapsEveryMethod).
type Server struct {
	gamerulesv1grpc.UnimplementedGameRulesServer
	chain grpc.UnaryServerInterceptor
	calls map[string]call
}

// call is one method as Server runs it, made once so that a call allocates
// nothing of its own.
type call struct {
	info    *grpc.UnaryServerInfo
	handler grpc.UnaryHandler
}

// NewServer wraps srv (a *service.Server, or any GameRulesServer) in the
// interceptors ics (ics[0] the outermost; none: srv's methods are called
// directly).
func NewServer(srv rpcs.Service, ics []grpc.UnaryServerInterceptor) *Server {
	s := &Server{chain: chainUnaryInterceptors(ics), calls: make(map[string]call)}
	prefix := "/" + string(gameRules.FullName()) + "/"
	for _, m := range rpcs.Methods() {
		run := m.Run
		s.calls[m.Name] = call{
			info: &grpc.UnaryServerInfo{FullMethod: prefix + m.Name},
			handler: func(ctx context.Context, req any) (any, error) {
				return run(ctx, srv, req.(proto.Message))
			},
		}
	}
	return s
}

// run runs the method name for req through the chain (directly when there
// is none) and returns its answer as a Resp (nil with the error when it
// failed).
func run[Resp any](ctx context.Context, s *Server, name string, req any) (*Resp, error) {
	c := s.calls[name]
	var out any
	var err error
	if s.chain == nil {
		out, err = c.handler(ctx, req)
	} else {
		out, err = s.chain(ctx, req, c.info, c.handler)
	}
	resp, _ := out.(*Resp)
	return resp, err
}

func (s *Server) ListGames(ctx context.Context, req *gamerulesv1.ListGamesRequest) (*gamerulesv1.ListGamesResponse, error) {
	return run[gamerulesv1.ListGamesResponse](ctx, s, "ListGames", req)
}

func (s *Server) NewGame(ctx context.Context, req *gamerulesv1.NewGameRequest) (*gamerulesv1.NewGameResponse, error) {
	return run[gamerulesv1.NewGameResponse](ctx, s, "NewGame", req)
}

func (s *Server) LegalMoves(ctx context.Context, req *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error) {
	return run[gamerulesv1.LegalMovesResponse](ctx, s, "LegalMoves", req)
}

func (s *Server) ApplyMove(ctx context.Context, req *gamerulesv1.ApplyMoveRequest) (*gamerulesv1.ApplyMoveResponse, error) {
	return run[gamerulesv1.ApplyMoveResponse](ctx, s, "ApplyMove", req)
}

func (s *Server) Score(ctx context.Context, req *gamerulesv1.ScoreRequest) (*gamerulesv1.ScoreResponse, error) {
	return run[gamerulesv1.ScoreResponse](ctx, s, "Score", req)
}

func (s *Server) ObserveState(ctx context.Context, req *gamerulesv1.ObserveStateRequest) (*gamerulesv1.ObserveStateResponse, error) {
	return run[gamerulesv1.ObserveStateResponse](ctx, s, "ObserveState", req)
}

func (s *Server) RenderState(ctx context.Context, req *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error) {
	return run[httpbody.HttpBody](ctx, s, "RenderState", req)
}

// ConvertState answers the state in other programs' text forms, through the chain.
func (s *Server) ConvertState(ctx context.Context, req *gamerulesv1.ConvertStateRequest) (*gamerulesv1.ConvertStateResponse, error) {
	return run[gamerulesv1.ConvertStateResponse](ctx, s, "ConvertState", req)
}

func (s *Server) GetBoard(ctx context.Context, req *gamerulesv1.GetBoardRequest) (*gamerulesv1.GetBoardResponse, error) {
	return run[gamerulesv1.GetBoardResponse](ctx, s, "GetBoard", req)
}

func (s *Server) ReplayGame(ctx context.Context, req *gamerulesv1.ReplayGameRequest) (*gamerulesv1.ReplayGameResponse, error) {
	return run[gamerulesv1.ReplayGameResponse](ctx, s, "ReplayGame", req)
}

func (s *Server) ImportRecord(ctx context.Context, req *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error) {
	return run[gamerulesv1.ImportRecordResponse](ctx, s, "ImportRecord", req)
}

func (s *Server) ExportRecord(ctx context.Context, req *gamerulesv1.ExportRecordRequest) (*gamerulesv1.ExportRecordResponse, error) {
	return run[gamerulesv1.ExportRecordResponse](ctx, s, "ExportRecord", req)
}

func (s *Server) Batch(ctx context.Context, req *gamerulesv1.BatchRequest) (*gamerulesv1.BatchResponse, error) {
	return run[gamerulesv1.BatchResponse](ctx, s, "Batch", req)
}

func (s *Server) Expand(ctx context.Context, req *gamerulesv1.ExpandRequest) (*gamerulesv1.ExpandResponse, error) {
	return run[gamerulesv1.ExpandResponse](ctx, s, "Expand", req)
}

func (s *Server) Playout(ctx context.Context, req *gamerulesv1.PlayoutRequest) (*gamerulesv1.PlayoutResponse, error) {
	return run[gamerulesv1.PlayoutResponse](ctx, s, "Playout", req)
}

var _ gamerulesv1grpc.GameRulesServer = (*Server)(nil)

// chainUnaryInterceptors makes one interceptor of ics, ics[0] the
// outermost, as grpc.ChainUnaryInterceptor does inside grpc-go; nil when
// ics is empty.
func chainUnaryInterceptors(ics []grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	switch len(ics) {
	case 0:
		return nil
	case 1:
		return ics[0]
	}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		return ics[0](ctx, req, info, chainedHandler(ics, 0, info, handler))
	}
}

// chainedHandler is the handler ics[curr] calls: ics[curr+1] around the
// rest, or final after the last.
func chainedHandler(ics []grpc.UnaryServerInterceptor, curr int, info *grpc.UnaryServerInfo, final grpc.UnaryHandler) grpc.UnaryHandler {
	if curr == len(ics)-1 {
		return final
	}
	return func(ctx context.Context, req any) (any, error) {
		return ics[curr+1](ctx, req, info, chainedHandler(ics, curr+1, info, final))
	}
}

// WithPeer puts the HTTP client's address in the request's context as the
// gRPC peer, so that the RPC log line of an in-process REST call names the
// client (over loopback it named the gateway's own connection).
func WithPeer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(peer.NewContext(r.Context(), &peer.Peer{Addr: remoteAddr(r.RemoteAddr)})))
	})
}

// remoteAddr is an HTTP request's RemoteAddr ("host:port") as a net.Addr.
type remoteAddr string

func (remoteAddr) Network() string  { return "tcp" }
func (a remoteAddr) String() string { return string(a) }
