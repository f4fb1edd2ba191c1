package fastjson_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1json"
	"github.com/gamerules/gamerules/rest/fastjson"
)

// wildString is a random string: random bytes (often not UTF-8), random
// runes from the whole range (U+2028, U+FFFD, astral, controls, DEL), or
// HTML-significant and escape characters.
func wildString(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	case 1:
		var sb strings.Builder
		for range r.IntN(6) {
			pool := []rune{0, 0x1f, 0x7f, 0x80, 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff, 0x10ffff, '<', '>', '&', '"', '\\', '/', '\'', 'é'}
			if r.IntN(2) == 0 {
				sb.WriteRune(pool[r.IntN(len(pool))])
			} else {
				sb.WriteRune(rune(r.IntN(0x110000)))
			}
		}
		return sb.String()
	case 2:
		return string([]byte{0xed, 0xa0, 0x80}) // an encoded surrogate: not UTF-8
	}
	return "<script>&amp;\u2028</script>"
}

// wildFloat is a random float64: random bits (subnormals, NaN payloads,
// every exponent), or one of protojson's format boundaries.
func wildFloat(r *rand.Rand) float64 {
	edges := []float64{0, math.Copysign(0, -1), 1e21, math.Nextafter(1e21, 0), 1e-6, math.Nextafter(1e-6, 0), 1e-7, 5e-324, -5e-324, 2.2250738585072014e-308, math.MaxFloat64, math.SmallestNonzeroFloat32, math.MaxFloat32, 1e20, 123e-20, math.NaN(), math.Inf(1), math.Inf(-1), float64(float32(1e21)), float64(float32(1e-6)), float64(math.Nextafter32(1e-6, 0))}
	switch r.IntN(3) {
	case 0:
		return edges[r.IntN(len(edges))]
	case 1:
		return math.Float64frombits(r.Uint64())
	}
	return float64(math.Float32frombits(r.Uint32()))
}

// wildFill is fill with random values over the whole range of each kind,
// lists and maps of up to 4 items, messages 4 deep.
func wildFill(r *rand.Rand, m protoreflect.Message, depth int) {
	scalar := func(fd protoreflect.FieldDescriptor) protoreflect.Value {
		switch fd.Kind() {
		case protoreflect.BoolKind:
			return protoreflect.ValueOfBool(r.IntN(2) == 1)
		case protoreflect.StringKind:
			return protoreflect.ValueOfString(wildString(r))
		case protoreflect.BytesKind:
			b := make([]byte, r.IntN(9))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			return protoreflect.ValueOfBytes(b)
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
			return protoreflect.ValueOfInt32(int32(r.Uint32()))
		case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			return protoreflect.ValueOfInt64(int64(r.Uint64()))
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
			return protoreflect.ValueOfUint32(r.Uint32())
		case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			return protoreflect.ValueOfUint64(r.Uint64())
		case protoreflect.FloatKind:
			return protoreflect.ValueOfFloat32(float32(wildFloat(r)))
		case protoreflect.DoubleKind:
			return protoreflect.ValueOfFloat64(wildFloat(r))
		case protoreflect.EnumKind:
			vals := fd.Enum().Values()
			if r.IntN(3) == 0 {
				return protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(r.Uint32()) >> r.IntN(32)))
			}
			return protoreflect.ValueOfEnum(vals.Get(r.IntN(vals.Len())).Number())
		}
		panic(fd.Kind())
	}
	fillFields(r, m, depth, 4, 5, scalar)
}

// TestSameAsProtojsonOnWildMessages: every message type the generated
// writer writes, filled with random values over each kind's whole range
// (random float bits, random bytes and runes as strings, random enum
// numbers), is written by Append, the generated writer alone and the
// reflective writer exactly as protojson writes it (compacted); when
// protojson refuses a message (a string not UTF-8) all three refuse it.
func TestSameAsProtojsonOnWildMessages(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 35))
	n := 0
	refused, written := 0, 0
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		if !strings.HasPrefix(string(mt.Descriptor().FullName()), "gamerules.v1.") {
			return true
		}
		if _, ok, _ := gamerulesv1json.Append(nil, mt.New().Interface()); !ok {
			return true
		}
		n++
		for i := 0; i < 300; i++ {
			m := mt.New()
			wildFill(r, m, 0)
			name := string(mt.Descriptor().FullName())
			raw, perr := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(m.Interface())
			var want bytes.Buffer
			if perr == nil {
				if err := json.Compact(&want, raw); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				written++
			} else {
				refused++
			}
			writers := map[string]func([]byte, protoreflect.Message) ([]byte, error){
				"Append":     fastjson.Append,
				"reflection": fastjson.AppendReflect,
				"generated": func(b []byte, m protoreflect.Message) ([]byte, error) {
					out, _, err := gamerulesv1json.Append(b, m.Interface())
					return out, err
				},
			}
			for wname, write := range writers {
				out, err := write(nil, m)
				if (err != nil) != (perr != nil) {
					t.Fatalf("%s (%s): error %v, protojson's %v", name, wname, err, perr)
				}
				if err == nil && !bytes.Equal(out, want.Bytes()) {
					got, w := out, want.Bytes()
					j := 0
					for j < len(got) && j < len(w) && got[j] == w[j] {
						j++
					}
					t.Fatalf("%s (%s): differs at byte %d:\n got …%q\nwant …%q", name, wname, j, got[max(0, j-60):min(len(got), j+60)], w[max(0, j-60):min(len(w), j+60)])
				}
			}
		}
		return true
	})
	t.Logf("%d types, %d written, %d refused", n, written, refused)
	if n < 40 || refused == 0 || written < 1000 {
		t.Fatalf("%d types, %d written, %d refused", n, written, refused)
	}
}

// TestGeneratedNilMessages: a nil message of a generated type, and nil
// messages in a list, are written as protojson writes them.
func TestGeneratedNilMessages(t *testing.T) {
	for _, m := range []proto.Message{
		(*gamerulesv1.LegalMovesResponse)(nil),
		(*gamerulesv1.GameState)(nil),
		&gamerulesv1.ApplyMoveResponse{State: &gamerulesv1.GameState{}},
		&gamerulesv1.LegalMovesResponse{Moves: []*gamerulesv1.Move{{}, {Result: &gamerulesv1.GameState{}}}},
	} {
		same(t, "nil", m)
	}
}
