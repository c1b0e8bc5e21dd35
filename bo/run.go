package bo

import (
	"fmt"
	"math"
	"time"

	"github.com/symbo/symbo/bo/problem"
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
	// Regret is f* − f(x) (nil when the optimum is unknown).
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
	Problem     string `json:"problem"`
	D           int    `json:"d"`
	Kernel      string `json:"kernel"`
	Seed        uint64 `json:"seed"`
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
	// = f* − max f over all evaluations up to acquisition step i (initial
	// design included). Both nil when the optimum is unknown.
	CumulativeRegret []float64 `json:"cumulative_regret,omitempty"`
	SimpleRegret     []float64 `json:"simple_regret,omitempty"`
	// BestF is the largest noiseless f over all evaluations.
	BestF float64 `json:"best_f"`
	// ExactOptimumHits counts the evaluations with f(x) = f* exactly
	// (AtOptimum), initial design included.
	ExactOptimumHits int `json:"exact_optimum_hits"`
	// Total time per phase over the whole run.
	Timings Timings `json:"timings"`
}

// Run optimizes p with cfg from seed: Init uniform initial points, then
// Iters acquisition steps. Each observation is y = f(x) + ε with ε ~
// N(0, p.NoiseVariance()) drawn from stream (seed, i) for evaluation i;
// regret is measured on the noiseless f. With cfg.FixNoise and cfg.Noise
// = 0, the GP noise is fixed at p.NoiseVariance(). progress, if not nil,
// is called after each evaluation with its index (0-based).
func Run(p *problem.Problem, cfg Config, seed uint64, progress func(iter int)) (*Trace, error) {
	noise := p.NoiseVariance()
	if cfg.FixNoise && cfg.Noise == 0 {
		cfg.Noise = noise
	}
	lo, hi := p.Bounds()
	o, err := New(lo, hi, p.Group(), p.BaseShape(), cfg, seed)
	if err != nil {
		return nil, fmt.Errorf("bo: %s: %w", p.Name(), err)
	}
	c := o.Config()
	tr := &Trace{
		Problem: p.Name(), D: p.Dim(), Kernel: string(c.Kernel), Seed: seed,
		Group: p.Group().Name(), Shape: o.shape.String(), Acquisition: c.Acquisition.String(),
		Beta: c.Beta.String(), FitMode: fitModeName(c), FixNoise: c.FixNoise,
		Prior: priorName(c),
		Init:  c.Init, Iters: c.Iters, RawSamples: c.RawSamples, Starts: c.Starts,
		MaxIter: c.MaxIter, Backend: c.Backend.Name(), NoiseVariance: noise,
	}
	if fs, ok := p.Optimum(); ok {
		tr.Optimum = &fs
	}
	sd := math.Sqrt(noise)
	total := c.Init + c.Iters
	tr.Evaluations = make([]Evaluation, 0, total)
	for i := range total {
		t0 := time.Now()
		x, err := o.Ask()
		if err != nil {
			return nil, fmt.Errorf("bo: %s: evaluation %d: %w", p.Name(), i, err)
		}
		info := o.LastAsk()
		f, err := p.Objective(x)
		if err != nil {
			return nil, fmt.Errorf("bo: %s: evaluation %d: %w", p.Name(), i, err)
		}
		y := f + sd*stream(seed, tagNoise, uint64(i)).NormFloat64()
		if err := o.Tell(x, y); err != nil {
			return nil, fmt.Errorf("bo: %s: evaluation %d: %w", p.Name(), i, err)
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
		if progress != nil {
			progress(i)
		}
	}
	bookkeep(tr)
	return tr, nil
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
	tr.BestF = math.Inf(-1)
	tr.ExactOptimumHits = 0
	tr.CumulativeRegret, tr.SimpleRegret = nil, nil
	tr.Timings = Timings{}
	cum := 0.0
	for i := range tr.Evaluations {
		e := &tr.Evaluations[i]
		tr.BestF = max(tr.BestF, e.F)
		tr.Timings.Fit += e.Timings.Fit
		tr.Timings.Acq += e.Timings.Acq
		tr.Timings.Other += e.Timings.Other
		e.Regret, e.AtOptimum = nil, false
		if tr.Optimum == nil {
			continue
		}
		fs := *tr.Optimum
		r := fs - e.F
		e.Regret = &r
		if e.F == fs {
			e.AtOptimum = true
			tr.ExactOptimumHits++
		}
		if e.Phase == PhaseBO {
			cum += r
			tr.CumulativeRegret = append(tr.CumulativeRegret, cum)
			tr.SimpleRegret = append(tr.SimpleRegret, fs-tr.BestF)
		}
	}
}
