package bo

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/check"
)

// Hyper are the fitted GP hyperparameters of one acquisition step, on the
// standardized output scale (gp.Hyper), with the diagonal jitter the
// Cholesky factorization needed (0 when none).
type Hyper struct {
	Variance    float64 `json:"variance"`    // signal variance v
	Lengthscale float64 `json:"lengthscale"` // ℓ (with ARD, the shortest class's; see Lengthscales)
	Noise       float64 `json:"noise"`       // noise variance σ²
	Jitter      float64 `json:"jitter"`      // diagonal jitter added to factor K (0: none)
	// Landmarks is the number of landmarks of the fitted k_plus or Nyström
	// GP when its observations outnumbered Config.Landmarks (0: the design
	// is every observation).
	Landmarks int `json:"landmarks,omitempty"`
	// PriorMean is the fitted constant prior mean m̂ (standardized scale:
	// m̂ sample standard deviations from the sample mean of the values
	// the GP models, maximized) with Config.Mean = gp.MeanConstant; 0,
	// omitted, otherwise.
	PriorMean float64 `json:"prior_mean,omitempty"`
	// Lengthscales (Protocol.ARD, with classes to tell apart) is the
	// lengthscale along each coordinate, in the model's coordinates:
	// Lengthscale over the coordinate's ARD scale, so that the shortest
	// class's is Lengthscale; nil, omitted, with one lengthscale.
	Lengthscales []float64 `json:"lengthscales,omitempty"`
}

// Timings are the wall times of one evaluation: hyperparameter fitting,
// acquisition optimization, and the rest (the objective, the noise, Tell
// and bookkeeping). Timings are the only part of a Trace that varies
// between runs with the same seed.
type Timings struct {
	Fit   time.Duration `json:"fit_ns"`   // hyperparameter fitting
	Acq   time.Duration `json:"acq_ns"`   // acquisition optimization
	Other time.Duration `json:"other_ns"` // the objective, the noise, Tell and bookkeeping
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
	// Aside: the point is beside an observed point's excluded orbit, the
	// acquisition's best ascent end being on it (Config.StepAside).
	Aside bool `json:"aside,omitempty"`
	// Kernel (auto and portfolio, PhaseBO) is the candidate the step predicted
	// with; Evidence each candidate's fitted log marginal likelihood, in
	// Trace.Candidates' order (null: its fit failed).
	Kernel   string      `json:"kernel,omitempty"`
	Evidence []jsonFloat `json:"evidence,omitempty"`
	// Means (portfolio only) is the referee's standardized posterior mean
	// at each candidate's proposal, in Trace.Candidates' order.
	Means []jsonFloat `json:"means,omitempty"`
	// Probe (portfolio only): the step evaluated avg's proposal as
	// Portfolio's fixed-point probe, whatever the means.
	Probe bool `json:"probe,omitempty"`
	// Hedged (portfolio with DecideOptions.Hedge only): the point is a
	// candidate's maximizer of the hedging acquisition; Means then holds
	// the referee's mean at every candidate's proposal, then at every
	// candidate's hedging proposal.
	Hedged bool `json:"hedged,omitempty"`
	// CutStarts (portfolio under DecideOptions.Afford only): an avg or
	// avgnorm candidate fitted, so the step's search was cut: avg and
	// avgnorm searched from a prefix of the raw samples and, where
	// CandidateStarts is set, every candidate with CandidateStarts
	// ascents (Diagnostics.CutStarts).
	CutStarts bool `json:"cut_starts,omitempty"`
	// Round is the index of the round of parallel evaluations the point
	// was asked in (RunOptions.Batch; with Batch 1, the evaluation's
	// index).
	Round int `json:"round"`
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
	// Candidates are auto's candidate kernels (nil for the others).
	Candidates []string `json:"candidates,omitempty"`
	// LeftOut are the candidates auto or portfolio left out as too costly
	// over the group, each with its reason (Kernel.LeftOut; nil when none).
	LeftOut []string `json:"left_out,omitempty"`
	Seed    uint64   `json:"seed"`
	// Minimize: f was minimized (otherwise maximized).
	Minimize bool   `json:"minimize"`
	Group    string `json:"group"`
	// Shape is the base kernel's shape ("rbf", "matern52", …), "custom"
	// for a Custom kernel.
	Shape       string `json:"shape"`
	Acquisition string `json:"acquisition"`
	// Beta is the β rule ("paper": 0.5·d·log t, "authors": 0.5·d·log 2n);
	// FitMode "own" or "base" (see Config).
	Beta    string `json:"beta"`
	FitMode string `json:"fit_mode"`
	// Prior is the hyperparameter prior ("botorch"); empty for none.
	Prior string `json:"prior,omitempty"`
	// Mean is the GP's prior mean ("constant"); empty for the default
	// ("sample").
	Mean string `json:"mean,omitempty"`
	// Landmarks is the landmark cap (the design cap of plus and nystrom):
	// Config.Landmarks with its default, −1 for none; 0 (omitted) for a
	// custom kernel.
	Landmarks int `json:"landmarks,omitempty"`
	// LandmarkFit is Config.LandmarkFit ("subset", "likelihood"); empty
	// for the default rule.
	LandmarkFit string `json:"landmark_fit,omitempty"`
	// CandidateFit is the kernel's DecideOptions.CandidateFit ("anchored"); empty for the
	// default ("own").
	CandidateFit string `json:"candidate_fit,omitempty"`
	// ProbeWindow is the kernel's DecideOptions.ProbeWindow; 0 (omitted) for no limit.
	ProbeWindow int `json:"probe_window,omitempty"`
	// Probe is the kernel's DecideOptions.Probe ("earned", "off"); empty
	// for "always".
	Probe string `json:"probe,omitempty"`
	// Hedge is the kernel's hedging ascents per candidate
	// (DecideOptions.Hedge with HedgeStarts, Config.Starts for 0); 0
	// (omitted) without hedging.
	Hedge int `json:"hedge,omitempty"`
	// CandidateStarts is the ascents of a portfolio's candidates other
	// than the referee (DecideOptions.CandidateStarts below Config.Starts);
	// 0 (omitted) when every candidate runs Config.Starts.
	CandidateStarts int `json:"candidate_starts,omitempty"`
	// Referee is the kernel's DecideOptions.Referee ("loo"); empty for
	// "evidence".
	Referee string `json:"referee,omitempty"`
	// Odds is the kernel's DecideOptions.Odds (0, AutoOdds, omitted).
	Odds float64 `json:"odds,omitempty"`
	// Afford is the kernel's DecideOptions.Afford (omitted when false).
	Afford bool `json:"afford,omitempty"`
	// BetaScale is Config.BetaScale (0, the rule's β, omitted).
	BetaScale float64 `json:"beta_scale,omitempty"`
	// ExcludeObserved and StepAside are Config's (omitted when false:
	// steps may return to observed points; no stepping aside).
	ExcludeObserved bool `json:"exclude_observed,omitempty"`
	StepAside       bool `json:"step_aside,omitempty"`
	// Normalize is Config.Normalize (omitted when false: raw coordinates).
	Normalize bool `json:"normalize,omitempty"`
	// ARD is Config.ARD (omitted when false: one lengthscale).
	ARD bool `json:"ard,omitempty"`
	// ResidualVariance is Config.ResidualVariance (omitted when false:
	// the paper's k_plus posterior).
	ResidualVariance bool `json:"residual_variance,omitempty"`
	FixNoise         bool `json:"fix_noise"`
	Init             int  `json:"init"`
	Iters            int  `json:"iters"`
	// Batch is the number of points asked per round (1: sequential).
	Batch int `json:"batch"`
	// Liar is the constant liar's value ("worst"); empty for the default
	// ("mean").
	Liar       string `json:"liar,omitempty"`
	RawSamples int    `json:"raw_samples"`
	Starts     int    `json:"starts"`
	MaxIter    int    `json:"max_iter"`
	Backend    string `json:"backend"`
	// NoiseVariance is the variance of the noise added to the
	// observations, set by the rule NoiseRule ("box" (omitted), "observed"
	// or a fixed variance; RunOptions.Noise).
	NoiseVariance float64 `json:"noise_variance"`
	NoiseRule     string  `json:"noise_rule,omitempty"`
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
// box, each a copy of its own (it may modify it, e.g. snap a discrete
// coordinate: the point told and traced is the one asked); an error stops
// the run. Run calls its methods from its own goroutine only, one at a
// time; a Problem shared by concurrent Runs (other seeds) must be safe for
// concurrent use.
type Problem interface {
	// Name labels the problem in traces.
	Name() string
	// Bounds returns the box [lo, hi] (equal lengths d, lo < hi).
	Bounds() (lo, hi []float64)
	// Evaluate returns f(x), noiseless, for a point x of the box.
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
	// Batch is the number of points asked together in a round and
	// evaluated in parallel (0 means 1: sequential; at most MaxBatch).
	Batch int
	// Noise chooses the variance of the noise added to the observations
	// (the zero value: the problem's NoiseVariance, e.g. 2% of the
	// variance of f over the box for bo/problem's benchmarks).
	Noise NoiseRule
	// Resume holds the first evaluations of an earlier run with the same
	// problem, configuration, batch size and seed (as OnEvaluation received them, or
	// from its Trace): they are told again instead of evaluated, and the
	// run continues from there. The finished Trace equals an uninterrupted
	// run's, timings aside. Run checks the initial-design points against
	// the seed and fails with ErrHistory on a mismatch. A run resumed
	// whole (every evaluation in Resume) fits no GP: Config.Budget does
	// not refuse it.
	Resume []Evaluation
}

// NoiseKind says how Run sets the variance of the observation noise.
type NoiseKind int

const (
	// NoiseBox is the problem's own NoiseVariance (bo/problem: 2% of the
	// variance of f over the box, estimated once per problem); none if p
	// has no NoiseVariance.
	NoiseBox NoiseKind = iota
	// NoiseObserved is NoiseFraction of the sample variance of the
	// noiseless f over the run's initial design (Init points; 0 when
	// Init < 2), so it varies with the seed.
	NoiseObserved
	// NoiseFixed is NoiseRule.Variance.
	NoiseFixed
)

// NoiseFraction is the ratio of the noise variance to the signal variance
// under NoiseObserved (the paper's 2%).
const NoiseFraction = 0.02

// NoiseRule is how Run sets the noise variance (the zero value: NoiseBox).
type NoiseRule struct {
	Kind     NoiseKind // NoiseBox, NoiseObserved or NoiseFixed
	Variance float64   // NoiseFixed: the variance, finite and ≥ 0
}

// String is "box", "observed", or the fixed variance.
func (r NoiseRule) String() string {
	switch r.Kind {
	case NoiseBox:
		return "box"
	case NoiseObserved:
		return "observed"
	}
	return strconv.FormatFloat(r.Variance, 'g', -1, 64)
}

// ParseNoiseRule parses "box", "observed" or a variance (a finite number
// ≥ 0).
func ParseNoiseRule(s string) (NoiseRule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "box":
		return NoiseRule{}, nil
	case "observed":
		return NoiseRule{Kind: NoiseObserved}, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return NoiseRule{}, fmt.Errorf("%w: noise rule %q (want box, observed or a variance ≥ 0)", ErrBadConfig, s)
	}
	return NoiseRule{Kind: NoiseFixed, Variance: v}, nil
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
	if p == nil || check.IsNil(p) {
		return nil, fmt.Errorf("%w: Run needs a problem", ErrBadConfig)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	r, err := newRunner(p, cfg, seed, ro)
	if err != nil {
		return nil, err
	}
	// Rounds: the initial design in rounds of at most q points, then the
	// acquisition steps in rounds of q (the last may be shorter). A round's
	// points are asked together (pending for each other), evaluated, then
	// told.
	total, init, q := r.total, r.o.cfg.Init, r.tr.Batch
	for i, round := 0, 0; i < total; round++ {
		m := min(q, total-i)
		if i < init {
			m = min(q, init-i)
		}
		if err := ctx.Err(); err != nil {
			bookkeep(r.tr)
			return r.tr, wrapf(err, "%s: stopped after %d of %d evaluations", p.Name(), i, total)
		}
		resumed := max(0, min(m, len(ro.Resume)-i))
		if resumed == m && (q == 1 || i >= init) && ro.Resume[i].Phase == PhaseBO {
			err = r.replayRound(i, m, round)
		} else {
			err = r.evalRound(i, m, round, resumed)
		}
		if err != nil {
			if r.stopped {
				return r.tr, err
			}
			return nil, err
		}
		i += m
	}
	bookkeep(r.tr)
	if !regretsFinite(r.tr) {
		// f − f* overflows float64 (f* near ∓MaxFloat64): the trace is
		// returned without regrets, which JSON could not carry.
		for i := range r.tr.Evaluations {
			r.tr.Evaluations[i].Regret = nil
		}
		r.tr.CumulativeRegret, r.tr.SimpleRegret = nil, nil
		return r.tr, fmt.Errorf("%w: %s: the regret overflows float64 (optimum f* = %g)", ErrBadConfig, p.Name(), *r.tr.Optimum)
	}
	return r.tr, nil
}

// runner is one Run: the optimizer, the trace so far, and what the
// evaluations need (the noise, the observed-noise design values).
type runner struct {
	p     Problem
	o     *Optimizer
	tr    *Trace
	ro    RunOptions
	seed  uint64
	total int       // Init + Iters
	sd    float64   // the noise's standard deviation
	initF []float64 // f over the initial design (NoiseObserved), reused
	// stopped: OnEvaluation failed, and Run returns the trace so far with
	// its error (other errors return no trace).
	stopped bool
}

// noiseVariance returns the observation noise variance of ro.Noise for p
// (NoiseObserved: 0 here, set from the initial design later).
func noiseVariance(p Problem, ro RunOptions) (float64, error) {
	var noise float64
	switch ro.Noise.Kind {
	case NoiseBox:
		if nz, ok := p.(noisy); ok {
			noise = nz.NoiseVariance()
		}
	case NoiseFixed:
		noise = ro.Noise.Variance
	case NoiseObserved:
	default:
		return 0, fmt.Errorf("%w: %s: noise rule %d", ErrBadConfig, p.Name(), ro.Noise.Kind)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return 0, fmt.Errorf("%w: %s: noise variance %v", ErrBadConfig, p.Name(), noise)
	}
	return noise, nil
}

// newRunner validates the run's settings, builds its optimizer (after the
// noise rule, which may fix the GP noise) and the trace's header.
func newRunner(p Problem, cfg Config, seed uint64, ro RunOptions) (*runner, error) {
	iters := ro.Iters
	if iters == 0 {
		iters = DefaultIters
	}
	noise, err := noiseVariance(p, ro)
	if err != nil {
		return nil, err
	}
	fixNoise := cfg.FixNoise && cfg.Noise == 0
	if fixNoise {
		cfg.Noise = noise
	}
	lo, hi := p.Bounds()
	o, err := New(lo, hi, cfg, seed)
	if err != nil {
		return nil, wrapf(err, "%s", p.Name())
	}
	r := &runner{p: p, ro: ro, seed: seed}
	// NoiseObserved: the noiseless f over the initial design, which the
	// seed fixes, evaluated now (and reused below) to set the variance.
	if ro.Noise.Kind == NoiseObserved {
		if r.initF, noise, err = observedNoise(p, lo, hi, cfg, seed); err != nil {
			return nil, err
		}
		if fixNoise {
			cfg.Noise = noise
			if o, err = New(lo, hi, cfg, seed); err != nil {
				return nil, wrapf(err, "%s", p.Name())
			}
		}
	}
	r.o = o
	c := o.Config()
	if iters < 0 || iters > MaxEvaluations-c.Init {
		return nil, fmt.Errorf("%w: %s: Iters = %d outside [0, %d − Init]", ErrBadConfig, p.Name(), iters, MaxEvaluations)
	}
	r.total = c.Init + iters
	if len(ro.Resume) > r.total {
		return nil, fmt.Errorf("%w: %d evaluations to resume, the run has %d", ErrHistory, len(ro.Resume), r.total)
	}
	// The last step's GPs are the largest: over the budget, the run is
	// refused now, not at that step (a journal of hours behind it). A run
	// resumed whole replays its evaluations and fits nothing.
	if len(ro.Resume) < r.total {
		if err := o.checkRunMemory(r.total, min(max(ro.Batch, 1), MaxBatch)); err != nil {
			return nil, wrapf(err, "%s", p.Name())
		}
	}
	group := "none"
	if g := c.Kernel.Group(); g != nil {
		group = g.Name()
	}
	r.tr = &Trace{
		Problem: p.Name(), D: len(lo), Kernel: c.Kernel.Name(), Candidates: c.Kernel.Candidates(), LeftOut: c.Kernel.LeftOut(), Seed: seed, Minimize: c.Minimize,
		Group: group, Shape: c.Kernel.shapeName(), Acquisition: c.Acquisition.Name(),
		Beta: c.Beta.String(), FitMode: fitModeName(c), FixNoise: c.FixNoise,
		Prior: priorName(c), Landmarks: landmarksOf(c), LandmarkFit: landmarkFitName(c),
		CandidateFit: candidateFitName(c), ProbeWindow: c.Kernel.decide.ProbeWindow, Probe: probeName(c), Hedge: hedgeStarts(c), CandidateStarts: candidateStarts(c), Referee: refereeName(c), Odds: c.Kernel.decide.Odds, Afford: c.Kernel.decide.Afford, BetaScale: c.BetaScale, ExcludeObserved: c.ExcludeObserved, StepAside: c.StepAside, Normalize: c.Normalize, ARD: c.ARD, ResidualVariance: c.ResidualVariance,
		Init: c.Init, Iters: iters, RawSamples: c.RawSamples, Starts: c.Starts,
		MaxIter: c.MaxIter, Backend: c.Backend.Name(), NoiseVariance: noise,
	}
	if ro.Noise.Kind != NoiseBox {
		r.tr.NoiseRule = ro.Noise.String()
	}
	if op, ok := p.(optimumer); ok {
		if fs, ok := op.Optimum(); ok {
			if math.IsNaN(fs) || math.IsInf(fs, 0) {
				return nil, fmt.Errorf("%w: %s: optimum f* = %v is not finite", ErrBadConfig, p.Name(), fs)
			}
			r.tr.Optimum = &fs
		}
	}
	r.sd = math.Sqrt(noise)
	q := ro.Batch
	if q == 0 {
		q = 1
	}
	if q < 1 || q > MaxBatch {
		return nil, fmt.Errorf("%w: %s: batch size %d outside [1, %d]", ErrBadConfig, p.Name(), q, MaxBatch)
	}
	r.tr.Batch = q
	if c.Mean != gp.MeanSample {
		r.tr.Mean = c.Mean.String()
	}
	if c.Liar != LiarMean {
		r.tr.Liar = c.Liar.String()
	}
	return r, nil
}

// replayRound tells a whole resumed acquisition round (evaluations i …
// i+m−1) again, without a fit.
func (r *runner) replayRound(i, m, round int) error {
	for j := range m {
		e := r.ro.Resume[i+j]
		if e.Phase != PhaseBO || e.Round != round {
			return fmt.Errorf("%w: %s: resumed evaluation %d is phase %q round %d, want %q round %d", ErrHistory, r.p.Name(), i+j, e.Phase, e.Round, PhaseBO, round)
		}
		if err := r.o.Tell(e.X, e.Y); err != nil {
			return fmt.Errorf("%w: %s: resumed evaluation %d: %w", ErrHistory, r.p.Name(), i+j, err)
		}
		r.tr.Evaluations = append(r.tr.Evaluations, e)
	}
	return nil
}

// evalRound asks the m points of a round together, checks the first
// resumed of them against the resumed evaluations, evaluates the others,
// and tells them all, calling OnEvaluation after each new one.
func (r *runner) evalRound(i, m, round, resumed int) error {
	p, o := r.p, r.o
	t0 := time.Now()
	xs := make([][]float64, m)
	infos := make([]Diagnostics, m)
	for j := range m {
		x, err := o.Ask()
		if err != nil {
			return wrapf(err, "%s: evaluation %d", p.Name(), i+j)
		}
		xs[j], infos[j] = x, o.Diagnostics()
	}
	asked := time.Since(t0)
	for j := range resumed {
		e := r.ro.Resume[i+j]
		if !check.SameBits(xs[j], e.X) || e.Phase != infos[j].Phase {
			return fmt.Errorf("%w: %s: resumed evaluation %d is not the point these settings ask", ErrHistory, p.Name(), i+j)
		}
	}
	evals := make([]Evaluation, m)
	for j := range m {
		if j < resumed {
			evals[j] = r.ro.Resume[i+j]
			continue
		}
		t1 := time.Now()
		var f float64
		var err error
		if i+j < len(r.initF) {
			f = r.initF[i+j]
		} else if f, err = p.Evaluate(slices.Clone(xs[j])); err != nil {
			return wrapf(err, "%s: evaluation %d", p.Name(), i+j)
		}
		y := f
		if r.sd > 0 {
			y += r.sd * stream(r.seed, tagNoise, uint64(i+j)).NormFloat64()
		}
		evals[j] = newEvaluation(infos[j], xs[j], y, f, round)
		evals[j].Timings.Other = time.Since(t1)
		if j == 0 {
			evals[j].Timings.Other += asked - sumAskTimes(infos)
		}
	}
	for j, e := range evals {
		if err := o.Tell(e.X, e.Y); err != nil {
			return wrapf(err, "%s: evaluation %d", p.Name(), i+j)
		}
		r.tr.Evaluations = append(r.tr.Evaluations, e)
		if j >= resumed && r.ro.OnEvaluation != nil {
			if err := r.ro.OnEvaluation(e); err != nil {
				bookkeep(r.tr)
				r.stopped = true
				return wrapf(err, "%s: evaluation %d", p.Name(), i+j)
			}
		}
	}
	return nil
}

// observedNoise evaluates p at the initial design a run with these
// settings asks (on a fresh optimizer, asked the run's Init design points:
// the design points that are not skipped for falling within the exclusion
// radius of an earlier one's orbit, the same whether those are pending or
// observed) and returns the values, in the order asked, and NoiseFraction
// times their sample variance.
func observedNoise(p Problem, lo, hi []float64, cfg Config, seed uint64) ([]float64, float64, error) {
	o, err := New(lo, hi, cfg, seed)
	if err != nil {
		return nil, 0, wrapf(err, "%s", p.Name())
	}
	n := o.Config().Init
	f := make([]float64, n)
	for i := range n {
		x, err := o.Ask()
		if err != nil {
			return nil, 0, wrapf(err, "%s: initial point %d", p.Name(), i)
		}
		v, err := p.Evaluate(slices.Clone(x))
		if err != nil {
			return nil, 0, wrapf(err, "%s: initial point %d", p.Name(), i)
		}
		f[i] = v
	}
	if n < 2 {
		return f, 0, nil
	}
	var m float64
	for _, v := range f {
		m += v
	}
	m /= float64(n)
	var ss float64
	for _, v := range f {
		ss += (v - m) * (v - m)
	}
	v := NoiseFraction * ss / float64(n-1)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, 0, fmt.Errorf("%w: %s: the initial design's variance overflows", ErrBadConfig, p.Name())
	}
	return f, v, nil
}

// newEvaluation records an asked point, its values and its Diagnostics.
func newEvaluation(info Diagnostics, x []float64, y, f float64, round int) Evaluation {
	e := Evaluation{Phase: info.Phase, X: x, Y: y, F: f, Round: round}
	if info.Phase == PhaseBO {
		h := info.Hyper
		e.Hyper = &h
		e.T = info.T
		if !math.IsNaN(info.Beta) {
			b := info.Beta
			e.Beta = &b
		}
		a := info.Acq
		e.Acq = &a
		e.FromBest, e.Aside = info.FromBest, info.Aside
		e.Timings.Fit, e.Timings.Acq = info.Timings.Fit, info.Timings.Acq
		e.Kernel = info.Kernel
		for _, v := range info.Evidence {
			e.Evidence = append(e.Evidence, jsonFloat(v))
		}
		for _, v := range info.Means {
			e.Means = append(e.Means, jsonFloat(v))
		}
		e.Probe = info.Probe
		e.Hedged, e.CutStarts = info.Hedged, info.CutStarts
	}
	return e
}

// jsonFloat is a float64 that marshals NaN and ±Inf as null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads a number or null (NaN).
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonFloat(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

func sumAskTimes(infos []Diagnostics) time.Duration {
	var t time.Duration
	for _, in := range infos {
		t += in.Timings.Fit + in.Timings.Acq
	}
	return t
}

// landmarksOf is the Trace's Landmarks of c.
func landmarksOf(c Config) int {
	if !c.Kernel.capped && !slices.ContainsFunc(c.Kernel.arms, func(a Kernel) bool { return a.capped }) {
		return 0
	}
	return max(c.Landmarks, -1)
}

func landmarkFitName(c Config) string {
	if c.LandmarkFit == gp.LandmarkFitDefault {
		return ""
	}
	return c.LandmarkFit.String()
}

// hedgeStarts is the hedging ascents per candidate of a portfolio with
// DecideOptions.Hedge (HedgeStarts, 0 or above Config.Starts meaning
// Config.Starts), 0 without hedging: Trace.Hedge, and what the
// portfolio runs.
func hedgeStarts(c Config) int {
	dec := c.Kernel.decide
	if !dec.Hedge || c.Kernel.prop == nil {
		return 0
	}
	if dec.HedgeStarts > 0 {
		return min(dec.HedgeStarts, c.Starts)
	}
	return c.Starts
}

// candidateStarts is the ascents of a portfolio's candidates other than
// the referee (DecideOptions.CandidateStarts), 0 where they run
// Config.Starts like the referee: Trace.CandidateStarts, and what the
// portfolio runs.
func candidateStarts(c Config) int {
	cs := c.Kernel.decide.CandidateStarts
	if c.Kernel.prop == nil || cs <= 0 || cs >= c.Starts {
		return 0
	}
	return cs
}

func probeName(c Config) string {
	if c.Kernel.decide.Probe == ProbeAlways {
		return ""
	}
	return c.Kernel.decide.Probe.String()
}

func refereeName(c Config) string {
	if c.Kernel.decide.Referee == RefereeEvidence {
		return ""
	}
	return c.Kernel.decide.Referee.String()
}

func candidateFitName(c Config) string {
	if c.Kernel.decide.CandidateFit == CandidateFitOwn {
		return ""
	}
	return c.Kernel.decide.CandidateFit.String()
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

// plusZero maps −0 to 0 (a regret of exactly zero, printed "0").
func plusZero(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
}

// regretsFinite reports whether every regret of tr and their sums are
// finite.
func regretsFinite(tr *Trace) bool {
	fin := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, e := range tr.Evaluations {
		if e.Regret != nil && !fin(*e.Regret) {
			return false
		}
	}
	for _, v := range tr.CumulativeRegret {
		if !fin(v) {
			return false
		}
	}
	return true
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
		r := plusZero(sign * (fs - e.F))
		e.Regret = &r
		if e.F == fs {
			e.AtOptimum = true
			tr.ExactOptimumHits++
		}
		if e.Phase == PhaseBO {
			cum += r
			tr.CumulativeRegret = append(tr.CumulativeRegret, cum)
			tr.SimpleRegret = append(tr.SimpleRegret, plusZero(sign*(fs-tr.BestF)))
		}
	}
}
