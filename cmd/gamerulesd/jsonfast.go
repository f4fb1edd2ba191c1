package main

import (
	"encoding/base64"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// fastJSON is the REST answers' marshaler: the gateway's strictJSON, whose
// protojson encoder (EmitDefaultValues, lowerCamelCase names, enums by
// name) costs most of a REST call's CPU, mostly in sorting every
// message's fields for each message it writes. fastJSON writes the same
// JSON text — the same fields in the same order, the same numbers and
// strings, compacted (protojson adds a space at random after some ':' and
// ','; TestFastJSONMatchesProtojson compares with json.Compact of its
// output) — from a plan made once per message type. A message that holds
// a well-known type (google.protobuf.*, such as the Any of an error's
// details) or a map anywhere in its type goes to protojson.
type fastJSON struct {
	strictJSON
}

// Marshal implements runtime.Marshaler.
func (m fastJSON) Marshal(v any) ([]byte, error) {
	pm, ok := v.(proto.Message)
	if !ok {
		return m.strictJSON.Marshal(v)
	}
	r := pm.ProtoReflect()
	if !r.IsValid() {
		return m.strictJSON.Marshal(v)
	}
	p := jsonPlanOf(r.Descriptor())
	if p.fallback {
		return m.strictJSON.Marshal(v)
	}
	out, err := appendMessageJSON(make([]byte, 0, 512), r, p)
	if err != nil {
		return m.strictJSON.Marshal(v) // protojson says what is wrong
	}
	return out, nil
}

// jsonPlan is how to write one message type.
type jsonPlan struct {
	fields   []jsonField
	fallback bool // holds a well-known type or a map: protojson writes it
}

// jsonField is one field of a plan, in declaration order.
type jsonField struct {
	fd     protoreflect.FieldDescriptor
	name   string // `"jsonName":`
	always bool   // written even when unset (no presence, not in a oneof)
	kind   protoreflect.Kind
	list   bool
	sub    *jsonPlan // message fields
}

var jsonPlans sync.Map // protoreflect.FullName → *jsonPlan

// jsonPlanOf returns md's plan, made on first use.
func jsonPlanOf(md protoreflect.MessageDescriptor) *jsonPlan {
	if p, ok := jsonPlans.Load(md.FullName()); ok {
		return p.(*jsonPlan)
	}
	building := map[protoreflect.FullName]*jsonPlan{}
	p := buildJSONPlan(md, building)
	if p.fallback {
		// Whatever holds a fallback type falls back too.
		for _, q := range building {
			markFallback(q, map[*jsonPlan]bool{})
		}
	}
	for n, q := range building {
		jsonPlans.LoadOrStore(n, q)
	}
	v, _ := jsonPlans.Load(md.FullName())
	return v.(*jsonPlan)
}

// markFallback sets p.fallback when any plan it reaches falls back.
func markFallback(p *jsonPlan, seen map[*jsonPlan]bool) bool {
	if seen[p] {
		return p.fallback
	}
	seen[p] = true
	for _, f := range p.fields {
		if f.sub != nil && markFallback(f.sub, seen) {
			p.fallback = true
		}
	}
	return p.fallback
}

func buildJSONPlan(md protoreflect.MessageDescriptor, building map[protoreflect.FullName]*jsonPlan) *jsonPlan {
	if p, ok := building[md.FullName()]; ok {
		return p // a recursive type: filled in by the outer call
	}
	p := &jsonPlan{}
	building[md.FullName()] = p
	if strings.HasPrefix(string(md.FullName()), "google.protobuf.") || md.ExtensionRanges().Len() > 0 {
		p.fallback = true
		return p
	}
	fds := md.Fields()
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		if fd.IsMap() || fd.Kind() == protoreflect.GroupKind {
			p.fallback = true
			return p
		}
		f := jsonField{
			fd:     fd,
			name:   strconv.Quote(fd.JSONName()) + ":",
			always: !fd.HasPresence() && fd.ContainingOneof() == nil,
			kind:   fd.Kind(),
			list:   fd.IsList(),
		}
		if f.kind == protoreflect.EnumKind && fd.Enum().FullName() == "google.protobuf.NullValue" {
			p.fallback = true
			return p
		}
		if f.kind == protoreflect.MessageKind {
			f.sub = buildJSONPlan(fd.Message(), building)
			if f.sub.fallback {
				p.fallback = true
				return p
			}
		}
		p.fields = append(p.fields, f)
	}
	return p
}

// errJSONFallback sends a message fastJSON cannot write to protojson.
var errJSONFallback = errors.New("fastJSON: not a plain message")

// appendMessageJSON writes m as protojson would with EmitDefaultValues:
// every field in declaration order, unset ones with presence left out,
// unset ones without presence written as their zero value.
func appendMessageJSON(out []byte, m protoreflect.Message, p *jsonPlan) ([]byte, error) {
	if p.fallback {
		return out, errJSONFallback
	}
	out = append(out, '{')
	first := true
	var err error
	for i := range p.fields {
		f := &p.fields[i]
		if !f.always && !m.Has(f.fd) {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, f.name...)
		v := m.Get(f.fd)
		if f.list {
			l := v.List()
			out = append(out, '[')
			for j := 0; j < l.Len(); j++ {
				if j > 0 {
					out = append(out, ',')
				}
				if out, err = appendValueJSON(out, l.Get(j), f); err != nil {
					return out, err
				}
			}
			out = append(out, ']')
			continue
		}
		if out, err = appendValueJSON(out, v, f); err != nil {
			return out, err
		}
	}
	return append(out, '}'), nil
}

// appendValueJSON writes one singular value of field f, as protojson's
// marshalSingular does.
func appendValueJSON(out []byte, v protoreflect.Value, f *jsonField) ([]byte, error) {
	switch f.kind {
	case protoreflect.BoolKind:
		return strconv.AppendBool(out, v.Bool()), nil
	case protoreflect.StringKind:
		return appendJSONString(out, v.String())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return strconv.AppendInt(out, v.Int(), 10), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return strconv.AppendUint(out, v.Uint(), 10), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		out = append(out, '"')
		return append(strconv.AppendInt(out, v.Int(), 10), '"'), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		out = append(out, '"')
		return append(strconv.AppendUint(out, v.Uint(), 10), '"'), nil
	case protoreflect.FloatKind:
		return appendJSONFloat(out, v.Float(), 32), nil
	case protoreflect.DoubleKind:
		return appendJSONFloat(out, v.Float(), 64), nil
	case protoreflect.BytesKind:
		out = append(out, '"')
		return append(base64.StdEncoding.AppendEncode(out, v.Bytes()), '"'), nil
	case protoreflect.EnumKind:
		if d := f.fd.Enum().Values().ByNumber(v.Enum()); d != nil {
			out = append(out, '"')
			return append(append(out, d.Name()...), '"'), nil
		}
		return strconv.AppendInt(out, int64(v.Enum()), 10), nil
	case protoreflect.MessageKind:
		return appendMessageJSON(out, v.Message(), f.sub)
	}
	return out, errJSONFallback
}

// appendJSONString is protojson's string writer (internal/encoding/json):
// only '"', '\\' and control characters are escaped, and invalid UTF-8 is
// an error.
func appendJSONString(out []byte, in string) ([]byte, error) {
	out = append(out, '"')
	i := indexNeedEscape(in)
	in, out = in[i:], append(out, in[:i]...)
	for len(in) > 0 {
		switch r, n := utf8.DecodeRuneInString(in); {
		case r == utf8.RuneError && n == 1:
			return out, errJSONFallback
		case r < ' ' || r == '"' || r == '\\':
			out = append(out, '\\')
			switch r {
			case '"', '\\':
				out = append(out, byte(r))
			case '\b':
				out = append(out, 'b')
			case '\f':
				out = append(out, 'f')
			case '\n':
				out = append(out, 'n')
			case '\r':
				out = append(out, 'r')
			case '\t':
				out = append(out, 't')
			default:
				out = append(out, 'u')
				out = append(out, "0000"[1+(bits.Len32(uint32(r))-1)/4:]...)
				out = strconv.AppendUint(out, uint64(r), 16)
			}
			in = in[n:]
		default:
			i := indexNeedEscape(in[n:])
			in, out = in[n+i:], append(out, in[:n+i]...)
		}
	}
	return append(out, '"'), nil
}

func indexNeedEscape(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == '\\' || c == '"' || c >= utf8.RuneSelf {
			if c >= utf8.RuneSelf {
				// Multi-byte: valid runes are copied as they are.
				r, n := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && n == 1 {
					return i
				}
				i += n - 1
				continue
			}
			return i
		}
	}
	return len(s)
}

// appendJSONFloat is protojson's number writer: NaN and the infinities as
// strings, 'e' notation below 1e-6 and from 1e21, with a one-digit negative
// exponent unpadded.
func appendJSONFloat(out []byte, n float64, bitSize int) []byte {
	switch {
	case math.IsNaN(n):
		return append(out, `"NaN"`...)
	case math.IsInf(n, +1):
		return append(out, `"Infinity"`...)
	case math.IsInf(n, -1):
		return append(out, `"-Infinity"`...)
	}
	format := byte('f')
	if abs := math.Abs(n); abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	out = strconv.AppendFloat(out, n, format, -1, bitSize)
	if format == 'e' {
		n := len(out)
		if n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	return out
}
