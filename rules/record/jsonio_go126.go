//go:build !go1.27

package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Before Go 1.27 (no encoding/json/jsontext), jsonio.go's reader and
// writer are encoding/json's own decoder and encoder.

// decodeError is jsonio.go's.
type decodeError struct {
	kind              byte // 's' syntax, 't' type, 'e' EOF, 'u' unexpected EOF, 'o' other
	msg               string
	field, typ, value string
	off               int64
}

func (e *decodeError) Error() string { return e.msg }

// decodeRecord is jsonio.go's, by json.Decoder.
func decodeRecord(data []byte) (Record, int64, *decodeError) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return Record{}, 0, &decodeError{kind: 's', msg: se.Error(), off: se.Offset}
		case errors.As(err, &te):
			return Record{}, 0, &decodeError{kind: 't', field: te.Field, typ: te.Type.String(), value: te.Value, off: te.Offset, msg: te.Error()}
		case errors.Is(err, io.EOF):
			return Record{}, 0, &decodeError{kind: 'e', msg: err.Error()}
		case errors.Is(err, io.ErrUnexpectedEOF):
			return Record{}, 0, &decodeError{kind: 'u', msg: err.Error()}
		}
		return Record{}, dec.InputOffset(), &decodeError{kind: 'o', msg: err.Error()}
	}
	return r, dec.InputOffset(), nil
}

// encodeRecord is jsonio.go's, by json.Encoder.
func encodeRecord(r *Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
