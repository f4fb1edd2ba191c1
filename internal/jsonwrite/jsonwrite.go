// Package jsonwrite holds the scalar writers of protojson's JSON that the
// REST answers' two writers share: rest/fastjson (by protobuf reflection)
// and the generated gen/go/gamerules/v1/gamerulesv1json (by the Go
// structs, written by tools/protoc-gen-go-fastjson). Each writes a value
// exactly as protojson.MarshalOptions{EmitDefaultValues: true} does
// (internal/encoding/json of google.golang.org/protobuf).
//
// Files:
//
//	jsonwrite.go  AppendString, AppendFloat, AppendBytes, AppendInt64, AppendUint64, SortedKeys, ErrInvalidUTF8
package jsonwrite

import (
	"cmp"
	"encoding/base64"
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// ErrInvalidUTF8 is AppendString's error for a string that is not UTF-8,
// which protojson refuses to write.
var ErrInvalidUTF8 = errors.New("fastjson: string field is not valid UTF-8")

// AppendString writes s quoted as protojson does: ", \ and control
// characters escaped (\b \f \n \r \t, else \u00XX), nothing else; a
// string that is not valid UTF-8 is ErrInvalidUTF8 (b is then returned
// with part of s written).
func AppendString(b []byte, s string) ([]byte, error) {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return b, ErrInvalidUTF8
			}
			i += n
			continue
		}
		if c >= ' ' && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, '\\')
		switch c {
		case '"', '\\':
			b = append(b, c)
		case '\b':
			b = append(b, 'b')
		case '\f':
			b = append(b, 'f')
		case '\n':
			b = append(b, 'n')
		case '\r':
			b = append(b, 'r')
		case '\t':
			b = append(b, 't')
		default:
			b = append(b, 'u')
			b = append(b, "0000"[1+(bits.Len32(uint32(c))-1)/4:]...)
			b = strconv.AppendUint(b, uint64(c), 16)
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"'), nil
}

// AppendFloat is protojson's float writer (internal/encoding/json), which
// follows encoding/json: 'f' format, or 'e' for very small and very large
// magnitudes with a one-digit exponent unpadded; NaN and the infinities as
// strings. bitSize is 32 for a float field, 64 for a double.
func AppendFloat(b []byte, n float64, bitSize int) []byte {
	switch {
	case math.IsNaN(n):
		return append(b, `"NaN"`...)
	case math.IsInf(n, +1):
		return append(b, `"Infinity"`...)
	case math.IsInf(n, -1):
		return append(b, `"-Infinity"`...)
	}
	format := byte('f')
	if abs := math.Abs(n); abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, n, format, -1, bitSize)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendBytes writes a bytes field: standard base64, padded, quoted.
func AppendBytes(b []byte, v []byte) []byte {
	b = append(b, '"')
	return append(base64.StdEncoding.AppendEncode(b, v), '"')
}

// AppendInt64 writes a 64-bit signed integer field: quoted decimal.
func AppendInt64(b []byte, v int64) []byte {
	b = append(b, '"')
	return append(strconv.AppendInt(b, v, 10), '"')
}

// AppendUint64 writes a 64-bit unsigned integer field: quoted decimal.
func AppendUint64(b []byte, v uint64) []byte {
	b = append(b, '"')
	return append(strconv.AppendUint(b, v, 10), '"')
}

// SortedKeys returns m's keys in protojson's order for a map field's
// entries: numbers ascending, strings by code point (Go's byte order,
// for valid UTF-8).
func SortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
