//go:build pprof

package main

import (
	"net/http"
	_ "net/http/pprof" // the profiles, on their own listener
	"os"
)

// With -tags pprof, GAMERULES_PPROF_ADDR (e.g. 127.0.0.1:6060) serves
// net/http/pprof on a listener of its own, for profiling a running server
// under load (bench/floor.sh, issue 35). Never in a default build.
func init() {
	if addr := os.Getenv("GAMERULES_PPROF_ADDR"); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
}
