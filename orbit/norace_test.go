//go:build !race

package orbit_test

const raceEnabled = false
