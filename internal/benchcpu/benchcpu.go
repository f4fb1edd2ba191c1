// Package benchcpu measures a benchmark's CPU per operation: the process's
// CPU time (user and system), which other processes on a shared, loaded
// machine do not inflate as they do the wall time that ns/op reports. The
// service's and bench/floor's in-process benchmarks report it as
// cpu-ns/op (or per ply, per item).
//
// Files:
//
//	benchcpu.go       Run, the one-core loop that reports cpu-ns/op; ProcessOrSkip
//	process_unix.go   Process, from getrusage
//	process_other.go  Process, 0 where it is not read
package benchcpu

import (
	"runtime"
	"testing"
	"time"
)

// Run runs call in b's loop on one core (GOMAXPROCS 1, so that the
// collector's work is in the call's time, as in a busy server) and
// reports, besides ns/op and the allocations, cpu-ns/op: the process's CPU
// per call. A call's error fails b.
func Run(b *testing.B, call func() error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b.ReportAllocs()
	cpu := Process()
	for b.Loop() {
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	if cpu = Process() - cpu; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// ProcessOrSkip is Process for a test that needs it: tb is skipped where
// the process's CPU time is not read.
func ProcessOrSkip(tb testing.TB) time.Duration {
	tb.Helper()
	cpu := Process()
	if cpu == 0 {
		tb.Skip("the process's CPU time is not read here")
	}
	return cpu
}
