#!/usr/bin/env bash
# Issue 21's targets side by side in one run (bench/bulk): builds
# gamerulesd, starts it on free 127.0.0.1 ports, and measures the server
# CPU of Batch, Expand and Playout against the single calls they replace,
# in interleaved rounds; prints each ratio beside its target. About a
# minute and a half on 2 cores. Needs only Go and bash.
#
# Usage: bench/bulk.sh [flags of bench/bulk: -rounds 3 -c 4 -cpu 500ms]
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gamerulesd" ./cmd/gamerulesd
go run ./bench/bulk -server "$tmp/gamerulesd" -clock-ticks "$(getconf CLK_TCK 2>/dev/null || echo 100)" "$@"
