#!/usr/bin/env bash
# Runs every client example as examples/README.md documents it, against one
# freshly built server on free loopback ports, each to the end of every game:
#   - Python: examples/python/gen.sh, then play.py --game all (Debian's
#     python3-grpcio and python3-protobuf, protoc and grpc_python_plugin;
#     installed with apt-get when absent and this runs as root);
#   - Go: go run ./examples/go --game all;
#   - Node: npm ci, then node play.js --game all (skipped without Node/npm,
#     as before in CI);
#   - TypeScript from /openapi.json: examples/openapi-ts/run.sh generates a
#     client with openapi-typescript-codegen and calls GET :render and POST
#     :legalMoves through it (skipped with Node).
# .ci/run calls it. Set GAMERULES_SKIP_PYTHON=1 to leave the Python example
# out on a machine without Debian's packages.
export GOTOOLCHAIN=go1.27.3 # go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local)
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
say() { printf -- '--- examples: %s\n' "$*"; }

# Debian's interpreter: python3-grpcio and python3-protobuf install for
# /usr/bin/python3, which a pyenv or venv python3 on PATH would not see.
py="${PYTHON:-/usr/bin/python3}"
[ -x "$py" ] || py="$(command -v python3 || true)"

python_ready() {
  command -v protoc >/dev/null && command -v grpc_python_plugin >/dev/null &&
    [ -e /usr/include/google/protobuf/descriptor.proto ] &&
    [ -n "$py" ] && "$py" -c 'import grpc, google.protobuf' 2>/dev/null
}

if [ "${GAMERULES_SKIP_PYTHON:-}" != 1 ] && ! python_ready; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian's protoc, grpc_python_plugin, python3-grpcio, python3-protobuf"
    # libprotobuf-dev holds google/protobuf/*.proto (descriptor, field_mask),
    # which protoc needs for the API's imports; protobuf-compiler does not.
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends python3-grpcio python3-protobuf protobuf-compiler \
      protobuf-compiler-grpc libprotobuf-dev >/dev/null ||
      { apt-get update >/dev/null && apt-get install -y --no-install-recommends python3-grpcio \
        python3-protobuf protobuf-compiler protobuf-compiler-grpc libprotobuf-dev >/dev/null; }
    py=/usr/bin/python3
  fi
  if ! python_ready; then
    echo "examples: the Python example needs protoc, grpc_python_plugin, libprotobuf-dev and python3-grpcio (see examples/python/gen.sh); set GAMERULES_SKIP_PYTHON=1 to skip it" >&2
    exit 1
  fi
fi

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
  echo "examples: the server did not start" >&2
  exit 1
fi

# The games the server lists (ListGames: GET /v1/games on its HTTP port,
# read with bash's /dev/tcp, so no HTTP client is needed): the examples'
# --game all must play each of them.
http="$(grep -o '"http_addr":"[^"]*"' "$log" | head -1 | cut -d'"' -f4 || true)"
games=()
if [ -n "$http" ] && exec 3<>"/dev/tcp/${http%:*}/${http##*:}"; then
  printf 'GET /v1/games HTTP/1.0\r\nHost: %s\r\n\r\n' "$http" >&3
  mapfile -t games < <(grep -o '"id":"[^"]*"' <&3 | cut -d'"' -f4)
  exec 3<&-
fi
if [ "${#games[@]}" -eq 0 ]; then
  cat "$log" >&2
  echo "examples: the server listed no games (GET /v1/games on ${http:-its HTTP port})" >&2
  exit 1
fi
say "the server lists ${games[*]}"

# Each example prints one "<game>: finished after ..." line per game it
# played to the end; every listed game must be there.
check() {
  local name="$1" out="$2" g
  for g in "${games[@]}"; do
    if ! grep -q "^$g: finished after " <<<"$out"; then
      echo "$out" | tail -20 >&2
      echo "examples: the $name example did not finish $g" >&2
      exit 1
    fi
  done
  grep -v '^[0-9]*\. ' <<<"$out"
}

if [ "${GAMERULES_SKIP_PYTHON:-}" != 1 ]; then
  say "Python ($("$py" --version 2>&1), $(protoc --version))"
  examples/python/gen.sh
  check Python "$("$py" examples/python/play.py --addr "$addr" --game all --seed 1)"
fi

say "Go"
check Go "$(go run ./examples/go --addr "$addr" --game all --seed 1)"

if command -v node >/dev/null && command -v npm >/dev/null; then
  say "Node ($(node --version))"
  out="$(cd examples/node && npm ci --no-audit --no-fund --silent && node play.js --addr "$addr" --game all --seed 1)"
  check Node "$out"
  # The REST API through a client generated from the server's own
  # /openapi.json (issue 34: GET :render callable without dummy values).
  say "TypeScript client generated from /openapi.json (openapi-typescript-codegen)"
  examples/openapi-ts/run.sh "http://$http"
else
  say "Node.js not present: the Node and generated TypeScript examples skipped"
fi
say "all ran to the end of every game"
