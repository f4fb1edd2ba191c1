#!/usr/bin/env bash
# Regenerates gen/ from proto/: Go messages, gRPC stubs, the grpc-gateway
# handlers, the REST answers' JSON writer (tools/protoc-gen-go-fastjson, the
# project's own plugin) and the OpenAPI document (completed by internal/openapipatch). The generators are built from the pinned
# versions in tools/ into .bin/ (first run: a minute or two; later runs: cached).
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local).
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
export GOBIN="$top/.bin"
export PATH="$GOBIN:$PATH"
(cd tools && GOWORK=off go install \
  google.golang.org/protobuf/cmd/protoc-gen-go \
  google.golang.org/grpc/cmd/protoc-gen-go-grpc \
  github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway \
  github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2 \
  github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto \
  ./protoc-gen-go-fastjson)
(cd tools/buf && GOWORK=off go install github.com/bufbuild/buf/cmd/buf)
buf lint
rm -rf gen/go
rm -f gen/openapiv2/*.json
buf generate
# Complete the OpenAPI document: required response fields, the game ids,
# the real error responses and an example per route (internal/openapipatch).
go run ./internal/openapipatch/cmd gen/openapiv2/gamerules.swagger.json
echo "gen/ regenerated"
