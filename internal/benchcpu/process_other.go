//go:build !unix

package benchcpu

import "time"

// Process is 0 where the process's CPU time is not read (see
// process_unix.go).
func Process() time.Duration { return 0 }
