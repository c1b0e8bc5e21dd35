package eigsym

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/symbo/symbo/internal/parallel"
)

// injected is what the tasks of TestWorkerPanics panic with.
type injected struct{ task int }

// barrier returns a function that blocks until it has been called k times
// in all (at most a few seconds): tasks that call it run on k goroutines
// at once, so that a loop's helpers certainly run some of them.
func barrier(t *testing.T, k int) func() {
	var arrived atomic.Int64
	return func() {
		arrived.Add(1)
		deadline := time.Now().Add(5 * time.Second)
		for arrived.Load() < int64(k) {
			if time.Now().After(deadline) {
				t.Errorf("barrier: %d of %d goroutines arrived", arrived.Load(), k)
				return
			}
			runtime.Gosched()
		}
	}
}

// recoverWorkerPanic runs f and returns the *parallel.WorkerPanic it
// panicked with (failing the test on another panic value or none).
func recoverWorkerPanic(t *testing.T, name string, f func()) (p *parallel.WorkerPanic) {
	t.Helper()
	defer func() {
		r := recover()
		var ok bool
		if p, ok = r.(*parallel.WorkerPanic); !ok {
			t.Errorf("%s: recover() = %#v, want a *parallel.WorkerPanic", name, r)
		}
	}()
	f()
	return nil
}

// TestWorkerPanics: a task that panics on one of the goroutines of
// parallelFor, parallelDo or a team reaches the caller's recover as a
// *parallel.WorkerPanic with the task's value, after every task under way
// has finished (on the old code the panic of a helper goroutine ended the
// test binary, past every recover: the C ABI's guard's included).
func TestWorkerPanics(t *testing.T) {
	const w = 4
	var running atomic.Int64 // tasks under way
	task := func(wait func(), t int) {
		running.Add(1)
		defer running.Add(-1)
		wait()
		panic(injected{t})
	}
	checkValue := func(t *testing.T, name string, p *parallel.WorkerPanic) {
		t.Helper()
		if p == nil {
			return
		}
		if _, ok := p.Value.(injected); !ok {
			t.Errorf("%s: WorkerPanic.Value = %#v, want an injected task's", name, p.Value)
		}
		if len(p.Stack) == 0 {
			t.Errorf("%s: WorkerPanic without a stack", name)
		}
		if n := running.Load(); n != 0 {
			t.Errorf("%s: %d tasks still running after the panic reached the caller", name, n)
		}
	}

	t.Run("parallelFor", func(t *testing.T) {
		// Every task panics once all w goroutines hold one.
		wait := barrier(t, w)
		p := recoverWorkerPanic(t, "parallelFor", func() {
			parallelFor(w, w, func(i int) { task(wait, i) })
		})
		checkValue(t, "parallelFor", p)

		// One panicking task among many: the rest are not started.
		var started atomic.Int64
		p = recoverWorkerPanic(t, "parallelFor (one task)", func() {
			parallelFor(1000, w, func(i int) {
				started.Add(1)
				if i == 1 {
					task(func() {}, i)
				}
				time.Sleep(100 * time.Microsecond)
			})
		})
		checkValue(t, "parallelFor (one task)", p)
		if n := started.Load(); n == 1000 {
			t.Errorf("parallelFor: all 1000 tasks ran after task 1 panicked")
		}
	})

	t.Run("parallelDo", func(t *testing.T) {
		// g, on the goroutine of its own, panics; then f.
		wait := barrier(t, 2)
		p := recoverWorkerPanic(t, "parallelDo (g)", func() {
			parallelDo(true, wait, func() { task(wait, 1) })
		})
		checkValue(t, "parallelDo (g)", p)
		p = recoverWorkerPanic(t, "parallelDo (f)", func() {
			parallelDo(true, func() { task(func() {}, 0) }, func() { time.Sleep(time.Millisecond) })
		})
		checkValue(t, "parallelDo (f)", p)

		// A nested loop's WorkerPanic is passed on as it is.
		inner := recoverWorkerPanic(t, "nested", func() {
			parallelDo(true, func() {}, func() {
				parallelFor(w, w, func(i int) { task(func() {}, i) })
			})
		})
		checkValue(t, "nested", inner)
	})

	t.Run("team", func(t *testing.T) {
		// A team: every task panics once the caller and all helpers hold one;
		// the team then runs the next loop as usual.
		tm := newTeam(w)
		defer tm.close()
		wait := barrier(t, w)
		p := recoverWorkerPanic(t, "team", func() {
			tm.For(w, func(i int) { task(wait, i) })
		})
		checkValue(t, "team", p)
		var sum atomic.Int64
		tm.For(100, func(i int) { sum.Add(int64(i)) })
		if got := sum.Load(); got != 99*100/2 {
			t.Errorf("team after a panic: sum of tasks = %d, want %d", got, 99*100/2)
		}
	})
}
