// Package fastjson writes protobuf messages as the JSON that
// protojson.MarshalOptions{EmitDefaultValues: true} writes, in one pass
// into one buffer, several times faster and with a fraction of the
// allocations (BenchmarkMarshal). It exists for the REST gateway's
// answers, whose encoding was most of a REST call's cost (issue 10).
//
// The output is the same JSON value, with the fields in the same order and
// every scalar written the same way (64-bit integers as strings, enums by
// name, bytes in base64, floats as protojson writes them, "NaN" and
// "Infinity"), but always compact: protojson puts a space after some
// colons at random so that no one relies on its bytes. The tests check
// that json.Compact of protojson's output and this package's output are
// the same bytes, for every answer of seeded play of every game.
//
// The API's messages (package gamerulesv1) are written by the generated
// gen/go/gamerules/v1/gamerulesv1json (tools/protoc-gen-go-fastjson),
// which reads their Go structs: no reflection, no allocation but the
// output's. Any other message is written from a per-type plan through
// protobuf reflection. The tests check both ways against protojson, and
// that every API type this package supports is generated.
//
// Only plain messages are handled: a message that holds (at any depth) a
// well-known type (google.protobuf.*, which protojson writes in special
// forms), a group, or an extension is not Supported, and Append refuses
// it; the caller then uses protojson. Append also refuses a string that is
// not valid UTF-8, as protojson does.
//
// Files:
//
//	fastjson.go  Append, Supported, ErrUnsupported: the generated writer first, else the per-type plan and the reflective writer
package fastjson

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1json"
	"github.com/gamerules/gamerules/internal/jsonwrite"
)

// ErrUnsupported is Append's error for a message it does not write (see
// the package doc); protojson can write it.
var ErrUnsupported = errors.New("fastjson: message type not supported")

// plan is how one message type is written: its fields in declaration
// order with their quoted JSON names.
type plan struct {
	ok     bool
	fields []field
}

type field struct {
	fd       protoreflect.FieldDescriptor
	name     string // `"jsonName":`
	presence bool   // written only when set (message, optional, oneof member)
	sub      *plan  // the message (or map value message) type's plan
	// How the field is read, so that a message is read with as few
	// protoreflect calls as it takes (each checks the descriptor and goes
	// through reflection): a list or map is read only when not empty (an
	// empty one is written "[]" or "{}" without making its reflective
	// view), a singular message field with one Get (unset: an invalid
	// message), and of a oneof's members (consecutive in declaration
	// order) only the one WhichOneof names, at its place.
	list, mapped, message bool
	oneof                 protoreflect.OneofDescriptor // a real (not synthetic) oneof, or nil
	oneofLen              int                          // on a oneof's first member: its member count
}

var (
	mu    sync.Mutex
	plans sync.Map // protoreflect.FullName → *plan
)

// Supported reports whether Append writes messages of type md.
func Supported(md protoreflect.MessageDescriptor) bool { return planOf(md).ok }

// planOf returns md's plan, building (once, under mu) the plans of md and
// of every message type it holds.
func planOf(md protoreflect.MessageDescriptor) *plan {
	if p, ok := plans.Load(md.FullName()); ok {
		return p.(*plan)
	}
	mu.Lock()
	defer mu.Unlock()
	if p, ok := plans.Load(md.FullName()); ok {
		return p.(*plan)
	}
	local := map[protoreflect.FullName]*plan{}
	p := build(md, local)
	// A type is supported when it and every type it holds are: start from
	// each type's own verdict and spread failures until nothing changes
	// (types may hold each other).
	for changed := true; changed; {
		changed = false
		for _, q := range local {
			for _, f := range q.fields {
				if q.ok && f.sub != nil && !f.sub.ok {
					q.ok, changed = false, true
				}
			}
		}
	}
	for name, q := range local {
		plans.Store(name, q)
	}
	return p
}

// build makes the plan of md and of the message types it holds that have
// none yet, into local; each plan's ok is only md's own verdict (no
// well-known type, extension, group, or JSON name that needs escaping).
func build(md protoreflect.MessageDescriptor, local map[protoreflect.FullName]*plan) *plan {
	if p, ok := plans.Load(md.FullName()); ok {
		return p.(*plan)
	}
	if p, ok := local[md.FullName()]; ok {
		return p
	}
	p := &plan{ok: !strings.HasPrefix(string(md.FullName()), "google.protobuf.") && md.ExtensionRanges().Len() == 0}
	local[md.FullName()] = p
	fds := md.Fields()
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		f := field{fd: fd, name: string(strconv.AppendQuote(nil, fd.JSONName())) + ":",
			presence: fd.HasPresence() || fd.ContainingOneof() != nil,
			list:     fd.IsList(), mapped: fd.IsMap(), message: fd.Kind() == protoreflect.MessageKind && !fd.IsList() && !fd.IsMap()}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			f.oneof = od
			if od.Fields().Get(0).Number() == fd.Number() {
				f.oneofLen = od.Fields().Len()
			}
		}
		if f.name != `"`+fd.JSONName()+`":` || fd.Kind() == protoreflect.GroupKind {
			p.ok = false
		}
		vd := fd
		if fd.IsMap() {
			vd = fd.MapValue()
		}
		switch vd.Kind() {
		case protoreflect.GroupKind:
			p.ok = false
		case protoreflect.MessageKind:
			f.sub = build(vd.Message(), local)
		}
		p.fields = append(p.fields, f)
	}
	for i := range p.fields {
		if p.fields[i].oneofLen > 0 && !p.oneofContiguous(i) {
			p.fields[i].oneofLen = 0
		}
	}
	return p
}

// Append appends m as JSON to b. Errors: ErrUnsupported (the type is not
// Supported) and an invalid UTF-8 string; b is then returned unchanged.
// A message of the API (package gamerulesv1) is written by the generated
// gen/go/gamerules/v1/gamerulesv1json, which reads its Go struct; any
// other by the plan, through protobuf reflection.
func Append(b []byte, m protoreflect.Message) ([]byte, error) {
	if out, ok, err := gamerulesv1json.Append(b, m.Interface()); ok {
		if err != nil {
			return b, err
		}
		return out, nil
	}
	return appendReflect(b, m)
}

// appendReflect is Append through protobuf reflection, for every type.
func appendReflect(b []byte, m protoreflect.Message) ([]byte, error) {
	p := planOf(m.Descriptor())
	if !p.ok {
		return b, ErrUnsupported
	}
	out, err := appendMessage(b, m, p)
	if err != nil {
		return b, err
	}
	return out, nil
}

func appendMessage(b []byte, m protoreflect.Message, p *plan) ([]byte, error) {
	if !p.ok {
		return b, ErrUnsupported
	}
	b = append(b, '{')
	first := true
	var err error
	for i := 0; i < len(p.fields); i++ {
		f := &p.fields[i]
		var v protoreflect.Value
		switch {
		case f.oneofLen > 0:
			// The oneof's members: only the one set, if any, at its place.
			which := m.WhichOneof(f.oneof)
			j := i
			for ; which != nil && j < i+f.oneofLen && p.fields[j].fd.Number() != which.Number(); j++ {
			}
			i += f.oneofLen - 1
			if which == nil {
				continue
			}
			f = &p.fields[j]
			v = m.Get(f.fd)
		case f.message && f.oneof == nil:
			if v = m.Get(f.fd); !v.Message().IsValid() {
				continue
			}
		case (f.list || f.mapped) && !m.Has(f.fd):
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.name...)
			if f.list {
				b = append(b, "[]"...)
			} else {
				b = append(b, "{}"...)
			}
			continue
		default:
			if f.presence && !m.Has(f.fd) {
				continue
			}
			v = m.Get(f.fd)
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.name...)
		switch {
		case f.list:
			b, err = appendList(b, v.List(), f)
		case f.mapped:
			b, err = appendMap(b, v.Map(), f)
		default:
			b, err = appendValue(b, v, f.fd, f.sub)
		}
		if err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// oneofContiguous reports whether the oneof whose first member is
// p.fields[i] has all its members right after it, in its order (as a
// .proto declares them); if not, build reads each member on its own.
func (p *plan) oneofContiguous(i int) bool {
	f := &p.fields[i]
	if i+f.oneofLen > len(p.fields) {
		return false
	}
	for k := 0; k < f.oneofLen; k++ {
		if p.fields[i+k].fd != f.oneof.Fields().Get(k) {
			return false
		}
	}
	return true
}

func appendList(b []byte, l protoreflect.List, f *field) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i := 0; i < l.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendValue(b, l.Get(i), f.fd, f.sub); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendMap writes a map with its keys sorted as protojson sorts them:
// false before true, numbers ascending, strings by code point.
func appendMap(b []byte, mp protoreflect.Map, f *field) ([]byte, error) {
	keys := make([]protoreflect.MapKey, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	kd := f.fd.MapKey()
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		switch kd.Kind() {
		case protoreflect.BoolKind:
			return !x.Bool() && y.Bool()
		case protoreflect.StringKind:
			return x.String() < y.String()
		case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
			return x.Uint() < y.Uint()
		default:
			return x.Int() < y.Int()
		}
	})
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = jsonwrite.AppendString(b, k.String()); err != nil {
			return b, err
		}
		b = append(b, ':')
		if b, err = appendValue(b, mp.Get(k), f.fd.MapValue(), f.sub); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendValue writes one non-repeated value of field fd (sub: its
// message type's plan) as protojson.encoder.marshalSingular does.
func appendValue(b []byte, v protoreflect.Value, fd protoreflect.FieldDescriptor, sub *plan) ([]byte, error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return strconv.AppendBool(b, v.Bool()), nil
	case protoreflect.StringKind:
		return jsonwrite.AppendString(b, v.String())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return jsonwrite.AppendInt64(b, v.Int()), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return jsonwrite.AppendUint64(b, v.Uint()), nil
	case protoreflect.FloatKind:
		return jsonwrite.AppendFloat(b, v.Float(), 32), nil
	case protoreflect.DoubleKind:
		return jsonwrite.AppendFloat(b, v.Float(), 64), nil
	case protoreflect.BytesKind:
		return jsonwrite.AppendBytes(b, v.Bytes()), nil
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			b = append(b, '"')
			return append(append(b, ev.Name()...), '"'), nil
		}
		return strconv.AppendInt(b, int64(v.Enum()), 10), nil
	case protoreflect.MessageKind:
		return appendMessage(b, v.Message(), sub)
	}
	return b, ErrUnsupported
}
