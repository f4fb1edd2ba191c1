//go:build js && wasm

package service

import "google.golang.org/protobuf/proto"

// vtSize is size_vt.go's for the WebAssembly build: no generated sizer, so
// that none is linked; sizeOf uses proto.Size, which counts the same bytes.
func vtSize(proto.Message) (int, bool) { return 0, false }
