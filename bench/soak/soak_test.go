package main

import (
	"testing"
	"time"
)

// TestShortSoak is the always-run short version of the soak: 1 s of
// capacity measurement, then 3 s at 50% of it, with 0 unexpected answers
// and the RSS within 20% (run returns an error otherwise). Other test
// packages share the CPU meanwhile, so requests refused as overloaded are
// reported, not failed; the full soak (`go run ./bench/soak`, 60 s at 80%)
// fails on them.
func TestShortSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the soak builds and runs a server")
	}
	if err := run(3*time.Second, 0.5, time.Second, false); err != nil {
		t.Fatal(err)
	}
}
