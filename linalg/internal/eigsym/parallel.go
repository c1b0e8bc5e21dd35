package eigsym

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/symbo/symbo/internal/parallel"
)

// A task that panics while other goroutines run tasks of the same loop
// must not end the process from a goroutine of its own, past the recover
// of Eigen's caller (the C ABI's guard): as internal/parallel.For does,
// every goroutine of a loop, the caller's included, recovers a task's
// panic, the loop stops handing out tasks, and once all of its goroutines
// are done the caller panics with a *parallel.WorkerPanic holding the
// first panic's value and stack. The serial paths (one goroutine) panic
// as the task did.

// workerPanic wraps what recover returned in a *parallel.WorkerPanic with
// the current stack, or returns it as it is when it is one already (a
// nested loop's, whose stack is the task's).
func workerPanic(r any) *parallel.WorkerPanic {
	if p, ok := r.(*parallel.WorkerPanic); ok {
		return p
	}
	return &parallel.WorkerPanic{Value: r, Stack: debug.Stack()}
}

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
// A panic of a task on more than one goroutine reaches the caller as a
// *parallel.WorkerPanic, after every goroutine has stopped.
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
	var failed atomic.Pointer[parallel.WorkerPanic]
	run := func() {
		defer func() {
			if r := recover(); r != nil {
				failed.CompareAndSwap(nil, workerPanic(r))
				next.Store(int64(n)) // the others claim no new task
			}
		}()
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
	if p := failed.Load(); p != nil {
		panic(p)
	}
}

// parallelDo runs f and g, concurrently when par is true (g on a goroutine
// of its own). When par is true, a panic of either reaches the caller as a
// *parallel.WorkerPanic (f's first), after both have returned.
func parallelDo(par bool, f, g func()) {
	if !par {
		f()
		g()
		return
	}
	var wg sync.WaitGroup
	var pf, pg *parallel.WorkerPanic
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				pg = workerPanic(r)
			}
		}()
		g()
	}()
	func() {
		defer func() {
			if r := recover(); r != nil {
				pf = workerPanic(r)
			}
		}()
		f()
	}()
	wg.Wait()
	if pf != nil {
		panic(pf)
	}
	if pg != nil {
		panic(pg)
	}
}

// teamSpins is how many times an idle team helper yields before it
// parks: the spinning is meant to outlast the serial work between two of
// a computation's short parallel loops, so that the helper is still
// awake for the next one (BenchmarkTeamSpin: docs/performance.md, "The
// eigensolver team's spinning").
const teamSpins = 2000

// team is a set of helper goroutines kept awake between the many short
// parallel loops of one computation (the matrix-vector products of the
// tridiagonal reduction, one per column, each short, separated by
// serial work). Spawning goroutines for each loop instead costs a wake-up
// of a parked thread per loop, which in a virtual machine takes about as
// long as the loop: the caller would do all the work. An idle helper
// spins (yielding the processor, so other goroutines still run) for
// teamSpins rounds, then parks until the next loop.
type team struct {
	helpers int
	job     atomic.Pointer[teamJob] // the latest loop
	stop    atomic.Bool
	mu      sync.Mutex
	cond    sync.Cond
	parked  int
	wg      sync.WaitGroup
}

// teamJob is one loop. Each has its own counters, so a helper that is late
// for a loop finds it finished and touches nothing else.
type teamJob struct {
	f      func(t int)
	n      int64
	next   atomic.Int64                         // next task
	left   atomic.Int64                         // tasks not finished
	failed atomic.Pointer[parallel.WorkerPanic] // the first task's panic
}

// newTeam starts w−1 helpers (none when w ≤ 1); stop them with close.
func newTeam(w int) *team {
	tm := &team{helpers: max(w-1, 0)}
	tm.cond.L = &tm.mu
	tm.wg.Add(tm.helpers)
	for range tm.helpers {
		go tm.help()
	}
	return tm
}

// For runs f(t) for t = 0…n−1 on the caller and the helpers; each task
// must own its outputs. When a task panics (on the caller or a helper),
// the tasks not yet started are skipped, and once every task is finished
// or skipped For panics with a *parallel.WorkerPanic; the helpers go on
// waiting for loops until close.
func (tm *team) For(n int, f func(t int)) {
	if tm.helpers == 0 || n <= 1 {
		for t := range n {
			f(t)
		}
		return
	}
	j := &teamJob{f: f, n: int64(n)}
	j.left.Store(int64(n))
	tm.job.Store(j)
	tm.mu.Lock()
	if tm.parked > 0 {
		tm.cond.Broadcast()
	}
	tm.mu.Unlock()
	j.work()
	for j.left.Load() > 0 {
		runtime.Gosched()
	}
	if p := j.failed.Load(); p != nil {
		panic(p)
	}
}

// work runs tasks of j until none is left to claim. After a panic of one
// of them it claims the rest without running them, so that left reaches 0
// and the others soon stop.
func (j *teamJob) work() {
	defer func() {
		if r := recover(); r != nil {
			j.failed.CompareAndSwap(nil, workerPanic(r))
			j.left.Add(-1) // the task that panicked
			for j.next.Add(1)-1 < j.n {
				j.left.Add(-1)
			}
		}
	}()
	for {
		t := j.next.Add(1) - 1
		if t >= j.n {
			return
		}
		j.f(int(t))
		j.left.Add(-1)
	}
}

func (tm *team) help() {
	defer tm.wg.Done()
	var seen *teamJob
	for {
		for spins := 0; tm.job.Load() == seen && !tm.stop.Load(); spins++ {
			if spins < teamSpins {
				runtime.Gosched()
				continue
			}
			tm.mu.Lock()
			tm.parked++
			for tm.job.Load() == seen && !tm.stop.Load() {
				tm.cond.Wait()
			}
			tm.parked--
			tm.mu.Unlock()
		}
		if tm.stop.Load() {
			return
		}
		seen = tm.job.Load()
		seen.work()
	}
}

// close stops the helpers and waits for them to exit.
func (tm *team) close() {
	tm.stop.Store(true)
	tm.mu.Lock()
	tm.cond.Broadcast()
	tm.mu.Unlock()
	tm.wg.Wait()
}
