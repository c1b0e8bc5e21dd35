package bo

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/symbo/symbo/gp"
)

// Hyper are the fitted GP hyperparameters of one acquisition step, on the
// standardized output scale (gp.Hyper).
type Hyper struct {
	Variance    float64 `json:"variance"`
	Lengthscale float64 `json:"lengthscale"`
	Noise       float64 `json:"noise"`
	Jitter      float64 `json:"jitter"`
}

// Timings are the wall times of one evaluation: hyperparameter fitting,
// acquisition optimization, and the rest (the objective, the noise, Tell
// and bookkeeping). Timings are the only part of a Trace that varies
// between runs with the same seed.
type Timings struct {
	Fit   time.Duration `json:"fit_ns"`
	Acq   time.Duration `json:"acq_ns"`
	Other time.Duration `json:"other_ns"`
}

// Evaluation is one evaluation of the objective.
type Evaluation struct {
	Phase string    `json:"phase"` // PhaseInit or PhaseBO
	X     []float64 `json:"x"`
	Y     float64   `json:"y"` // noisy observation told to the optimizer
	F     float64   `json:"f"` // noiseless objective f(x)
	// Regret is f(x) − f* when minimizing, f* − f(x) when maximizing (≥ 0;
	// nil when the optimum is unknown).
	Regret *float64 `json:"regret,omitempty"`
	// AtOptimum: f(x) equals the known optimum f* exactly (a diagnostic
	// for the box-centre pitfall, see the package documentation).
	AtOptimum bool `json:"at_optimum"`
	// PhaseBO only: the fitted hyperparameters, the step t, β (UCB) and
	// the acquisition value at x.
	Hyper *Hyper   `json:"hyper,omitempty"`
	T     int      `json:"t,omitempty"`
	Beta  *float64 `json:"beta,omitempty"`
	Acq   *float64 `json:"acq,omitempty"`
	// FromBest: the winning ascent started at the best observed point
	// (otherwise at a quasi-random raw sample).
	FromBest bool `json:"from_best_start,omitempty"`
	// Timings of this evaluation.
	Timings Timings `json:"timings"`
}

// Trace is the record of one Run. Everything in it except the Timings is a
// deterministic function of (problem, config, seed): the same bits for any
// GOMAXPROCS and Workers.
type Trace struct {
	Problem string `json:"problem"`
	D       int    `json:"d"`
	Kernel  string `json:"kernel"`
	Seed    uint64 `json:"seed"`
	// Minimize: f was minimized (otherwise maximized).
	Minimize    bool   `json:"minimize"`
	Group       string `json:"group"`
	Shape       string `json:"shape"`
	Acquisition string `json:"acquisition"`
	// Beta is the β rule ("paper": 0.5·d·log t, "authors": 0.5·d·log 2n);
	// FitMode "own" or "base" (see Config).
	Beta    string `json:"beta"`
	FitMode string `json:"fit_mode"`
	// Prior is the hyperparameter prior ("botorch"); empty for none.
	Prior      string `json:"prior,omitempty"`
	FixNoise   bool   `json:"fix_noise"`
	Init       int    `json:"init"`
	Iters      int    `json:"iters"`
	RawSamples int    `json:"raw_samples"`
	Starts     int    `json:"starts"`
	MaxIter    int    `json:"max_iter"`
	Backend    string `json:"backend"`
	// NoiseVariance is the variance of the noise added to the observations.
	NoiseVariance float64 `json:"noise_variance"`
	// Optimum is f* (nil when unknown, e.g. WLAN).
	Optimum     *float64     `json:"optimum,omitempty"`
	Evaluations []Evaluation `json:"evaluations"`
	// CumulativeRegret[i] = Σ_{j≤i} r_j over the acquisition steps (the
	// evaluations after the initial design), length Iters; SimpleRegret[i]
	// = the regret of the best f over all evaluations up to acquisition
	// step i (initial design included). Both nil when the optimum is
	// unknown.
	CumulativeRegret []float64 `json:"cumulative_regret,omitempty"`
	SimpleRegret     []float64 `json:"simple_regret,omitempty"`
	// BestF is the best noiseless f over all evaluations (the smallest
	// when minimizing).
	BestF float64 `json:"best_f"`
	// ExactOptimumHits counts the evaluations with f(x) = f* exactly
	// (AtOptimum), initial design included.
	ExactOptimumHits int `json:"exact_optimum_hits"`
	// Total time per phase over the whole run.
	Timings Timings `json:"timings"`
}

// Problem is a black box that Run optimizes: f on the box [lo, hi].
// Implementations may also offer
//
//	Optimum() (fstar float64, ok bool)  // the best value of f, for regret
//	NoiseVariance() float64             // Run adds N(0, σ²) noise to what it tells
//
// (bo/problem's benchmarks do). Evaluate is called with points inside the
// box; an error stops the run.
type Problem interface {
	Name() string
	Bounds() (lo, hi []float64)
	Evaluate(x []float64) (float64, error)
}

type optimumer interface {
	Optimum() (fstar float64, ok bool)
}

type noisy interface {
	NoiseVariance() float64
}

// RunOptions are the settings of Run that the Optimizer does not have.
// The zero value is 50 acquisition steps, no callback, a fresh run.
type RunOptions struct {
	// Iters is the number of acquisition steps after the Init initial
	// points (0 means DefaultIters; Init + Iters ≤ MaxEvaluations).
	Iters int
	// OnEvaluation, if not nil, is called with each evaluation as soon as
	// it is told, in order (resumed ones excepted), so that a caller can
	// persist it; an error stops the run and is returned.
	OnEvaluation func(Evaluation) error
	// Resume holds the first evaluations of an earlier run with the same
	// problem, configuration and seed (as OnEvaluation received them, or
	// from its Trace): they are told again instead of evaluated, and the
	// run continues from there. The finished Trace equals an uninterrupted
	// run's, timings aside. Run checks the initial-design points against
	// the seed and fails with ErrHistory on a mismatch.
	Resume []Evaluation
}

// Run optimizes p with cfg from seed: Init uniform random initial points,
// then Iters acquisition steps, maximizing f or, with cfg.Minimize,
// minimizing it. If p has a NoiseVariance σ², the values told are y = f(x)
// + ε with ε ~ N(0, σ²) drawn from stream (seed, i) for evaluation i
// (regret is always measured on the noiseless f), and cfg.FixNoise with
// cfg.Noise = 0 fixes the GP noise at σ². When ctx is cancelled Run stops
// before the next evaluation and returns the trace so far with an error
// wrapping ctx.Err().
func Run(ctx context.Context, p Problem, cfg Config, seed uint64, ro RunOptions) (*Trace, error) {
	if p == nil || isNilValue(p) {
		return nil, fmt.Errorf("%w: Run needs a problem", ErrBadConfig)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	iters := ro.Iters
	if iters == 0 {
		iters = DefaultIters
	}
	var noise float64
	if nz, ok := p.(noisy); ok {
		noise = nz.NoiseVariance()
		if !(noise >= 0) || math.IsInf(noise, 0) {
			return nil, fmt.Errorf("%w: %s: noise variance %v", ErrBadConfig, p.Name(), noise)
		}
	}
	if cfg.FixNoise && cfg.Noise == 0 {
		cfg.Noise = noise
	}
	lo, hi := p.Bounds()
	o, err := New(lo, hi, cfg, seed)
	if err != nil {
		return nil, wrapf(err, "%s", p.Name())
	}
	c := o.Config()
	if iters < 0 || iters > MaxEvaluations-c.Init {
		return nil, fmt.Errorf("%w: %s: Iters = %d outside [0, %d − Init]", ErrBadConfig, p.Name(), iters, MaxEvaluations)
	}
	total := c.Init + iters
	if len(ro.Resume) > total {
		return nil, fmt.Errorf("%w: %d evaluations to resume, the run has %d", ErrHistory, len(ro.Resume), total)
	}
	group := "none"
	if g := c.Kernel.Group(); g != nil {
		group = g.Name()
	}
	tr := &Trace{
		Problem: p.Name(), D: len(lo), Kernel: c.Kernel.Name(), Seed: seed, Minimize: c.Minimize,
		Group: group, Shape: c.Kernel.Shape().String(), Acquisition: c.Acquisition.String(),
		Beta: c.Beta.String(), FitMode: fitModeName(c), FixNoise: c.FixNoise,
		Prior: priorName(c),
		Init:  c.Init, Iters: iters, RawSamples: c.RawSamples, Starts: c.Starts,
		MaxIter: c.MaxIter, Backend: c.Backend.Name(), NoiseVariance: noise,
	}
	if op, ok := p.(optimumer); ok {
		if fs, ok := op.Optimum(); ok {
			tr.Optimum = &fs
		}
	}
	sd := math.Sqrt(noise)
	for i, e := range ro.Resume {
		if e.Phase == PhaseInit {
			x, err := o.Ask()
			if err != nil {
				return nil, wrapf(err, "%s: resume", p.Name())
			}
			if !sameBits(x, e.X) {
				return nil, fmt.Errorf("%w: %s: resumed evaluation %d is not the initial point these settings draw", ErrHistory, p.Name(), i)
			}
		} else if i < c.Init {
			return nil, fmt.Errorf("%w: %s: resumed evaluation %d is phase %q, want %q", ErrHistory, p.Name(), i, e.Phase, PhaseInit)
		}
		if err := o.Tell(e.X, e.Y); err != nil {
			return nil, fmt.Errorf("%w: %s: resumed evaluation %d: %w", ErrHistory, p.Name(), i, err)
		}
		tr.Evaluations = append(tr.Evaluations, e)
	}
	for i := len(ro.Resume); i < total; i++ {
		if err := ctx.Err(); err != nil {
			bookkeep(tr)
			return tr, wrapf(err, "%s: stopped after %d of %d evaluations", p.Name(), i, total)
		}
		t0 := time.Now()
		x, err := o.Ask()
		if err != nil {
			return nil, wrapf(err, "%s: evaluation %d", p.Name(), i)
		}
		info := o.LastAsk()
		f, err := p.Evaluate(x)
		if err != nil {
			return nil, wrapf(err, "%s: evaluation %d", p.Name(), i)
		}
		y := f
		if sd > 0 {
			y += sd * stream(seed, tagNoise, uint64(i)).NormFloat64()
		}
		if err := o.Tell(x, y); err != nil {
			return nil, wrapf(err, "%s: evaluation %d", p.Name(), i)
		}
		e := Evaluation{Phase: info.Phase, X: x, Y: y, F: f}
		if info.Phase == PhaseBO {
			h := info.Hyper
			e.Hyper = &Hyper{Variance: h.Variance, Lengthscale: h.Lengthscale, Noise: h.Noise, Jitter: info.Jitter}
			e.T = info.T
			if !math.IsNaN(info.Beta) {
				b := info.Beta
				e.Beta = &b
			}
			a := info.Acq
			e.Acq = &a
			e.FromBest = info.FromBest
			e.Timings.Fit, e.Timings.Acq = info.FitTime, info.AcqTime
		}
		e.Timings.Other = time.Since(t0) - e.Timings.Fit - e.Timings.Acq
		tr.Evaluations = append(tr.Evaluations, e)
		if ro.OnEvaluation != nil {
			if err := ro.OnEvaluation(e); err != nil {
				bookkeep(tr)
				return tr, wrapf(err, "%s: evaluation %d", p.Name(), i)
			}
		}
	}
	bookkeep(tr)
	return tr, nil
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func priorName(c Config) string {
	if c.Prior == gp.PriorNone {
		return ""
	}
	return c.Prior.String()
}

func fitModeName(c Config) string {
	if c.FitMode == gp.ModeBase {
		return "base"
	}
	return "own"
}

// bookkeep fills the regrets, BestF, ExactOptimumHits and the total
// timings from tr.Evaluations and tr.Optimum.
func bookkeep(tr *Trace) {
	sign := 1.0
	if tr.Minimize {
		sign = -1
	}
	tr.BestF = math.Inf(-int(sign))
	tr.ExactOptimumHits = 0
	tr.CumulativeRegret, tr.SimpleRegret = nil, nil
	tr.Timings = Timings{}
	cum := 0.0
	for i := range tr.Evaluations {
		e := &tr.Evaluations[i]
		if sign*e.F > sign*tr.BestF {
			tr.BestF = e.F
		}
		tr.Timings.Fit += e.Timings.Fit
		tr.Timings.Acq += e.Timings.Acq
		tr.Timings.Other += e.Timings.Other
		e.Regret, e.AtOptimum = nil, false
		if tr.Optimum == nil {
			continue
		}
		fs := *tr.Optimum
		r := sign * (fs - e.F)
		e.Regret = &r
		if e.F == fs {
			e.AtOptimum = true
			tr.ExactOptimumHits++
		}
		if e.Phase == PhaseBO {
			cum += r
			tr.CumulativeRegret = append(tr.CumulativeRegret, cum)
			tr.SimpleRegret = append(tr.SimpleRegret, sign*(fs-tr.BestF))
		}
	}
}
