// Command cmd completes the generated OpenAPI document in place (see package
// openapipatch): go run ./internal/openapipatch/cmd gen/openapiv2/gamerules.swagger.json
package main

import (
	"fmt"
	"os"

	"github.com/gamerules/gamerules/internal/openapipatch"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/openapipatch/cmd <swagger.json>")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err == nil {
		raw, err = openapipatch.Patch(raw)
	}
	if err == nil {
		err = os.WriteFile(os.Args[1], raw, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
