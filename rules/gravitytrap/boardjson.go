//go:build go1.27

package gravitytrap

import (
	"bytes"
	"encoding/json"
	"encoding/json/jsontext"
	"fmt"
	"strconv"
)

// builtinDef reads a built-in board's JSON file (boards/*.json: name,
// note, stations, lines, opposite) as json.Unmarshal read it into a
// BoardDef with the name and the note (TestBuiltinJSONAsEncodingJSON), with
// encoding/json's tokenizer rather than its reflection, which is most of a
// megabyte of code in the WebAssembly build (wasm/), which links this
// package. Names are matched exactly and other members skipped: the files
// are the package's own.
func builtinDef(data []byte) (def BoardDef, name, note string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	r := boardReader{jsontext.NewDecoder(bytes.NewReader(data), json.DefaultOptionsV1())}
	r.object(func(key string) {
		switch key {
		case "name":
			name = r.str()
		case "note":
			note = r.str()
		case "stations":
			def.Stations = []Station{}
			r.array(func() {
				var s Station
				r.object(func(key string) {
					switch key {
					case "id":
						s.ID = r.int()
					case "x":
						s.X = r.float()
					case "y":
						s.Y = r.float()
					default:
						r.skip()
					}
				})
				def.Stations = append(def.Stations, s)
			})
		case "lines":
			def.Lines = [][]int{}
			r.array(func() { def.Lines = append(def.Lines, r.ints()) })
		case "opposite":
			def.Opposite = r.ints()
		default:
			r.skip()
		}
	})
	return def, name, note, nil
}

// boardReader reads builtinDef's JSON; a value of another shape panics
// (builtinDef recovers it as its error).
type boardReader struct{ dec *jsontext.Decoder }

func (r boardReader) token(kind jsontext.Kind) jsontext.Token {
	t, err := r.dec.ReadToken()
	if err != nil {
		panic(err)
	}
	if t.Kind() != kind {
		panic(fmt.Sprintf("at byte %d: %v, want %v", r.dec.InputOffset(), t.Kind(), kind))
	}
	return t
}

func (r boardReader) object(member func(key string)) {
	r.token('{')
	for r.dec.PeekKind() != '}' {
		member(r.token('"').String())
	}
	r.token('}')
}

func (r boardReader) array(elem func()) {
	r.token('[')
	for r.dec.PeekKind() != ']' {
		elem()
	}
	r.token(']')
}

func (r boardReader) str() string { return r.token('"').String() }

func (r boardReader) int() int {
	lit := r.token('0').String()
	n, err := strconv.ParseInt(lit, 10, strconv.IntSize)
	if err != nil {
		panic(err)
	}
	return int(n)
}

func (r boardReader) float() float64 {
	f, err := strconv.ParseFloat(r.token('0').String(), 64)
	if err != nil {
		panic(err)
	}
	return f
}

func (r boardReader) ints() []int {
	out := []int{}
	r.array(func() { out = append(out, r.int()) })
	return out
}

func (r boardReader) skip() {
	if _, err := r.dec.ReadValue(); err != nil {
		panic(err)
	}
}
