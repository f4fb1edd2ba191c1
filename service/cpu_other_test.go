//go:build !unix

package service

import "time"

// processCPU is 0 where the process's CPU time is not read (see
// cpu_unix_test.go).
func processCPU() time.Duration { return 0 }
