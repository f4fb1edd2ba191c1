#!/bin/sh
# connflood.sh prints the connection-flood figures of issue 19 against its
# targets: 20,000 connection attempts (100,000 with GAMERULES_LONG=1) to a
# real gamerulesd with the default --max-connections and the manifest's
# --health-addr; health answers ≤ 100 ms throughout, RSS ≤ the documented
# bound (45 MB above idle). Loopback only; about 15 s. The flood runs in a
# child process at nice 19 (the attacker's CPU is not the server's).
set -eu
cd "$(dirname "$0")/.."
echo "ulimit -n: $(ulimit -n) (soft; the test raises it to the hard limit $(ulimit -Hn))"
go test -count=1 -run '^TestConnectionFlood$' -v ./server | grep -E 'connflood_test|^(ok|FAIL|---)'
