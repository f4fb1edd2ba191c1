// Package rpcs is the one Go table of the gamerules.v1.GameRules RPCs: for
// each, its name, a new empty request, and the call of the service's
// method of that name; and what a call costs (Cost), which the server's
// admission weighs calls by. Every transport that lists RPCs reads it: the
// WebAssembly build's calls (rest/wasmcall), the in-process REST gateway's
// and the gRPC port's server (rest.NewServer). The HTTP routes and the
// metric and span labels come from the service descriptor's google.api.http
// annotations (rest.Routes), not from a list.
//
// Go needs the methods by name at compile time, so Service and Methods are
// written out; the tests fail when they and the service descriptor
// (gen/go/gamerules/v1/gamerulesv1grpc) differ by one RPC, so a new RPC is
// one entry in each (and one forwarder in rest.Server, whose test checks it
// too).
//
// It links no gRPC package (not even the descriptor of the service), so
// that the WebAssembly build links it at no cost.
//
// Files:
//
//	rpcs.go  Service, Method, Methods, ByName, Names
//	cost.go  Cost, MayBeHeavy: what a call buys, for the server's admission
package rpcs

import (
	"context"
	"slices"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// Service is the GameRules API as Go calls it: *service.Server, and every
// gamerulesv1grpc.GameRulesServer (which has these methods and more).
type Service interface {
	ListGames(context.Context, *gamerulesv1.ListGamesRequest) (*gamerulesv1.ListGamesResponse, error)
	NewGame(context.Context, *gamerulesv1.NewGameRequest) (*gamerulesv1.NewGameResponse, error)
	LegalMoves(context.Context, *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error)
	ApplyMove(context.Context, *gamerulesv1.ApplyMoveRequest) (*gamerulesv1.ApplyMoveResponse, error)
	Score(context.Context, *gamerulesv1.ScoreRequest) (*gamerulesv1.ScoreResponse, error)
	ObserveState(context.Context, *gamerulesv1.ObserveStateRequest) (*gamerulesv1.ObserveStateResponse, error)
	RenderState(context.Context, *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error)
	ConvertState(context.Context, *gamerulesv1.ConvertStateRequest) (*gamerulesv1.ConvertStateResponse, error)
	GetBoard(context.Context, *gamerulesv1.GetBoardRequest) (*gamerulesv1.GetBoardResponse, error)
	ReplayGame(context.Context, *gamerulesv1.ReplayGameRequest) (*gamerulesv1.ReplayGameResponse, error)
	ImportRecord(context.Context, *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error)
	ExportRecord(context.Context, *gamerulesv1.ExportRecordRequest) (*gamerulesv1.ExportRecordResponse, error)
	Batch(context.Context, *gamerulesv1.BatchRequest) (*gamerulesv1.BatchResponse, error)
	Expand(context.Context, *gamerulesv1.ExpandRequest) (*gamerulesv1.ExpandResponse, error)
	Playout(context.Context, *gamerulesv1.PlayoutRequest) (*gamerulesv1.PlayoutResponse, error)
}

// Method is one RPC: its name in the service ("LegalMoves"), a new empty
// request of its type, and the call of the method on a Service (req must
// be of NewRequest's type).
type Method struct {
	Name       string
	NewRequest func() proto.Message
	Run        func(ctx context.Context, s Service, req proto.Message) (proto.Message, error)
}

// methods are the RPCs in the order of the service descriptor
// (TestMethodsAreTheDescriptor). Each is written out, not made by a generic
// function: the WebAssembly build links a closure per RPC and nothing more.
var methods = []Method{
	{"ListGames", func() proto.Message { return new(gamerulesv1.ListGamesRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ListGames(ctx, req.(*gamerulesv1.ListGamesRequest))
	}},
	{"NewGame", func() proto.Message { return new(gamerulesv1.NewGameRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.NewGame(ctx, req.(*gamerulesv1.NewGameRequest))
	}},
	{"LegalMoves", func() proto.Message { return new(gamerulesv1.LegalMovesRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.LegalMoves(ctx, req.(*gamerulesv1.LegalMovesRequest))
	}},
	{"ApplyMove", func() proto.Message { return new(gamerulesv1.ApplyMoveRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ApplyMove(ctx, req.(*gamerulesv1.ApplyMoveRequest))
	}},
	{"Score", func() proto.Message { return new(gamerulesv1.ScoreRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.Score(ctx, req.(*gamerulesv1.ScoreRequest))
	}},
	{"ObserveState", func() proto.Message { return new(gamerulesv1.ObserveStateRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ObserveState(ctx, req.(*gamerulesv1.ObserveStateRequest))
	}},
	{"RenderState", func() proto.Message { return new(gamerulesv1.RenderStateRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.RenderState(ctx, req.(*gamerulesv1.RenderStateRequest))
	}},
	{"ConvertState", func() proto.Message { return new(gamerulesv1.ConvertStateRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ConvertState(ctx, req.(*gamerulesv1.ConvertStateRequest))
	}},
	{"GetBoard", func() proto.Message { return new(gamerulesv1.GetBoardRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.GetBoard(ctx, req.(*gamerulesv1.GetBoardRequest))
	}},
	{"ReplayGame", func() proto.Message { return new(gamerulesv1.ReplayGameRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ReplayGame(ctx, req.(*gamerulesv1.ReplayGameRequest))
	}},
	{"ImportRecord", func() proto.Message { return new(gamerulesv1.ImportRecordRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ImportRecord(ctx, req.(*gamerulesv1.ImportRecordRequest))
	}},
	{"ExportRecord", func() proto.Message { return new(gamerulesv1.ExportRecordRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.ExportRecord(ctx, req.(*gamerulesv1.ExportRecordRequest))
	}},
	{"Batch", func() proto.Message { return new(gamerulesv1.BatchRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.Batch(ctx, req.(*gamerulesv1.BatchRequest))
	}},
	{"Expand", func() proto.Message { return new(gamerulesv1.ExpandRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.Expand(ctx, req.(*gamerulesv1.ExpandRequest))
	}},
	{"Playout", func() proto.Message { return new(gamerulesv1.PlayoutRequest) }, func(ctx context.Context, s Service, req proto.Message) (proto.Message, error) {
		return s.Playout(ctx, req.(*gamerulesv1.PlayoutRequest))
	}},
}

// Methods returns every RPC, in the service descriptor's order; the
// caller must not change the slice.
func Methods() []Method { return methods }

// ByName returns the RPC of that name ("LegalMoves"), or false.
func ByName(name string) (*Method, bool) {
	for i := range methods {
		if methods[i].Name == name {
			return &methods[i], true
		}
	}
	return nil, false
}

// Names returns the RPCs' names, sorted.
func Names() []string {
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = m.Name
	}
	slices.Sort(names)
	return names
}
