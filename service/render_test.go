package service

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

const renderLabyrinth = "63TeA5eB9c/9V5*cX5a55/7C57D3eEeMdF/6S56dP5eQ5/7G5bHbOdI5dJ/c3W3bR336/39bK7NbL3U9 a R11,Y17,V22 - Rs :OKTVUFBMNILH,:GXCPRWJAQSED v"

func TestRenderState(t *testing.T) {
	srv := New()
	ctx := context.Background()
	view, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: "labyrinth", State: textState(renderLabyrinth), Player: proto.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	side1 := int32(1)
	cases := []struct {
		name string
		req  *gamerulesv1.RenderStateRequest
		want []string // substrings of the SVG
	}{
		{"backgammon", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA:MIEFAAAAAAAE")},
			[]string{`data-game="backgammon"`, `id="point-24"`, `data-dice="3-1"`, `width="600"`}},
		{"abalone typed, side 1, size 300", &gamerulesv1.RenderStateRequest{Game: "abalone", Size: 300, Side: &side1, State: typedOnly(mustNew(t, srv, "abalone"))},
			[]string{`id="cell-i9"`, `width="300"`}},
		{"labyrinth", &gamerulesv1.RenderStateRequest{Game: "labyrinth", State: textState(renderLabyrinth), HighlightFrom: "N2"},
			[]string{`id="insert-N2" data-insertion="N2" class="insertion hl-from"`}},
		{"labyrinth view (text)", &gamerulesv1.RenderStateRequest{Game: "labyrinth", State: textState(view.GetState().GetText())},
			[]string{`data-target="?"`}},
		{"labyrinth view (typed)", &gamerulesv1.RenderStateRequest{Game: "labyrinth", State: typedOnly(view.GetState())},
			[]string{`data-target="?"`}},
		{"gravity trap, no coordinates", &gamerulesv1.RenderStateRequest{Game: "gravity_trap", HideCoordinates: true, State: textState("RoooBooooooooooooooooo r")},
			[]string{`id="station-21"`, `data-ship="red"`}},
		{"gravity trap custom board", &gamerulesv1.RenderStateRequest{Game: "gravity_trap", State: mustNewGT(t, srv)},
			[]string{`id="station-5"`}},
		{"abalone marks", &gamerulesv1.RenderStateRequest{Game: "abalone", State: mustNew(t, srv, "abalone"), Marks: []*gamerulesv1.RenderStateRequest_Mark{
			{At: "C3", Style: gamerulesv1.RenderStateRequest_Mark_STYLE_SELECTED},
			{At: "d4", Style: gamerulesv1.RenderStateRequest_Mark_STYLE_DESTINATION},
			{At: "h5", Style: gamerulesv1.RenderStateRequest_Mark_STYLE_LAST_FROM},
			{At: "g5", Style: gamerulesv1.RenderStateRequest_Mark_STYLE_LAST_TO},
		}}, []string{`<g id="marks" pointer-events="none">`, `id="mark-selected-c3" class="mark mark-selected" data-mark="c3" data-mark-style="selected"`,
			`id="mark-destination-d4"`, `id="mark-last-from-h5"`, `id="mark-last-to-g5"`}},
		{"backgammon partial play", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA:MIEFAAAAAAAE"), PartialPlay: proto.String("6/5")},
			[]string{`id="partial" data-player="0" data-hops="6/5" data-used="1"`, `data-complete="false"`, `class="die used" data-value="1"`}},
		{"backgammon partial play, none yet", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA:MIEFAAAAAAAE"), PartialPlay: proto.String("")},
			[]string{`id="partial" data-player="0" data-hops="" data-used=""`}},
	}
	for _, c := range cases {
		body, err := srv.RenderState(ctx, c.req)
		if err != nil {
			t.Errorf("%s: RenderState: %v", c.name, err)
			continue
		}
		if body.GetContentType() != "image/svg+xml" || !bytes.HasPrefix(body.GetData(), []byte("<svg ")) {
			t.Errorf("%s: content type %q, data %.40q; want an image/svg+xml <svg>", c.name, body.GetContentType(), body.GetData())
		}
		for _, w := range c.want {
			if !strings.Contains(string(body.GetData()), w) {
				t.Errorf("%s: SVG lacks %s", c.name, w)
			}
		}
	}
}

func mustNew(t *testing.T, srv *Server, id string) *gamerulesv1.GameState {
	t.Helper()
	resp, err := srv.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: id})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetState()
}

func mustNewGT(t *testing.T, srv *Server) *gamerulesv1.GameState {
	t.Helper()
	resp, err := srv.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "gravity_trap",
		Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: gtHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetState()
}

func TestRenderStateErrors(t *testing.T) {
	srv := New()
	side := func(p int32) *int32 { return &p }
	cases := []struct {
		name          string
		req           *gamerulesv1.RenderStateRequest
		reason, field string
	}{
		{"no game", &gamerulesv1.RenderStateRequest{State: textState("x")}, ReasonUnknownGame, "game"},
		{"unknown game", &gamerulesv1.RenderStateRequest{Game: "chess", State: textState("x")}, ReasonUnknownGame, "game"},
		{"no state", &gamerulesv1.RenderStateRequest{Game: "abalone"}, ReasonInvalidState, "state"},
		{"bad text", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: textState("nope")}, ReasonInvalidState, "state.text"},
		{"labyrinth bad text", &gamerulesv1.RenderStateRequest{Game: "labyrinth", State: textState("nope")}, ReasonInvalidState, "state.text"},
		{"typed state of another game", &gamerulesv1.RenderStateRequest{Game: "labyrinth", State: typedOnly(mustNew(t, srv, "abalone"))}, ReasonInvalidState, "state"},
		{"size", &gamerulesv1.RenderStateRequest{Game: "abalone", Size: 99, State: mustNew(t, srv, "abalone")}, ReasonInvalidRequest, "size"},
		{"negative size", &gamerulesv1.RenderStateRequest{Game: "abalone", Size: -1, State: mustNew(t, srv, "abalone")}, ReasonInvalidRequest, "size"},
		{"side", &gamerulesv1.RenderStateRequest{Game: "backgammon", Side: side(2), State: mustNew(t, srv, "backgammon")}, ReasonInvalidRequest, "side"},
		{"highlight from", &gamerulesv1.RenderStateRequest{Game: "abalone", HighlightFrom: "z9", State: mustNew(t, srv, "abalone")}, ReasonInvalidRequest, "highlight_from"},
		{"highlight to", &gamerulesv1.RenderStateRequest{Game: "gravity_trap", HighlightTo: "-1", State: mustNew(t, srv, "gravity_trap")}, ReasonInvalidRequest, "highlight_to"},
		{"mark off the board", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: mustNew(t, srv, "backgammon"), Marks: []*gamerulesv1.RenderStateRequest_Mark{{At: "25", Style: gamerulesv1.RenderStateRequest_Mark_STYLE_DESTINATION}}}, ReasonInvalidRequest, "marks"},
		{"mark without a style", &gamerulesv1.RenderStateRequest{Game: "labyrinth", State: textState(renderLabyrinth), Marks: []*gamerulesv1.RenderStateRequest_Mark{{At: "N2"}}}, ReasonInvalidRequest, "marks"},
		{"partial play, abalone", &gamerulesv1.RenderStateRequest{Game: "abalone", State: mustNew(t, srv, "abalone"), PartialPlay: proto.String("")}, ReasonInvalidRequest, "partial_play"},
		{"partial play, opening", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: mustNew(t, srv, "backgammon"), PartialPlay: proto.String("")}, ReasonInvalidRequest, "partial_play"},
		{"partial play 8/3 with 3-1", &gamerulesv1.RenderStateRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA:MIEFAAAAAAAE"), PartialPlay: proto.String("8/3")}, ReasonInvalidRequest, "partial_play"},
		{"mark style out of range", &gamerulesv1.RenderStateRequest{Game: "gravity_trap", State: mustNew(t, srv, "gravity_trap"), Marks: []*gamerulesv1.RenderStateRequest_Mark{{At: "2", Style: 9}}}, ReasonInvalidRequest, "marks"},
	}
	for _, c := range cases {
		_, err := srv.RenderState(context.Background(), c.req)
		if err == nil {
			t.Errorf("%s: no error; want %s on %s", c.name, c.reason, c.field)
			continue
		}
		if got := reasonOf(t, err); got != c.reason {
			t.Errorf("%s: reason %s (%v); want %s", c.name, got, err, c.reason)
		}
		st, _ := status.FromError(err)
		var field string
		for _, d := range st.Details() {
			if br, ok := d.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) > 0 {
				field = br.GetFieldViolations()[0].GetField()
			}
		}
		if field != c.field {
			t.Errorf("%s: field %q (%v); want %q", c.name, field, err, c.field)
		}
	}
}
