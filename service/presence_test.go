package service

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// unspecifiedWritten returns the path of the first enum field of m, at any
// depth, set to its UNSPECIFIED (zero) value, or "".
func unspecifiedWritten(m protoreflect.Message, path string) string {
	found := ""
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		p := path + "." + string(fd.Name())
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len() && found == ""; i++ {
				if fd.Kind() == protoreflect.MessageKind {
					found = unspecifiedWritten(l.Get(i).Message(), p)
				} else if fd.Kind() == protoreflect.EnumKind && l.Get(i).Enum() == 0 {
					found = p
				}
			}
		case fd.IsMap():
		case fd.Kind() == protoreflect.MessageKind:
			found = unspecifiedWritten(v.Message(), p)
		case fd.Kind() == protoreflect.EnumKind && v.Enum() == 0:
			// Range visits an implicit-presence enum only when non-zero, so a
			// zero here is an explicit-presence field set to UNSPECIFIED.
			found = p
		}
		return found == ""
	})
	if found == "" {
		// Implicit-presence enums at zero are written by the gateway's
		// EmitDefaultValues: check those too.
		fields := m.Descriptor().Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			if fd.Kind() == protoreflect.EnumKind && !fd.IsList() && !fd.HasPresence() && m.Get(fd).Enum() == 0 {
				return path + "." + string(fd.Name())
			}
		}
	}
	return found
}

// TestNoUnspecifiedWritten plays random games of every game and checks that
// no answer (state, legal moves with results, score) writes an enum as its
// UNSPECIFIED value, at any depth.
func TestNoUnspecifiedWritten(t *testing.T) {
	srv := New()
	ctx := context.Background()
	starts := map[string][]*gamerulesv1.NewGameRequest{
		"backgammon": {{Game: "backgammon"}, {Game: "backgammon", Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{Cube: true, Beavers: true}}},
			{Game: "backgammon", Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{MatchLength: 3}}}},
		"abalone":      {{Game: "abalone"}, {Game: "abalone", Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{MaxPlies: 30}}}},
		"labyrinth":    {{Game: "labyrinth", Seed: proto.Uint64(3)}},
		"gravity_trap": {{Game: "gravity_trap"}},
	}
	for id, reqs := range starts {
		for _, ng := range reqs {
			resp, err := srv.NewGame(ctx, ng)
			if err != nil {
				t.Fatalf("%s: NewGame: %v", id, err)
			}
			st := resp.GetState()
			for ply := 0; ply < 120; ply++ {
				lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st, IncludeResults: true})
				if err != nil {
					t.Fatalf("%s ply %d: LegalMoves: %v", id, ply, err)
				}
				sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: id, State: st})
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range []proto.Message{st, lm, sc} {
					if p := unspecifiedWritten(m.ProtoReflect(), ""); p != "" {
						t.Fatalf("%s ply %d: %s is UNSPECIFIED in %v", id, ply, p, m)
					}
				}
				if len(lm.GetMoves()) == 0 {
					break
				}
				// Prefer a decision or the last move, so cube states are seen.
				st = lm.GetMoves()[(ply*7)%len(lm.GetMoves())].GetResult()
			}
		}
	}
}

// TestBackgammonPresence checks the presence rules of the typed backgammon
// state (docs/api-review.md rows 11-14, 19): no cube keys without the cube,
// the cube and match sub-messages with it, on_roll always written, end and
// resignation only where they apply.
func TestBackgammonPresence(t *testing.T) {
	srv := New()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: bgGame})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(ng.GetState())
	for _, key := range []string{`"cube"`, `"match"`, `"end"`, `"resignation"`, "UNSPECIFIED", `"cubeValue"`, `"matchLength"`} {
		if strings.Contains(string(js), key) {
			t.Errorf("default game's state has %s: %s", key, js)
		}
	}
	if !strings.Contains(string(js), `"onRoll":"BACKGAMMON_PLAYER_WHITE"`) {
		t.Errorf("default game's state has no onRoll: %s", js)
	}

	// A 5-point match, black dropped white's double: cube and match present,
	// end DROPPED, no resignation; Score's match has length 5, not over.
	dropped := textState("sGfwATDgc/ABMA:cASgAAAACAAE")
	sr, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: dropped})
	if err != nil {
		t.Fatal(err)
	}
	bg := sr.GetState().GetBackgammon()
	if bg.GetCube().GetOwner() != gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_CENTERED || bg.GetCube().GetValue() != 1 ||
		bg.GetMatch().GetLength() != 5 || bg.GetEnd() != gamerulesv1.BackgammonEnd_BACKGAMMON_END_DROPPED || bg.Resignation != nil || bg.OnRoll == nil {
		t.Errorf("dropped double in a 5-point match: %v", bg)
	}
	sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: bgGame, State: dropped})
	if err != nil {
		t.Fatal(err)
	}
	if m := sc.GetBackgammon().GetMatch(); m.GetLength() != 5 || m.GetOver() || m.Winner != nil || sc.GetBackgammon().GetEnd() != gamerulesv1.BackgammonEnd_BACKGAMMON_END_DROPPED {
		t.Errorf("Score of the drop: %v", sc.GetBackgammon())
	}
	// A money game with the cube while playing: cube present, no match, no end.
	money := textState("sGfwATDgc/ABMA:MAEAAAAAAAAA cube")
	sr, err = srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: money})
	if err != nil {
		t.Fatal(err)
	}
	if bg := sr.GetState().GetBackgammon(); bg.GetCube() == nil || !bg.GetCube().GetJacoby() || bg.Match != nil || bg.End != nil {
		t.Errorf("money game with the cube: %v", bg)
	}
	// The typed state alone reads back as the same state (round trip).
	typedOnly := &gamerulesv1.GameState{State: sr.GetState().GetState()}
	back, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: typedOnly})
	if err != nil || back.GetState().GetText() != sr.GetState().GetText() {
		t.Errorf("typed round trip: %v, %v; want %s", back.GetState().GetText(), err, sr.GetState().GetText())
	}
}

// TestUnspecifiedRefused checks that an optional enum given as UNSPECIFIED
// (rather than left out) is INVALID_ARGUMENT naming the field.
func TestUnspecifiedRefused(t *testing.T) {
	srv := New()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: bgGame, Options: &gamerulesv1.NewGameRequest_Backgammon{Backgammon: &gamerulesv1.BackgammonOptions{Cube: true}}})
	if err != nil {
		t.Fatal(err)
	}
	typed := func(f func(*gamerulesv1.BackgammonState)) *gamerulesv1.GameState {
		bg := proto.Clone(ng.GetState().GetBackgammon()).(*gamerulesv1.BackgammonState)
		f(bg)
		return &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: bg}}
	}
	for _, tt := range []struct {
		name, field string
		st          *gamerulesv1.GameState
	}{
		{"on_roll", "state.backgammon.on_roll", typed(func(s *gamerulesv1.BackgammonState) { s.OnRoll = gamerulesv1.BackgammonPlayer(0).Enum() })},
		{"end", "state.backgammon.end", typed(func(s *gamerulesv1.BackgammonState) { s.End = gamerulesv1.BackgammonEnd(0).Enum() })},
		{"resignation", "state.backgammon.resignation", typed(func(s *gamerulesv1.BackgammonState) { s.Resignation = gamerulesv1.BackgammonResignation(0).Enum() })},
		{"cube.owner", "state.backgammon.cube.owner", typed(func(s *gamerulesv1.BackgammonState) { s.Cube.Owner = 0 })},
		{"turn", "state.backgammon.turn", typed(func(s *gamerulesv1.BackgammonState) { s.Turn = 0 })},
		{"phase", "state.backgammon.phase", typed(func(s *gamerulesv1.BackgammonState) { s.Phase = 0 })},
	} {
		_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: tt.st})
		if r := reasonOf(t, err); r != ReasonInvalidState || !strings.Contains(err.Error(), "UNSPECIFIED") || fieldOf(err) != tt.field {
			t.Errorf("%s UNSPECIFIED: %v (reason %s, field %q); want INVALID_STATE on %s", tt.name, err, r, fieldOf(err), tt.field)
		}
	}
	// Left out, the same fields are fine: on_roll derived, cube owner … the
	// cube sub-message must name its owner, so drop only the optional enums.
	if _, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: typed(func(s *gamerulesv1.BackgammonState) { s.OnRoll = nil })}); err != nil {
		t.Errorf("on_roll left out: %v", err)
	}
	// A play's resignation: refused, also as UNSPECIFIED.
	st := textState("4HPwATDgc/ABMA:MIEFAAAAAAAE")
	for _, r := range []gamerulesv1.BackgammonResignation{0, 1} {
		mv := &gamerulesv1.Move{Notation: "8/5 6/5", Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{
			Kind: gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY, Resignation: r.Enum(),
			Steps: []*gamerulesv1.BackgammonStep{{From: 8, To: 5}, {From: 6, To: 5}}}}}
		if _, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: mv}); reasonOf(t, err) != ReasonIllegalMove {
			t.Errorf("play with resignation %v: %v; want ILLEGAL_MOVE", r, err)
		}
	}
}

// TestApplyMoveNext checks that ApplyMove's legal moves come in `next` only
// when asked for, and that ListGames gives each game's rules version.
func TestApplyMoveNext(t *testing.T) {
	srv := New()
	ctx := context.Background()
	st := textState("4HPwATDgc/ABMA:MIEFAAAAAAAE")
	mv := &gamerulesv1.Move{Notation: "8/5 6/5"}
	resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: mv})
	if err != nil || resp.Next != nil {
		t.Errorf("ApplyMove without include_legal_moves: next %v, %v; want none", resp.GetNext(), err)
	}
	resp, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: mv, IncludeLegalMoves: true})
	if err != nil || len(resp.GetNext().GetMoves()) != 21 || !resp.GetNext().GetChance() {
		t.Errorf("ApplyMove with include_legal_moves: next has %d moves (chance %v), %v; want the 21 rolls", len(resp.GetNext().GetMoves()), resp.GetNext().GetChance(), err)
	}
	lg, err := srv.ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil || len(lg.GetGames()) != 4 {
		t.Fatalf("ListGames = %v, %v", lg, err)
	}
	for _, g := range lg.GetGames() {
		if g.GetRulesVersion() != "1.0.0" {
			t.Errorf("%s: rules_version %q; want 1.0.0", g.GetId(), g.GetRulesVersion())
		}
	}
}
