//go:build race

package sim_test

// raceDetector: the race detector slows everything five to ten times; the
// big round plays slower so that its players keep their think times.
const raceDetector = true
