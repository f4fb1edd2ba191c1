package server

import (
	"context"

	"google.golang.org/genproto/googleapis/api/httpbody"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service"
)

// grpcService adapts the service, which knows nothing of gRPC servers, to
// the generated gamerulesv1grpc.GameRulesServer interface: it embeds
// UnimplementedGameRulesServer (so that a method added to the API answers
// UNIMPLEMENTED until it is written) and passes every call on. It lives here
// and not in service/ so that service/ itself imports no gRPC server
// package (its only gRPC imports are codes and status). The generated
// package gen/go/gamerules/v1 still holds the gRPC and gateway stubs beside
// the messages, so a binary that links service/ links them too until the
// generated code is split (the WebAssembly issue).
type grpcService struct {
	gamerulesv1grpc.UnimplementedGameRulesServer
	svc *service.Server
}

// NewGRPCService returns svc as the generated gamerulesv1grpc.GameRulesServer,
// to register on a *grpc.Server (gamerulesv1grpc.RegisterGameRulesServer) or a
// REST gateway (gamerulesv1grpc.RegisterGameRulesHandlerServer) without the
// stack's limits and interceptors; API gives them.
func NewGRPCService(svc *service.Server) gamerulesv1grpc.GameRulesServer { return newGRPCService(svc) }

func newGRPCService(svc *service.Server) grpcService { return grpcService{svc: svc} }

var _ gamerulesv1grpc.GameRulesServer = grpcService{}

func (g grpcService) ListGames(ctx context.Context, req *gamerulesv1.ListGamesRequest) (*gamerulesv1.ListGamesResponse, error) {
	return g.svc.ListGames(ctx, req)
}

func (g grpcService) NewGame(ctx context.Context, req *gamerulesv1.NewGameRequest) (*gamerulesv1.NewGameResponse, error) {
	return g.svc.NewGame(ctx, req)
}

func (g grpcService) LegalMoves(ctx context.Context, req *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error) {
	return g.svc.LegalMoves(ctx, req)
}

func (g grpcService) ApplyMove(ctx context.Context, req *gamerulesv1.ApplyMoveRequest) (*gamerulesv1.ApplyMoveResponse, error) {
	return g.svc.ApplyMove(ctx, req)
}

func (g grpcService) Score(ctx context.Context, req *gamerulesv1.ScoreRequest) (*gamerulesv1.ScoreResponse, error) {
	return g.svc.Score(ctx, req)
}

func (g grpcService) ObserveState(ctx context.Context, req *gamerulesv1.ObserveStateRequest) (*gamerulesv1.ObserveStateResponse, error) {
	return g.svc.ObserveState(ctx, req)
}

func (g grpcService) RenderState(ctx context.Context, req *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error) {
	return g.svc.RenderState(ctx, req)
}

func (g grpcService) GetBoard(ctx context.Context, req *gamerulesv1.GetBoardRequest) (*gamerulesv1.GetBoardResponse, error) {
	return g.svc.GetBoard(ctx, req)
}

func (g grpcService) ReplayGame(ctx context.Context, req *gamerulesv1.ReplayGameRequest) (*gamerulesv1.ReplayGameResponse, error) {
	return g.svc.ReplayGame(ctx, req)
}

func (g grpcService) ImportRecord(ctx context.Context, req *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error) {
	return g.svc.ImportRecord(ctx, req)
}

func (g grpcService) ExportRecord(ctx context.Context, req *gamerulesv1.ExportRecordRequest) (*gamerulesv1.ExportRecordResponse, error) {
	return g.svc.ExportRecord(ctx, req)
}

func (g grpcService) Batch(ctx context.Context, req *gamerulesv1.BatchRequest) (*gamerulesv1.BatchResponse, error) {
	return g.svc.Batch(ctx, req)
}

func (g grpcService) Expand(ctx context.Context, req *gamerulesv1.ExpandRequest) (*gamerulesv1.ExpandResponse, error) {
	return g.svc.Expand(ctx, req)
}

func (g grpcService) Playout(ctx context.Context, req *gamerulesv1.PlayoutRequest) (*gamerulesv1.PlayoutResponse, error) {
	return g.svc.Playout(ctx, req)
}
