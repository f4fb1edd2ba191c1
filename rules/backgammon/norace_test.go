//go:build !race

package backgammon

const raceEnabled = false
