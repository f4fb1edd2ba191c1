#!/usr/bin/env bash
# The fleet test on one machine (bench/fleet): builds gamerulesd, starts
# three replicas on 127.0.0.2-4 and nginx (deploy/nginx) in front, runs a
# steady mixed load from a Go gRPC client with deploy/grpc-service-config.json
# and from REST and gRPC through nginx, through a rolling restart, a kill -9
# and a fourth replica added; fails when a call failed, when the spread over
# the replicas passes 1.3x the mean, or when the added replica did not get
# its share. About 25 s as it is (.ci/run); the README's figures are of
#   scripts/fleet.sh -steady 20s -pause 3s
# Needs nginx (Debian: apt-get install nginx; /usr/sbin/nginx, or -nginx PATH).
export GOTOOLCHAIN=go1.27.3 # go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local)
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o .bin/gamerulesd ./cmd/gamerulesd
exec go run ./bench/fleet -bin .bin/gamerulesd "$@"
