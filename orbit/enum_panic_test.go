package orbit_test

import (
	"testing"

	"github.com/symbo/symbo/orbit"
)

// panicky is a caller's finite group whose ActTo panics on one point.
type panicky struct{ bareFinite }

func (p panicky) ActTo(dst, x []float64, i int) {
	if x[0] == 7 {
		panic("ActTo of a caller's group")
	}
	p.bareFinite.ActTo(dst, x, i)
}

// TestOrbitsWorkerPanic: a panic of a caller's ActTo on one of Orbits'
// worker goroutines reaches the caller, where it can be recovered (the C
// ABI's guard does), instead of ending the process from the worker.
func TestOrbitsWorkerPanic(t *testing.T) {
	sf, err := orbit.SignFlip(1)
	if err != nil {
		t.Fatal(err)
	}
	g := panicky{bareFinite{sf}}
	// 2 elements in R^1: 16384 points per task, so 40000 points are three
	// tasks, on two workers; the panicking point is in the last task.
	n := 40000
	x := make([]float64, n)
	x[n-1] = 7
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("Orbits returned, want a panic on the caller")
		}
	}()
	orbit.Enumerator{Workers: 2}.Orbits(nil, g, x, n)
}
