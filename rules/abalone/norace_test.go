//go:build !race

package abalone

const raceEnabled = false
