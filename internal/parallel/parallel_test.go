package parallel

import (
	"strings"
	"sync/atomic"
	"testing"
)

func TestForEachTaskOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 64, 257} {
		for _, w := range []int{0, 1, 3, 8} {
			counts := make([]atomic.Int32, n)
			busy := make([]atomic.Int32, Workers(w, n))
			For(n, w, func(worker, task int) {
				if busy[worker].Add(1) != 1 {
					t.Errorf("worker %d used concurrently", worker)
				}
				counts[task].Add(1)
				busy[worker].Add(-1)
			})
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("n=%d workers=%d: task %d ran %d times", n, w, i, c)
				}
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	if got := Workers(8, 3); got != 3 {
		t.Errorf("Workers(8, 3) = %d, want 3", got)
	}
	if got := Workers(2, 0); got != 1 {
		t.Errorf("Workers(2, 0) = %d, want 1", got)
	}
	if got := Workers(0, 100); got < 1 {
		t.Errorf("Workers(0, 100) = %d", got)
	}
}

// TestWorkerPanic: a task that panics on a worker goroutine reaches the
// caller's recover as a *WorkerPanic with its value (it ended the process
// from the worker, past every recover: the C ABI's guard included).
func TestWorkerPanic(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		func() {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatalf("workers %d: For returned after a task panicked", workers)
				}
				v := r
				if wp, ok := r.(*WorkerPanic); ok {
					v = wp.Value
					if !strings.Contains(wp.Error(), "task 37") || len(wp.Stack) == 0 {
						t.Errorf("workers %d: %q lacks the value or the stack", workers, wp.Error())
					}
				}
				if v != "task 37" {
					t.Errorf("workers %d: recovered %v, want the task's value", workers, r)
				}
			}()
			For(100, workers, func(_, i int) {
				if i == 37 {
					panic("task 37")
				}
			})
		}()
	}
}
