package experiments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// squares is a plan of n runs, run i computing i² (cost i, so that the
// last runs start first), counting its calls.
func squares(n int, calls *atomic.Int64) []Run[int] {
	runs := make([]Run[int], n)
	for i := range runs {
		runs[i] = Run[int]{
			Label: fmt.Sprintf("square %d", i), Cell: "squares", Cost: float64(i),
			Do: func(ctx context.Context) (int, error) {
				calls.Add(1)
				return i * i, ctx.Err()
			},
			Check: func(r int) bool { return r == i*i },
		}
	}
	return runs
}

// TestExecute: results in plan order for any worker count; runs kept
// from before are not run again (and must pass their Check, at an index
// of the plan); OnRun and Progress see each new run once.
func TestExecute(t *testing.T) {
	want := []int{0, 1, 4, 9, 16, 25, 36, 49, 64, 81}
	for _, workers := range []int{1, 3, 16} {
		var calls atomic.Int64
		got, err := Execute(squares(10, &calls), ExecOptions[int]{Workers: workers})
		if err != nil || !slices.Equal(got, want) || calls.Load() != 10 {
			t.Errorf("workers %d: %v, %v, %d calls", workers, got, err, calls.Load())
		}
	}

	var calls atomic.Int64
	var mu sync.Mutex
	var journaled []int
	var reports []Progress
	got, err := Execute(squares(10, &calls), ExecOptions[int]{
		Workers: 2,
		Done:    map[int]int{2: 4, 7: 49},
		OnRun: func(i, r int) error {
			mu.Lock()
			defer mu.Unlock()
			journaled = append(journaled, i)
			return nil
		},
		Progress: func(p Progress) { reports = append(reports, p) },
	})
	slices.Sort(journaled)
	if err != nil || !slices.Equal(got, want) || calls.Load() != 8 || !slices.Equal(journaled, []int{0, 1, 3, 4, 5, 6, 8, 9}) {
		t.Errorf("resumed: %v, %v, %d calls, journaled %v", got, err, calls.Load(), journaled)
	}
	if len(reports) != 9 || reports[0].Done != 2 || reports[0].Resumed != 2 || reports[8].Done != 10 || reports[8].Total != 10 {
		t.Errorf("progress reports %+v", reports)
	}

	for name, done := range map[string]map[int]int{"not this run's": {3: 10}, "outside the plan": {10: 100}, "negative index": {-1: 1}} {
		if _, err := Execute(squares(10, &calls), ExecOptions[int]{Done: done}); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%s: %v, want ErrBadOptions", name, err)
		}
	}
}

// TestExecuteStops: the first failing run (by index) is the error; an
// OnRun error stops the execution; a cancelled context stops it with the
// context's error.
func TestExecuteStops(t *testing.T) {
	boom := errors.New("boom")
	runs := make([]Run[int], 6)
	for i := range runs {
		runs[i] = Run[int]{Label: fmt.Sprint("run ", i), Do: func(context.Context) (int, error) {
			if i >= 3 {
				return 0, fmt.Errorf("failing %d: %w", i, boom)
			}
			return i, nil
		}}
	}
	if _, err := Execute(runs, ExecOptions[int]{Workers: 1}); !errors.Is(err, boom) || err.Error() != "experiments: run 3 (run 3): failing 3: boom" {
		t.Errorf("failing runs: %v", err)
	}
	full := errors.New("disk full")
	if _, err := Execute(runs[:3], ExecOptions[int]{OnRun: func(int, int) error { return full }}); !errors.Is(err, full) {
		t.Errorf("OnRun error: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var started atomic.Int64
	slow := make([]Run[int], 20)
	for i := range slow {
		slow[i] = Run[int]{Do: func(ctx context.Context) (int, error) {
			if started.Add(1) == 2 {
				cancel()
			}
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(time.Millisecond):
				return i, nil
			}
		}}
	}
	if _, err := Execute(slow, ExecOptions[int]{Workers: 2, Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if n := started.Load(); n > 3 {
		t.Errorf("%d runs started after the cancellation, want none", n-2)
	}
}
