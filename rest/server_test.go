package rest

import (
	"context"
	"reflect"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// TestServerWrapsEveryMethod: every method of the service, called
// on the in-process gateway's server, runs the chain with its own gRPC name
// and then the service's method of that name (a method left to the
// embedded Unimplemented server would skip the chain).
func TestServerWrapsEveryMethod(t *testing.T) {
	var seen string
	record := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		seen = info.FullMethod
		return handler(ctx, req)
	}
	// The Unimplemented server's error names the method it was called as.
	s := NewServer(gamerulesv1grpc.UnimplementedGameRulesServer{}, []grpc.UnaryServerInterceptor{record})
	for _, m := range gamerulesv1grpc.GameRules_ServiceDesc.Methods {
		seen = ""
		fn := reflect.ValueOf(s).MethodByName(m.MethodName)
		if !fn.IsValid() {
			t.Fatalf("Server has no method %s", m.MethodName)
		}
		out := fn.Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.New(fn.Type().In(1).Elem())})
		err, _ := out[1].Interface().(error)
		if want := "/" + gamerulesv1grpc.GameRules_ServiceDesc.ServiceName + "/" + m.MethodName; seen != want {
			t.Errorf("%s: the chain saw %q; want %q", m.MethodName, seen, want)
		}
		if st := status.Convert(err); st.Code() != codes.Unimplemented || st.Message() != "method "+m.MethodName+" not implemented" {
			t.Errorf("%s: reached %v; want the service's %s", m.MethodName, err, m.MethodName)
		}
	}
	if n := len(gamerulesv1grpc.GameRules_ServiceDesc.Methods); n != gameRules.Methods().Len() || len(gamerulesv1grpc.GameRules_ServiceDesc.Streams) != 0 {
		t.Errorf("the service has %d unary methods and %d streams; the descriptor %d RPCs", n, len(gamerulesv1grpc.GameRules_ServiceDesc.Streams), gameRules.Methods().Len())
	}
}
