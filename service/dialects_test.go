package service

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/gravitytrap"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// violationOf returns the BadRequest field violation of a service error
// (its field and description); it fails the test unless err is an
// INVALID_ARGUMENT status with reason.
func violationOf(t *testing.T, err error, reason string) (field, desc string) {
	t.Helper()
	if got := reasonOf(t, err); got != reason {
		t.Fatalf("error %v: reason %q; want %q", err, got, reason)
	}
	st, _ := status.FromError(err)
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) == 1 {
			return br.GetFieldViolations()[0].GetField(), br.GetFieldViolations()[0].GetDescription()
		}
	}
	t.Fatalf("error %v: no BadRequest with one field violation", err)
	return "", ""
}

// TestStateDialectsIn reads a backgammon state given as XGID, as a FIBS
// board and canonically: every answer carries the canonical text, the same
// for the three (White to play 1-2 in a 5-point match, Black leading 2-1;
// the XGID and FIBS texts are rules/backgammon's writers' output, checked
// there against gnubg 1.07 and the FIBS protocol).
func TestStateDialectsIn(t *testing.T) {
	srv, ctx := New(), context.Background()
	const canonical = "4HPwATDgc/ABMA:cAmlABAAEAAE"
	for _, text := range []string{
		canonical,
		"XGID=-b----E-C---eE---c-e----B-:0:0:1:21:2:1:0:5:10",
		"xgid=-b----E-C---eE---c-e----B-:0:0:1:21:2:1:0:5:10",
		"-b----E-C---eE---c-e----B-:0:0:1:21:2:1:0:5:10",
		"board:You:Opponent:5:2:1:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:2:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0",
		"  XGID=-b----E-C---eE---c-e----B-:0:0:1:21:2:1:0:5:10\n",
	} {
		resp, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: "backgammon", State: textState(text)})
		if err != nil {
			t.Fatalf("Score(%q): %v", text, err)
		}
		if got := resp.GetBackgammon().GetMatch().GetLength(); got != 5 {
			t.Errorf("Score(%q): match length %d; want 5", text, got)
		}
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: textState(text), IncludeResults: true})
		if err != nil {
			t.Fatalf("LegalMoves(%q): %v", text, err)
		}
		if len(lm.GetMoves()) == 0 {
			t.Fatalf("LegalMoves(%q): no moves", text)
		}
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: textState(text), Move: &gamerulesv1.Move{Notation: "24/23 13/11"}})
		if err != nil {
			t.Fatalf("ApplyMove(%q): %v", text, err)
		}
		// The same play from the canonical text.
		want, _ := backgammon.ParseState(canonical)
		next, _, _ := want.ApplyText("24/23 13/11")
		if got := am.GetState().GetText(); got != next.String() {
			t.Errorf("ApplyMove(%q) = %s; want %s", text, got, next.String())
		}
		cs, err := srv.ConvertState(ctx, &gamerulesv1.ConvertStateRequest{Game: "backgammon", State: textState(text), Formats: []gamerulesv1.StateFormat{gamerulesv1.StateFormat_STATE_FORMAT_CANONICAL}})
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.GetForms()[0].GetText(); got != canonical {
			t.Errorf("ConvertState(%q) canonical = %s; want %s", text, got, canonical)
		}
	}
}

// TestBarePositionIDRefused: a Position ID alone does not say who is on
// roll, so state.text refuses it, saying which Match IDs to add (White to
// roll: MAEAAAAAAAAE, Black: cAkAAAAAAAAE, money game without the cube);
// the typed state's position_id, which comes with turn, still takes one.
func TestBarePositionIDRefused(t *testing.T) {
	srv, ctx := New(), context.Background()
	_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA")})
	field, desc := violationOf(t, err, ReasonInvalidState)
	if field != "state.text" || !strings.Contains(desc, "4HPwATDgc/ABMA:MAEAAAAAAAAE") || !strings.Contains(desc, "4HPwATDgc/ABMA:cAkAAAAAAAAE") {
		t.Errorf("bare Position ID: field %q, %q; want state.text naming both Match IDs", field, desc)
	}
	typed := &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{
		PositionId: "4HPwATDgc/ABMA", Turn: gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE, Phase: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_ROLL}}}
	resp, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: "backgammon", State: typed})
	if err != nil || resp.GetFinished() {
		t.Fatalf("typed position_id: %v, %v", resp, err)
	}
}

// TestMoveDialects applies one play written in every dialect ReadMove
// reads, by ApplyMove, Batch and ReplayGame: each answers the canonical
// notation, the action id LegalMoves lists for it, and the same state.
func TestMoveDialects(t *testing.T) {
	srv, ctx := New(), context.Background()
	start := textState("4HPwATDgc/ABMA:MIEFAAAAAAAE") // the start, White to play 3-1
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: start, IncludeResults: true})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]*gamerulesv1.Move{}
	for _, m := range lm.GetMoves() {
		listed[m.GetNotation()] = m
	}
	for _, c := range []struct{ text, want string }{
		{"8/5 6/5", "8/5 6/5"},      // gnubg
		{"8-5 6-5", "8/5 6/5"},      // FIBS
		{"move 8-5 6-5", "8/5 6/5"}, // FIBS with its command word
		{"17-20 19-20", "8/5 6/5"},  // FIBS, counted from the other side
		{"6/5, 8/5*", "8/5 6/5"},    // steps in any order, a star where nothing is hit
		{"8/5(1) 6/5", "8/5 6/5"},   // a count
		{"24/23/20", "24/20"},       // chained
		{"24/23 23/20", "24/20"},    // steps of one checker
		{"24/20", "24/20"},          // XG: waypoints left out
		{"BAR/21 6/5", ""},          // no checker on the bar: refused
		{"24/23 13/10", "24/23 13/10"},
		{"13-10 24-23", "24/23 13/10"},
		{"13/10 Bar/-", ""},
	} {
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: start, Move: &gamerulesv1.Move{Notation: c.text}})
		if c.want == "" {
			if err == nil {
				t.Errorf("ApplyMove(%q) = %s; want a refusal", c.text, resp.GetMove().GetNotation())
			} else if field, desc := violationOf(t, err, ReasonIllegalMove); field != "move.notation" || !strings.Contains(desc, "the nearest legal plays: ") {
				t.Errorf("ApplyMove(%q): field %q, %q; want move.notation with the nearest plays", c.text, field, desc)
			}
			continue
		}
		if err != nil {
			t.Errorf("ApplyMove(%q): %v", c.text, err)
			continue
		}
		l := listed[c.want]
		if got := resp.GetMove(); got.GetNotation() != c.want || got.Action == nil || got.GetAction() != l.GetAction() {
			t.Errorf("ApplyMove(%q) = %s action %v; want %s action %d", c.text, got.GetNotation(), got.Action, c.want, l.GetAction())
		}
		if resp.GetState().GetText() != l.GetResult().GetText() {
			t.Errorf("ApplyMove(%q) state %s; want %s", c.text, resp.GetState().GetText(), l.GetResult().GetText())
		}
		rp, err := srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "backgammon", State: start, Moves: []string{c.text, "roll 2-1", "13/11 6/5"}})
		if err != nil {
			t.Errorf("ReplayGame(%q): %v", c.text, err)
		} else if got := rp.GetMoves()[0]; got != c.want {
			t.Errorf("ReplayGame(%q) move %q; want %q", c.text, got, c.want)
		}
		b, err := srv.Batch(ctx, &gamerulesv1.BatchRequest{Requests: []*gamerulesv1.BatchRequestItem{{Request: &gamerulesv1.BatchRequestItem_ApplyMove{
			ApplyMove: &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: start, Move: &gamerulesv1.Move{Notation: c.text}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := b.GetResponses()[0].GetApplyMove().GetMove(); got.GetNotation() != c.want {
			t.Errorf("Batch ApplyMove(%q) = %v; want %s", c.text, b.GetResponses()[0], c.want)
		}
	}

	// The pass words, where no number can be played (White on the bar
	// against a closed board, to play 6-6).
	closed := "XGID=aBBBBBB------C----------n-:0:0:-1:66:0:0:0:0:10"
	pos, err := backgammon.ParseAnyState(closed)
	if err != nil {
		t.Fatal(err)
	}
	if pos.Phase() != backgammon.PhaseMove || pos.LegalMoves()[0].String() != "pass" {
		t.Fatalf("%s: phase %v, moves %v; want only pass", pos, pos.Phase(), pos.LegalMoves())
	}
	for _, text := range []string{"pass", "Cannot Move", "no move", "No Moves", "can't move"} {
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: textState(closed), Move: &gamerulesv1.Move{Notation: text}})
		if err != nil || resp.GetMove().GetNotation() != "pass" || resp.GetMove().GetAction() != 72 {
			t.Errorf("ApplyMove(%q) = %v, %v; want pass (action 72)", text, resp.GetMove(), err)
		}
	}
}

// TestMoveAmbiguousAndNearest: a text that matches two plays is refused
// listing both; one that matches none lists the nearest plays (in the
// message, which is the field violation's description).
func TestMoveAmbiguousAndNearest(t *testing.T) {
	srv, ctx := New(), context.Background()
	// White to play 5-1 with Black blots on 17 and 21 (White's points):
	// 22/16 is 22/17*/16 or 22/21*/16.
	st := textState("/yYTAgD7XQEACQ:MIEGAAAAAAAE")
	_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: "22/16"}})
	field, desc := violationOf(t, err, ReasonIllegalMove)
	if field != "move.notation" || !strings.Contains(desc, "it can be 22/17*/16 or 22/21*/16") {
		t.Errorf("ambiguous: field %q, %q; want move.notation listing 22/17*/16 or 22/21*/16", field, desc)
	}
	for _, text := range []string{"22/17*/16", "22/21*/16", "22-21*-16"} {
		if _, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: st, Move: &gamerulesv1.Move{Notation: text}}); err != nil {
			t.Errorf("ApplyMove(%q): %v", text, err)
		}
	}
	_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA:MIEFAAAAAAAE"), Move: &gamerulesv1.Move{Notation: "8/4 6/5"}})
	if _, desc := violationOf(t, err, ReasonIllegalMove); !strings.Contains(desc, "the nearest legal plays: 8/5 6/5, 8/4") {
		t.Errorf("8/4 6/5 in 3-1: %q; want the nearest legal plays 8/5 6/5, 8/4", desc)
	}
	_, err = srv.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: "backgammon", State: st, Moves: []string{"22/16"}})
	if field, desc := violationOf(t, err, ReasonIllegalMove); field != "moves[0]" || !strings.Contains(desc, "22/17*/16 or 22/21*/16") {
		t.Errorf("ReplayGame ambiguous: field %q, %q", field, desc)
	}
}

// TestAbaloneMoveDialects: Aba-Pro moves in any case and with any
// separators, answered canonically with their action ids; a legal-looking
// move that is not legal lists the nearest.
func TestAbaloneMoveDialects(t *testing.T) {
	srv, ctx := New(), context.Background()
	start := mustNew(t, srv, "abalone")
	s, err := abalone.ParseState(start.GetText())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"a1b2", "a1b2"}, {"A1 B2", "a1b2"}, {"a1-b2", "a1b2"}, {"C3, C5 > D4", "c3c5d4"}, {"c5:c3:d6", "c3c5d4"},
	} {
		m, _ := abalone.ParseMove(s, c.want)
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: start, Move: &gamerulesv1.Move{Notation: c.text}})
		if err != nil || resp.GetMove().GetNotation() != c.want || resp.GetMove().GetAction() != int32(m.Action()) {
			t.Errorf("ApplyMove(%q) = %v, %v; want %s action %d", c.text, resp.GetMove(), err, c.want, m.Action())
		}
	}
	_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: start, Move: &gamerulesv1.Move{Notation: "A1 A2"}})
	if field, desc := violationOf(t, err, ReasonIllegalMove); field != "move.notation" || !strings.Contains(desc, "the nearest legal moves: a1b1, a1b2") {
		t.Errorf("a1a2: field %q, %q; want the nearest legal moves a1b1, a1b2", field, desc)
	}
}

// TestAppliedMoveAction: ApplyMove answers every game's move with the
// action id LegalMoves lists for it, along a seeded random game of each.
func TestAppliedMoveAction(t *testing.T) {
	srv, ctx := New(), context.Background()
	r := rand.New(rand.NewPCG(31, 7))
	for _, id := range gameIDs() {
		st := mustNew(t, srv, id)
		for ply := 0; ply < 30; ply++ {
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: st})
			if err != nil {
				t.Fatal(err)
			}
			if len(lm.GetMoves()) == 0 {
				break
			}
			m := lm.GetMoves()[r.IntN(len(lm.GetMoves()))]
			resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: st, Move: &gamerulesv1.Move{Notation: m.GetNotation()}})
			if err != nil {
				t.Fatalf("%s: ApplyMove(%q): %v", id, m.GetNotation(), err)
			}
			if resp.GetMove().Action == nil || resp.GetMove().GetAction() != m.GetAction() {
				t.Fatalf("%s %s: ApplyMove(%q) action %v; listed %d", id, st.GetText(), m.GetNotation(), resp.GetMove().Action, m.GetAction())
			}
			st = resp.GetState()
		}
	}
}

// TestConvertState: every form of random backgammon states (money with
// and without the cube, matches) equals rules/backgammon's writer, with
// its Lossless; a lossless form reads back as the state; forms asked are
// answered in order, once each; bad forms are refused on formats[i].
func TestConvertState(t *testing.T) {
	srv, ctx := New(), context.Background()
	r := rand.New(rand.NewPCG(31, 1))
	kinds := map[gamerulesv1.StateFormat]backgammon.Format{
		gamerulesv1.StateFormat_STATE_FORMAT_CANONICAL: backgammon.FormatGnubg,
		gamerulesv1.StateFormat_STATE_FORMAT_XGID:      backgammon.FormatXGID,
		gamerulesv1.StateFormat_STATE_FORMAT_FIBS:      backgammon.FormatFIBS,
	}
	checked, lossy := 0, 0
	for _, o := range []backgammon.Options{{}, {Cube: true}, {Cube: true, Beavers: true}, {MatchLength: 7, Score: [2]int{5, 6}, Crawford: true}, {MatchLength: 5, Score: [2]int{1, 3}}} {
		s, err := backgammon.New(o)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120; ply++ {
			resp, err := srv.ConvertState(ctx, &gamerulesv1.ConvertStateRequest{Game: "backgammon", State: textState(s.String())})
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if len(resp.GetForms()) != 3 {
				t.Fatalf("%s: %d forms; want 3", s, len(resp.GetForms()))
			}
			for i, f := range resp.GetForms() {
				bf := kinds[f.GetFormat()]
				if bf != backgammon.Formats[i] || f.GetText() != s.Text(bf) || f.GetLossless() != s.Lossless(bf) {
					t.Fatalf("%s: form %d = %v; want %v %q lossless %v", s, i, f, backgammon.Formats[i], s.Text(bf), s.Lossless(bf))
				}
				if f.GetLossless() {
					back, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: "backgammon", State: textState(f.GetText())})
					if err != nil {
						t.Fatalf("%s: %s read back: %v", s, f.GetText(), err)
					}
					_ = back
					d, err := backgammonEngine{}.Decode(textState(f.GetText()))
					if err != nil || d.(backgammonPos).s.String() != s.String() {
						t.Fatalf("%s: lossless %s reads back as %v, %v", s, f.GetText(), d, err)
					}
				} else {
					lossy++
				}
				checked++
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if s, err = s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d forms checked, %d lossy", checked, lossy)

	// Asked forms: in order, once each.
	st := textState("4HPwATDgc/ABMA:cAmlABAAEAAE")
	resp, err := srv.ConvertState(ctx, &gamerulesv1.ConvertStateRequest{Game: "backgammon", State: st, Formats: []gamerulesv1.StateFormat{
		gamerulesv1.StateFormat_STATE_FORMAT_FIBS, gamerulesv1.StateFormat_STATE_FORMAT_XGID, gamerulesv1.StateFormat_STATE_FORMAT_FIBS}})
	if err != nil {
		t.Fatal(err)
	}
	want := []*gamerulesv1.ConvertStateResponse_Form{
		{Format: gamerulesv1.StateFormat_STATE_FORMAT_FIBS, Text: "board:You:Opponent:5:2:1:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:2:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0", Lossless: true},
		{Format: gamerulesv1.StateFormat_STATE_FORMAT_XGID, Text: "XGID=-b----E-C---eE---c-e----B-:0:0:1:21:2:1:0:5:10", Lossless: true},
	}
	if !proto.Equal(resp, &gamerulesv1.ConvertStateResponse{Forms: want}) {
		t.Errorf("ConvertState(FIBS, XGID, FIBS) = %v; want %v", resp, want)
	}

	// The other games: their canonical text only.
	for _, id := range []string{"abalone", "labyrinth", "gravity_trap"} {
		st := mustNew(t, srv, id)
		resp, err := srv.ConvertState(ctx, &gamerulesv1.ConvertStateRequest{Game: id, State: st})
		if err != nil {
			t.Fatal(err)
		}
		want := &gamerulesv1.ConvertStateResponse{Forms: []*gamerulesv1.ConvertStateResponse_Form{{Format: gamerulesv1.StateFormat_STATE_FORMAT_CANONICAL, Text: st.GetText(), Lossless: true}}}
		if !proto.Equal(resp, want) {
			t.Errorf("%s: ConvertState = %v; want %v", id, resp, want)
		}
	}

	for _, c := range []struct {
		game    string
		formats []gamerulesv1.StateFormat
		field   string
		say     string
	}{
		{"abalone", []gamerulesv1.StateFormat{gamerulesv1.StateFormat_STATE_FORMAT_XGID}, "formats[0]", `STATE_FORMAT_XGID is not a form of game "abalone"; the game's forms are STATE_FORMAT_CANONICAL`},
		{"backgammon", []gamerulesv1.StateFormat{gamerulesv1.StateFormat_STATE_FORMAT_XGID, 0}, "formats[1]", "STATE_FORMAT_UNSPECIFIED is not a form"},
		{"backgammon", []gamerulesv1.StateFormat{99}, "formats[0]", "99 is not a known form; the game's forms are STATE_FORMAT_CANONICAL, STATE_FORMAT_XGID, STATE_FORMAT_FIBS"},
	} {
		st := textState("4HPwATDgc/ABMA:cAmlABAAEAAE")
		if c.game == "abalone" {
			st = mustNew(t, srv, "abalone")
		}
		_, err := srv.ConvertState(ctx, &gamerulesv1.ConvertStateRequest{Game: c.game, State: st, Formats: c.formats})
		if field, desc := violationOf(t, err, ReasonInvalidRequest); field != c.field || !strings.Contains(desc, c.say) {
			t.Errorf("%s %v: field %q, %q; want %s saying %q", c.game, c.formats, field, desc, c.field, c.say)
		}
	}
	_, err = srv.ConvertState(ctx, &gamerulesv1.ConvertStateRequest{Game: "backgammon", State: textState("4HPwATDgc/ABMA")})
	if field, _ := violationOf(t, err, ReasonInvalidState); field != "state.text" {
		t.Errorf("bare Position ID: field %q; want state.text", field)
	}
}

// TestRenderText: RENDER_FORMAT_TEXT answers render's text board for every
// game (text/plain), the options passed on; backgammon's board is gnubg
// 1.07's own "show board" (testdata/gnubg-show-board-white-3-1.txt, from
// render's gnubg goldens).
func TestRenderText(t *testing.T) {
	srv, ctx := New(), context.Background()
	text := gamerulesv1.RenderFormat_RENDER_FORMAT_TEXT.Enum()
	draw := func(id string, st *gamerulesv1.GameState, side *int32) string {
		t.Helper()
		resp, err := srv.RenderState(ctx, &gamerulesv1.RenderStateRequest{Game: id, State: st, Format: text, Side: side})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if resp.GetContentType() != "text/plain; charset=utf-8" {
			t.Fatalf("%s: content type %q", id, resp.GetContentType())
		}
		return string(resp.GetData())
	}
	golden, err := os.ReadFile("testdata/gnubg-show-board-white-3-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := draw("backgammon", textState("4HPwATDgc/ABMA:MIEFAAAAAAAE"), nil)
	if !strings.HasPrefix(got, string(golden)) {
		t.Errorf("backgammon text board:\n%s\nwant gnubg's:\n%s", got, golden)
	}
	for _, side := range []*int32{nil, proto.Int32(0), proto.Int32(1)} {
		o := render.Options{HasSide: side != nil}
		if side != nil {
			o.Side = int(*side)
		}
		for _, id := range gameIDs() {
			st := mustNew(t, srv, id)
			var want string
			var err error
			switch id {
			case "backgammon":
				want, err = render.BackgammonText(must(backgammon.ParseState(st.GetText())), o)
			case "abalone":
				want, err = render.AbaloneText(must(abalone.ParseState(st.GetText())), o)
			case "labyrinth":
				want, err = render.LabyrinthText(must(labyrinth.ParseState(st.GetText())), o)
			case "gravity_trap":
				want, err = render.GravityTrapText(must(gravitytrap.ParseState(st.GetText())), o)
			default:
				t.Fatalf("game %s: no text renderer to compare with", id)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := draw(id, st, side); got != want || len(got) < 100 {
				t.Errorf("%s side %v: RenderState text\n%s\nwant render's\n%s", id, side, got, want)
			}
		}
	}
	// A Labyrinth per-player view (hidden cards) is written too, as render
	// writes it.
	lab := mustNew(t, srv, "labyrinth")
	ob, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: "labyrinth", State: lab, Player: proto.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	view := must(labyrinth.ParseState(ob.GetState().GetText()))
	if !view.IsView() {
		t.Fatalf("%s: not a view", ob.GetState().GetText())
	}
	if got, want := draw("labyrinth", ob.GetState(), nil), must(render.LabyrinthText(view, render.Options{})); got != want {
		t.Errorf("labyrinth view: RenderState text\n%s\nwant render's\n%s", got, want)
	}
	// SVG stays the default, and RENDER_FORMAT_SVG asks for it.
	for _, f := range []*gamerulesv1.RenderFormat{nil, gamerulesv1.RenderFormat_RENDER_FORMAT_SVG.Enum()} {
		resp, err := srv.RenderState(ctx, &gamerulesv1.RenderStateRequest{Game: "abalone", State: mustNew(t, srv, "abalone"), Format: f})
		if err != nil || resp.GetContentType() != SVGContentType {
			t.Errorf("format %v: %v, %v; want SVG", f, resp.GetContentType(), err)
		}
	}
	for _, f := range []gamerulesv1.RenderFormat{0, 7} {
		_, err := srv.RenderState(ctx, &gamerulesv1.RenderStateRequest{Game: "abalone", State: mustNew(t, srv, "abalone"), Format: f.Enum()})
		if field, _ := violationOf(t, err, ReasonInvalidRequest); field != "format" {
			t.Errorf("format %v: field %q; want format", f, field)
		}
	}
	// A bad option is refused on its field, as for the SVG.
	_, err = srv.RenderState(ctx, &gamerulesv1.RenderStateRequest{Game: "backgammon", State: mustNew(t, srv, "backgammon"), Format: text, Side: proto.Int32(2)})
	if field, _ := violationOf(t, err, ReasonInvalidRequest); field != "side" {
		t.Errorf("side 2: field %q; want side", field)
	}
}

// must returns v, panicking on err (test set-up on fixed texts).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
