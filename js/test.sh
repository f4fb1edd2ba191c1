#!/usr/bin/env bash
# Tests the WebAssembly build with Node's own test runner: builds the
# package (js/build.sh) and the server, starts the server on free loopback
# ports, writes the README examples as requests (wasm's
# TestCallMatchesREST, GAMERULES_WASM_CASES) and runs `node --test js/test/`:
# the README examples and a whole game of each game, wasm against the
# running server, byte for byte; and the gnubg positions of testdata.
# CI runs it (.ci/run). Needs node and npm (Debian: apt-get install nodejs npm).
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local).
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
js/build.sh
go build -o .bin/gamerulesd ./cmd/gamerulesd
log="$(mktemp)"
cases="$(mktemp)"
.bin/gamerulesd --grpc-addr 127.0.0.1:0 --http-addr 127.0.0.1:0 --log-level info >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log" "$cases"' EXIT
addr=""
for _ in $(seq 100); do
  addr="$(grep -o '"http_addr":"[^"]*"' "$log" | head -1 | cut -d'"' -f4 || true)"
  [ -n "$addr" ] && break
  sleep 0.1
done
if [ -z "$addr" ]; then
  cat "$log" >&2
  echo "js/test.sh: the server did not start" >&2
  exit 1
fi
export GAMERULES_HTTP="http://$addr" GAMERULES_WASM_CASES="$cases"
go test -count=1 -run 'TestCallMatchesREST' ./rest/wasmcall
node --test js/test/
