// Package raw is what the transport floors of bench/floor share: a gRPC
// codec that passes already-encoded message bytes through untouched, and
// the file of captured calls (method, request bytes, answer bytes) that
// the same-bytes server answers from.
package raw

import (
	"encoding/gob"
	"os"

	"google.golang.org/grpc/mem"
)

// Frame is one message as its encoded protobuf bytes.
type Frame []byte

// Codec is a gRPC codec (encoding.CodecV2) for *Frame: Marshal sends the
// frame's bytes as they are, Unmarshal keeps the received bytes. Its name
// is "proto", so that the content type on the wire is that of every gRPC
// client and server.
type Codec struct{}

// Marshal returns the frame's bytes, not copied.
func (Codec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*Frame))}, nil
}

// Unmarshal sets the frame to a copy of the received bytes.
func (Codec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*Frame) = data.Materialize()
	return nil
}

// Name is "proto".
func (Codec) Name() string { return "proto" }

// Call is one captured call: the full method ("/gamerules.v1.GameRules/LegalMoves"),
// the request and the server's answer, both encoded. A REST call
// (bench/floor/samebytesrest) has Method "POST /v1/games/backgammon:legalMoves",
// the request and answer bodies, and the answer's HTTP status and headers.
type Call struct {
	Method   string
	Request  []byte
	Response []byte
	Status   int                 // REST only
	Header   map[string][]string // REST only
}

// Write writes the calls to path (gob).
func Write(path string, calls []Call) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(calls); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Read reads the calls Write wrote.
func Read(path string) ([]Call, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var calls []Call
	err = gob.NewDecoder(f).Decode(&calls)
	return calls, err
}
