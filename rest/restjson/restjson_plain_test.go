package restjson

import (
	"errors"
	"testing"
)

// TestPlainProtoError checks protojson's error texts as a REST error
// says them: the "proto: " prefix gone, the position moved to the end, a
// "syntax error" head dropped and any other head kept with ": " (a
// readMask given as an array once read "syntax errorunexpected token [").
func TestPlainProtoError(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"proto: syntax error (line 1:34): unexpected token [", "the request body could not be read: unexpected token [ (line 1:34)"},
		{"proto:\u00a0syntax error (line 1:34): unexpected token {", "the request body could not be read: unexpected token { (line 1:34)"},
		{"proto: (line 1:9): invalid value for int32 field x: 1.5", "the request body could not be read: invalid value for int32 field x: 1.5 (line 1:9)"},
		{"proto: mask (line 2:3): bad path", "the request body could not be read: mask: bad path (line 2:3)"},
		{"proto: unexpected EOF", "the request body could not be read: unexpected EOF"},
	} {
		if got := plainProtoError(errors.New(c.in)); got != c.want {
			t.Errorf("plainProtoError(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := plainProtoError(nil); got != "the request body could not be read" {
		t.Errorf("plainProtoError(nil) = %q", got)
	}
}
