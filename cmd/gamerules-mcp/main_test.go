package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

func TestFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"--version"}, nopCloser{&bytes.Buffer{}}, nopCloser{&out}, &errOut); err != nil || strings.TrimSpace(out.String()) == "" {
		t.Errorf("--version: %v, %q", err, out.String())
	}
	if err := run(context.Background(), []string{"play"}, nopCloser{&bytes.Buffer{}}, nopCloser{&out}, &errOut); err == nil || !strings.Contains(err.Error(), "play") {
		t.Errorf("an argument: %v", err)
	}
	if err := run(context.Background(), []string{"--http", "no-such-host:99999"}, nopCloser{&bytes.Buffer{}}, nopCloser{&out}, &errOut); err == nil {
		t.Error("--http on a bad address: no error")
	}
}

// TestStdioEOF: stdio ends cleanly when the host closes stdin before
// sending anything.
func TestStdioEOF(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), nil, nopCloser{&bytes.Buffer{}}, nopCloser{&out}, &errOut); err != nil {
		t.Errorf("stdio with an empty stdin: %v", err)
	}
}
