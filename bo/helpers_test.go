package bo

import (
	"context"
	"encoding/json"
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
