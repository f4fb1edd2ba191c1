//go:build tools

// Package vuln pins the vulnerability check that scripts/vulncheck.sh runs:
// govulncheck, and the Go vulnerability database's source (x/vulndb), whose
// cmd/indexdb builds the local database govulncheck reads (its online
// database is not reachable from here). A module of its own because x/vulndb
// pulls many dependencies that must not reach the main module or tools/.
package vuln

import (
	_ "golang.org/x/vuln/cmd/govulncheck"
	_ "golang.org/x/vulndb/cmd/indexdb"
)
