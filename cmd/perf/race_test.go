//go:build race

package main

// raceEnabled: the race detector slows perf about tenfold, which widens
// the windows the kill and interrupt tests aim at by as much, so they
// keep their short runs there.
const raceEnabled = true
