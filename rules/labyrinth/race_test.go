//go:build race

package labyrinth

// raceEnabled skips the allocation counts, which the race detector changes.
const raceEnabled = true
