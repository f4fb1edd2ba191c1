#!/usr/bin/env bash
# Writes api/v1.binpb, the descriptor of the gamerules.v1 API that .ci/run's
# `buf breaking` checks every change against. Run it only to (re)freeze v1 —
# before the freeze is announced, or for a change CHANGELOG.md records as a
# deliberate break — never to make a failing check pass.
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
export GOBIN="$top/.bin"
(cd tools/buf && GOWORK=off go install github.com/bufbuild/buf/cmd/buf)
mkdir -p api
"$GOBIN/buf" build proto -o api/v1.binpb
echo "api/v1.binpb written"
