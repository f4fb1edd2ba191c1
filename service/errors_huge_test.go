package service

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// maxErrorBytes bounds an error's whole status (message and details) for
// any input: errors quote an excerpt of the input (game.Quote), never all
// of it.
const maxErrorBytes = 4 << 10

// stringSetters walks m's string fields, those of the messages it holds
// and the first element of its repeated messages, and calls visit with a
// setter for each: a string field, the first element of a repeated string
// (or one appended), a map's new key and a map's value.
func stringSetters(m protoreflect.Message, visit func(name string, set func(string))) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
			if w := m.WhichOneof(o); w != nil && w != fd {
				continue // another case of the oneof is set
			}
		}
		name := string(fd.Name())
		switch {
		case fd.IsMap():
			if fd.MapKey().Kind() == protoreflect.StringKind && fd.MapValue().Kind() == protoreflect.StringKind {
				visit(name+"{key}", func(s string) {
					m.Mutable(fd).Map().Set(protoreflect.ValueOfString(s).MapKey(), protoreflect.ValueOfString("v"))
				})
				visit(name+"{white}", func(s string) {
					m.Mutable(fd).Map().Set(protoreflect.ValueOfString("white").MapKey(), protoreflect.ValueOfString(s))
				})
			}
		case fd.IsList() && fd.Kind() == protoreflect.StringKind:
			visit(name+"[0]", func(s string) {
				l := m.Mutable(fd).List()
				if l.Len() == 0 {
					l.Append(protoreflect.ValueOfString(s))
				} else {
					l.Set(0, protoreflect.ValueOfString(s))
				}
			})
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			if l := m.Get(fd).List(); l.Len() > 0 {
				stringSetters(m.Mutable(fd).List().Get(0).Message(), func(n string, set func(string)) { visit(name+"[0]."+n, set) })
			}
		case fd.Kind() == protoreflect.StringKind:
			visit(name, func(s string) { m.Set(fd, protoreflect.ValueOfString(s)) })
		case fd.Kind() == protoreflect.MessageKind && m.Has(fd):
			stringSetters(m.Mutable(fd).Message(), func(n string, set func(string)) { visit(name+"."+n, set) })
		}
	}
}

// TestHugeInputErrorsBounded is issue 30 item 8: every string of every
// RPC's request (a valid request of each game, each string in turn, its
// sub-messages' too) set to 300 KB that no game reads gives an error of at
// most maxErrorBytes (message and details), or an answer.
func TestHugeInputErrorsBounded(t *testing.T) {
	srv := New()
	ctx := context.Background()
	type rpc struct {
		name string
		req  proto.Message
		call func(proto.Message) error
	}
	var rpcs []rpc
	add := func(name string, req proto.Message, call func(proto.Message) error) {
		rpcs = append(rpcs, rpc{name, req, call})
	}
	for _, g := range srv.Games() {
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: g, Seed: new(uint64(1))})
		if err != nil {
			t.Fatal(err)
		}
		st := ng.GetState()
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: g, State: st})
		if err != nil || len(lm.GetMoves()) == 0 {
			t.Fatal(g, err)
		}
		mv := lm.GetMoves()[0].GetNotation()
		text := &gamerulesv1.GameState{Text: st.GetText()}
		add(g+" NewGame", &gamerulesv1.NewGameRequest{Game: g}, func(m proto.Message) error {
			_, err := srv.NewGame(ctx, m.(*gamerulesv1.NewGameRequest))
			return err
		})
		add(g+" LegalMoves", &gamerulesv1.LegalMovesRequest{Game: g, State: text}, func(m proto.Message) error {
			_, err := srv.LegalMoves(ctx, m.(*gamerulesv1.LegalMovesRequest))
			return err
		})
		add(g+" ApplyMove", &gamerulesv1.ApplyMoveRequest{Game: g, State: text, Move: &gamerulesv1.Move{Notation: mv}}, func(m proto.Message) error {
			_, err := srv.ApplyMove(ctx, m.(*gamerulesv1.ApplyMoveRequest))
			return err
		})
		add(g+" Score", &gamerulesv1.ScoreRequest{Game: g, State: text}, func(m proto.Message) error {
			_, err := srv.Score(ctx, m.(*gamerulesv1.ScoreRequest))
			return err
		})
		add(g+" ObserveState", &gamerulesv1.ObserveStateRequest{Game: g, State: text}, func(m proto.Message) error {
			_, err := srv.ObserveState(ctx, m.(*gamerulesv1.ObserveStateRequest))
			return err
		})
		add(g+" RenderState", &gamerulesv1.RenderStateRequest{Game: g, State: text, HighlightFrom: "", Marks: []*gamerulesv1.RenderStateRequest_Mark{{At: "x"}}}, func(m proto.Message) error {
			_, err := srv.RenderState(ctx, m.(*gamerulesv1.RenderStateRequest))
			return err
		})
		add(g+" ReplayGame", &gamerulesv1.ReplayGameRequest{Game: g, Seed: new(uint64(1)), Moves: []string{mv}}, func(m proto.Message) error {
			_, err := srv.ReplayGame(ctx, m.(*gamerulesv1.ReplayGameRequest))
			return err
		})
		add(g+" GetBoard", &gamerulesv1.GetBoardRequest{Game: g, Name: "default"}, func(m proto.Message) error {
			_, err := srv.GetBoard(ctx, m.(*gamerulesv1.GetBoardRequest))
			return err
		})
		add(g+" Expand", &gamerulesv1.ExpandRequest{Game: g, State: text}, func(m proto.Message) error {
			_, err := srv.Expand(ctx, m.(*gamerulesv1.ExpandRequest))
			return err
		})
		add(g+" Playout", &gamerulesv1.PlayoutRequest{Game: g, State: text}, func(m proto.Message) error {
			_, err := srv.Playout(ctx, m.(*gamerulesv1.PlayoutRequest))
			return err
		})
		add(g+" Batch", &gamerulesv1.BatchRequest{Requests: []*gamerulesv1.BatchRequestItem{{Request: &gamerulesv1.BatchRequestItem_ApplyMove{ApplyMove: &gamerulesv1.ApplyMoveRequest{Game: g, State: text, Move: &gamerulesv1.Move{Notation: mv}}}}}}, func(m proto.Message) error {
			_, err := srv.Batch(ctx, m.(*gamerulesv1.BatchRequest))
			return err
		})
		for _, f := range []string{"json", "mat", "apgn"} {
			if f == "mat" && g != bgGame || f == "apgn" && g != "abalone" {
				continue
			}
			add(g+" ExportRecord "+f, &gamerulesv1.ExportRecordRequest{Game: g, Format: f, Replay: &gamerulesv1.ReplayGameRequest{Game: g, Moves: []string{mv}}, Tags: map[string]string{"a": "b"}}, func(m proto.Message) error {
				_, err := srv.ExportRecord(ctx, m.(*gamerulesv1.ExportRecordRequest))
				return err
			})
			ex, err := srv.ExportRecord(ctx, &gamerulesv1.ExportRecordRequest{Game: g, Format: f, Replay: &gamerulesv1.ReplayGameRequest{Game: g, Moves: []string{mv}, Seed: new(uint64(1))}})
			if err != nil {
				t.Fatal(g, f, err)
			}
			add(g+" ImportRecord "+f, &gamerulesv1.ImportRecordRequest{Game: g, Format: f, Text: ex.GetText()}, func(m proto.Message) error {
				_, err := srv.ImportRecord(ctx, m.(*gamerulesv1.ImportRecordRequest))
				return err
			})
			// The record's text with 300 KB planted inside it.
			for _, at := range []string{"\n", " ", `"`} {
				if k := strings.Index(ex.GetText(), at); k >= 0 {
					add(fmt.Sprintf("%s ImportRecord %s planted at %q", g, f, at), &gamerulesv1.ImportRecordRequest{Game: g, Format: f, Text: ex.GetText()}, func(m proto.Message) error {
						r := proto.Clone(m).(*gamerulesv1.ImportRecordRequest)
						if r.Text != ex.GetText() {
							r.Text = ex.GetText()[:k+1] + r.Text + ex.GetText()[k+1:]
						}
						_, err := srv.ImportRecord(ctx, r)
						return err
					})
				}
			}
		}
	}
	worst, worstAt, cases := 0, "", 0
	// 300 KB that reads as nothing, and 300 KB of tokens each game's
	// notation reads (points, cells, stations), so that a parser goes deep.
	for _, huge := range []string{strings.Repeat("zq[\"", 300_000/4), strings.Repeat("8/5 a1b2 7 r1c1 ", 300_000/16)} {
		for _, r := range rpcs {
			var names []string
			stringSetters(proto.Clone(r.req).ProtoReflect(), func(n string, _ func(string)) { names = append(names, n) })
			for k, name := range names {
				req := proto.Clone(r.req)
				i := 0
				stringSetters(req.ProtoReflect(), func(_ string, set func(string)) {
					if i == k {
						set(huge)
					}
					i++
				})
				cases++
				err := r.call(req)
				if err == nil {
					continue
				}
				st := status.Convert(err)
				n := proto.Size(st.Proto())
				if n > worst {
					worst, worstAt = n, r.name+" "+name
				}
				if n > maxErrorBytes {
					t.Errorf("%s with 300 KB in %s: an error of %d bytes (message %d): %.300s", r.name, name, n, len(st.Message()), st.Message())
				}
			}
		}
	}
	t.Logf("%d cases; the largest error %d bytes (%s)", cases, worst, worstAt)
	if cases < 200 {
		t.Errorf("%d cases; want the strings of every RPC", cases)
	}
}
