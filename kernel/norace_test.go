//go:build !race

package kernel_test

import "testing"

const raceEnabled = false

// skipSerialUnderRace: see race_test.go; without -race the test runs.
func skipSerialUnderRace(*testing.T) {}
