package parallel

import (
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
