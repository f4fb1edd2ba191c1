package service

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// oneofCase returns the name of the field set in m's oneof named oneof ("" when
// none is set or m is nil). The cases of GameState.state, Move.move and
// NewGameRequest.options are named by game id, so the result is comparable
// with a game id.
func oneofCase(m proto.Message, oneof string) string {
	if c, ok := knownOneofCase(m, oneof); ok {
		return c
	}
	return reflectOneofCase(m, oneof)
}

// knownOneofCase is oneofCase without reflection for the oneofs every
// request goes through (GameState.state, Move.move, NewGameRequest.options):
// a type switch on the generated wrapper types (a wrapper holding a nil
// message is its case, as protoreflect has it). ok is false for any other
// message or oneof, and for a wrapper type it does not know (a game added to
// the proto but not here): the caller then asks reflectOneofCase.
// TestOneofCaseFast checks it against reflection for every case.
func knownOneofCase(m proto.Message, oneof string) (c string, ok bool) {
	switch x := m.(type) {
	case *gamerulesv1.GameState:
		if oneof != "state" {
			return "", false
		}
		switch x.GetState().(type) {
		case nil:
			return "", true
		case *gamerulesv1.GameState_Backgammon:
			return "backgammon", true
		case *gamerulesv1.GameState_Abalone:
			return "abalone", true
		case *gamerulesv1.GameState_Labyrinth:
			return "labyrinth", true
		case *gamerulesv1.GameState_GravityTrap:
			return "gravity_trap", true
		}
	case *gamerulesv1.Move:
		if oneof != "move" {
			return "", false
		}
		switch x.GetMove().(type) {
		case nil:
			return "", true
		case *gamerulesv1.Move_Backgammon:
			return "backgammon", true
		case *gamerulesv1.Move_Abalone:
			return "abalone", true
		case *gamerulesv1.Move_Labyrinth:
			return "labyrinth", true
		case *gamerulesv1.Move_GravityTrap:
			return "gravity_trap", true
		}
	case *gamerulesv1.NewGameRequest:
		if oneof != "options" {
			return "", false
		}
		switch x.GetOptions().(type) {
		case nil:
			return "", true
		case *gamerulesv1.NewGameRequest_Backgammon:
			return "backgammon", true
		case *gamerulesv1.NewGameRequest_Abalone:
			return "abalone", true
		case *gamerulesv1.NewGameRequest_Labyrinth:
			return "labyrinth", true
		case *gamerulesv1.NewGameRequest_GravityTrap:
			return "gravity_trap", true
		}
	}
	return "", false
}

// reflectOneofCase is oneofCase through protoreflect, for any message.
func reflectOneofCase(m proto.Message, oneof string) string {
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
