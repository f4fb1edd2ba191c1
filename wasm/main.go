//go:build js && wasm

// Command gamerules.wasm is the rules service as WebAssembly, for browsers
// and Node: from the repository's root, GOOS=js GOARCH=wasm go build ./wasm
// writes gamerules.wasm (this folder is a module of its own, in the
// repository's go.work, so that its name is not the folder's); js/build.sh
// makes the npm package. It registers globalThis.gamerules.call(method,
// request): method is an RPC's name ("LegalMoves"), request the REST body
// with the path's fields in it ({"game": "backgammon", "state": {...}}), as
// a JSON string or an object (passed through JSON.stringify); the answer is
// a JSON string: the REST answer, or the REST error body (a
// google.rpc.Status). It is synchronous and does not throw. It runs package
// service in process, with the REST API's JSON (internal/wasmcall).
package main

import (
	"syscall/js"

	"github.com/gamerules/gamerules/internal/wasmcall"
	"github.com/gamerules/gamerules/service"
)

func main() {
	s := service.New()
	jsonStringify := js.Global().Get("JSON").Get("stringify")
	callFn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		name, body := "", []byte(nil)
		if len(args) > 0 && args[0].Type() == js.TypeString {
			name = args[0].String()
		}
		if len(args) > 1 {
			switch a := args[1]; a.Type() {
			case js.TypeString:
				body = []byte(a.String())
			case js.TypeObject:
				if s := jsonStringify.Invoke(a); s.Type() == js.TypeString {
					body = []byte(s.String())
				}
			}
		}
		return string(wasmcall.Call(s, name, body))
	})
	obj := js.Global().Get("Object").New()
	obj.Set("call", callFn)
	js.Global().Set("gamerules", obj)
	select {} // serve calls until the page or process ends
}
