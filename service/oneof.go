package service

import (
	"fmt"

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

// enumText names an enum value in an error: "is required (UNSPECIFIED)" for
// the zero value, "<n> is not a known value" for a number the API does not
// define (proto3 enums are open, so such numbers arrive as they were sent).
// A client whose library turned a misspelled name into 0 learns which field
// it left out.
func enumText(e protoreflect.Enum) string {
	n := e.Number()
	if n == 0 {
		return "is required (" + string(e.Descriptor().Values().ByNumber(0).Name()) + " is not a value)"
	}
	if e.Descriptor().Values().ByNumber(n) == nil {
		return fmt.Sprintf("%d is not a known value", n)
	}
	return string(e.Descriptor().Values().ByNumber(n).Name()) + " is not allowed here"
}
