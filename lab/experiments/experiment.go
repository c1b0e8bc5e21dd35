package experiments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
)

// Errors returned by the experiment functions wrap ErrBadOptions for
// invalid options (test with errors.Is).
var ErrBadOptions = errclass.New(errclass.Input, "experiments: invalid experiment options")

// RunSpec is one Bayesian-optimization run of an experiment: a problem
// (the paper's name with its dimension, e.g. "Rastrigin5d"), a kernel and a
// seed. Index is its position in the experiment's plan, which fixes where
// its trace is written whatever order the runs finish in.
type RunSpec struct {
	Index   int    `json:"index"`
	Problem string `json:"problem"`
	Kernel  string `json:"kernel"`
	Seed    uint64 `json:"seed"`
	// Batch is the run's batch size (0: the experiment's, BORuns' batch).
	Batch int `json:"batch,omitempty"`
}

func (s RunSpec) batch(def int) int {
	if s.Batch > 0 {
		return s.Batch
	}
	return def
}

// secondsPerCost is the prior wall time of one unit of EstimatedCost (a
// base-kernel run of the paper's 5 + 50 evaluations on a small problem:
// 0.19–0.28 s in lab/results, GOMAXPROCS 2), before any run has been
// measured; priorRate scales it to other lengths.
const secondsPerCost = 0.2

// priorRate is secondsPerCost for runs of n evaluations: the GP's cost
// per step grows with the observations, so about quadratically in n.
func priorRate(n int) float64 {
	r := float64(n) / 55
	return secondsPerCost * r * r
}

// EstimatedCost is a rough relative cost of one run of kernel k on p (base
// on a small problem ≈ 1), set by hand from the mean seconds per run of
// the tables under lab/results (GOMAXPROCS 2, 5 + 50 evaluations; the
// figures below are those, divided by secondsPerCost): k_avg's fit
// enumerates the group unless a closed form applies, k_plus
// eigendecomposes at every likelihood evaluation. It only orders the runs
// (the most expensive start first, which shortens the tail of a parallel
// batch) and gives the progress ETA its prior; results do not depend on
// it.
func EstimatedCost(p *problem.Problem, k string) float64 {
	order := math.Inf(1)
	if o := p.Group().Order(); o != nil {
		order, _ = new(big.Float).SetInt(o).Float64()
	}
	d := float64(p.Dim())
	base := 1 + 0.1*d // base: 0.19–0.28 s for d = 1…8
	switch k {
	case bo.NameAvg, bo.NameAvgNorm: // avgnorm: the same orbit averages, normalized
		if math.IsInf(order, 1) {
			if strings.HasPrefix(p.Group().Name(), "rotation") {
				return 1.5 // closed form (Bessel I₀): 0.29–0.30 s
			}
			// Scaling: the exact average (kernel/scalingexact.go), a
			// series for RBF at the lengthscales most fits settle on,
			// a quadrature where they wander small: 2.2–23 s on
			// Scaling2d, mean 7.4 s against base's 0.75 s in the same
			// (loaded) table; the former 32×32-node rule took
			// 14.6–45.7 s.
			return 12
		}
		if p.BaseShape() != kernel.RBF {
			// No closed form: |G| base-kernel evaluations per pair
			// (Ackley1d…5d, |G| = 2…3840: 0.28, 0.29, 0.60, 3.5, 41 s;
			// WLAN8d, |G| = 24: 0.8–1.0 s).
			return base * (1 + 0.05*order)
		}
		// Closed forms (products, permanents): Rastrigin1d…5d 0.22–0.49 s,
		// Griewank6d 0.31–0.38 s.
		return 1.5 * base
	case bo.NamePlus:
		return 1.3 * base // 0.20–0.53 s; WLAN8d 0.9–1.2 s
	case bo.NameMax:
		return 1.2 * base // 0.19–0.42 s
	case bo.NameNystrom:
		return 1.2 * base // 0.21–0.51 s (lab/results/portfolio, singles)
	case bo.NameSoft:
		// Two Grams, stacked features: 1.9–6.2× base, median about 3
		// (lab/results/soft).
		return 3 * base
	}
	if kk, err := bo.ParseKernel(k, p.Group(), p.BaseShape()); err == nil && len(kk.Candidates()) > 0 {
		// Every candidate is fitted, and under portfolio each proposes:
		// about the sum of the candidates' runs (portfolio 1.07–1.44 s on
		// Ackley2d and Griewank6d against its three candidates' 1.35–1.96;
		// the portfolio with soft 1.5–8.4 s).
		var sum float64
		for _, c := range kk.Candidates() {
			sum += EstimatedCost(p, c)
		}
		return sum
	}
	return base
}

// BORuns makes the runs of specs, each a bo.Run of its problem with the
// protocol cfg (cfg.Kernel and cfg.Minimize set from the spec's kernel
// and problem, the kernel with cfg.Kernel's deciding options, cfg.Workers to 1: parallelism is across runs) for iters
// acquisition steps in rounds of the spec's batch size (batch for a spec
// without one; 0 means 1), observations noised by rule noise. A run's
// cost is EstimatedCost at the prior rate of its length; a kept trace
// passes its Check when it has the spec's problem, kernel, seed, length,
// batch size and noise rule.
func BORuns(specs []RunSpec, cfg bo.Config, iters, batch int, noise bo.NoiseRule) ([]Run[*bo.Trace], error) {
	probs := map[string]*problem.Problem{}
	parsed := map[[2]string]bool{}
	rate := priorRate(cmp.Or(cfg.Init, bo.DefaultInit) + iters)
	runs := make([]Run[*bo.Trace], len(specs))
	for i, s := range specs {
		p, ok := probs[s.Problem]
		if !ok {
			var err error
			if p, err = problem.New(s.Problem, 0); err != nil {
				return nil, fmt.Errorf("experiments: run %d: %w", i, err)
			}
			probs[s.Problem] = p
		}
		// An unknown kernel is refused now, before any run, not when its
		// run starts (each run parses its own kernel again).
		if _, ok := parsed[[2]string{s.Problem, s.Kernel}]; !ok {
			if _, err := bo.ParseKernel(s.Kernel, p.Group(), p.BaseShape()); err != nil {
				return nil, fmt.Errorf("experiments: run %d: %w", i, err)
			}
			parsed[[2]string{s.Problem, s.Kernel}] = true
		}
		q := s.batch(batch)
		runs[i] = Run[*bo.Trace]{
			Label: fmt.Sprintf("%s, %s, seed %d", s.Problem, s.Kernel, s.Seed),
			Cell:  s.Problem + "/" + s.Kernel,
			Cost:  EstimatedCost(p, s.Kernel) * rate,
			Do: func(ctx context.Context) (*bo.Trace, error) {
				k, err := bo.ParseKernel(s.Kernel, p.Group(), p.BaseShape())
				if err != nil {
					return nil, err
				}
				c := cfg
				c.Kernel, c.Minimize, c.Workers = k.With(cfg.Kernel.Options()), !p.Maximize(), 1
				return bo.Run(ctx, p, c, s.Seed, bo.RunOptions{Iters: iters, Batch: q, Noise: noise})
			},
			Check: func(tr *bo.Trace) bool {
				return tr != nil && tr.Problem == s.Problem && tr.Kernel == s.Kernel && tr.Seed == s.Seed && tr.Iters == iters &&
					tr.Batch == max(q, 1) && tr.NoiseRule == noiseName(noise)
			},
		}
	}
	return runs, nil
}

// boPlan is the plan of the BO runs of specs (see BORuns) with the given
// report.
func boPlan[Res any](specs []RunSpec, cfg bo.Config, iters, batch int, noise bo.NoiseRule, report func([]*bo.Trace, time.Duration) Res) (Plan[*bo.Trace, Res], error) {
	runs, err := BORuns(specs, cfg, iters, batch, noise)
	return Plan[*bo.Trace, Res]{Runs: runs, Report: report}, err
}

// appendSeeds appends to specs the runs of kernel k on problem p for seeds
// first…first+seeds−1, indexed in order, with batch size batch (0: the
// experiment's).
func appendSeeds(specs []RunSpec, p, k string, first, seeds, batch int) []RunSpec {
	for s := range seeds {
		specs = append(specs, RunSpec{Index: len(specs), Problem: p, Kernel: k, Seed: uint64(first + s), Batch: batch})
	}
	return specs
}

// kernelsOn splits kernels into those to run on p — the ones bo accepts
// there (k_max only where it is PSD) and skip does not name — and those
// skip names (among the accepted ones, and the ones bo refuses there: an
// avg over more than bo.AvgEnumerateLimit enumerated elements, say, which
// fails the study unless skipped). A skipped k_max that is not PSD on p
// is refused: the study leaves it out without a skip, which would skip
// nothing.
func kernelsOn(p *problem.Problem, kernels []string, skip map[CellKey]bool) (run, skipped []string, err error) {
	for _, k := range kernels {
		ok, err := supportsKernel(p, k)
		switch {
		case err != nil && skip[CellKey{p.Name(), k}]:
			skipped = append(skipped, k)
			continue
		case err != nil:
			return nil, nil, fmt.Errorf("experiments: %s: %w (skip the cell %s/%s to run the rest)", p.Name(), err, p.Name(), k)
		}
		switch {
		case !ok && skip[CellKey{p.Name(), k}]:
			return nil, nil, fmt.Errorf("%w: skipped cell %s/%s is not run in any case: k_max is not provably PSD for %s", ErrBadOptions, p.Name(), k, p.Group().Name())
		case !ok:
		case skip[CellKey{p.Name(), k}]:
			skipped = append(skipped, k)
		default:
			run = append(run, k)
		}
	}
	return run, skipped, nil
}

// regretProblem is problem.New(name, d) for an experiment of regrets,
// which needs the problem's optimum.
func regretProblem(name string, d int) (*problem.Problem, error) {
	p, err := problem.New(name, d)
	if err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	if _, ok := p.Optimum(); !ok {
		return nil, fmt.Errorf("%w: %s has no known optimum, so no regret", ErrBadOptions, p.Name())
	}
	return p, nil
}

// supportsKernel reports whether bo accepts kernel k on p (k_max only
// where it is provably PSD).
func supportsKernel(p *problem.Problem, k string) (bool, error) {
	lo, hi := p.Bounds()
	kern, err := bo.ParseKernel(k, p.Group(), p.BaseShape())
	if err != nil {
		return false, err
	}
	_, err = bo.New(lo, hi, bo.Config{Kernel: kern, Workers: 1}, 0)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, bo.ErrMaxNotPSD):
		return false, nil
	default:
		return false, err
	}
}

// Summary is a mean and its standard error over N runs.
type Summary struct {
	Mean float64 `json:"mean"`
	SE   float64 `json:"se"` // sample standard deviation / √N (0 for N < 2)
	N    int     `json:"n"`
}

// Summarize returns the mean and standard error of v.
func Summarize(v []float64) Summary {
	n := len(v)
	if n == 0 {
		return Summary{Mean: math.NaN(), SE: math.NaN()}
	}
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(n)
	s := Summary{Mean: m, N: n}
	if n > 1 {
		var ss float64
		for _, x := range v {
			ss += (x - m) * (x - m)
		}
		s.SE = math.Sqrt(ss / float64(n-1) / float64(n))
	}
	return s
}

// Metric is the paper's Table 1 measure of a run (lower is better): the
// cumulative regret R_T over the Iters acquisition steps where the optimum
// is known, otherwise (WLAN) the negated best reward −max f over all
// evaluations, initial design included.
func Metric(tr *bo.Trace) float64 { return MetricOf(tr, false) }

// MetricOf is Metric, with the initial design's regret added to R_T when
// countInit (the negated best reward is the same either way).
func MetricOf(tr *bo.Trace, countInit bool) float64 {
	if tr.Optimum != nil && len(tr.CumulativeRegret) > 0 {
		r := tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
		if countInit {
			var init float64
			for _, e := range tr.Evaluations {
				if e.Phase == bo.PhaseInit && e.Regret != nil {
					init += *e.Regret
				}
			}
			r += init
		}
		return r
	}
	return -tr.BestF
}

// noiseName is the trace's NoiseRule field for rule r ("" for the
// default).
func noiseName(r bo.NoiseRule) string {
	if r.Kind == bo.NoiseBox {
		return ""
	}
	return r.String()
}

// Curve is the per-iteration version of Metric: element i is the
// cumulative regret after acquisition step i+1, or (WLAN) the negated best
// reward over the initial design and the first i+1 steps.
func Curve(tr *bo.Trace) []float64 {
	if tr.Optimum != nil {
		return slices.Clone(tr.CumulativeRegret)
	}
	var out []float64
	best := math.Inf(-1)
	for _, e := range tr.Evaluations {
		best = max(best, e.F)
		if e.Phase == bo.PhaseBO {
			out = append(out, -best)
		}
	}
	return out
}

// groupOrder formats |G| as in the paper: an integer or ∞.
func groupOrder(p *problem.Problem) string {
	if o := p.Group().Order(); o != nil {
		return o.String()
	}
	return "∞"
}
