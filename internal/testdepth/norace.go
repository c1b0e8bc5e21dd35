//go:build !race

package testdepth

// raceDetector reports whether the binary was built with -race.
const raceDetector = false
