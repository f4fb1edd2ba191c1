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

// TestCostConstants: Cost's defaults are the service's limits.
func TestCostConstants(t *testing.T) {
	if playoutGamePlies != service.MaxPlayoutGamePlies || playoutPlies != service.MaxPlayoutPlies || expandNodes != service.MaxExpandNodes {
		t.Errorf("Cost's defaults %d, %d, %d; the service's %d, %d, %d", playoutGamePlies, playoutPlies, expandNodes, service.MaxPlayoutGamePlies, service.MaxPlayoutPlies, service.MaxExpandNodes)
	}
}

// TestCost: the hand-computed costs of requests of each kind (in µs of
// CPU, cost.go's measured weights), the light ones below HeavyCost and the
// big ones at or above it (a greedy Playout of 3,000 plies is heavy, a
// random one is not), and every heavy request's RPC one MayBeHeavy names.
func TestCost(t *testing.T) {
	moves := make([]string, 12_000)
	items := make([]*gamerulesv1.BatchRequestItem, 500)
	greedy := gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY
	for _, c := range []struct {
		name string
		req  proto.Message
		want int64
	}{
		{"LegalMoves", &gamerulesv1.LegalMovesRequest{Game: "backgammon"}, LightCost},
		{"ApplyMove", &gamerulesv1.ApplyMoveRequest{Game: "backgammon"}, LightCost},
		{"Playout", &gamerulesv1.PlayoutRequest{Games: 100}, 2_000_000},
		{"Playout", &gamerulesv1.PlayoutRequest{Games: 1, MaxPlies: 200}, 400},
		{"Playout", &gamerulesv1.PlayoutRequest{Games: 1, MaxPlies: 3000}, 6_000},
		{"Playout", &gamerulesv1.PlayoutRequest{Games: 1, MaxPlies: 3000, Policy: &greedy}, 12_000},
		{"Playout", &gamerulesv1.PlayoutRequest{Games: 10_000, MaxPlies: 10_000}, 8_000_000},
		{"Playout", &gamerulesv1.PlayoutRequest{Games: -5}, LightCost},
		{"Expand", &gamerulesv1.ExpandRequest{Depth: 3}, 80_000},
		{"Expand", &gamerulesv1.ExpandRequest{Depth: 3, MaxNodes: 50}, 200},
		{"Batch", &gamerulesv1.BatchRequest{Requests: items}, 20_000},
		{"Batch", &gamerulesv1.BatchRequest{}, LightCost},
		{"ReplayGame", &gamerulesv1.ReplayGameRequest{Moves: moves}, 84_000},
		{"ImportRecord", &gamerulesv1.ImportRecordRequest{Text: string(make([]byte, 119_000))}, 119_000},
		{"ExportRecord", &gamerulesv1.ExportRecordRequest{Replay: &gamerulesv1.ReplayGameRequest{Moves: moves[:3000]}, Tags: map[string]string{"White": "abc"}}, 24_008},
	} {
		got := Cost(c.req)
		if got != c.want {
			t.Errorf("Cost(%s %v) = %d; want %d", c.name, c.req, got, c.want)
		}
		if _, ok := ByName(c.name); !ok {
			t.Errorf("%s: no such RPC", c.name)
		}
		if got >= HeavyCost && !MayBeHeavy(c.name) {
			t.Errorf("%s costs %d, heavy, but MayBeHeavy(%q) is false", c.name, got, c.name)
		}
	}
	for name := range heavyMethods {
		if _, ok := ByName(name); !ok {
			t.Errorf("heavyMethods names %q, no RPC", name)
		}
	}
	if MayBeHeavy("LegalMoves") || MayBeHeavy("ConvertState") {
		t.Error("LegalMoves or ConvertState may be heavy; want them light")
	}
}
