package bo

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/symbo/symbo/gp"
	"math"
	"strings"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestConfigBudget: Config.Budget reaches the optimizer's GPs: a budget
// that holds the raw samples and a GP on the Init points (what New
// checks) but not the GP of the 12 told points (40·12² B) makes Ask fail
// with orbit.ErrOverBudget, while the same study with the default budget
// (0, whatever SYMBO_MEMORY_BUDGET says) proposes a point and one with a
// budget that holds it proposes the same bits. A negative budget is
// ErrBadConfig.
func TestConfigBudget(t *testing.T) {
	t.Setenv("SYMBO_MEMORY_BUDGET", "1KiB")
	g := must(orbit.Hyperoctahedral(2))
	lo, hi := box(2, 1)
	for _, k := range []Kernel{Base(kernel.RBF), Plus(g, kernel.RBF), Avg(g, kernel.RBF)} {
		ask := func(b int64) ([]float64, error) {
			o, err := New(lo, hi, Config{Kernel: k, Init: 3, Budget: b, Workers: 1, Protocol: Protocol{RawSamples: 16, Starts: 2}}, 1)
			if err != nil {
				return nil, err
			}
			for i := range 12 {
				p := []float64{math.Sin(float64(3*i + 1)), math.Cos(float64(5*i + 2))}
				if err := o.Tell(p, p[0]-p[1]*p[1]); err != nil {
					return nil, err
				}
			}
			return o.Ask()
		}
		if _, err := ask(4 << 10); !errors.Is(err, orbit.ErrOverBudget) || !strings.Contains(err.Error(), "observations") {
			t.Errorf("%s, budget 4 KiB: %v, want orbit.ErrOverBudget from the GP", k.Name(), err)
		}
		ref, err := ask(0)
		if err != nil {
			t.Errorf("%s, default budget: %v", k.Name(), err)
			continue
		}
		got, err := ask(1 << 20)
		if err != nil || got[0] != ref[0] || got[1] != ref[1] {
			t.Errorf("%s, budget 1 MiB: %v, %v; default budget: %v", k.Name(), got, err, ref)
		}
	}
	if _, err := New(lo, hi, Config{Budget: -1}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("negative Budget: %v, want ErrBadConfig", err)
	}
}

// countingProblem counts its evaluations.
type countingProblem struct{ n int }

func (p *countingProblem) Name() string                          { return "counting" }
func (p *countingProblem) Bounds() (lo, hi []float64)            { return []float64{-1, -1}, []float64{1, 1} }
func (p *countingProblem) Evaluate(x []float64) (float64, error) { p.n++; return x[0] * x[1], nil }

// TestRunRefusesOverBudgetUpFront: a run whose last fit would exceed the
// memory budget is refused before its first evaluation (perf bo once ran
// 88 evaluations, then stopped at the fit over the budget), and the same
// run under a budget that holds it starts.
func TestRunRefusesOverBudgetUpFront(t *testing.T) {
	for _, k := range []Kernel{Base(kernel.RBF), Plus(must(orbit.SignFlip(2)), kernel.RBF)} {
		p := &countingProblem{}
		cfg := Config{Kernel: k, Budget: 300 << 10, Workers: 1}
		_, err := Run(context.Background(), p, cfg, 1, RunOptions{Iters: 200})
		if !errors.Is(err, orbit.ErrOverBudget) || p.n != 0 {
			t.Errorf("%s: %v after %d evaluations, want orbit.ErrOverBudget before any", k.Name(), err, p.n)
		}
		cfg.Budget = 1 << 20
		if _, err := Run(context.Background(), p, cfg, 1, RunOptions{Iters: 1}); err != nil {
			t.Errorf("%s, 1 MiB: %v", k.Name(), err)
		}
	}
}

// optimumProblem is countingProblem with a declared optimum.
type optimumProblem struct {
	countingProblem
	fs float64
}

func (p *optimumProblem) Optimum() (float64, bool) { return p.fs, true }

// TestRunMemoryLargestStep: Run checks the GPs its steps build, not
// more. The last step's are on Init + Iters − 1 points: a budget of
// exactly a dense GP on 19 points (40·19² B) runs 20 evaluations (it was
// refused for a GP on 20). soft, which sits out of a portfolio above the
// landmark cap, fits at most Landmarks observations: the recommended
// portfolio (nystrom, soft, plus) over 1000 evaluations under 32 MiB —
// its landmark GPs 17 MB, soft's 8 MB at 256 points — starts (it was
// refused for soft on 1000 observations, 120 MB); a plain soft over
// 1000 evaluations is still refused.
func TestRunMemoryLargestStep(t *testing.T) {
	p := &countingProblem{}
	cfg := Config{Kernel: Base(kernel.RBF), Init: 2, Landmarks: -1, Budget: 40 * 19 * 19, Workers: 1, Protocol: Protocol{RawSamples: 8, Starts: 1}}
	if tr, err := Run(context.Background(), p, cfg, 1, RunOptions{Iters: 18}); err != nil || len(tr.Evaluations) != 20 {
		t.Fatalf("20 evaluations under a budget of a GP on 19 points: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sf := must(orbit.SignFlip(2))
	rec := must(ParseKernel(RecommendedKernel, sf, kernel.RBF))
	for _, c := range []struct {
		k    Kernel
		over bool
	}{{rec, false}, {Soft(sf, kernel.RBF), true}} {
		p := &countingProblem{}
		_, err := Run(ctx, p, Config{Kernel: c.k, Budget: 32 << 20, Workers: 1}, 1, RunOptions{Iters: 995})
		if c.over != errors.Is(err, orbit.ErrOverBudget) || !c.over && !errors.Is(err, context.Canceled) || p.n != 0 {
			t.Errorf("%s, 1000 evaluations, budget 32 MiB: %v after %d evaluations, want over budget: %v", c.k.Name(), err, p.n, c.over)
		}
	}
}

// TestRunResumedWholeUnderBudget: a run resumed with every evaluation
// (a checkpoint killed after its last one was kept) replays them and
// fits no GP, so a budget below its last step's GP (one New accepts,
// a byte under that GP's) does not refuse it: it returns the same trace, evaluating
// nothing. It was refused up front for the GP of its last step. Resumed
// short of its last evaluation, it is still refused before evaluating.
func TestRunResumedWholeUnderBudget(t *testing.T) {
	for _, q := range []int{1, 2} {
		cfg := Config{Kernel: Base(kernel.RBF), Init: 2, Workers: 1, Protocol: Protocol{RawSamples: 8, Starts: 1}}
		ro := RunOptions{Iters: 30, Batch: q}
		tr := must(Run(context.Background(), &countingProblem{}, cfg, 1, ro))
		// A budget New accepts (the raw samples, a GP on the Init
		// points) under the last step's GP, on 31 points.
		lo, hi := (&countingProblem{}).Bounds()
		o := must(New(lo, hi, cfg, 1))
		cfg.Budget = int64(gp.Memory(o.arms[0].fam, 31)) - 1
		if _, err := New(lo, hi, cfg, 1); err != nil {
			t.Fatalf("budget %d B: New: %v", cfg.Budget, err)
		}
		p := &countingProblem{}
		ro.Resume = tr.Evaluations
		got, err := Run(context.Background(), p, cfg, 1, ro)
		if err != nil || p.n != 0 || len(got.Evaluations) != len(tr.Evaluations) {
			t.Fatalf("batch %d: resumed whole under %d B: %v after %d evaluations", q, cfg.Budget, err, p.n)
		}
		for i, e := range got.Evaluations {
			if e.Y != tr.Evaluations[i].Y || e.X[0] != tr.Evaluations[i].X[0] || e.X[1] != tr.Evaluations[i].X[1] {
				t.Errorf("batch %d: evaluation %d: %v = %v, want %v = %v", q, i, e.X, e.Y, tr.Evaluations[i].X, tr.Evaluations[i].Y)
			}
		}
		ro.Resume = tr.Evaluations[:len(tr.Evaluations)-1]
		if _, err := Run(context.Background(), p, cfg, 1, ro); !errors.Is(err, orbit.ErrOverBudget) || p.n != 0 {
			t.Errorf("batch %d: resumed short of the last evaluation under %d B: %v after %d evaluations, want orbit.ErrOverBudget before any", q, cfg.Budget, err, p.n)
		}
	}
}

// TestRunNonFiniteRegret: a declared optimum that is not finite is
// refused before any evaluation, and a regret that overflows float64 is
// an error, with a trace whose regrets are dropped (JSON could not carry
// them) rather than +Inf with a nil error.
func TestRunNonFiniteRegret(t *testing.T) {
	cfg := Config{Kernel: Base(kernel.RBF), Workers: 1, Init: 2}
	for _, fs := range []float64{math.Inf(-1), math.NaN()} {
		p := &optimumProblem{fs: fs}
		if _, err := Run(context.Background(), p, cfg, 1, RunOptions{Iters: 1}); !errors.Is(err, ErrBadConfig) || p.n != 0 {
			t.Errorf("f* = %v: %v after %d evaluations, want ErrBadConfig before any", fs, err, p.n)
		}
	}
	// Regrets of about MaxFloat64 each: their sum over two steps overflows.
	p := &optimumProblem{fs: -math.MaxFloat64}
	tr, err := Run(context.Background(), p, Config{Kernel: Base(kernel.RBF), Workers: 1, Init: 2, Minimize: true}, 1, RunOptions{Iters: 2})
	if !errors.Is(err, ErrBadConfig) || tr == nil || len(tr.Evaluations) != 4 || tr.CumulativeRegret != nil || tr.Evaluations[0].Regret != nil {
		t.Errorf("overflowing regret: %v, trace %+v", err, tr)
	}
	if _, jerr := json.Marshal(tr); jerr != nil {
		t.Errorf("the trace does not marshal: %v", jerr)
	}
}

// TestRawSamplesBudget: a step's raw samples count against Config.Budget,
// checked before they are allocated: RawSamples = 2²² in d = 100 is
// (2²²+1)·(8·100+32) bytes, 3.5 GB. Under a 64 MiB budget New refuses
// with orbit.ErrOverBudget naming the raw samples — every BO step needs
// them, and the first used to fail only after the initial design was
// evaluated (before that, it allocated 3.4 GB; in d = 1000 the process
// died out of memory) — and so does Run, before its first evaluation;
// under the default 8 GiB the optimizer is made.
func TestRawSamplesBudget(t *testing.T) {
	lo, hi := box(100, 1)
	cfg := Config{Kernel: Base(kernel.RBF), Init: 1, Budget: 64 << 20, Protocol: Protocol{RawSamples: 1 << 22}}
	if _, err := New(lo, hi, cfg, 1); !errors.Is(err, orbit.ErrOverBudget) || !strings.Contains(err.Error(), "raw samples") {
		t.Fatalf("RawSamples 2²², d = 100, budget 64 MiB: New: %v, want orbit.ErrOverBudget naming the raw samples", err)
	}
	p := &countingProblem{}
	cfg2 := cfg
	cfg2.Budget = 32 << 20 // (2²²+1)·48 B = 192 MiB in d = 2
	if _, err := Run(context.Background(), p, cfg2, 1, RunOptions{Iters: 3}); !errors.Is(err, orbit.ErrOverBudget) || !strings.Contains(err.Error(), "raw samples") || p.n != 0 {
		t.Errorf("Run: %v after %d evaluations, want orbit.ErrOverBudget naming the raw samples, before the first", err, p.n)
	}
	cfg.Budget = 0
	if _, err := New(lo, hi, cfg, 1); err != nil {
		t.Fatalf("under the default budget: %v", err)
	}
}

// TestHaltonTablesBudget: the scrambled Halton sequence's tables, built
// every step and quadratic in d (qmc.TableBytes: about 8 MB at d = 300,
// 90 MB at d = 1000), count against Config.Budget with the raw samples.
// With 16 raw samples in d = 300 under a 4 MiB budget New refuses naming
// the quasi-random tables (the second Ask did, once the initial point was
// evaluated; before that it allocated them unchecked, 27 MB a step at d =
// 300 before they were stored in 2 bytes an entry).
func TestHaltonTablesBudget(t *testing.T) {
	lo, hi := box(300, 1)
	cfg := Config{Kernel: Base(kernel.RBF), Init: 1, Budget: 4 << 20, Workers: 1, Protocol: Protocol{RawSamples: 16, Starts: 1}}
	if _, err := New(lo, hi, cfg, 1); !errors.Is(err, orbit.ErrOverBudget) || !strings.Contains(err.Error(), "quasi-random tables") {
		t.Fatalf("d = 300, budget 4 MiB: New: %v, want orbit.ErrOverBudget naming the quasi-random tables", err)
	}
	cfg.Budget = 64 << 20
	if _, err := secondAsk(t, lo, hi, cfg); err != nil {
		t.Fatalf("d = 300, budget 64 MiB: %v", err)
	}
}

// TestFirstStepMemoryUpFront: what the first BO step is sure to exceed
// the budget on is refused by New, before the initial design is
// evaluated: a GP on the Init points (600 of them: 14 MB for a dense GP,
// 4.9 MB with the default 256 landmarks, over a 1 MB budget), for a
// single kernel and for a portfolio all of whose candidates exceed it
// (the step fails only when every candidate's fit does). It used to be
// the 601st Ask, after 600 evaluations ("fit at n = 600: … over memory
// budget"). A budget that holds the GP on the Init points is accepted.
func TestFirstStepMemoryUpFront(t *testing.T) {
	lo, hi := box(2, 1)
	sf := must(orbit.SignFlip(2))
	for _, k := range []Kernel{Base(kernel.RBF), Plus(sf, kernel.RBF), Portfolio(sf, kernel.RBF)} {
		cfg := Config{Kernel: k, Init: 600, Budget: 1 << 20, Workers: 1, Protocol: Protocol{RawSamples: 8, Starts: 1}}
		_, err := New(lo, hi, cfg, 1)
		if !errors.Is(err, orbit.ErrOverBudget) || !strings.Contains(err.Error(), "600 initial points") {
			t.Errorf("%s, Init 600, budget 1 MiB: New: %v, want orbit.ErrOverBudget naming the 600 initial points", k.Name(), err)
		}
		cfg.Budget = 32 << 20
		if _, err := New(lo, hi, cfg, 1); err != nil {
			t.Errorf("%s, Init 600, budget 32 MiB: New: %v", k.Name(), err)
		}
	}
}

// secondAsk is the first BO step of an optimizer with cfg over [lo, hi]
// (seed 1) after its one initial point, told y = 1: the Ask that fits a GP
// and searches the acquisition.
func secondAsk(t *testing.T, lo, hi []float64, cfg Config) ([]float64, error) {
	t.Helper()
	o, err := New(lo, hi, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	x, err := o.Ask()
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Tell(x, 1); err != nil {
		t.Fatal(err)
	}
	return o.Ask()
}

// TestNearBudget: Near's copies of the points in the model's coordinates
// count against Config.Budget, refused before they are made: 10⁴ points
// of d = 10 (about 1 MB) under a 64 KiB budget. They were copied
// unchecked (the C ABI checked them itself; Go callers had no bound).
func TestNearBudget(t *testing.T) {
	lo, hi := box(10, 1)
	pts := make([][]float64, 10000)
	for i := range pts {
		pts[i] = make([]float64, 10)
	}
	for _, c := range []struct {
		budget int64
		over   bool
	}{{64 << 10, true}, {0, false}} {
		// 16 raw samples (and their tables, 17 KiB in d = 10): within the
		// budget, which New checks.
		o, err := New(lo, hi, Config{Kernel: Base(kernel.RBF), Budget: c.budget, Protocol: Protocol{RawSamples: 16}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		near, err := o.Near(pts[0], pts)
		if c.over != errors.Is(err, orbit.ErrOverBudget) || !c.over && (err != nil || len(near) != len(pts) || !near[0]) {
			t.Errorf("budget %d: Near of %d points: %d answers, %v", c.budget, len(pts), len(near), err)
		}
	}
}
