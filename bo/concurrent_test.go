package bo

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/symbo/symbo/bo/problem"
)

// TestRunConcurrent: the package doc says Run is safe to call
// concurrently with different problems or seeds: runs of Recommended's
// configuration (a hedged portfolio whose candidates fit concurrently,
// normalized, ARD) on one problem value and one Config, with two seeds,
// started at once on several goroutines with two workers each, give the
// traces of serial runs bit for bit (run it with -race).
func TestRunConcurrent(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	cfg := must(Recommended(p.Group(), p.BaseShape()))
	cfg.Minimize = !p.Maximize()
	cfg.RawSamples, cfg.Starts, cfg.Workers = 32, 2, 2
	const iters = 3
	run := func(seed uint64) (string, error) {
		tr, err := Run(context.Background(), p, cfg, seed, RunOptions{Iters: iters})
		if err != nil {
			return "", err
		}
		if bo := len(tr.Evaluations) - init0(tr); bo != iters {
			return "", fmt.Errorf("seed %d: %d acquisition steps, want %d", seed, bo, iters)
		}
		return traceJSON(t, tr), nil
	}
	seeds := []uint64{1, 2, 1, 2}
	want := map[uint64]string{}
	for _, s := range seeds[:2] {
		want[s] = must(run(s))
	}
	errs := make([]error, len(seeds))
	var wg sync.WaitGroup
	for i, s := range seeds {
		wg.Go(func() {
			got, err := run(s)
			if err == nil && got != want[s] {
				err = fmt.Errorf("run %d (seed %d): trace differs from the serial run's", i, s)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
