//go:build !(js && wasm)

package service

import "google.golang.org/protobuf/proto"

// vtSize is m's protobuf size by vtprotobuf's generated sizer (SizeVT,
// faster than proto.Size), and whether m has one. The WebAssembly build has
// none (size_wasm.go): calling SizeVT through an interface links every
// message's sizer, 23 KB of the gzipped wasm, for Batch's answer budget
// only.
func vtSize(m proto.Message) (int, bool) {
	if v, ok := m.(interface{ SizeVT() int }); ok {
		return v.SizeVT(), true
	}
	return 0, false
}
