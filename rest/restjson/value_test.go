//go:build go1.27

package restjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestReadValueAsDecode checks that readValue reads a value as
// json.Decoder.Decode into a json.RawMessage did, at the top of a body
// (oneJSONValue) and inside an object (the reader's well-known types): the
// same error text and syntax error offset, the same null, the same end, on
// bodies and thousands of random mutations of them.
func TestReadValueAsDecode(t *testing.T) {
	if _, _, err := readValue([]byte("{,}")); err == nil {
		t.Fatal("readValue took {,}")
	}
	corpus := []string{
		`{"game":"backgammon","state":{"text":"4HPwATDgc/ABMA:MIEFAAAAAAAE"}}`,
		`{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00","d":-1.5e+300,"e":true}`,
		`[null, {"x": [[], {}]}, "s", 1e400]`, `null`, `"x"`, `  {"readMask": "moves,state"}  `, `{"f":{"paths":["a"]}}`,
	}
	pieces := []string{"{", "}", "[", "]", ",", ":", "::", ",,", ": ,", " : ", `"`, "\\", "n", "1", "-", ".", "e", " ", "null", "tru", "\xff", "\x00", `\u12`, `"k":`, "01"}
	rng := rand.New(rand.NewPCG(22, 2))
	var inputs []string
	for _, s := range corpus {
		inputs = append(inputs, s)
		for i := range len(s) {
			inputs = append(inputs, s[:i])
		}
		for range 2000 {
			b := []byte(s)
			i := rng.IntN(len(b))
			p := pieces[rng.IntN(len(pieces))]
			switch rng.IntN(3) {
			case 0:
				inputs = append(inputs, string(b[:i])+string(b[i+1:]))
			case 1:
				inputs = append(inputs, string(b[:i])+p+string(b[i:]))
			default:
				inputs = append(inputs, string(b[:i])+p+string(b[i+1:]))
			}
		}
	}
	for _, in := range inputs {
		for _, around := range [][3]string{{"", "", ""}, {`{"k": `, `, "z": 1}`, "2"}, {`[ `, `, 1]`, "1"}, {`[1, `, `]`, "2"}} {
			body := around[0] + in + around[1]
			nested := around[0] != ""
			tokens := map[string]int{"": 0, "1": 1, "2": 2}[around[2]]
			run := func(mine bool) string {
				dec := json.NewDecoder(bytes.NewReader([]byte(body)))
				dec.UseNumber()
				base := int64(0)
				if nested {
					for range tokens { // '{' and "k", '[', or '[' and 1
						if _, err := dec.Token(); err != nil {
							return "prefix: " + err.Error()
						}
					}
					if around[0][0] == '[' && !dec.More() { // as the reader's loop over a list
						return "no more"
					}
					base = int64(len(around[0]))
				}
				var null bool
				var err error
				end := int64(-1)
				switch {
				case mine && nested:
					null, err = skipValueAt(dec, []byte(body), int(base), around[0][0] == '[')
					end = dec.InputOffset()
				case mine:
					end, null, err = readValue([]byte(body))
				default:
					var raw json.RawMessage
					err = dec.Decode(&raw)
					null = err == nil && string(raw) == "null"
					end = dec.InputOffset()
				}
				at, ok := syntaxOffset(err)
				s := fmt.Sprintf("null=%v err=%v syntax at %d %v", null, err, at, ok)
				if err == nil {
					s += fmt.Sprintf(" end %d", end)
				}
				return s
			}
			if got, want := run(true), run(false); got != want {
				t.Fatalf("%q:\nskipValue: %s\nDecode:    %s", body, got, want)
			}
		}
	}
}
