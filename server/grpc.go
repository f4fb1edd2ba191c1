package server

import (
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/rest"
	"github.com/gamerules/gamerules/service"
)

// NewGRPCService returns svc as the generated gamerulesv1grpc.GameRulesServer,
// to register on a *grpc.Server (gamerulesv1grpc.RegisterGameRulesServer) or a
// REST gateway (gamerulesv1grpc.RegisterGameRulesHandlerServer) without the
// stack's limits and interceptors; API gives them. It is rest.NewServer
// with no interceptor: it lives outside service/ so that service/ itself
// imports no gRPC server package.
func NewGRPCService(svc *service.Server) gamerulesv1grpc.GameRulesServer {
	return rest.NewServer(svc, nil)
}
