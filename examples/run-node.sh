#!/usr/bin/env bash
# Runs the Node example against a freshly built server on a free loopback
# port: builds .bin/gamerulesd, starts it, installs the example's locked
# dependencies (npm ci) and plays every game to the end. CI runs it where
# Node is present.
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local).
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
go build -o .bin/gamerulesd ./cmd/gamerulesd
log="$(mktemp)"
.bin/gamerulesd --grpc-addr 127.0.0.1:0 --http-addr 127.0.0.1:0 --log-level info >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
addr=""
for _ in $(seq 100); do
  addr="$(grep -o '"grpc_addr":"[^"]*"' "$log" | head -1 | cut -d'"' -f4 || true)"
  [ -n "$addr" ] && break
  sleep 0.1
done
if [ -z "$addr" ]; then
  cat "$log" >&2
  echo "run-node: the server did not start" >&2
  exit 1
fi
(cd examples/node && npm ci --no-audit --no-fund --silent && node play.js --addr "$addr" --game all --seed 1)
