// Package parallel runs independent tasks on a bounded number of goroutines.
//
// # Invariants
//
// For calls f(worker, task) with task in [0, n) each exactly once; worker is
// in [0, Workers(workers, n)) and no two concurrent calls share a worker
// index, so f may use per-worker scratch. Tasks are claimed dynamically, so
// results are deterministic only if every task writes outputs it alone owns
// and computes them independently of the other tasks (split by output
// ownership, never reduce in completion order).
//
// # Concurrency
//
// For returns after every task has finished. With one worker (or one task)
// it runs serially on the calling goroutine; otherwise f is called from
// Workers(workers, n) goroutines at once, with distinct worker indices,
// so f must be safe for concurrent calls that share nothing writable but
// what their task or worker index owns. None of the goroutines outlives
// the call.
//
// The package holds two process-wide atomic values: the Dispatches count
// (read by tests) and the SetSerialThreshold override, which changes the
// schedule — never the results — of every caller of SerialThreshold in
// the process while it is set, concurrent callers included.
//
// # Cost
//
// For with w = Workers(workers, n) > 1 starts w goroutines and claims
// each of the n tasks with one atomic add: O(w + n) overhead beyond the n
// calls of f, a few small allocations for the goroutines; serially none.
// Workers, SerialThreshold and Dispatches are O(1).
//
// # Panics
//
// A task that panics on a worker goroutine does not end the process from
// there: the worker stops, the others claim no new task, and For panics
// on the calling goroutine with a *WorkerPanic holding the value and the
// worker's stack — where the caller's recover (the C ABI's guard, a
// test's) sees it, as it sees a panic of the serial path.
//
// # Errors
//
// None: f reports errors through storage it owns (one slot per task).
package parallel

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// dispatches counts the calls of For that ran on more than one goroutine.
var dispatches atomic.Int64

// Dispatches returns the number of calls of For so far that ran on more
// than one goroutine (for tests that must know their code ran in
// parallel).
func Dispatches() int64 { return dispatches.Load() }

// serialOverride, when positive, replaces the work thresholds below which
// callers run serially (see SerialThreshold).
var serialOverride atomic.Int64

// SerialThreshold returns def, the caller's work threshold below which it
// runs serially, unless a test lowered every threshold with
// SetSerialThreshold.
func SerialThreshold(def float64) float64 {
	if v := serialOverride.Load(); v > 0 {
		return float64(v)
	}
	return def
}

// SetSerialThreshold makes SerialThreshold return v (> 0) for every
// caller, so that small inputs take the parallel paths, and returns the
// function that restores the callers' own thresholds. For tests: results
// must not depend on it (the package invariant), only the schedule does.
func SetSerialThreshold(v int64) (restore func()) {
	old := serialOverride.Swap(v)
	return func() { serialOverride.Store(old) }
}

// Workers returns the number of goroutines For uses: workers (0 means
// GOMAXPROCS), at most n and at least 1.
func Workers(workers, n int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if workers < 1 {
		workers = 1
	}
	return workers
}

// For calls f(worker, task) for every task in [0, n) on Workers(workers, n)
// goroutines.
func For(n, workers int, f func(worker, task int)) {
	if n <= 0 {
		return
	}
	w := Workers(workers, n)
	if w == 1 {
		for i := range n {
			f(0, i)
		}
		return
	}
	dispatches.Add(1)
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[WorkerPanic]
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					failed.CompareAndSwap(nil, &WorkerPanic{Value: r, Stack: debug.Stack()})
					next.Store(int64(n)) // the others claim no new task
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(k, i)
			}
		}()
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		panic(p)
	}
}

// WorkerPanic is the value For panics with on its calling goroutine when a
// task panicked on a worker goroutine: the task's panic value and the
// worker's stack at the panic.
type WorkerPanic struct {
	Value any    // what the task panicked with, as recover returned it
	Stack []byte // debug.Stack() of the worker goroutine, taken in its recover
}

// Error describes the task's panic and where it happened.
func (p *WorkerPanic) Error() string {
	return fmt.Sprintf("panic in a parallel task: %v\n%s", p.Value, p.Stack)
}
