#!/usr/bin/env bash
# Side-by-side load benchmark of two commits (issue 18: a move must not
# change what a call costs): builds gamerulesd at BEFORE (a git revision,
# e.g. the commit before a change) and at the working tree, then runs
# bench/runner on them in turn, BENCH_AB_PAIRS times (default 3), each run
# one round, so that the machine's drift falls on both alike; prints the
# comparison (go run ./bench/compare). Needs only Go, bash and git.
#
# Usage: bench/ab.sh BEFORE_REV        e.g. bench/ab.sh 1d15be7
# Raw results: bench/results/ab/{before,after}-N.json (gitignored).
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local),
# for both builds alike, so that the two differ only by their commit.
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rev=${1:?usage: bench/ab.sh BEFORE_REV}
bin="$root/bench/.bin"
mkdir -p "$bin"
if [ ! -x "$bin/ghz" ] || [ "$(cat "$bin/ghz.version" 2>/dev/null)" != v0.120.0 ]; then
  GOBIN="$bin" go install github.com/bojand/ghz/cmd/ghz@v0.120.0 && echo v0.120.0 > "$bin/ghz.version"
fi
if [ ! -x "$bin/hey" ] || [ "$(cat "$bin/hey.version" 2>/dev/null)" != v0.1.5 ]; then
  GOBIN="$bin" go install github.com/rakyll/hey@v0.1.5 && echo v0.1.5 > "$bin/hey.version"
fi
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/before-tree" 2>/dev/null || true; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/before-tree" "$rev"
(cd "$tmp/before-tree" && go build -o "$tmp/gamerulesd-before" ./cmd/gamerulesd)
go build -o "$tmp/gamerulesd-after" ./cmd/gamerulesd
go build -o "$tmp/runner" ./bench/runner
out="$root/bench/results/ab"
mkdir -p "$out"
rm -f "$out"/before-*.json "$out"/after-*.json
for i in $(seq 1 "${BENCH_AB_PAIRS:-3}"); do
  for v in before after; do
    echo "run $i: $v ..." >&2
    "$tmp/runner" -server "$tmp/gamerulesd-$v" -ghz "$bin/ghz" -hey "$bin/hey" -rounds 1 \
      -duration "${BENCH_DURATION:-1s}" -c "${BENCH_CONCURRENCY:-50}" -out "$out/$v-$i.json" \
      -commit "$v-$i" -clock-ticks "$(getconf CLK_TCK 2>/dev/null || echo 100)" >/dev/null
  done
done
go run ./bench/compare -before "$out/before-*.json" -after "$out/after-*.json"
