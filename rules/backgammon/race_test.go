//go:build race

package backgammon

// raceEnabled shortens the heavy tests under the race detector, which makes
// them several times slower.
const raceEnabled = true
