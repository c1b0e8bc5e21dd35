//go:build race

package bo

// raceEnabled: sync.Pool drops items at random under the race detector
// (the kernel package's scratch pools), so allocation counts are not
// asserted there.
const raceEnabled = true
