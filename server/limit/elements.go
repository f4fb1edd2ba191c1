package limit

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the "proto" codec that costCodec wraps
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/emptypb"
)

// MaxElements is the most sub-messages and strings one request may hold,
// on gRPC (Codec, ElementGate); the REST reader (rest/restjson.MaxElements,
// JSONElements) holds a JSON body to the same number, which its tests check.
// Decoding costs an allocation per element: a 256 KiB
// request of empty sub-messages is 130,000 of them, about 16 MB and tens of
// milliseconds of CPU, where the largest legitimate request (a Gravity Trap
// state on a custom board of 64 stations and 256 lines) has about 600. A
// request over the budget is refused before it is decoded: INVALID_ARGUMENT
// with reason INVALID_REQUEST on gRPC, HTTP 400 on REST.
const MaxElements = 10_000

// Codec is the gRPC server codec of the element budget, for
// grpc.ForceServerCodecV2: grpc-go's proto codec, preceded by a scan of a
// request's wire bytes (no allocation) that counts its elements. A request
// over MaxElements is not decoded: the codec leaves a marker in it, which
// ElementGate, a unary interceptor, turns into INVALID_ARGUMENT (a codec
// error would reach the client as INTERNAL); without ElementGate such a
// request reaches its handler empty. Answers that have vtprotobuf's
// marshalers are written by them; others by proto.Marshal.
func Codec() encoding.CodecV2 { return newCostCodec() }

// costCodec is the gRPC server's codec: grpc-go's proto codec, preceded by
// a scan of the wire bytes (no allocation) that counts the request's
// elements; answers are written by the vtprotobuf marshalers generated in
// gen/ (the same bytes, 3 to 7 times faster than the reflection-driven
// proto.Marshal: BenchmarkMarshal). Requests are still decoded by
// proto.Unmarshal, whose checks (UTF-8 strings, a known field with another
// wire type kept as unknown) vtprotobuf's UnmarshalVT does not make.
// One difference: vtprotobuf writes a double field holding -0 as unset (0),
// where proto.Marshal writes -0. No answer of ours holds -0 (the built-in
// boards' coordinates are normalised, TestBuiltinCoordinatesHaveNoNegativeZero);
// a station coordinate a client sends as -0 in a custom board comes back 0,
// which compares equal. A request over MaxElements is not decoded; instead the codec
// leaves only a marker in the message's unknown fields, which ElementGate turns
// into INVALID_ARGUMENT (a codec error would reach the client as INTERNAL).
type costCodec struct{ base encoding.CodecV2 }

func newCostCodec() costCodec { return costCodec{base: encoding.GetCodecV2("proto")} }

// emptyAnswer replaces a held answer once marshalled (Marshal).
var emptyAnswer proto.Message = &emptypb.Empty{}

func (c costCodec) Name() string { return c.base.Name() }

// vtMarshaler is what protoc-gen-go-vtproto's marshal and size features
// generate for every message of gen/.
type vtMarshaler interface {
	SizeVT() int
	MarshalToSizedBufferVT(b []byte) (int, error)
}

// Marshal writes an answer. An answer wrapped by InFlight's interceptor
// (an *admitted) is unwrapped; when it is large enough for a pooled buffer,
// its connection's place passes to that buffer, and is given back (with the
// answer's bytes in Admission's unread count) when the transport frees it,
// having written it; a small answer's place is given back at once.
func (c costCodec) Marshal(v any) (mem.BufferSlice, error) {
	ad, held := v.(*admitted)
	if held {
		v = ad.Message
	}
	m, ok := v.(vtMarshaler)
	if !ok {
		if held {
			ad.releasePlace()
		}
		return c.base.Marshal(v) // grpc-go's own messages: health, reflection
	}
	size := m.SizeVT()
	if mem.IsBelowBufferPoolingThreshold(size) {
		if held {
			ad.releasePlace()
		}
		b := make([]byte, size)
		if _, err := m.MarshalToSizedBufferVT(b); err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(size)
	if _, err := m.MarshalToSizedBufferVT((*buf)[:size]); err != nil {
		pool.Put(buf)
		if held {
			ad.releasePlace()
		}
		return nil, err
	}
	if held && ad.claim(size) {
		// The answer's own objects are not needed once marshalled, though
		// the buffer keeps ad until written; an empty message stays a valid
		// one for anything (a binary log) that reads it after.
		ad.Message = emptyAnswer
		return mem.BufferSlice{mem.NewBuffer(buf, ad)}, nil
	}
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

func (c costCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return c.base.Unmarshal(data, v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	b := buf.ReadOnlyData()
	n := 0
	if path := overBudget(b, m.ProtoReflect().Descriptor(), nil, &n); path != "" {
		proto.Reset(m)
		m.ProtoReflect().SetUnknown(costMarker(path))
		return nil
	}
	return proto.Unmarshal(b, m)
}

// overBudget walks the wire bytes b of a message md, adding to *n one per
// sub-message, string or bytes value, and returns the path of the field
// where *n passed MaxElements ("" while within it). Bytes that do not parse
// end the walk without a verdict: proto.Unmarshal then reports them.
func overBudget(b []byte, md protoreflect.MessageDescriptor, path []string, n *int) string {
	for len(b) > 0 {
		num, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return ""
		}
		b = b[l:]
		if typ != protowire.BytesType {
			if l = protowire.ConsumeFieldValue(num, typ, b); l < 0 {
				return ""
			}
			b = b[l:]
			continue
		}
		v, l := protowire.ConsumeBytes(b)
		if l < 0 {
			return ""
		}
		b = b[l:]
		fd := md.Fields().ByNumber(num)
		if fd == nil {
			continue // unknown: kept as bytes, one allocation at most
		}
		switch fd.Kind() {
		case protoreflect.MessageKind:
			*n++
			sub := append(path, string(fd.Name()))
			if *n > MaxElements {
				return strings.Join(sub, ".")
			}
			if p := overBudget(v, fd.Message(), sub, n); p != "" {
				return p
			}
		case protoreflect.StringKind, protoreflect.BytesKind:
			*n++
			if *n > MaxElements {
				return strings.Join(append(path, string(fd.Name())), ".")
			}
		}
	}
	return ""
}

// costMarkerField is the field number of the marker: the largest a field
// may have, which no message of the API uses.
const costMarkerField = protowire.MaxValidNumber

// costMarkerPrefix starts the marker's payload with a random token made at
// start-up, so that a client cannot forge a marker to choose its own error.
var costMarkerPrefix = []byte("gamerules: over the element budget " + randomToken() + ": ")

func costMarker(path string) []byte {
	b := protowire.AppendTag(nil, costMarkerField, protowire.BytesType)
	return protowire.AppendBytes(b, append(append([]byte(nil), costMarkerPrefix...), path...))
}

// costPath returns the field path a marker names, if m carries one.
func costPath(m proto.Message) (string, bool) {
	u := m.ProtoReflect().GetUnknown()
	for len(u) > 0 {
		num, typ, l := protowire.ConsumeTag(u)
		if l < 0 {
			return "", false
		}
		u = u[l:]
		l = protowire.ConsumeFieldValue(num, typ, u)
		if l < 0 {
			return "", false
		}
		if num == costMarkerField && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(u)
			if p, ok := bytes.CutPrefix(v, costMarkerPrefix); ok {
				return string(p), true
			}
		}
		u = u[l:]
	}
	return "", false
}

// ElementGate is the unary interceptor that refuses a request Codec
// marked as over MaxElements: INVALID_ARGUMENT with an ErrorInfo (reason
// INVALID_REQUEST, domain gamerules, metadata field: the field path where
// the budget ran out) and a BadRequest field violation on that field; on
// REST, grpc-gateway makes it HTTP 400.
func ElementGate(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if m, ok := req.(proto.Message); ok {
		if path, over := costPath(m); over {
			return nil, overBudgetStatus(path).Err()
		}
	}
	return handler(ctx, req)
}

func overBudgetStatus(path string) *status.Status {
	msg := fmt.Sprintf("%s: the request holds more than %d sub-messages and strings; no game needs that many, so it was not decoded", path, MaxElements)
	st := status.New(codes.InvalidArgument, msg)
	if d, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: ReasonInvalidRequest, Domain: Domain, Metadata: map[string]string{"field": path}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: path, Description: msg, Reason: ReasonInvalidRequest}}},
	); err == nil {
		return d
	}
	return st
}

// randomToken returns 128 random bits in hex.
func randomToken() string {
	var b [16]byte
	_, _ = crand.Read(b[:])
	return hex.EncodeToString(b[:])
}
