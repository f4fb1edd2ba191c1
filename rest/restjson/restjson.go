// Package restjson is the REST API's JSON, in one place for the two
// programs that speak it: the server's grpc-gateway (package rest wraps
// it in the gateway's marshaler) and the WebAssembly build (wasm/), which
// answers the same JSON without a network. It holds the protojson options
// of the API, the checks a request body passes before it is decoded, the
// writer of answers (rest/fastjson, protojson for what fastjson does
// not write) and the error body (a google.rpc.Status as JSON, as the
// gateway's error handler writes it).
//
// It links no gRPC code (no transport, no gateway, not grpc-go's status
// package): only the protobuf runtime and package service, whose errors
// (service.Error) are google.rpc.Status messages; outside js/wasm they are
// also grpc-go statuses, and ErrorBody reads any gRPC status
// (service.StatusOf).
//
// Files:
//
//	restjson.go      MarshalOptions, UnmarshalOptions, MaxElements, Marshal, CheckBody, DecodeRequest, Decode, JSONElements, ErrorBody, ErrPanic
//	jsonread.go      CheckJSON, Problem, FieldByName, Found, ScalarString: why a body was refused, in plain words
//	value.go         readValue by encoding/json/jsontext (Go 1.27); value_go126.go the same before it
//	status_grpc.go   Problem.Status, a grpc-go status (not in the WebAssembly build)
package restjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/rest/fastjson"
	"github.com/gamerules/gamerules/service"
)

// MarshalOptions are the API's JSON answers: protojson's lowerCamelCase
// names, with zero values written (so `"finished": false` and `"moves": []`
// are there to read).
var MarshalOptions = protojson.MarshalOptions{EmitDefaultValues: true}

// UnmarshalOptions are the API's JSON requests: lowerCamelCase and proto
// names are accepted and unknown fields are refused, so a typo is an error
// rather than silently ignored.
var UnmarshalOptions = protojson.UnmarshalOptions{DiscardUnknown: false}

// MaxElements is the most objects and strings (keys included) a JSON
// request body may hold (server/limit.MaxElements, which documents why).
const MaxElements = 10_000

// Marshal writes m as the API's JSON answer: rest/fastjson's writer
// (protojson's JSON under MarshalOptions, compact), or MarshalOptions
// itself for what fastjson does not write (well-known types; the error
// Status, whose details are Any) or refuses (a string that is not UTF-8),
// which protojson then writes or refuses.
//
// protojson's own output is compacted (json.Compact): protobuf-go varies its
// white space per binary on purpose, and answers must not (the server and
// the WebAssembly build answer byte for byte alike; a Batch answer holding
// an error item is written by protojson).
func Marshal(m proto.Message) ([]byte, error) {
	// Written into a reused scratch buffer, then copied out at its length:
	// one allocation of the answer's size (appending into a fresh slice
	// allocated and copied again at each doubling, 4 KiB then 9 KiB for a
	// 26-play backgammon answer).
	scratch := scratchPool.Get().(*[]byte)
	b, err := fastjson.Append((*scratch)[:0], m.ProtoReflect())
	if err == nil {
		out := bytes.Clone(b)
		if cap(b) <= maxScratch {
			*scratch = b
			scratchPool.Put(scratch)
		}
		return out, nil
	}
	scratchPool.Put(scratch)
	b, err = MarshalOptions.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(len(b))
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// scratchPool holds Marshal's scratch buffers (*[]byte); one that grew
// past maxScratch (an answer of a big Batch) is dropped rather than kept.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

const maxScratch = 1 << 20

// CheckBody reports why a request body b must not be decoded, or nil: more
// than MaxElements objects and strings, not exactly one JSON value (nothing
// but white space may follow it), or a \u escape that is half of a UTF-16
// surrogate pair. An empty body is not checked here: the gateway reads it
// as an empty request.
func CheckBody(b []byte) error {
	// The element count first: it is a single pass that allocates
	// nothing, where the JSON check builds the decoder's state.
	if n, over := JSONElements(b); over {
		return fmt.Errorf("the request body holds more than %d JSON objects and strings (%d); no game needs that many, so it was not decoded", MaxElements, n)
	}
	return oneJSONValue(b)
}

// DecodeRequest decodes a request body b into m as the REST gateway does
// (Decode): an empty (or white-space) body is an empty request; a body that
// cannot be read is INVALID_ARGUMENT with the Problem's details, as the
// gateway's error handler writes them.
func DecodeRequest(b []byte, m proto.Message) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if err := Decode(b, m, func(b []byte, v any) error { return UnmarshalOptions.Unmarshal(b, v.(proto.Message)) }); err != nil {
		var p *Problem
		if errors.As(err, &p) {
			return p.Err()
		}
		return service.Errorf(code.Code_INVALID_ARGUMENT, "%v", err)
	}
	return nil
}

// Decode decodes a request body b (not empty) into v with unmarshal (the
// gateway's JSONPb, or UnmarshalOptions) after CheckBody's checks; a body
// that fails is a *Problem saying why in plain words (CheckJSON, when v is a
// message; else protojson's message without its jargon).
func Decode(b []byte, v any, unmarshal func([]byte, any) error) error {
	var err error
	if _, over := JSONElements(b); !over {
		if err = oneJSONValue(b); err == nil {
			if err = unmarshal(b, v); err == nil {
				return nil
			}
		}
	}
	if pm, ok := v.(proto.Message); ok {
		if p := CheckJSON(b, pm.ProtoReflect().Descriptor()); p != nil {
			return p
		}
	}
	return &Problem{Field: "body", Msg: plainProtoError(err)}
}

// plainProtoError is a protojson error's text without its "proto: " prefix,
// its "(line L:C)" moved to the end: the fallback when CheckJSON finds
// nothing to say.
func plainProtoError(err error) string {
	if err == nil {
		return "the request body could not be read"
	}
	msg := strings.TrimPrefix(err.Error(), "proto: ")
	msg = strings.TrimPrefix(msg, "proto:\u00a0") // protojson's unstable prefix, with a no-break space
	if i := strings.Index(msg, "(line "); i >= 0 {
		if j := strings.Index(msg[i:], "): "); j > 0 {
			// "syntax error (line 1:34): unexpected token [" →
			// "unexpected token [ (line 1:34)"; another head is kept,
			// followed by ": ".
			pos, tail := msg[i:i+j+1], msg[i+j+3:]
			switch head := strings.TrimSpace(msg[:i]); head {
			case "", "syntax error":
				msg = tail + " " + pos
			default:
				msg = head + ": " + tail + " " + pos
			}
		}
	}
	return "the request body could not be read: " + msg
}

// ErrorBody is the JSON body of a REST error for err: its status
// (service.StatusOf, as grpc-go's status.Convert: an error that is not one
// is UNKNOWN with its text) as a
// google.rpc.Status written by Marshal, as grpc-gateway's
// DefaultHTTPErrorHandler writes it through the gateway's marshaler.
func ErrorBody(err error) []byte {
	b, merr := Marshal(service.StatusOf(err))
	if merr != nil {
		// DefaultHTTPErrorHandler's own fallback.
		return []byte(`{"code": 13, "message": "failed to marshal error message"}`)
	}
	return b
}

// JSONElements counts the objects and strings (keys included) of a JSON
// text b and reports whether there are more than MaxElements: a JSON
// decoder's element budget, checked before decoding. It allocates nothing.
// On text that is not JSON the count means little, but then the request is
// refused either way.
func JSONElements(b []byte) (n int, over bool) {
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
			n++
		case c == '{':
			n++
		}
	}
	return n, n > MaxElements
}

// oneJSONValue reports an error unless b holds exactly one JSON value.
// json.Valid decides (a scan that allocates nothing); only a body it
// refuses is decoded again to say what is wrong.
func oneJSONValue(b []byte) error {
	if json.Valid(b) {
		return noLoneSurrogate(b)
	}
	end, _, err := readValue(b)
	if err != nil {
		return fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	if len(bytes.TrimSpace(b[end:])) > 0 {
		return fmt.Errorf("the request body has more data after its JSON value (at byte %d); send exactly one JSON object", end)
	}
	return noLoneSurrogate(b)
}

// noLoneSurrogate reports a \u escape in valid JSON b that is half of a
// surrogate pair: encoding/json reads it as U+FFFD and protojson fails with
// a bare "unexpected EOF", so say what is wrong instead.
func noLoneSurrogate(b []byte) error {
	if at := loneSurrogate(b); at >= 0 {
		return fmt.Errorf("the request body has a \\u escape at byte %d that is half of a UTF-16 surrogate pair (such as \\ud800 alone); JSON strings must be valid Unicode", at)
	}
	return nil
}

// loneSurrogate returns the offset of the first \u escape in b that is a
// UTF-16 surrogate without its other half, or -1. b is valid JSON, so every
// backslash starts an escape inside a string.
func loneSurrogate(b []byte) int {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // a two-character escape such as \\ or \"
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if lo, ok := hex4(i + 6); ok && lo >= 0xdc00 && lo < 0xe000 {
				i += 11
				continue
			}
			return i
		case r >= 0xdc00 && r < 0xe000:
			return i
		}
		i += 5
	}
	return -1
}

// ErrPanic is the error of a call whose handler panicked: INTERNAL with no
// detail (the panic is logged by the server, not shown to the client).
var ErrPanic = service.Errorf(code.Code_INTERNAL, "internal error")
