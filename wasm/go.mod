// The WebAssembly command, a module of its own so that its default output
// name is gamerules.wasm, not the folder's name "wasm" (which "go build"
// refuses to overwrite): from the repository's root, with go.work,
//
//	GOOS=js GOARCH=wasm go build ./wasm
//
// writes gamerules.wasm. Its code is the main module's rest/wasmcall.
module github.com/gamerules/gamerules/gamerules.wasm

go 1.26.0

toolchain go1.27.3

require github.com/gamerules/gamerules v0.0.0-00010101000000-000000000000

require (
	github.com/planetscale/vtprotobuf v0.6.1-0.20240319094008-0393e58bdf10 // indirect
	golang.org/x/sys v0.49.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20261110000943-09e21b237f2c // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261110000943-09e21b237f2c // indirect
	google.golang.org/grpc v1.85.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/gamerules/gamerules => ../
