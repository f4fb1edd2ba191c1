#!/bin/sh
# Rebuilds testdata/backgammon/xgid/gnubg-xgid.jsonl.gz, the XGID oracle
# corpus of TestXGIDGnubg (rules/backgammon): our random playouts' states
# written as XGIDs (TestXGIDDump), read by GNU Backgammon 1.07 ("set xgid",
# Debian's /usr/games/gnubg) and recorded with gnubg's Position ID and
# Match ID; and gnubg-fibs.jsonl.gz, the FIBS board gnubg writes for each
# (TestFIBSBoardGnubg). Needs gnubg; the tests themselves do not.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
GAMERULES_DUMP_XGID="$tmp" go test -count=1 -run '^TestXGIDDump$' ./rules/backgammon
cd testdata/backgammon/xgid
STATES="$tmp" /usr/games/gnubg -t -q -p gnubg-xgid.py > /tmp/gnubg-xgid.log 2>&1 || { tail /tmp/gnubg-xgid.log; exit 1; }
grep '^wrote' /tmp/gnubg-xgid.log
STATES="$tmp" python3 gnubg-fibs.py
