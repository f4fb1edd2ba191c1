package service

import (
	"fmt"
	"reflect"

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

// knownOneofCase is oneofCase without protoreflect for the oneofs every
// request goes through (GameState.state, Move.move, NewGameRequest.options):
// the value's Go wrapper type is looked up among the registered games'
// (a wrapper holding a nil message is its case, as protoreflect has it). ok
// is false for any other message or oneof, and for a wrapper type no
// registered game has (a game added to the proto but not registered): the
// caller then asks reflectOneofCase. TestOneofCaseFast checks it against
// reflection for every case.
func knownOneofCase(m proto.Message, oneof string) (c string, ok bool) {
	switch x := m.(type) {
	case *gamerulesv1.GameState:
		if oneof == "state" {
			return findCase(stateCases, x.GetState())
		}
	case *gamerulesv1.Move:
		if oneof == "move" {
			return findCase(moveCases, x.GetMove())
		}
	case *gamerulesv1.NewGameRequest:
		if oneof == "options" {
			return findCase(optionsCases, x.GetOptions())
		}
	}
	return "", false
}

// oneofWrapper is one game's case of a oneof: the Go type the generated
// code wraps the case's message in (e.g. *gamerulesv1.GameState_Abalone),
// and the case's name, which is the game id.
type oneofWrapper struct {
	t  reflect.Type
	id string
}

// stateCases, moveCases and optionsCases are the registered games' cases of
// GameState.state, Move.move and NewGameRequest.options, added by
// addOneofCases when a game registers and only read afterwards.
var stateCases, moveCases, optionsCases []oneofWrapper

// addOneofCases adds game id's cases of the oneofs knownOneofCase knows. The
// wrapper types come from the descriptors (the case named id, set to an
// empty message), so a game's file names none of them; a oneof without a
// case for id is left to reflection.
func addOneofCases(id string) {
	stateCases = addCase(stateCases, &gamerulesv1.GameState{}, "state", id, (*gamerulesv1.GameState).GetState)
	moveCases = addCase(moveCases, &gamerulesv1.Move{}, "move", id, (*gamerulesv1.Move).GetMove)
	optionsCases = addCase(optionsCases, &gamerulesv1.NewGameRequest{}, "options", id, (*gamerulesv1.NewGameRequest).GetOptions)
}

// addCase appends to cases the wrapper type of m's oneof case named id, as
// get (the oneof's getter) returns it once that case is set; cases is
// unchanged when m's oneof has no such case.
func addCase[M proto.Message, W any](cases []oneofWrapper, m M, oneof, id string, get func(M) W) []oneofWrapper {
	r := m.ProtoReflect()
	fd := r.Descriptor().Oneofs().ByName(protoreflect.Name(oneof)).Fields().ByName(protoreflect.Name(id))
	if fd == nil {
		return cases
	}
	r.Set(fd, r.NewField(fd))
	return append(cases, oneofWrapper{t: reflect.TypeOf(get(m)), id: id})
}

// findCase returns the game id of the oneof value v (a wrapper, or nil when
// the oneof is unset: "", true); ok is false when no case of cases has v's
// type.
func findCase(cases []oneofWrapper, v any) (c string, ok bool) {
	if v == nil {
		return "", true
	}
	t := reflect.TypeOf(v)
	for i := range cases {
		if cases[i].t == t {
			return cases[i].id, true
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
