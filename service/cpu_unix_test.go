//go:build unix

package service

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used
// so far, or 0 where it cannot be read. A benchmark that pins itself to
// one core (GOMAXPROCS 1) reads its CPU per operation from it, which other
// processes on a loaded machine do not inflate as they do the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
