//go:build !race

package labyrinth

const raceEnabled = false
