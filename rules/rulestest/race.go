//go:build race

package rulestest

// RaceEnabled is true when the tests run under the race detector, which
// changes allocation counts (the engines skip those checks) and makes the
// heavy tests several times slower (the engines play fewer games).
const RaceEnabled = true
