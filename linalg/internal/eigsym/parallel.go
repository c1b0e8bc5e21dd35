package eigsym

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// workers returns the number of goroutines to use for w (0 means
// GOMAXPROCS).
func numWorkers(w int) int {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(w, 1)
}

// parallelFor runs f(t) for t = 0…n−1 on at most w goroutines (the
// caller's among them), handing out tasks in index order. Each task must
// own its outputs, so the results do not depend on w or on the schedule.
func parallelFor(n, w int, f func(t int)) {
	w = min(w, n)
	if w <= 1 {
		for t := range n {
			f(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	run := func() {
		for {
			t := int(next.Add(1) - 1)
			if t >= n {
				return
			}
			f(t)
		}
	}
	wg.Add(w - 1)
	for range w - 1 {
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
}

// parallelDo runs f and g, concurrently when par is true.
func parallelDo(par bool, f, g func()) {
	if !par {
		f()
		g()
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		g()
	}()
	f()
	wg.Wait()
}
