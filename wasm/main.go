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
// service in process, with the REST API's JSON (rest/wasmcall).
//
// The same calls are exported as WebAssembly functions, for a loader that
// wants them without syscall/js's callback (a js.FuncOf call costs some
// 20 µs: the scheduler resumes, a goroutine runs the handler, the strings
// are copied across); the npm package's index.js calls them, and replaces
// globalThis.gamerules.call with them:
//
//	gamerules_request(n int32) int32
//	    the address of a buffer of at least n bytes in the module's
//	    memory, where the caller writes the method's name and then the
//	    request's UTF-8 JSON, back to back; valid until the next call of
//	    either function.
//	gamerules_call(methodLen, requestLen int32) int64
//	    answers the request in the buffer (its first methodLen bytes the
//	    method, the next requestLen the request): the answer's UTF-8 JSON
//	    is in the module's memory at the address in the high 32 bits of
//	    the result, its length in bytes in the low 32; valid until the
//	    next call of either function.
package main

import (
	"syscall/js"
	"unsafe"

	"github.com/gamerules/gamerules/rest/wasmcall"
	"github.com/gamerules/gamerules/service"
)

// rules is the service that every call runs.
var rules = service.New()

// keepBuffer is the largest request buffer kept between calls; a larger
// one (a big Batch) is dropped after its call.
const keepBuffer = 1 << 20

var (
	request []byte // gamerules_request's buffer
	answer  []byte // gamerules_call's last answer, kept until the next call
)

// gamerulesRequest is the exported gamerules_request (see the command's
// documentation).
//
//go:wasmexport gamerules_request
func gamerulesRequest(n int32) int32 {
	answer = nil
	if n < 1 {
		n = 1
	}
	if cap(request) < int(n) {
		request = make([]byte, n)
	}
	request = request[:n]
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(request))))
}

// gamerulesCall is the exported gamerules_call (see the command's
// documentation).
//
//go:wasmexport gamerules_call
func gamerulesCall(methodLen, requestLen int32) int64 {
	var name string
	var body []byte
	if methodLen >= 0 && requestLen >= 0 && int64(methodLen)+int64(requestLen) <= int64(len(request)) {
		name = string(request[:methodLen])
		body = request[methodLen : methodLen+requestLen]
	}
	answer = wasmcall.Call(rules, name, body)
	if cap(request) > keepBuffer {
		request = nil
	}
	if len(answer) == 0 {
		return 0
	}
	return int64(uintptr(unsafe.Pointer(unsafe.SliceData(answer))))<<32 | int64(len(answer))
}

func main() {
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
		return string(wasmcall.Call(rules, name, body))
	})
	obj := js.Global().Get("Object").New()
	obj.Set("call", callFn)
	js.Global().Set("gamerules", obj)
	select {} // serve calls until the page or process ends
}
