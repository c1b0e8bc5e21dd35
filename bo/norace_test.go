//go:build !race

package bo

const raceEnabled = false
