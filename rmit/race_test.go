//go:build race

package rmit_test

// raceDetector says that the tests run under the race detector, which
// slows them several times over: simulations there run fewer times,
// since what they check is the level, which the runs without it hold.
const raceDetector = true
