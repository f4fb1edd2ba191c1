//go:build go1.27

package restjson

import (
	"bytes"
	"encoding/json"
	"encoding/json/jsontext"
	"errors"
	"io"
	"strings"
)

// readValue reads the first JSON value of b as json.Decoder.Decode into a
// json.RawMessage did, with encoding/json's tokenizer (jsontext, under
// encoding/json's own options) rather than Decode, whose reflection would
// be most of a megabyte of code in the WebAssembly build: the offset after
// the value, whether it is null, and Decode's error (its text; a syntax
// error's offset by syntaxOffset). TestReadValueAsDecode compares them.
func readValue(b []byte) (end int64, null bool, err error) { return readValueAfter("", b) }

// readValueAfter is readValue of the value b after the tokens of prefix
// (the start of an object or an array: `{""` (b then starts with ':'),
// "[", "[0" (b then starts with ',')), which set the context a syntax
// error is said in; the offsets are in b.
func readValueAfter(prefix string, b []byte) (end int64, null bool, err error) {
	dec := jsontext.NewDecoder(io.MultiReader(strings.NewReader(prefix), bytes.NewReader(b)), json.DefaultOptionsV1())
	for range strings.Count(prefix, "[") + strings.Count(prefix, "{") + strings.Count(prefix, `"`)/2 + strings.Count(prefix, "0") {
		if _, err := dec.ReadToken(); err != nil {
			return 0, false, err // not reached: the prefixes are valid
		}
	}
	v, err := dec.ReadValue()
	if err != nil {
		var se *jsontext.SyntacticError
		switch {
		case errors.As(err, &se):
			if se.Err == io.ErrUnexpectedEOF {
				return 0, false, io.ErrUnexpectedEOF
			}
			// encoding/json's rewording (its transformSyntacticError).
			msg := se.Err.Error()
			if i := strings.Index(msg, " (expecting"); i >= 0 && !strings.Contains(msg, " in literal") {
				msg = msg[:i]
			}
			return 0, false, &syntaxError{msg: v1SyntaxReplacer.Replace(msg), offset: se.ByteOffset - int64(len(prefix))}
		}
		return 0, false, err
	}
	return dec.InputOffset() - int64(len(prefix)), v.Kind() == 'n', nil
}

// syntaxError is a json.SyntaxError as readValue makes one.
type syntaxError struct {
	msg    string
	offset int64 // after the byte that is wrong
}

func (e *syntaxError) Error() string { return e.msg }

// syntaxOffset is the offset of a syntax error of readValue or of a
// json.Decoder (after the byte that is wrong).
func syntaxOffset(err error) (int64, bool) {
	var se *syntaxError
	if errors.As(err, &se) {
		return se.offset, true
	}
	var jse *json.SyntaxError
	if errors.As(err, &jse) {
		return jse.Offset, true
	}
	return 0, false
}

// v1SyntaxReplacer is encoding/json's rewording of jsontext's syntax
// errors into its historical words.
var v1SyntaxReplacer = strings.NewReplacer(
	"object name", "object key",
	"at start of value", "looking for beginning of value",
	"at start of string", "looking for beginning of object key string",
	"after object value", "after object key:value pair",
	"in number", "in numeric literal",
)
