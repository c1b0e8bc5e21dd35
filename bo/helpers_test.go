package bo

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// kernelOf is ParseKernel for tests; it panics on an error.
func kernelOf(name string, g orbit.Group, s kernel.Shape) Kernel {
	k, err := ParseKernel(name, g, s)
	if err != nil {
		panic(err)
	}
	return k
}

// runP runs the benchmark p with the kernel named name over p's group and
// base shape, in p's direction, for iters acquisition steps.
// The kernel keeps cfg.Kernel's deciding options.
func runP(p *problem.Problem, name string, cfg Config, iters int, seed uint64) (*Trace, error) {
	cfg.Kernel = kernelOf(name, p.Group(), p.BaseShape()).With(cfg.Kernel.Options())
	cfg.Minimize = !p.Maximize()
	return Run(context.Background(), p, cfg, seed, RunOptions{Iters: iters})
}

// sameTraceEverywhere runs runP(p, k, cfg, iters, seed) under GOMAXPROCS
// 1, 4 and 2 with Workers 0, 1 and 7 (cfg.Workers is overridden), fails
// the test on a run's error, reports (named by label) every run whose
// trace differs in its bits from the first's, and returns the first trace
// for the caller's own checks.
func sameTraceEverywhere(t *testing.T, label string, p *problem.Problem, k string, cfg Config, iters int, seed uint64) *Trace {
	t.Helper()
	var ref *Trace
	var refJSON string
	for _, c := range []struct{ procs, workers int }{{1, 0}, {4, 0}, {4, 1}, {2, 7}} {
		old := runtime.GOMAXPROCS(c.procs)
		cfg.Workers = c.workers
		tr, err := runP(p, k, cfg, iters, seed)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if ref == nil {
			ref, refJSON = tr, traceJSON(t, tr)
			continue
		}
		if traceJSON(t, tr) != refJSON {
			t.Errorf("%s: trace differs with GOMAXPROCS=%d Workers=%d", label, c.procs, c.workers)
		}
	}
	return ref
}

// runPOpts is runP with run options (their Iters is set to iters).
func runPOpts(p *problem.Problem, name string, cfg Config, iters int, seed uint64, ro RunOptions) (*Trace, error) {
	cfg.Kernel = kernelOf(name, p.Group(), p.BaseShape()).With(cfg.Kernel.Options())
	cfg.Minimize = !p.Maximize()
	ro.Iters = iters
	return Run(context.Background(), p, cfg, seed, ro)
}

// objectiveOf is the value a maximizing optimizer is told for p: f, or −f
// for the minimization benchmarks.
func objectiveOf(p *problem.Problem, x []float64) (float64, error) {
	v, err := p.Evaluate(x)
	if p.Maximize() {
		return v, err
	}
	return -v, err
}

// isPortfolio reports whether k proposes as a portfolio.
func isPortfolio(k Kernel) bool {
	_, ok := k.proposer().(portfolioProposer)
	return ok
}

// jsonRoundTrip returns h written as JSON and read back, as a History
// saved to a file and restored is.
func jsonRoundTrip(t testing.TB, h History) History {
	t.Helper()
	raw, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var back History
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return back
}
