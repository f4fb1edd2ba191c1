//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main outside js/wasm says how to build the command: the package's code
// (call.go) builds everywhere, so that its tests run natively.
func main() {
	fmt.Fprintln(os.Stderr, "wasm: build with GOOS=js GOARCH=wasm go build -o gamerules.wasm ./wasm (or js/build.sh)")
	os.Exit(2)
}
