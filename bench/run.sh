#!/usr/bin/env bash
# Load benchmark of gamerulesd (issue 10): builds the server, installs the
# pinned load tools (ghz, hey) into bench/.bin, starts the server on free
# 127.0.0.1 ports and measures every game's LegalMoves (with and without
# results), ApplyMove and Score over gRPC and REST, interleaved with the
# no-op baseline, in BENCH_ROUNDS rounds; prints the Markdown table of
# BENCHMARKS.md and writes the raw samples as JSON. Needs only Go and bash.
#
# Usage (from anywhere in the repository):
#   bench/run.sh            # the full run: 3 rounds, about 5 minutes
#   bench/run.sh --smoke    # 1 round, one request per worker and call: checks that it all works
#   go run ./bench/runner -report bench/baseline/05c4de1.json   # the tables of a results file again
#
# Environment:
#   BENCH_ROUNDS=3                  interleaved rounds
#   BENCH_DURATION=1s               aimed length of one measured run
#   BENCH_CONCURRENCY=50            concurrent requests of ghz and hey
#   BENCH_SERVER_FLAGS="--log-level error"   extra gamerulesd flags (default: only --queue-wait 3s,
#                                   so that queued requests wait rather than being shed; log level info)
#   BENCH_SERVER_LOG=/tmp/gamerulesd.log     keep the server's log (default: discarded)
#   BENCH_OUT=bench/results/latest.json      raw results
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local).
export GOTOOLCHAIN=go1.27.3
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

smoke=()
for a in "$@"; do
  case "$a" in
    --smoke) smoke=(-smoke) ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "bench/run.sh: unknown argument $a (see --help)" >&2; exit 2 ;;
  esac
done

bin="$root/bench/.bin"
mkdir -p "$bin"
# Pinned load tools, installed once (about 50 s the first time).
# (ghz built by go install reports version "dev": a stamp file tells the version.)
if [ ! -x "$bin/ghz" ] || [ "$(cat "$bin/ghz.version" 2>/dev/null)" != v0.120.0 ]; then
  echo "installing ghz v0.120.0 into bench/.bin ..." >&2
  GOBIN="$bin" go install github.com/bojand/ghz/cmd/ghz@v0.120.0
  echo v0.120.0 > "$bin/ghz.version"
fi
if [ ! -x "$bin/hey" ] || [ "$(cat "$bin/hey.version" 2>/dev/null)" != v0.1.5 ]; then
  echo "installing hey v0.1.5 into bench/.bin ..." >&2
  GOBIN="$bin" go install github.com/rakyll/hey@v0.1.5
  echo v0.1.5 > "$bin/hey.version"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "building gamerulesd and the runner ..." >&2
go build -o "$tmp/gamerulesd" ./cmd/gamerulesd
go build -o "$tmp/runner" ./bench/runner

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain 2>/dev/null | grep -v '^??' || true)" ]; then commit="$commit+changes"; fi

"$tmp/runner" -server "$tmp/gamerulesd" -ghz "$bin/ghz" -hey "$bin/hey" \
  -rounds "${BENCH_ROUNDS:-3}" -duration "${BENCH_DURATION:-1s}" -c "${BENCH_CONCURRENCY:-50}" \
  -server-flags "${BENCH_SERVER_FLAGS:-}" -server-log "${BENCH_SERVER_LOG:-}" \
  -out "${BENCH_OUT:-bench/results/latest.json}" -commit "$commit" \
  -clock-ticks "$(getconf CLK_TCK 2>/dev/null || echo 100)" "${smoke[@]}"
