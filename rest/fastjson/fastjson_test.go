package fastjson_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/structpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1json"
	"github.com/gamerules/gamerules/rest/fastjson"
	"github.com/gamerules/gamerules/service"
)

// gatewayJSON is what the REST gateway used before fastjson: protojson
// with EmitDefaultValues, then compacted (protojson adds spaces at random).
func gatewayJSON(t testing.TB, m proto.Message) []byte {
	t.Helper()
	raw, err := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, raw); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// same checks that Append (for the API's messages, the generated
// gamerulesv1json) and the reflective writer alone both write m as
// protojson does, after a prefix that must be kept as it is.
func same(t *testing.T, what string, m proto.Message) {
	t.Helper()
	want := gatewayJSON(t, m)
	prefix := []byte(`{"x":`)
	for _, w := range []struct {
		name   string
		append func([]byte, protoreflect.Message) ([]byte, error)
	}{{"Append", fastjson.Append}, {"reflection", fastjson.AppendReflect}} {
		out, err := w.append(append([]byte(nil), prefix...), m.ProtoReflect())
		if err != nil {
			t.Fatalf("%s (%s): %v", what, w.name, err)
		}
		if !bytes.HasPrefix(out, prefix) {
			t.Fatalf("%s (%s): the prefix was overwritten: %.20q", what, w.name, out)
		}
		if got := out[len(prefix):]; !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%s (%s): differs at byte %d:\n got …%s\nwant …%s", what, w.name, i, got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
		}
	}
}

// TestSameAsProtojsonOnPlay: for the answers of every RPC over seeded
// random play of every game, fastjson writes protojson's JSON exactly
// (after compaction).
func TestSameAsProtojsonOnPlay(t *testing.T) {
	srv := service.New()
	ctx := context.Background()
	lg, _ := srv.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	same(t, "ListGames", lg)
	plies := 0
	for _, id := range srv.Games() {
		for seed := uint64(1); seed <= 3; seed++ {
			ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: &seed})
			if err != nil {
				t.Fatal(err)
			}
			same(t, id+" NewGame", ng)
			st := ng.GetState()
			var moves []string
			for ply := 0; ply < 40; ply++ {
				lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st, IncludeResults: ply%2 == 0})
				if err != nil {
					t.Fatal(err)
				}
				same(t, id+" LegalMoves", lm)
				sc, _ := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: st})
				same(t, id+" Score", sc)
				if len(lm.GetMoves()) == 0 {
					break
				}
				s := seed*1000 + uint64(ply)
				mv := lm.GetMoves()[int(s*2654435761%uint64(len(lm.GetMoves())))]
				am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: mv.GetNotation()}, Seed: &s, IncludeLegalMoves: true})
				if err != nil {
					t.Fatal(err)
				}
				same(t, id+" ApplyMove", am)
				moves = append(moves, am.GetMove().GetNotation())
				st = am.GetState()
				plies++
			}
			rp, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: id, State: ng.GetState(), Moves: moves, IncludeStates: true})
			if err != nil {
				t.Fatalf("%s replay: %v", id, err)
			}
			same(t, id+" ReplayGame", rp)
		}
	}
	if plies < 300 {
		t.Fatalf("only %d plies", plies)
	}
}

// fill sets the fields of m at random (fillFields): every kind of scalar
// with its edge values (NaN, infinities, tiny and huge floats, extreme
// integers, unknown enum numbers, strings with quotes, control characters
// and non-ASCII), lists and maps of up to 3 items, messages 3 deep.
func fill(r *rand.Rand, m protoreflect.Message, depth int) {
	strs := []string{"", "a", `q"uote\back`, "tab\tnl\ncr\r\b\f\x00\x01\x1f", "<&>", "é😀\u2028\u2029\ufffd", strings.Repeat("x", 50)}
	floats := []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-7, 1e-6, 9.99e20, 1e21, 1e300, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1), 123456789.125}
	ints := []int64{0, 1, -1, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}
	scalar := func(fd protoreflect.FieldDescriptor) protoreflect.Value {
		switch fd.Kind() {
		case protoreflect.BoolKind:
			return protoreflect.ValueOfBool(r.IntN(2) == 1)
		case protoreflect.StringKind:
			return protoreflect.ValueOfString(strs[r.IntN(len(strs))])
		case protoreflect.BytesKind:
			b := make([]byte, r.IntN(7))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			return protoreflect.ValueOfBytes(b)
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
			return protoreflect.ValueOfInt32(int32(ints[r.IntN(5)]))
		case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			return protoreflect.ValueOfInt64(ints[r.IntN(len(ints))])
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
			return protoreflect.ValueOfUint32([]uint32{0, 1, math.MaxUint32}[r.IntN(3)])
		case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			return protoreflect.ValueOfUint64([]uint64{0, 7, math.MaxUint64}[r.IntN(3)])
		case protoreflect.FloatKind:
			return protoreflect.ValueOfFloat32(float32(floats[r.IntN(len(floats))]))
		case protoreflect.DoubleKind:
			return protoreflect.ValueOfFloat64(floats[r.IntN(len(floats))])
		case protoreflect.EnumKind:
			vals := fd.Enum().Values()
			if r.IntN(5) == 0 {
				return protoreflect.ValueOfEnum(99)
			}
			return protoreflect.ValueOfEnum(vals.Get(r.IntN(vals.Len())).Number())
		}
		panic(fd.Kind())
	}
	fillFields(r, m, depth, 3, 4, scalar)
}

// fillFields sets about two thirds of m's fields at random, scalars from
// scalar: one member of each oneof; lists and maps of fewer than maxItems
// items; a message field set, filled while depth is under maxDepth and
// left empty (present, "{}") at it, as is one in three.
func fillFields(r *rand.Rand, m protoreflect.Message, depth, maxDepth, maxItems int, scalar func(protoreflect.FieldDescriptor) protoreflect.Value) {
	sub := func(mm protoreflect.Message) {
		if depth < maxDepth && r.IntN(3) > 0 {
			fillFields(r, mm, depth+1, maxDepth, maxItems, scalar)
		}
	}
	fds := m.Descriptor().Fields()
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		if r.IntN(3) == 0 {
			continue
		}
		if o := fd.ContainingOneof(); o != nil && m.WhichOneof(o) != nil {
			continue
		}
		isMsg := fd.Kind() == protoreflect.MessageKind
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for range r.IntN(maxItems) {
				k := scalar(fd.MapKey()).MapKey()
				if fd.MapValue().Kind() == protoreflect.MessageKind {
					sub(mp.Mutable(k).Message())
				} else {
					mp.Set(k, scalar(fd.MapValue()))
				}
			}
		case fd.IsList():
			l := m.Mutable(fd).List()
			for range r.IntN(maxItems) {
				if isMsg {
					sub(l.AppendMutable().Message())
				} else {
					l.Append(scalar(fd))
				}
			}
		case isMsg:
			sub(m.Mutable(fd).Message())
		default:
			m.Set(fd, scalar(fd))
		}
	}
}

// TestSameAsProtojsonOnRandomMessages: every message type of the API,
// filled at random with edge values, is written as protojson writes it;
// a string that is not UTF-8 is refused by both.
func TestSameAsProtojsonOnRandomMessages(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	types := 0
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		if !strings.HasPrefix(string(mt.Descriptor().FullName()), "gamerules.v1.") {
			return true
		}
		if !fastjson.Supported(mt.Descriptor()) {
			return true
		}
		types++
		for i := 0; i < 60; i++ {
			m := mt.New()
			fill(r, m, 0)
			same(t, string(mt.Descriptor().FullName()), m.Interface())
		}
		return true
	})
	if types < 40 {
		t.Fatalf("only %d API message types supported", types)
	}
	for _, bad := range []proto.Message{
		&gamerulesv1.Move{Notation: "a\xffb"},
		&gamerulesv1.LegalMovesResponse{Moves: []*gamerulesv1.Move{{Notation: "ok"}, {Result: &gamerulesv1.GameState{Text: "\xc3("}}}},
		&gamerulesv1.ImportRecordResponse{Tags: map[string]string{"ok": "ok", "\xff": "v"}},
		&gamerulesv1.ImportRecordResponse{Tags: map[string]string{"k": "v\xff"}},
	} {
		for name, write := range map[string]func([]byte, protoreflect.Message) ([]byte, error){"Append": fastjson.Append, "reflection": fastjson.AppendReflect} {
			if out, err := write([]byte("prefix"), bad.ProtoReflect()); err == nil || string(out) != "prefix" {
				t.Errorf("%T (%s): invalid UTF-8 written: %q, %v", bad, name, out, err)
			}
		}
		if _, err := protojson.Marshal(bad); err == nil {
			t.Errorf("%T: protojson wrote invalid UTF-8 (the test's premise)", bad)
		}
	}
}

// TestGeneratedWritesTheAPI: the generated writer (gamerulesv1json)
// writes every message type that an RPC of the API answers with, or that
// such an answer holds, and that the reflective writer supports, so that
// no answer falls back to reflection unnoticed; and no other (requests
// are read, never written).
func TestGeneratedWritesTheAPI(t *testing.T) {
	sd := gamerulesv1grpc.File_gamerules_v1_service_proto.Services().ByName("GameRules")
	answered := map[protoreflect.FullName]bool{}
	var hold func(md protoreflect.MessageDescriptor)
	hold = func(md protoreflect.MessageDescriptor) {
		if answered[md.FullName()] {
			return
		}
		answered[md.FullName()] = true
		for i := 0; i < md.Fields().Len(); i++ {
			if fd := md.Fields().Get(i); fd.Message() != nil {
				hold(fd.Message())
			}
		}
	}
	methods := sd.Methods()
	for i := 0; i < methods.Len(); i++ {
		hold(methods.Get(i).Output())
	}
	n, generated := 0, 0
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		md := mt.Descriptor()
		if !strings.HasPrefix(string(md.FullName()), "gamerules.v1.") {
			return true
		}
		_, ok, err := gamerulesv1json.Append(nil, mt.New().Interface())
		if want := fastjson.Supported(md) && answered[md.FullName()]; ok != want || err != nil {
			t.Errorf("%s: generated %v, want %v (supported by reflection %v, answered %v; %v)", md.FullName(), ok, want, fastjson.Supported(md), answered[md.FullName()], err)
		}
		n++
		if ok {
			generated++
		}
		return true
	})
	if n < 50 || generated < 30 {
		t.Fatalf("only %d API message types, %d generated", n, generated)
	}
	for _, m := range []proto.Message{&gamerulesv1.LegalMovesResponse{}, &gamerulesv1.ApplyMoveResponse{}, &gamerulesv1.GameState{}, &gamerulesv1.BackgammonMove{}} {
		if _, ok, _ := gamerulesv1json.Append(nil, m); !ok {
			t.Errorf("%T not generated", m)
		}
	}
	if _, ok, _ := gamerulesv1json.Append(nil, &gamerulesv1.LegalMovesRequest{}); ok {
		t.Error("a request generated")
	}
	if _, ok, _ := gamerulesv1json.Append(nil, &structpb.Struct{}); ok {
		t.Error("a well-known type written by the generated writer")
	}
}

// TestUnsupported: well-known types, and messages that hold them, are left
// to protojson.
func TestUnsupported(t *testing.T) {
	for _, m := range []proto.Message{&structpb.Struct{}, &structpb.Value{}} {
		if fastjson.Supported(m.ProtoReflect().Descriptor()) {
			t.Errorf("%T supported", m)
		}
		if _, err := fastjson.Append(nil, m.ProtoReflect()); err != fastjson.ErrUnsupported {
			t.Errorf("%T: err %v", m, err)
		}
	}
	if !fastjson.Supported((&gamerulesv1.LegalMovesResponse{}).ProtoReflect().Descriptor()) {
		t.Error("LegalMovesResponse not supported")
	}
}

// BenchmarkMarshal compares protojson (as the gateway ran it) and fastjson
// on the LegalMoves answers of a backgammon game's first plies.
func BenchmarkMarshal(b *testing.B) {
	srv := service.New()
	ctx := context.Background()
	seed := uint64(7)
	ng, _ := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "backgammon", Seed: &seed})
	st := ng.GetState()
	for ply := 0; ply < 21; ply++ {
		lm, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st})
		s := uint64(ply)
		am, _ := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: lm.GetMoves()[(ply*7)%len(lm.GetMoves())].GetNotation()}, Seed: &s})
		st = am.GetState()
	}
	for _, res := range []bool{false, true} {
		resp, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: st, IncludeResults: res})
		name := "backgammon"
		if res {
			name += "+results"
		}
		b.Run(name+"/protojson", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(resp)
			}
		})
		b.Run(name+"/fastjson", func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf, _ = fastjson.Append(buf[:0], resp.ProtoReflect())
			}
		})
		b.Run(name+"/reflection", func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf, _ = fastjson.AppendReflect(buf[:0], resp.ProtoReflect())
			}
		})
	}
}
