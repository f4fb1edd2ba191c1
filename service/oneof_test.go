package service

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// TestOneofCaseFast: knownOneofCase's lookup of the registered games'
// wrapper types answers as reflection does for every case of the oneofs it
// knows — set, unset, a wrapper holding nil, a nil message — and knows
// every case the proto has (a game added to the proto must be registered).
func TestOneofCaseFast(t *testing.T) {
	check := func(m proto.Message, oneof, what string) {
		t.Helper()
		c, ok := knownOneofCase(m, oneof)
		if want := reflectOneofCase(m, oneof); !ok || c != want {
			t.Errorf("%s: knownOneofCase = %q, %v; reflection says %q", what, c, ok, want)
		}
		if got := oneofCase(m, oneof); got != reflectOneofCase(m, oneof) {
			t.Errorf("%s: oneofCase = %q", what, got)
		}
	}
	for _, tc := range []struct {
		empty func() proto.Message
		oneof string
	}{
		{func() proto.Message { return &gamerulesv1.GameState{} }, "state"},
		{func() proto.Message { return &gamerulesv1.Move{} }, "move"},
		{func() proto.Message { return &gamerulesv1.NewGameRequest{} }, "options"},
	} {
		m := tc.empty()
		name := string(m.ProtoReflect().Descriptor().Name())
		check(m, tc.oneof, name+" unset")
		od := m.ProtoReflect().Descriptor().Oneofs().ByName(protoreflect.Name(tc.oneof))
		for i := 0; i < od.Fields().Len(); i++ {
			fd := od.Fields().Get(i)
			m := tc.empty()
			r := m.ProtoReflect()
			r.Set(fd, r.NewField(fd))
			check(m, tc.oneof, name+" "+string(fd.Name()))
			if c, _ := knownOneofCase(m, tc.oneof); c != string(fd.Name()) {
				t.Errorf("%s %s: case %q", name, fd.Name(), c)
			}
		}
	}
	// Wrappers holding nil, and nil messages.
	for _, tc := range []struct {
		m     proto.Message
		oneof string
	}{
		{&gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{}}, "state"},
		{&gamerulesv1.GameState{State: &gamerulesv1.GameState_Abalone{}}, "state"},
		{&gamerulesv1.GameState{State: &gamerulesv1.GameState_Labyrinth{}}, "state"},
		{&gamerulesv1.GameState{State: &gamerulesv1.GameState_GravityTrap{}}, "state"},
		{&gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{}}, "move"},
		{&gamerulesv1.Move{Move: &gamerulesv1.Move_Abalone{}}, "move"},
		{&gamerulesv1.Move{Move: &gamerulesv1.Move_Labyrinth{}}, "move"},
		{&gamerulesv1.Move{Move: &gamerulesv1.Move_GravityTrap{}}, "move"},
		{&gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Backgammon{}}, "options"},
		{&gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Abalone{}}, "options"},
		{&gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_Labyrinth{}}, "options"},
		{&gamerulesv1.NewGameRequest{Options: &gamerulesv1.NewGameRequest_GravityTrap{}}, "options"},
		{(*gamerulesv1.GameState)(nil), "state"},
		{(*gamerulesv1.Move)(nil), "move"},
		{(*gamerulesv1.NewGameRequest)(nil), "options"},
	} {
		check(tc.m, tc.oneof, "nil inside")
	}
	// Other messages and oneof names go to reflection.
	if _, ok := knownOneofCase(&gamerulesv1.ReplayGameRequest{}, "options"); ok {
		t.Error("ReplayGameRequest: known")
	}
	if _, ok := knownOneofCase(&gamerulesv1.GameState{}, "move"); ok {
		t.Error("GameState.move: known")
	}
	if got := oneofCase(&gamerulesv1.ReplayGameRequest{Options: &gamerulesv1.ReplayGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{}}}, "options"); got != "abalone" {
		t.Errorf("ReplayGameRequest abalone: %q", got)
	}
}
