package main

import (
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/server"
)

// gcPercent returns the collector's target (Go has no getter: setting
// returns the old value, which is set back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestGCSettings: --gc-percent and --memory-limit-mib (and their
// variables) are read and checked, and set the process's collector unless
// Go's own GOGC / GOMEMLIMIT are set.
func TestGCSettings(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cfg, _, err := parseConfig(nil, env(), io.Discard)
	if err != nil || cfg.GCPercent != 400 || cfg.MemoryLimitMiB != 256 {
		t.Fatalf("defaults: %+v %v", cfg, err)
	}
	cfg, _, err = parseConfig([]string{"--memory-limit-mib", "0"}, env("GAMERULES_GC_PERCENT", "150"), io.Discard)
	if err != nil || cfg.GCPercent != 150 || cfg.MemoryLimitMiB != 0 {
		t.Fatalf("env and flag: %+v %v", cfg, err)
	}
	for _, args := range [][]string{{"--gc-percent", "10"}, {"--gc-percent", "20000"}, {"--memory-limit-mib", "-1"}, {"--memory-limit-mib", "1"}, {"--memory-limit-mib", "9007199254740992"}} {
		if _, _, err := parseConfig(args, env(), io.Discard); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: err %v; want a refusal naming the flag", args, err)
		}
	}

	oldGC, oldLimit := gcPercent(), debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(oldGC); debug.SetMemoryLimit(oldLimit) }()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)
	setGC(server.Options{GCPercent: 300, MemoryLimitMiB: 128}, env())
	if gcPercent() != 300 || debug.SetMemoryLimit(-1) != 128<<20 {
		t.Errorf("after setGC: GC %d, limit %d; want 300 and 128 MiB", gcPercent(), debug.SetMemoryLimit(-1))
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)
	setGC(server.Options{GCPercent: 300, MemoryLimitMiB: 128}, env("GOGC", "50", "GOMEMLIMIT", "1GiB"))
	if gcPercent() != 100 || debug.SetMemoryLimit(-1) != 1<<40 {
		t.Errorf("with GOGC and GOMEMLIMIT set: GC %d, limit %d; want them left to Go", gcPercent(), debug.SetMemoryLimit(-1))
	}
}
