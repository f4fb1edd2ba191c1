//go:build race

package gravitytrap

// raceEnabled skips the allocation counts, which the race detector changes.
const raceEnabled = true
