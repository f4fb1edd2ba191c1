// Package docs holds the project's documents: the rules specifications the
// engines implement (rules/<game>.md) and the architecture
// (architecture.md). Its test checks that no file of the repository cites a
// path outside it.
//
// | File         | What it holds                                             |
// |--------------|-----------------------------------------------------------|
// | docs.go      | Rules, the rules specifications embedded (package mcp serves them) |
// | docs_test.go | TestNoPathOutsideRepo                                     |
package docs

import "embed"

// Rules holds the rules specifications the engines implement, one file per
// game: rules/<game>.md, named by the game id without underscores
// ("gravity_trap" is rules/gravitytrap.md). Package mcp serves them as
// resources.
//
//go:embed rules/*.md
var Rules embed.FS
