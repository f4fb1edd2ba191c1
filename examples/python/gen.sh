#!/usr/bin/env bash
# Generates the Python messages and gRPC stubs of the API (and of the Google
# protos it imports, and google/rpc for error details) into examples/python/gen/.
# Needs protoc >= 3.15 (proto3 `optional`), grpc_python_plugin and the
# google/protobuf protos the API imports (descriptor, field_mask); on Debian 12:
#   apt-get install protobuf-compiler protobuf-compiler-grpc libprotobuf-dev python3-grpcio python3-protobuf
# (protoc 3.21.12, grpcio 1.51.1, protobuf 4.21.12). With pip instead:
#   pip install grpcio-tools  and use  python3 -m grpc_tools.protoc  below.
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
out="$top/examples/python/gen"
rm -rf "$out" && mkdir -p "$out"
cd "$top"
protoc -I proto -I third_party \
  --python_out="$out" --grpc_out="$out" --plugin=protoc-gen-grpc="$(command -v grpc_python_plugin)" \
  $(cd proto && ls gamerules/v1/*.proto)
# Every vendored Google proto (google/api: annotations, http, field_behavior,
# httpbody, which RenderState returns; google/rpc: the error details), so that
# a new import of the API's protos needs no change here. google/protobuf
# (field_mask, any, duration) comes with the protobuf runtime.
protoc -I third_party --python_out="$out" $(cd third_party && ls google/api/*.proto google/rpc/*.proto)
echo "examples/python/gen/ generated"
