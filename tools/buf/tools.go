//go:build tools

// Package buf pins the buf CLI. It is a module of its own because buf pulls a
// pre-release google.golang.org/protobuf, which must not leak into the
// protoc plugins (tools/) or the main module.
package buf

import _ "github.com/bufbuild/buf/cmd/buf"
