//go:build !go1.27

package restjson

import (
	"bytes"
	"encoding/json"
	"errors"
)

// readValue is value.go's, by json.Decoder.Decode (before Go 1.27, which
// has encoding/json/jsontext).
func readValue(b []byte) (end int64, null bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var jse *json.SyntaxError
		if errors.As(err, &jse) {
			return 0, false, &syntaxError{msg: jse.Error(), offset: jse.Offset}
		}
		return 0, false, err
	}
	return dec.InputOffset(), string(raw) == "null", nil
}

// readValueAfter is value.go's; json.Decoder's errors do not depend on
// where the value is.
func readValueAfter(_ string, b []byte) (end int64, null bool, err error) { return readValue(b) }

// syntaxOffset is value.go's.
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

// syntaxError is value.go's; readValue here returns json.SyntaxError.
type syntaxError struct {
	msg    string
	offset int64
}

func (e *syntaxError) Error() string { return e.msg }
