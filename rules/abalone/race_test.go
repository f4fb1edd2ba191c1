//go:build race

package abalone

// raceEnabled skips the allocation counts, which the race detector changes.
const raceEnabled = true
