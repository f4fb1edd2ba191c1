package record

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

func TestRoundTrip(t *testing.T) {
	w := 1
	for _, r := range []Record{
		{Game: "backgammon", Moves: []string{"roll 3-1", "8/5 6/5", "roll 6-4"}, Options: []byte(`{ "matchLength": 5 }`), Seed: "7",
			Result: &Result{Points: []int{0, 0}}, Tags: map[string]string{"event": "test <&>", "white": "gnubg"}},
		{Game: "abalone", Start: "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", Moves: []string{"a1b2"},
			Result: &Result{Finished: true, Winner: &w, Points: []int{6, 2}, Detail: "six marbles"}},
		{Game: "gravity_trap"},
	} {
		out, err := Format(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%s) = %v", out, err)
		}
		again, err := Format(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("round trip:\n%s\n%s", out, again)
		}
		if back.Game != r.Game || len(back.Moves) != len(r.Moves) || back.Start != r.Start {
			t.Errorf("read back %+v; wrote %+v", back, r)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		in         string
		line, col  int
		reasonFrag string
	}{
		{"", 1, 1, "empty"},
		{"{\n  \"format\": \"gamerules-record/1\",\n  \"game\": \"abalone\",\n  \"moves\": [\"a1b2\" \"b2c3\"]\n}", 4, 20, "invalid character"},
		{"{\n  \"format\": \"gamerules-record/1\",\n  \"game\": 7\n}", 3, 11, "want a JSON string"},
		{"{\"format\": \"gamerules-record/1\", \"game\": \"abalone\", \"moves\": [], \"colour\": 1}", 1, 78, "unknown field"},
		{"{\"format\": \"pgn\", \"game\": \"abalone\"}", 1, 2, "format"},
		{"{\"format\": \"gamerules-record/1\",\n \"moves\": []}", 1, 1, "game is required"},
		{"{\"format\": \"gamerules-record/1\", \"game\": \"abalone\",\n\"seed\": \"x\"}", 2, 1, "seed"},
		{"{\"format\": \"gamerules-record/1\", \"game\": \"abalone\",\n \"moves\": [\"a1b2\", \"\"]}", 2, 2, "move 1 is empty"},
		{"{\"format\": \"gamerules-record/1\", \"game\": \"abalone\", \"start\": \"x\", \"options\": {}}", 1, 67, "options"},
		{"{\"format\": \"gamerules-record/1\", \"game\": \"abalone\"} {}", 1, 53, "after the record"},
		{"{\"format\": \"gamerules-record/1\", \"game\": \"abalone\"", 1, 51, "ends early"},
	} {
		_, err := Parse([]byte(c.in))
		var re *Error
		if !errors.As(err, &re) || !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("Parse(%q) = %v; want an *Error", c.in, err)
			continue
		}
		if re.Line != c.line || re.Column != c.col || !strings.Contains(re.Reason, c.reasonFrag) {
			t.Errorf("Parse(%q) = %v; want line %d, column %d, %q", c.in, err, c.line, c.col, c.reasonFrag)
		}
	}
}
