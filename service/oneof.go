package service

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// oneofCase returns the name of the field set in m's oneof named oneof ("" when
// none is set or m is nil). The cases of GameState.state, Move.move and
// NewGameRequest.options are named by game id, so the result is comparable
// with a game id.
func oneofCase(m proto.Message, oneof string) string {
	if m == nil {
		return ""
	}
	r := m.ProtoReflect()
	if !r.IsValid() {
		return ""
	}
	od := r.Descriptor().Oneofs().ByName(protoreflect.Name(oneof))
	if od == nil {
		return ""
	}
	fd := r.WhichOneof(od)
	if fd == nil {
		return ""
	}
	return string(fd.Name())
}
