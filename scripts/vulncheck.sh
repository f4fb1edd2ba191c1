#!/usr/bin/env bash
# Checks the main module for known vulnerabilities that its code can reach:
# govulncheck in source mode, against a local copy of the Go vulnerability
# database (the online one is not reachable from here). Both are pinned in
# tools/vuln: govulncheck, and golang.org/x/vulndb, whose data/osv holds the
# database's reports and whose cmd/indexdb turns them into the database
# govulncheck reads. Tools and database go into .bin/ (first run: about a
# minute; later runs: cached, the scan alone). The standard library checked
# is the one the go command builds with: Go 1.27.3, exported below.
#
# Exits non-zero on any reachable finding (govulncheck's own exit code 3);
# findings only imported or required, never called, are counted in the
# summary (-show verbose lists them), not fatal.
# Arguments are passed to govulncheck (default ./...).
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local).
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
export GOBIN="$top/.bin"
(cd tools/vuln && GOWORK=off go install golang.org/x/vuln/cmd/govulncheck golang.org/x/vulndb/cmd/indexdb)

# The database, built once per pinned x/vulndb version.
read -r src ver < <(cd tools/vuln && GOWORK=off go list -m -f '{{.Dir}} {{.Version}}' golang.org/x/vulndb)
db="$top/.bin/vulndb/$ver"
if [ ! -f "$db/index/db.json" ]; then
  echo "building the vulnerability database from x/vulndb $ver into ${db#"$top"/} ..." >&2
  rm -rf "$db" "$db.tmp"
  mkdir -p "$(dirname "$db")"
  "$GOBIN/indexdb" -vulns "$src/data/osv" -out "$db.tmp"
  mv "$db.tmp" "$db"
fi

echo "govulncheck with $(go env GOVERSION), database x/vulndb $ver" >&2
if [ $# -eq 0 ]; then set -- ./...; fi
"$GOBIN/govulncheck" -db "file://$db" "$@"
