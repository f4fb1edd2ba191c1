package server

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rest/restjson"
)

// TestCheckJSONMessages: the JSON reader's refusals in plain words, naming
// the field and the shape expected there (from the descriptor), with the
// line:column of the value, as issue 20 asked for its three examples.
func TestCheckJSONMessages(t *testing.T) {
	newGame := (&gamerulesv1.NewGameRequest{}).ProtoReflect().Descriptor()
	legal := (&gamerulesv1.LegalMovesRequest{}).ProtoReflect().Descriptor()
	apply := (&gamerulesv1.ApplyMoveRequest{}).ProtoReflect().Descriptor()
	score := (&gamerulesv1.ScoreRequest{}).ProtoReflect().Descriptor()
	export := (&gamerulesv1.ExportRecordRequest{}).ProtoReflect().Descriptor()
	for _, c := range []struct {
		md          protoreflect.MessageDescriptor
		body        string
		field, want string
	}{
		{legal, `{"state":"4HPwATDgc/ABMA:MIEFAAAAAAAE"}`, "state",
			`state must be an object such as {"text": "…"}, not the string "4HPwATDgc/ABMA:MIEFAAAAA…" (line 1:10)`},
		{newGame, `{"gravityTrap":{"firstPlayer":"blue"}}`, "gravityTrap.firstPlayer",
			`gravityTrap.firstPlayer must be an integer, not the string "blue" (line 1:31)`},
		{apply, "{\"state\":{\"text\":\"RoooBooooooooooooooooo r\"},\n \"move\":{\"notaton\":\"8\"}}", "move.notaton",
			`unknown field "notaton" in move; did you mean "notation"? (line 2:10)`},
		{apply, `{"Move":{}}`, "Move", `unknown field "Move" in the request; did you mean "move"? (line 1:2)`},
		{apply, `{"zzz":1}`, "zzz", `unknown field "zzz" in the request; its fields are game, state, move, seed, includeLegalMoves, includeResults (line 1:2)`},
		{score, `{"state":{"backgammon":{"turn":"WHITE"}}}`, "state.backgammon.turn",
			`state.backgammon.turn must be one of BACKGAMMON_PLAYER_WHITE, BACKGAMMON_PLAYER_BLACK (did you mean "BACKGAMMON_PLAYER_WHITE"?), not the string "WHITE" (line 1:32)`},
		{score, `{"state":{"backgammon":{"white":[1,-1]}}}`, "state.backgammon.white[1]",
			`state.backgammon.white[1] must be a whole number (0 or more), not the number -1 (line 1:36)`},
		{score, `{"state":{"backgammon":{"white":3}}}`, "state.backgammon.white",
			`state.backgammon.white must be an array such as [1], not the number 3 (line 1:33)`},
		{newGame, `{"seed":"99999999999999999999999"}`, "seed",
			`seed must be a whole number in 0..18446744073709551615 (a string such as "1", as protojson writes 64-bit integers, or a number), not the string "99999999999999999999999" (line 1:9)`},
		{newGame, `{"gravityTrap":{"firstPlayer":2.5}}`, "gravityTrap.firstPlayer",
			`gravityTrap.firstPlayer must be an integer, without a fraction, not the number 2.5 (line 1:31)`},
		{apply, `{"move":{"backgammon":{},"abalone":{}}}`, "move.abalone",
			`move sets both "backgammon" and "abalone", members of the oneof "move": set at most one of backgammon, abalone, labyrinth, gravityTrap (line 1:36)`},
		{legal, `{"state":{"text":"x"},"state":{"text":"y"}}`, "state",
			`duplicate field "state" in the request: each field may be given once (line 1:23)`},
		{legal, `{"state":{"text":`, "state.text", `the request body is not valid JSON: it ends in the middle of state.text (line 1:18)`},
		{legal, `{"state":{"text":"x"}} GARBAGE`, "body",
			`the request body has more data after its JSON value; send exactly one JSON object (line 1:24)`},
		{legal, `[]`, "body", `the request body must be a JSON object (a LegalMovesRequest), not an array (line 1:1)`},
		{legal, `{"state":{"text":"\ud800"}}`, "state.text",
			`state.text: a string has a \u escape that is half of a UTF-16 surrogate pair (such as \ud800 alone); JSON strings must be valid Unicode (line 1:18)`},
		{legal, "{\"state\":{\"text\":\"\xff\"}}", "state.text", `state.text: a string is not valid UTF-8 (line 1:18)`},
		{legal, `{"includeResults":"yes"}`, "includeResults", `includeResults must be true or false, not the string "yes" (line 1:19)`},
		{export, `{"tags":{"event":null}}`, "tags.event", `tags.event must be a string, not null (null stands for a field left out, not for an element) (line 1:18)`},
		{export, `{"tags":{"event":1}}`, "tags.event", `tags.event must be a string such as "…", not the number 1 (line 1:18)`},
	} {
		p := restjson.CheckJSON([]byte(c.body), c.md)
		if p == nil {
			t.Errorf("%s: no problem found", c.body)
			continue
		}
		if p.Field != c.field || p.Error() != c.want {
			t.Errorf("%s:\n got %s: %s\nwant %s: %s", c.body, p.Field, p.Error(), c.field, c.want)
		}
		if strings.Contains(p.Error(), "proto:") {
			t.Errorf("%s: jargon in %q", c.body, p.Error())
		}
		// The status is the service's shape: ErrorInfo + BadRequest.
		st := p.Status()
		var info *errdetails.ErrorInfo
		var bad *errdetails.BadRequest
		for _, d := range st.Details() {
			switch d := d.(type) {
			case *errdetails.ErrorInfo:
				info = d
			case *errdetails.BadRequest:
				bad = d
			}
		}
		if info == nil || info.Reason != "INVALID_REQUEST" || info.Domain != "gamerules" || info.Metadata["field"] != c.field ||
			bad == nil || len(bad.FieldViolations) != 1 || bad.FieldViolations[0].Field != c.field {
			t.Errorf("%s: details %v", c.body, st.Details())
		}
	}
}

// TestCheckJSONAgreesWithProtojson: on thousands of bodies, the valid
// examples and mutations of them (a value replaced by one of another JSON
// type, a key misspelt, a cut), checkJSON finds a problem exactly when
// protojson (behind the one-JSON-value check) refuses the body, so that
// its words are what a client reads, never the fallback.
func TestCheckJSONAgreesWithProtojson(t *testing.T) {
	type req struct {
		msg  proto.Message
		body string
	}
	bases := []req{
		{&gamerulesv1.NewGameRequest{}, `{"seed":"1","gravityTrap":{"board":"rings","firstPlayer":1}}`},
		{&gamerulesv1.NewGameRequest{}, `{"backgammon":{"matchLength":5,"cube":true,"jacoby":false},"seed":7}`},
		{&gamerulesv1.NewGameRequest{}, `{"labyrinth":{"players":2,"openCards":true,"noReturn":true}}`},
		{&gamerulesv1.LegalMovesRequest{}, `{"state":{"text":"RoooBooooooooooooooooo r"},"includeResults":true}`},
		{&gamerulesv1.ApplyMoveRequest{}, `{"state":{"text":"RoooBooooooooooooooooo r"},"move":{"notation":"8"},"includeLegalMoves":true,"seed":"3"}`},
		{&gamerulesv1.ScoreRequest{}, `{"state":{"backgammon":{"white":[0,2,0,0,0,0,5],"black":[0,2],"turn":"BACKGAMMON_PLAYER_WHITE","dice":[3,1]}}}`},
		{&gamerulesv1.ObserveStateRequest{}, `{"state":{"text":"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"},"player":0}`},
		{&gamerulesv1.RenderStateRequest{}, `{"state":{"text":"RoooBooooooooooooooooo r"},"size":300,"hideCoordinates":true,"highlightFrom":"0","highlightTo":"8"}`},
		{&gamerulesv1.ReplayGameRequest{}, `{"moves":["8","0"],"seed":"1","includeStates":true}`},
		{&gamerulesv1.ExportRecordRequest{}, `{"replay":{"moves":["8","0"]},"tags":{"event":"example"},"format":"json"}`},
	}
	r := rand.New(rand.NewPCG(20, 2))
	others := []string{`"x"`, `1`, `-1`, `2.5`, `true`, `null`, `{}`, `[]`, `[1]`, `{"text":"x"}`, `"BACKGAMMON_PLAYER_WHITE"`, `"1"`, `1e3`, `"\ud800"`}
	checked, refused := 0, 0
	for _, b := range bases {
		md := b.msg.ProtoReflect().Descriptor()
		var mutants []string
		mutants = append(mutants, b.body)
		for i := 0; i < 400; i++ {
			body := b.body
			switch r.IntN(3) {
			case 0: // a value replaced
				idx := allIndexes(body, ":")
				at := idx[r.IntN(len(idx))] + 1
				end := valueEnd(body, at)
				body = body[:at] + others[r.IntN(len(others))] + body[end:]
			case 1: // a key misspelt
				idx := allIndexes(body, `":`)
				at := idx[r.IntN(len(idx))]
				body = body[:at-1] + body[at:]
			case 2: // cut
				body = body[:r.IntN(len(body))]
			}
			mutants = append(mutants, body)
		}
		for _, body := range mutants {
			perr := restjson.CheckBody([]byte(body))
			if perr == nil {
				perr = protojson.Unmarshal([]byte(body), b.msg.ProtoReflect().New().Interface())
			}
			p := restjson.CheckJSON([]byte(body), md)
			if (perr != nil) != (p != nil) {
				t.Errorf("%s: protojson says %v; checkJSON says %v", body, perr, p)
			}
			checked++
			if p != nil {
				refused++
			}
		}
	}
	if refused < checked/3 {
		t.Errorf("only %d of %d bodies refused: the mutations are too weak to test anything", refused, checked)
	}
	t.Logf("%d bodies, %d refused, checkJSON agreeing with protojson on each", checked, refused)
}

func allIndexes(s, sub string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + 1
	}
}

// valueEnd is the end of the JSON value starting at at (a scalar, object
// or array; good enough for the test's valid bodies).
func valueEnd(s string, at int) int {
	dec := json.NewDecoder(strings.NewReader(s[at:]))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return len(s)
	}
	return at + int(dec.InputOffset())
}
