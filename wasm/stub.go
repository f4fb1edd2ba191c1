//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main outside js/wasm says how to build the command (its code is
// rest/wasmcall, which builds and is tested everywhere).
func main() {
	fmt.Fprintln(os.Stderr, "gamerules.wasm: build with GOOS=js GOARCH=wasm go build ./wasm (from the repository's root; or js/build.sh)")
	os.Exit(2)
}
