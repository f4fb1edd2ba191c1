//go:build go1.27

package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// parseV1 is Parse as it was with encoding/json's decoder (before
// jsonio.go): the oracle of TestJSONAsEncodingJSON.
func parseV1(data []byte) (Record, error) {
	var r Record
	fail := func(off int64, format string, args ...any) (Record, error) {
		l, c := position(data, off)
		return Record{}, &Error{Line: l, Column: c, Reason: fmt.Sprintf(format, args...)}
	}
	if off := overElements(data, MaxElements); off >= 0 {
		return fail(int64(off), "the record holds more than %d objects and strings; no game needs that many, so it was not decoded", MaxElements)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fail(se.Offset-1, "%v", se)
		case errors.As(err, &te):
			return fail(te.Offset-1, "%s: want a JSON %s, not %s", te.Field, te.Type, te.Value)
		case errors.Is(err, io.EOF):
			return fail(0, "empty record")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fail(int64(len(data)), "the record ends early")
		}
		return fail(dec.InputOffset(), "%v", err)
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return fail(int64(len(data)-len(rest)), "data after the record")
	}
	field := func(name string) int64 {
		if i := bytes.Index(data, []byte(`"`+name+`"`)); i >= 0 {
			return int64(i)
		}
		return 0
	}
	switch {
	case r.Format != FormatName:
		return fail(field("format"), "format %s: want %q", game.Quote(r.Format), FormatName)
	case r.Game == "":
		return fail(field("game"), "game is required")
	case r.Start != "" && len(r.Options) > 0:
		return fail(field("options"), "options are for a new game; a record with a start has none")
	case len(r.Moves) > MaxMoves:
		return fail(field("moves"), "%d moves; at most %d", len(r.Moves), MaxMoves)
	}
	if r.Seed != "" {
		if _, err := strconv.ParseUint(r.Seed, 10, 64); err != nil {
			return fail(field("seed"), "seed %s: want a decimal number 0..2^64-1", game.Quote(r.Seed))
		}
	}
	for i, m := range r.Moves {
		if m == "" {
			return fail(field("moves"), "move %d is empty", i)
		}
	}
	if r.Moves == nil {
		r.Moves = []string{}
	}
	return r, nil
}

// formatV1 is Format as it was with encoding/json's encoder.
func formatV1(r Record) ([]byte, error) {
	r.Format = FormatName
	if r.Moves == nil {
		r.Moves = []string{}
	}
	if len(r.Options) > 0 {
		var c bytes.Buffer
		if err := json.Compact(&c, r.Options); err != nil {
			return nil, fmt.Errorf("record: options are not JSON: %w", err)
		}
		r.Options = c.Bytes()
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return buf.Bytes(), nil
}

// jsonCorpus are records and near-records that exercise encoding/json's
// rules: case-folded and repeated names, nulls, every wrong kind in every
// field, numbers that are no int, escapes, invalid UTF-8, text around the
// value.
var jsonCorpus = []string{
	`{"format":"gamerules-record/1","game":"backgammon","moves":["roll 3-1","8/5 6/5"],"result":{"finished":true,"winner":0,"points":[1,0],"detail":"single"},"tags":{"event":"x","white":"é"}}`,
	`{"format":"gamerules-record/1","game":"abalone","start":"s","options":{"a": [1, 2 ,{"b" : "\u0041"}]},"seed":"12","moves":[]}`,
	"  \n{\"FORMAT\":\"gamerules-record/1\",\"Game\":\"labyrinth\",\"ſeed\":\"7\",\"MOVES\":[\"a\"],\"TAGS\":{\"k\":\"v\"}} \n",
	`{"format":"gamerules-record/1","format":"x","game":"g","game":null,"moves":["a"],"moves":["b","c"],"tags":{"a":"1"},"tags":{"b":"2","a":"3"},"result":{"finished":true},"result":{"points":[2]}}`,
	`{"format":1}`, `{"game":true}`, `{"start":[]}`, `{"seed":{}}`, `{"moves":"x"}`, `{"moves":[1,"a",2]}`, `{"moves":[null,"a"]}`, `{"moves":{}}`,
	`{"result":{"points":[1.5]}}`, `{"result":{"winner":"x","points":[1e400]}}`, `{"result":{"winner":1e2}}`, `{"result":{"winner":-0}}`,
	`{"result":{"winner":99999999999999999999}}`, `{"result":{"winner":null,"finished":null,"points":null,"detail":null}}`, `{"result":{"finished":1}}`,
	`{"result":[]}`, `{"result":"x"}`, `{"result":{"x":1}}`, `{"result":{"points":[1,"x"],"winner":"y"}}`, `{"result":{"points":{}}}`,
	`{"tags":{"a":1}}`, `{"tags":[]}`, `{"tags":{"k":null}}`, `{"tags":{"a.b":[1]}}`, `{"tags":"x"}`,
	`{"x":1,"format":2}`, `{"format":2,"x":1}`, `{"for_mat":"a"}`, `{"":1}`, `{"\u00e9":1}`, `{"Result":{"Winner":1,"POINTS":[3]}}`,
	`[1]`, `"s"`, `null`, `1`, `true`, ``, `   `, `{`, `{"format":`, `{"a" 1}`, `{"a":1,}`, `{"format":"a"} x`, `{"format":"a"}{}`, `{"format":"a"}  `,
	`{"moves":["\ud800"]}`, "{\"game\":\"\xff\"}", "{\"game\":\"a\u2028b\u2029c\"}", `{"game":"\u0000\t\n<>&\\\"/"}`, `{"game":"\x01"}`,
	`{"moves":null,"tags":null,"result":null,"options":null,"format":null}`, `{"options":null,"start":"x"}`, `{"options":"str"}`, `{"options":  [1, 2] }`,
	`{"format":"gamerules-record/1","game":"g","seed":"18446744073709551616","moves":[]}`, `{"format":"gamerules-record/1","game":"g","moves":[""]}`,
	`{"format":"gamerules-record/1","game":"g","moves":[],"tags":{"z":"1","a":"2","é":"3","😀":"4","\uffff":"5"}}`,
	`{"format":"gamerules-record/1","game":"g","moves":[],"result":{"finished":false,"points":[]}}`,
	`{"format":"gamerules-record/1","game":"g","moves":[],"options":{"matchLength":5,"x":"\u2028<"}}`,
	`{"format" : "gamerules-record/1" , "game" : "g" , "moves" : [ ] }`,
	`{"format":"gamerules-record/1","game":"g","moves":[],"result":{"finished":true,"winner":1,"points":[0,2],"detail":"gammon"}}`,
	`{"tags":{"a":"b","a":"c"}}`, `{"result":{"points":[1,2]},"result":null}`, `{"moves":[[1],{"a":[]},"x"]}`, `{"result":{"winner":{"a":1}}}`,
	`{"seed":"1"` + "\x00" + `}`, `{"game":"a"}` + "\x00", `{"format":"\ud83d\ude00"}`, `{"format":"\ud83d"}`, `{"format":"\uDE00x"}`, `{"format":"\u12"}`,
	`{"format":tru}`, `{"format":nul}`, `{"format":01}`, `{"format":-}`, `{"format":1.}`, `{"format":.5}`, `{"format":"a"]`, `{"format"}`, `{,}`,
}

// mutate returns s with a random small change: a byte cut, dropped,
// doubled or replaced by one of JSON's structural or awkward bytes.
func mutate(rng *rand.Rand, s string) string {
	if len(s) == 0 {
		return "{"
	}
	b := []byte(s)
	i := rng.IntN(len(b))
	pieces := []string{"{", "}", "[", "]", ",", ":", `"`, "\\", "n", "1", "-", ".", "e", " ", "null", "true", `"x"`, "\xff", "\u2028", "[1]", `{"a":1}`, "0", "ſ", "K"}
	switch rng.IntN(4) {
	case 0:
		return string(b[:i])
	case 1:
		return string(b[:i]) + string(b[i+1:])
	case 2:
		return string(b[:i]) + pieces[rng.IntN(len(pieces))] + string(b[i:])
	default:
		return string(b[:i]) + pieces[rng.IntN(len(pieces))] + string(b[i+1:])
	}
}

// TestJSONAsEncodingJSON checks that jsonio.go reads and writes records as
// encoding/json did: Parse gives the same record or the same error as
// parseV1, and Format the same bytes as formatV1, on the corpus, on
// thousands of its random mutations, and on every prefix of its records.
func TestJSONAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	inputs := append([]string(nil), jsonCorpus...)
	for _, s := range jsonCorpus {
		for i := range len(s) {
			inputs = append(inputs, s[:i])
		}
		for range 300 {
			m := mutate(rng, s)
			inputs = append(inputs, m, mutate(rng, m))
		}
	}
	bad := 0
	for _, in := range inputs {
		got, gerr := Parse([]byte(in))
		want, werr := parseV1([]byte(in))
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q)\n = %#v, %v\nencoding/json: %#v, %v", in, got, gerr, want, werr)
			if bad++; bad > 10 {
				t.Fatal("too many differences")
			}
			continue
		}
		// Format every record a decoding makes, read or not.
		var r Record
		if json.Unmarshal([]byte(in), &r) != nil {
			continue
		}
		gb, gerr := Format(r)
		wb, werr := formatV1(r)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !bytes.Equal(gb, wb) {
			t.Errorf("Format(%#v)\n = %q, %v\nencoding/json: %q, %v", r, gb, gerr, wb, werr)
			if bad++; bad > 10 {
				t.Fatal("too many differences")
			}
		}
	}
	if len(inputs) < 10_000 {
		t.Fatalf("only %d inputs", len(inputs))
	}
}
