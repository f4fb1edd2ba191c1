package service

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// zeroIsAState are the enum fields of typed states whose UNSPECIFIED is a
// state of its own rather than a value left out: no shift yet (Labyrinth
// last), a centred cube, no resignation, a game not ended, and the dice
// owner as the Match ID has it for the state (backgammon).
var zeroIsAState = map[protoreflect.Name]bool{"last": true, "cube_owner": true, "resignation": true, "end": true, "on_roll": true}

// TestEnumsMustBeGiven: in every game's typed state, each enum field set to
// UNSPECIFIED (where the value matters) or to a number the API does not
// define is INVALID_STATE with a message naming the field, never a silently
// chosen value. A client library that turns a misspelled enum name into 0
// (protobufjs does) thus learns what it left out. zeroIsAState lists the
// enums whose zero is a state; player colours are checked inside the
// players.
func TestEnumsMustBeGiven(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for _, id := range srv.Games() {
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id, Seed: proto.Uint64(1)})
		if err != nil {
			t.Fatal(err)
		}
		enums := 0
		var visit func(path string, get func(*gamerulesv1.GameState) protoreflect.Message)
		visit = func(path string, get func(*gamerulesv1.GameState) protoreflect.Message) {
			fields := get(ng.GetState()).Descriptor().Fields()
			for i := 0; i < fields.Len(); i++ {
				fd := fields.Get(i)
				switch {
				case fd.Kind() == protoreflect.EnumKind && !fd.IsList():
					enums++
					for _, n := range []protoreflect.EnumNumber{0, 99} {
						if n == 0 && zeroIsAState[fd.Name()] {
							continue
						}
						st := proto.Clone(ng.GetState()).(*gamerulesv1.GameState)
						st.Text = ""
						get(st).Set(fd, protoreflect.ValueOfEnum(n))
						_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: st})
						if r := reasonOf(t, err); r != ReasonInvalidState || !strings.Contains(err.Error(), string(fd.Name())+" ") {
							t.Errorf("%s: typed state with %s%s = %d: %v (reason %s); want INVALID_STATE naming %s", id, path, fd.Name(), n, err, r, fd.Name())
						}
					}
				case fd.Kind() == protoreflect.MessageKind && fd.IsList() && fd.Name() == "players":
					visit(path+"players[0].", func(st *gamerulesv1.GameState) protoreflect.Message {
						return get(st).Mutable(fd).List().Get(0).Message()
					})
				}
			}
		}
		visit("", func(st *gamerulesv1.GameState) protoreflect.Message {
			m := st.ProtoReflect()
			return m.Mutable(m.WhichOneof(m.Descriptor().Oneofs().ByName("state"))).Message()
		})
		if enums == 0 {
			t.Errorf("%s: no enum field in the typed state", id)
		}
	}
}

// TestEnumsInMovesAndOptions: the enums of typed moves (backgammon kind,
// labyrinth insertion point) and of options (a custom Abalone layout's side
// to move) must be given too; leaving the whole option out keeps its
// default.
func TestEnumsInMovesAndOptions(t *testing.T) {
	srv := New()
	ctx := context.Background()
	bg := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}
	lab, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: labGame, Seed: proto.Uint64(1)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, game string
		st         *gamerulesv1.GameState
		mv         *gamerulesv1.Move
		want       string
	}{
		{"backgammon no kind", bgGame, bg, &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{
			Steps: []*gamerulesv1.BackgammonStep{{From: 8, To: 5}, {From: 6, To: 5}}}}}, "kind is required"},
		{"backgammon kind 7", bgGame, bg, &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{Kind: 7}}}, "kind 7 is not a known value"},
		{"labyrinth no point", labGame, lab.GetState(), &gamerulesv1.Move{Move: &gamerulesv1.Move_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthMove{
			Kind: &gamerulesv1.LabyrinthMove_Shift{Shift: &gamerulesv1.LabyrinthShift{}}}}}, "shift.point is required"},
		{"labyrinth point 40", labGame, lab.GetState(), &gamerulesv1.Move{Move: &gamerulesv1.Move_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthMove{
			Kind: &gamerulesv1.LabyrinthMove_Shift{Shift: &gamerulesv1.LabyrinthShift{Point: 40}}}}}, "shift.point 40 is not a known value"},
	} {
		_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: tt.game, State: tt.st, Move: tt.mv})
		if r := reasonOf(t, err); r != ReasonIllegalMove || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v (reason %s); want ILLEGAL_MOVE with %q", tt.name, err, r, tt.want)
		}
	}
	custom := func(p gamerulesv1.AbalonePlayer) *gamerulesv1.NewGameRequest {
		return &gamerulesv1.NewGameRequest{Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{
			Layout: "custom", Turn: p.Enum(),
			Black: strings.Fields("a1 a2 a3 a4 a5 b1 b2 b3 b4"), White: strings.Fields("i5 i6 i7 i8 i9 h4 h5 h6 h7"),
		}}}
	}
	for p, want := range map[gamerulesv1.AbalonePlayer]string{0: "turn ABALONE_PLAYER_UNSPECIFIED is not a side", 3: "turn 3 is not a side"} {
		_, err := srv.NewGame(ctx, custom(p))
		if r := reasonOf(t, err); r != ReasonInvalidOptions || !strings.Contains(err.Error(), want) {
			t.Errorf("custom layout with turn %d: %v (reason %s); want INVALID_OPTIONS with %q", p, err, r, want)
		}
	}
	absent := custom(0)
	absent.GetAbalone().Turn = nil
	if _, err := srv.NewGame(ctx, absent); reasonOf(t, err) != ReasonInvalidOptions || !strings.Contains(err.Error(), "turn is required with the custom layout") {
		t.Errorf("custom layout without turn: %v; want INVALID_OPTIONS, turn is required", err)
	}
	// A standard layout with turn UNSPECIFIED given (not absent) is refused too.
	std := &gamerulesv1.NewGameRequest{Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Turn: gamerulesv1.AbalonePlayer_ABALONE_PLAYER_UNSPECIFIED.Enum()}}}
	if _, err := srv.NewGame(ctx, std); reasonOf(t, err) != ReasonInvalidOptions {
		t.Errorf("classic layout with turn UNSPECIFIED: %v; want INVALID_OPTIONS", err)
	}
	if ng, err := srv.NewGame(ctx, custom(gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE)); err != nil || !strings.HasSuffix(ng.GetState().GetText(), " w") {
		t.Errorf("custom layout, white to move: %v, %v", ng.GetState().GetText(), err)
	}
	// No options, or a standard layout without to_move: black moves first.
	for _, req := range []*gamerulesv1.NewGameRequest{{Game: abGame}, {Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: "german_daisy"}}}} {
		if ng, err := srv.NewGame(ctx, req); err != nil || !strings.HasSuffix(ng.GetState().GetText(), " b") {
			t.Errorf("NewGame(%v) = %v, %v; want black to move", req, ng.GetState().GetText(), err)
		}
	}
}
