//go:build race

package kernel_test

import "testing"

// raceEnabled: sync.Pool drops items at random under the race detector,
// so allocation counts are not asserted there; and serial value checks,
// which start no goroutine for the detector to watch and cost about ten
// times as much under it, skip themselves there (skipSerialUnderRace).
const raceEnabled = true

// skipSerialUnderRace skips a test that checks values on one goroutine:
// the race detector has nothing to watch in it. make test runs it
// without -race (test-gonum at -cpu 1,4, test-noasm, test-openblas).
func skipSerialUnderRace(t *testing.T) {
	t.Helper()
	t.Skip("a serial value check: run without -race by make test")
}
