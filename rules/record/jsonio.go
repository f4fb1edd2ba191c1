//go:build go1.27

package record

import (
	"bytes"
	"encoding/json"
	"encoding/json/jsontext"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// This file reads and writes the record's JSON with encoding/json's
// tokenizer (jsontext) instead of encoding/json's reflection, exactly as
// json.Decoder (DisallowUnknownFields) decoded and json.Encoder
// (SetEscapeHTML(false), SetIndent("", "  ")) wrote a Record: the same
// values, the same errors at the same offsets (TestJSONAsEncodingJSON
// compares them on a corpus and its mutations). encoding/json's
// reflection is most of a megabyte of code in the WebAssembly build
// (wasm/), which links this package for ImportRecord and ExportRecord.

// v1DecodeOptions are json.Decoder's tokenizer options: encoding/json's
// own (DefaultOptionsV1: duplicate names and invalid UTF-8 allowed, its
// historical error offsets).
var v1DecodeOptions = []jsontext.Options{json.DefaultOptionsV1()}

// v1EncodeOptions are json.Encoder's, with SetEscapeHTML(false).
var v1EncodeOptions = []jsontext.Options{json.DefaultOptionsV1(), jsontext.EscapeForHTML(false)}

// decodeError is why decodeRecord could not decode a record, in the kinds
// Parse tells apart: a syntax error (msg, at off, as json.SyntaxError), a
// type error (json.UnmarshalTypeError's Field, Type, Value and Offset), no
// value (io.EOF), a value cut short (io.ErrUnexpectedEOF), or another
// error (an unknown field: msg).
type decodeError struct {
	kind              byte // 's' syntax, 't' type, 'e' EOF, 'u' unexpected EOF, 'o' other
	msg               string
	field, typ, value string
	off               int64
}

func (e *decodeError) Error() string { return e.msg }

// v1SyntaxReplacer is encoding/json's rewording of jsontext's syntax
// errors into its historical words.
var v1SyntaxReplacer = strings.NewReplacer(
	"object name", "object key",
	"at start of value", "looking for beginning of value",
	"at start of string", "looking for beginning of object key string",
	"after object value", "after object key:value pair",
	"in number", "in numeric literal",
)

// decodeRecord decodes the first JSON value of data into a Record as
// json.Decoder.Decode did, and returns the offset after the value (the
// decoder's InputOffset after Decode).
func decodeRecord(data []byte) (Record, int64, *decodeError) {
	var r Record
	dec := jsontext.NewDecoder(bytes.NewReader(data), v1DecodeOptions...)
	val, err := dec.ReadValue()
	if err != nil {
		var se *jsontext.SyntacticError
		switch {
		case errors.As(err, &se):
			if se.Err == io.ErrUnexpectedEOF {
				return r, 0, &decodeError{kind: 'u', msg: io.ErrUnexpectedEOF.Error()}
			}
			msg := se.Err.Error()
			if i := strings.Index(msg, " (expecting"); i >= 0 && !strings.Contains(msg, " in literal") {
				msg = msg[:i]
			}
			return r, 0, &decodeError{kind: 's', msg: v1SyntaxReplacer.Replace(msg), off: se.ByteOffset}
		case errors.Is(err, io.EOF):
			return r, 0, &decodeError{kind: 'e', msg: io.EOF.Error()}
		}
		return r, 0, &decodeError{kind: 'o', msg: err.Error()}
	}
	end := dec.InputOffset()
	v := &valueReader{dec: jsontext.NewDecoder(bytes.NewReader(val), v1DecodeOptions...)}
	v.record(&r)
	if v.err != nil {
		// A type error's offset is in val, not in data, as
		// json.Decoder's (it decodes the value it has read).
		return Record{}, end, v.err
	}
	return r, end, nil
}

// valueReader reads a syntactically valid JSON value into a Record as
// encoding/json did: names matched without regard to case, the last of a
// repeated name winning, null leaving a string, a bool or a number as it
// is, and the first type error or unknown field kept while the rest is
// still read.
type valueReader struct {
	dec *jsontext.Decoder
	err *decodeError
}

// token reads the next token; the value is valid, so it cannot fail.
func (v *valueReader) token() jsontext.Token {
	t, err := v.dec.ReadToken()
	if err != nil {
		panic("record: reading a checked JSON value: " + err.Error())
	}
	return t
}

// kindName is encoding/json's name of the kind of JSON value that starts
// with token kind k.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "bool"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "null"
}

// mismatch records a type error (the first error wins) for a value of
// the wrong kind whose first token t was just read, and skips the rest of
// it.
func (v *valueReader) mismatch(field, typ string, t jsontext.Token) {
	v.typeError(field, typ, kindName(t.Kind()))
	if k := t.Kind(); k == '{' || k == '[' {
		v.skipRest()
	}
}

// typeError records a type error at the decoder's offset, unless an error
// came first.
func (v *valueReader) typeError(field, typ, value string) {
	if v.err == nil {
		v.err = &decodeError{kind: 't', field: field, typ: typ, value: value, off: v.dec.InputOffset(),
			msg: "json: cannot unmarshal " + value + " into " + typ}
	}
}

// skipRest skips the rest of an object or array whose opening token was
// just read.
func (v *valueReader) skipRest() {
	for depth := 1; depth > 0; {
		switch v.token().Kind() {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
}

// skipValue skips one value.
func (v *valueReader) skipValue() {
	if _, err := v.dec.ReadValue(); err != nil {
		panic("record: reading a checked JSON value: " + err.Error())
	}
}

// object reads the members of an object whose '{' was just read, calling
// member with each name; member reads the value, or returns false for an
// unknown name (the value is then skipped and the first error is the
// unknown field's).
func (v *valueReader) object(member func(name string) bool) {
	for v.dec.PeekKind() != '}' {
		name := v.token().String()
		if !member(name) {
			if v.err == nil {
				v.err = &decodeError{kind: 'o', msg: "json: unknown field " + strconv.Quote(name)}
			}
			v.skipValue()
		}
	}
	v.token() // '}'
}

// is reports whether name names the field json (encoding/json matched
// names without regard to case, Unicode's simple folding).
func is(name, json string) bool { return name == json || strings.EqualFold(name, json) }

// record reads a Record. A type error's field is its path with the names
// as the input spells them ("Result.POINTS.0"), as encoding/json's.
func (v *valueReader) record(r *Record) {
	t := v.token()
	switch t.Kind() {
	case 'n':
		return
	case '{':
	default:
		v.mismatch("", "record.Record", t)
		return
	}
	v.object(func(name string) bool {
		switch {
		case is(name, "format"):
			v.str(name, &r.Format)
		case is(name, "game"):
			v.str(name, &r.Game)
		case is(name, "start"):
			v.str(name, &r.Start)
		case is(name, "options"):
			raw, err := v.dec.ReadValue()
			if err != nil {
				panic("record: reading a checked JSON value: " + err.Error())
			}
			r.Options = bytes.Clone(raw)
		case is(name, "seed"):
			v.str(name, &r.Seed)
		case is(name, "moves"):
			v.strings(name, &r.Moves)
		case is(name, "result"):
			v.result(name, &r.Result)
		case is(name, "tags"):
			v.tags(name, &r.Tags)
		default:
			return false
		}
		return true
	})
}

// str reads a string into *s; null leaves it.
func (v *valueReader) str(field string, s *string) {
	switch t := v.token(); t.Kind() {
	case '"':
		*s = t.String()
	case 'n':
	default:
		v.mismatch(field, "string", t)
	}
}

// boolean reads a bool into *b; null leaves it.
func (v *valueReader) boolean(field string, b *bool) {
	switch t := v.token(); t.Kind() {
	case 't', 'f':
		*b = t.Bool()
	case 'n':
	default:
		v.mismatch(field, "bool", t)
	}
}

// integer reads a JSON number that is a whole decimal int into *n; null
// leaves it.
func (v *valueReader) integer(field string, n *int) {
	switch t := v.token(); t.Kind() {
	case '0':
		lit := t.String()
		i, err := strconv.ParseInt(lit, 10, strconv.IntSize)
		if err != nil {
			v.typeError(field, "int", "number "+lit)
			return
		}
		*n = int(i)
	case 'n':
	default:
		v.mismatch(field, "int", t)
	}
}

// strings reads an array of strings into *s (emptied first); null makes
// it nil, a null element "".
func (v *valueReader) strings(field string, s *[]string) {
	readArray(v, field, "[]string", s, v.str)
}

// ints reads an array of ints into *s (emptied first); null makes it nil.
func (v *valueReader) ints(field string, s *[]int) {
	readArray(v, field, "[]int", s, v.integer)
}

// readArray reads an array into *s (emptied first, its elements read by
// elem under field.<index>) as encoding/json fills a slice; null makes it
// nil, another kind is a mismatch with Go type typ.
func readArray[T any](v *valueReader, field, typ string, s *[]T, elem func(string, *T)) {
	switch t := v.token(); t.Kind() {
	case 'n':
		*s = nil
	case '[':
		out := (*s)[:0]
		if out == nil {
			out = []T{}
		}
		for i := 0; v.dec.PeekKind() != ']'; i++ {
			var e T
			elem(field+"."+strconv.Itoa(i), &e)
			out = append(out, e)
		}
		v.token()
		*s = out
	default:
		v.mismatch(field, typ, t)
	}
}

// tags reads an object of strings into *m (kept and added to when not
// nil); null makes it nil.
func (v *valueReader) tags(field string, m *map[string]string) {
	switch t := v.token(); t.Kind() {
	case 'n':
		*m = nil
	case '{':
		if *m == nil {
			*m = map[string]string{}
		}
		for v.dec.PeekKind() != '}' {
			k := v.token().String()
			var s string
			v.str(field+"."+k, &s)
			(*m)[k] = s
		}
		v.token()
	default:
		v.mismatch(field, "map[string]string", t)
	}
}

// result reads a Result into **p (made when nil); null makes it nil.
func (v *valueReader) result(field string, p **Result) {
	t := v.token()
	switch t.Kind() {
	case 'n':
		*p = nil
		return
	case '{':
	default:
		v.mismatch(field, "record.Result", t)
		return
	}
	if *p == nil {
		*p = new(Result)
	}
	res := *p
	v.object(func(name string) bool {
		switch {
		case is(name, "finished"):
			v.boolean(field+"."+name, &res.Finished)
		case is(name, "winner"):
			if v.dec.PeekKind() == 'n' {
				v.token()
				res.Winner = nil
				return true
			}
			w := res.Winner
			if w == nil {
				w = new(int)
			}
			v.integer(field+"."+name, w)
			res.Winner = w
		case is(name, "points"):
			v.ints(field+"."+name, &res.Points)
		case is(name, "detail"):
			v.str(field+"."+name, &res.Detail)
		default:
			return false
		}
		return true
	})
}

// encodeRecord writes r as json.Encoder wrote it: compact, with
// encoding/json's escaping (no HTML escaping; U+2028 and U+2029 escaped),
// then indented by json.Indent, then a newline (Format's caller adds
// neither).
func encodeRecord(r *Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf, v1EncodeOptions...)
	w := func(t jsontext.Token) {
		if err := enc.WriteToken(t); err != nil {
			panic("record: writing JSON: " + err.Error())
		}
	}
	w(jsontext.BeginObject)
	w(jsontext.String("format"))
	w(jsontext.String(r.Format))
	w(jsontext.String("game"))
	w(jsontext.String(r.Game))
	if r.Start != "" {
		w(jsontext.String("start"))
		w(jsontext.String(r.Start))
	}
	if len(r.Options) > 0 {
		w(jsontext.String("options"))
		if err := enc.WriteValue(jsontext.Value(r.Options)); err != nil {
			return nil, err
		}
	}
	if r.Seed != "" {
		w(jsontext.String("seed"))
		w(jsontext.String(r.Seed))
	}
	w(jsontext.String("moves"))
	if r.Moves == nil {
		w(jsontext.Null)
	} else {
		w(jsontext.BeginArray)
		for _, m := range r.Moves {
			w(jsontext.String(m))
		}
		w(jsontext.EndArray)
	}
	if res := r.Result; res != nil {
		w(jsontext.String("result"))
		w(jsontext.BeginObject)
		w(jsontext.String("finished"))
		w(jsontext.Bool(res.Finished))
		if res.Winner != nil {
			w(jsontext.String("winner"))
			w(jsontext.Int(int64(*res.Winner)))
		}
		w(jsontext.String("points"))
		if res.Points == nil {
			w(jsontext.Null)
		} else {
			w(jsontext.BeginArray)
			for _, p := range res.Points {
				w(jsontext.Int(int64(p)))
			}
			w(jsontext.EndArray)
		}
		if res.Detail != "" {
			w(jsontext.String("detail"))
			w(jsontext.String(res.Detail))
		}
		w(jsontext.EndObject)
	}
	if len(r.Tags) > 0 {
		w(jsontext.String("tags"))
		w(jsontext.BeginObject)
		keys := make([]string, 0, len(r.Tags))
		for k := range r.Tags {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			w(jsontext.String(k))
			w(jsontext.String(r.Tags[k]))
		}
		w(jsontext.EndObject)
	}
	w(jsontext.EndObject)
	return buf.Bytes(), nil
}
