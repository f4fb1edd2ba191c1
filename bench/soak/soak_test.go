package main

import (
	"testing"
	"time"
)

// TestShortSoak is the always-run short version of the soak: 1 s of
// capacity measurement, then 3 s at 80% of it, with 0 unexpected answers
// and the RSS within 20% (run returns an error otherwise). The full soak is
// `go run ./bench/soak` (60 s).
func TestShortSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the soak builds and runs a server")
	}
	if err := run(3*time.Second, 0.8, time.Second); err != nil {
		t.Fatal(err)
	}
}
