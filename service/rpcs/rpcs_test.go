package rpcs

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service"
)

// Every GameRulesServer and the service itself are a Service.
var (
	_ Service = gamerulesv1grpc.GameRulesServer(nil)
	_ Service = (*service.Server)(nil)
)

// TestMethodsAreTheDescriptor: the table has every RPC of the service
// descriptor, in its order, nothing else, each with the descriptor's
// request and answer types; a new RPC in proto/ fails here until it is in
// Service and Methods.
func TestMethodsAreTheDescriptor(t *testing.T) {
	sd := gamerulesv1grpc.File_gamerules_v1_service_proto.Services().ByName("GameRules")
	if sd == nil {
		t.Fatal("no service gamerules.v1.GameRules in the descriptor")
	}
	st := reflect.TypeFor[Service]()
	var want []string
	for i := range sd.Methods().Len() {
		md := sd.Methods().Get(i)
		want = append(want, string(md.Name()))
		m, ok := ByName(string(md.Name()))
		if !ok {
			t.Errorf("%s: not in the table", md.Name())
			continue
		}
		if got := m.NewRequest().ProtoReflect().Descriptor().FullName(); got != md.Input().FullName() {
			t.Errorf("%s: request %s; the descriptor's %s", md.Name(), got, md.Input().FullName())
		}
		gm, ok := st.MethodByName(string(md.Name()))
		if !ok {
			t.Errorf("%s: not a method of Service", md.Name())
			continue
		}
		out := reflect.New(gm.Type.Out(0).Elem()).Interface().(proto.Message)
		if got := out.ProtoReflect().Descriptor().FullName(); got != md.Output().FullName() {
			t.Errorf("%s: answer %s; the descriptor's %s", md.Name(), got, md.Output().FullName())
		}
		if md.IsStreamingClient() || md.IsStreamingServer() {
			t.Errorf("%s: a stream; the table runs unary calls only", md.Name())
		}
	}
	var have []string
	for _, m := range Methods() {
		have = append(have, m.Name)
	}
	if !slices.Equal(have, want) {
		t.Errorf("the table's RPCs %v; the descriptor's %v", have, want)
	}
	if st.NumMethod() != len(want) {
		t.Errorf("Service has %d methods; the descriptor %d RPCs", st.NumMethod(), len(want))
	}
	sorted := slices.Sorted(slices.Values(want))
	if !slices.Equal(Names(), sorted) {
		t.Errorf("Names() = %v; want %v", Names(), sorted)
	}
}

// TestMethodsAreTheService: the table has every method of service.Server
// that has an RPC's shape, func(ctx, *Request) (*Answer, error), and
// nothing else.
func TestMethodsAreTheService(t *testing.T) {
	ctxType := reflect.TypeFor[context.Context]()
	msgType := reflect.TypeFor[proto.Message]()
	errType := reflect.TypeFor[error]()
	var rpcs []string
	st := reflect.TypeFor[*service.Server]()
	for i := range st.NumMethod() {
		m := st.Method(i)
		ft := m.Type // receiver first
		if ft.NumIn() == 3 && ft.In(1) == ctxType && ft.In(2).Implements(msgType) &&
			ft.NumOut() == 2 && ft.Out(0).Implements(msgType) && ft.Out(1) == errType {
			rpcs = append(rpcs, m.Name)
		}
	}
	slices.Sort(rpcs)
	if !slices.Equal(rpcs, Names()) {
		t.Errorf("the table's RPCs %v; service.Server's %v", Names(), rpcs)
	}
	if len(rpcs) < 14 {
		t.Errorf("only %d RPCs found: %v", len(rpcs), rpcs)
	}
}

// TestRunCallsItsMethod: Run calls the service's method of its name (the
// answer's type is the method's, a typed nil with an error, as the
// method returns it).
func TestRunCallsItsMethod(t *testing.T) {
	svc := service.New()
	for _, m := range Methods() {
		resp, _ := m.Run(context.Background(), svc, m.NewRequest()) // most refuse an empty request, with a nil answer of their type
		gm, _ := reflect.TypeFor[Service]().MethodByName(m.Name)
		if got, want := reflect.TypeOf(resp), gm.Type.Out(0); got != want {
			t.Errorf("%s: answered a %v; want %v", m.Name, got, want)
		}
	}
	m, _ := ByName("ListGames")
	r, err := m.Run(context.Background(), svc, m.NewRequest())
	if lg, ok := r.(*gamerulesv1.ListGamesResponse); err != nil || !ok || len(lg.GetGames()) == 0 {
		t.Errorf("ListGames: %v, %v; want the games", r, err)
	}
}
