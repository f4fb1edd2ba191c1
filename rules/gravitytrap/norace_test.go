//go:build !race

package gravitytrap

const raceEnabled = false
