#!/usr/bin/env bash
# Per call at the physical floor (issue 35): builds gamerulesd and the three
# transport floors of bench/floor (a bare grpc-go health server; a
# same-bytes gRPC server that answers every captured call with gamerulesd's
# own encoded answer; and its REST twin, a bare net/http server answering
# every captured REST call with gamerulesd's own status, headers and JSON
# body), runs them side by side in interleaved rounds with a Go load client
# (bench/floor, 50 concurrent on one connection; REST 50 keep-alive
# connections) and prints the table of server CPU per call against the
# floors, with spreads and the issue's targets, and the REST floor against
# the gRPC floor (the transport-only ratio). Needs only Go and bash.
#
# Usage:
#   bench/floor.sh            3 rounds of 1 s runs (about 4 minutes on 2 cores)
#   bench/floor.sh --short    1 round of 0.25 s runs (< 1 minute): checks it all works
#   bench/floor.sh --capture FILE   gamerulesd's answers to a wide request set, for cmp
# Environment: FLOOR_SERVER, a gamerulesd binary to measure instead of
# building the working tree's; FLOOR_ROUNDS, FLOOR_DURATION, FLOOR_C;
# FLOOR_SERVER_FLAGS, extra gamerulesd flags.
export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.3}
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rounds=${FLOOR_ROUNDS:-3} duration=${FLOOR_DURATION:-1s} extra=()
case "${1:-}" in
  --short) rounds=1 duration=250ms ;;
  --capture) extra=(-capture "${2:?usage: bench/floor.sh --capture FILE}") ;;
  "") ;;
  *) echo "usage: bench/floor.sh [--short | --capture FILE]" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
server=${FLOOR_SERVER:-}
if [ -z "$server" ]; then
  go build -o "$tmp/gamerulesd" ./cmd/gamerulesd
  server="$tmp/gamerulesd"
fi
go build -o "$tmp/" ./bench/floor ./bench/floor/bare ./bench/floor/samebytes ./bench/floor/samebytesrest
exec "$tmp/floor" -server "$server" -bare "$tmp/bare" -samebytes "$tmp/samebytes" -samebytesrest "$tmp/samebytesrest" \
  -rounds "$rounds" -duration "$duration" -c "${FLOOR_C:-50}" \
  -server-flags "${FLOOR_SERVER_FLAGS:-}" -clock-ticks "$(getconf CLK_TCK 2>/dev/null || echo 100)" "${extra[@]}"
