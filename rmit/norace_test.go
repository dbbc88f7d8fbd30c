//go:build !race

package rmit_test

// raceDetector says that the tests run under the race detector.
const raceDetector = false
