//go:build race

package orbit_test

// raceEnabled: sync.Pool drops items at random under the race detector,
// so allocation counts are not asserted there.
const raceEnabled = true
