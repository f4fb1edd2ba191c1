//go:build race

package stacktest

// raceDetector: this test binary runs under the race detector, which makes
// Go code 2 to 20 times slower (the REST gateway's reading of a 500 KB JSON
// body, above all).
const raceDetector = true
