#!/usr/bin/env bash
# Generates a TypeScript client from a running server's /openapi.json with
# openapi-typescript-codegen (pinned in package-lock.json; `openapi --client
# fetch --useOptions`), compiles call.ts against it under tsc --strict, and
# runs it: GET :render with the state's text form alone (SVG and text) and
# POST :legalMoves, then a 400. A parameter the document marks required
# without the server needing it fails the compile; a default the server
# refuses fails the call. scripts/examples.sh runs it in CI.
#   examples/openapi-ts/run.sh http://127.0.0.1:8080
set -euo pipefail
base="${1:?usage: run.sh http://HOST:PORT (a running gamerulesd HTTP port)}"
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --silent
rm -rf gen dist
node_modules/.bin/openapi --input "$base/openapi.json" --output gen --client fetch --useOptions
node_modules/.bin/tsc -p tsconfig.json
node dist/call.js "$base"
