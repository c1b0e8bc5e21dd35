package bo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/canon"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/internal/qmc"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// Random stream tags: stream (tag, i) is rand.NewPCG(seed, tag<<48|i), or
// for seeds handed to other packages mix(seed, tag, i).
const (
	tagInit  = 1 // initial design point i
	tagFit   = 2 // hyperparameter restarts at n observations
	tagQMC   = 3 // raw-sample scrambling at n observations
	tagNoise = 4 // Run: observation noise of evaluation i
)

func stream(seed uint64, tag, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, tag<<48|i))
}

// mix derives a seed from (seed, tag, i) with the splitmix64 finalizer.
func mix(seed, tag, i uint64) uint64 {
	z := seed ^ (tag<<48|i)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Phase of an evaluation: the initial design or an acquisition step.
const (
	PhaseInit = "init"
	PhaseBO   = "bo"
)

// Diagnostics describes how Ask chose the last point it returned: what Run
// records in each Evaluation.
type Diagnostics struct {
	// Phase is PhaseInit (a point of the uniform initial design: the
	// fields below are zero, Beta and Acq NaN) or PhaseBO (an acquisition
	// step).
	Phase string
	// Hyper holds the GP hyperparameters fitted to the observations
	// (standardized scale; the lengthscale in the model's coordinates,
	// normalized with Config.Normalize) and the jitter their Cholesky
	// factorization needed; LogMarginal is the log marginal likelihood of the
	// standardized observations under them (jitter included, prior not).
	Hyper       Hyper
	LogMarginal float64
	// T is the acquisition step t = n − Init + 1 (n observations, pending
	// and failed points when asked); Beta the UCB weight β_t (NaN for EI).
	T    int
	Beta float64
	// Acq is the acquisition value at the point (on the GP's standardized
	// output scale); FromBest whether the winning ascent started at the
	// best observed point.
	Acq      float64
	FromBest bool
	// Aside (Config.StepAside): the acquisition's best ascent end lay on
	// an observed point's excluded orbit, and the point is the best of
	// those just outside its exclusion radius (Acq its value there).
	Aside bool
	// Timings: wall times of the hyperparameter fit and the acquisition
	// optimization (Other is zero).
	Timings Timings
	// Kernel (auto and portfolio only) is the candidate the step
	// predicted with (auto) or whose proposal it took (portfolio), and
	// Evidence every candidate's fitted log marginal likelihood, in the
	// kernel's order (Kernel.Candidates; NaN: its fit failed, or it sat
	// out, as soft does above the landmark cap).
	Kernel   string
	Evidence []float64
	// Means (portfolio only) is the referee's standardized posterior mean
	// at every candidate's proposal, in the same order (NaN: no proposal —
	// its fit failed, it sat out, or its search found every point it
	// rates on an excluded orbit),
	// then, with DecideOptions.Hedge, at every candidate's hedging
	// proposal, in the same order again.
	Means []float64
	// Probe (portfolio only): the step evaluated avg's proposal as the
	// fixed-point probe, whatever the means.
	Probe bool
	// Hedged (portfolio with DecideOptions.Hedge only): the point is a
	// candidate's maximizer of the hedging acquisition
	// (HedgeAcquisition), not of Config.Acquisition; Acq is its value.
	Hedged bool
	// CutStarts (portfolio under DecideOptions.Afford only): an avg or
	// avgnorm candidate fitted, so the step's search was cut: avg and
	// avgnorm searched from the first ⌈RawSamples/CutRawShare⌉ raw
	// samples and, where CandidateStarts is set, every candidate, the
	// referee included, with CandidateStarts ascents instead of
	// Config.Starts (Afford).
	CutStarts bool
	// LeftOut (auto and portfolio, BO steps): the candidates left out as
	// too costly over the group, with the reason (Kernel.LeftOut).
	LeftOut []string
}

// Optimizer is an ask/tell Bayesian optimizer of a black box on the box
// [lo, hi] (maximizing, or minimizing with Config.Minimize). Its next point
// is a function of (configuration, seed, observations in order, pending
// points in order, failed points in order): it keeps no other state that
// could change a result, so an optimizer rebuilt from its History proposes
// the same bits. It is not safe for concurrent use
// (it parallelizes internally).
type Optimizer struct {
	cfg    Config
	lo, hi []float64
	d      int
	seed   uint64
	// arms are the kernels the optimizer can predict with (one, or
	// auto's candidates); cur the one fitted last, whose family and
	// canonical map fam and canon are.
	arms  []arm
	cur   int
	fam   gp.Family
	canon *canonMap // non-nil: predict in canonical coordinates (max, plus)
	sign  float64   // +1 maximizing, −1 minimizing: the GP sees sign·y

	xs [][]float64
	ys []float64 // as told

	model  gp.Posterior // fitted on X
	fitted Diagnostics  // the fit of model: Hyper (with jitter), LogMarginal
	// armFits are every candidate's fit (auto, portfolio; nil: failed),
	// refArm the one the evidence chose.
	armFits []*gp.GP
	refArm  int
	fitN    int          // len(xs) when model was fitted
	pred    gp.Posterior // predicts: model with the pending lies, or its twin on φ
	// predCanon is canon when pred is the twin on φ, nil when it predicts
	// at x itself (no canonical map, or a landmark GP).
	predCanon *canonMap
	pend      [][]float64 // pending points (asked, not told), in asking order
	// failed are the points whose evaluation failed (Fail), in reporting
	// order: excluded like pending points that never return.
	failed [][]float64
	last   Diagnostics

	// units maps the user's coordinates x to the model's u
	// (Config.Normalize; nil: the model sees x itself). mlo and mhi are
	// the box in the model's coordinates (lo and hi themselves without
	// units); mxs, mpend and mfailed the images of the observed, pending
	// and failed points (with units), brought up to date by Ask and fit
	// (syncModel). Everything Ask calls works on the model's coordinates
	// (modelXs, modelPend, modelFailed), and Ask maps its point back
	// once (toUser).
	units               *units
	mlo, mhi            []float64
	mxs, mpend, mfailed [][]float64

	// classes numbers the coordinates' classes for Protocol.ARD (nil: one
	// lengthscale), and ard is the current fit's scale of each coordinate
	// (ard.go; nil: none), by which every GP sees the model's
	// coordinates: the GPs are fitted, conditioned and evaluated at
	// ard ⊙ u.
	classes      []int
	ard          []float64
	ardCanon     orbit.Canonicalizer // non-nil: the class fit is on φ(u)
	canonClasses []int               // the class of each of φ's coordinates

	ws []*acqScratch
	qn []*boxQN
}

// MinRelativeWidth is the narrowest box side New accepts, relative to
// the side's magnitude: hi_i − lo_i ≥ MinRelativeWidth·max(|lo_i|, |hi_i|),
// so that a side holds at least about 2^52·10^−10 ≈ 4.5·10^5
// floating-point numbers and the
// exclusion radius (a thousandth of the diagonal) spans many of them. A
// side of [10^15, 10^15 + 1] holds 9 and is refused.
const MinRelativeWidth = 1e-10

// MinSideFloats is the fewest float64 values a box side [lo_i, hi_i]
// may hold (counting both ends): MinRelativeWidth's count where the
// side's magnitude sets its spacing, and the rule near 0, where it does
// not (subnormal sides are accepted, [0, 1e-310] holds 2·10^13 values;
// [0, 5e-324] holds two and is refused).
const MinSideFloats = 1 << 18

// sideFloats is the number of float64 values in [lo, hi] (finite,
// lo ≤ hi), −0 and +0 counted once.
func sideFloats(lo, hi float64) uint64 {
	key := func(x float64) int64 {
		b := math.Float64bits(x)
		if b>>63 == 1 {
			return -int64(b &^ (1 << 63))
		}
		return int64(b)
	}
	return uint64(key(hi)-key(lo)) + 1
}

// New returns an optimizer on the box [lo, hi] (copied; lo_i < hi_i,
// finite, each side at least MinRelativeWidth of its magnitude and
// holding MinSideFloats numbers) with the GP covariance cfg.Kernel, whose group (if any) must act
// on dimension len(lo). The seed determines every random choice. Errors
// wrap ErrBadConfig, ErrUnknownKernel or ErrMaxNotPSD, or, for a kernel
// whose GP family cannot be built, the gp or kernel error that refuses it
// ("bo: kernel <name>: …"; e.g. kernel.ErrInvalid for a shape outside the
// table), with that error's class.
//
// New also refuses what the first BO step after the initial design is
// sure to fail on, so that no evaluation is spent before the error: in
// the model's coordinates (the user's without Config.Normalize) a side
// whose width hi_i − lo_i overflows float64, or a far corner of the box
// whose canonical image under the kernel's group does not fit in float64
// (rotation2d: a corner farther than MaxFloat64 from the origin) —
// ErrBadConfig, saying to rescale or to set Normalize —; and raw samples
// (Config.RawSamples) or a GP on Config.Init points over Config.Budget —
// orbit.ErrOverBudget. What depends on the observations (a later GP over
// the budget, a fit that fails on the values told) is reported by the Ask
// that meets it.
func New(lo, hi []float64, cfg Config, seed uint64) (*Optimizer, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	d := len(lo)
	if d == 0 || len(hi) != d {
		return nil, fmt.Errorf("%w: box has %d lower and %d upper bounds", ErrBadConfig, len(lo), len(hi))
	}
	if d > MaxDim {
		return nil, fmt.Errorf("%w: box dimension %d exceeds %d (MaxDim)", ErrBadConfig, d, MaxDim)
	}
	for i := range lo {
		switch {
		case math.IsNaN(lo[i]) || math.IsNaN(hi[i]) || math.IsInf(lo[i], 0) || math.IsInf(hi[i], 0):
			return nil, fmt.Errorf("%w: coordinate %d's bounds [%v, %v] are not finite; give every coordinate finite bounds lo < hi", ErrBadConfig, i, lo[i], hi[i])
		case lo[i] > hi[i]:
			return nil, fmt.Errorf("%w: coordinate %d's lower bound %v is above its upper bound %v; swap them (lo first, then hi)", ErrBadConfig, i, lo[i], hi[i])
		case lo[i] == hi[i]:
			return nil, fmt.Errorf("%w: coordinate %d's bounds are both %v; a fixed parameter is not searched: leave it out of the box, or give it a range lo < hi", ErrBadConfig, i, lo[i])
		case hi[i]-lo[i] < MinRelativeWidth*max(math.Abs(lo[i]), math.Abs(hi[i])):
			return nil, fmt.Errorf("%w: coordinate %d's range [%v, %v] is narrower than %g of its magnitude: it holds too few floating-point numbers to search or to keep proposals apart; shift the parameter (subtract %v)", ErrBadConfig, i, lo[i], hi[i], MinRelativeWidth, lo[i])
		case sideFloats(lo[i], hi[i]) < MinSideFloats:
			return nil, fmt.Errorf("%w: coordinate %d's range [%v, %v] holds %d floating-point numbers, fewer than %d: too few to search or to keep proposals apart; rescale the parameter (multiply it by 1e300)", ErrBadConfig, i, lo[i], hi[i], sideFloats(lo[i], hi[i]), MinSideFloats)
		}
	}
	k := cfg.Kernel
	if g := k.group; g != nil {
		if orbit.IsNil(g) {
			return nil, fmt.Errorf("%w: kernel %s has a nil group", ErrBadConfig, k.Name())
		}
		if g.Dim() != d {
			return nil, fmt.Errorf("%w: group %s acts on dimension %d, box has %d", ErrBadConfig, g.Name(), g.Dim(), d)
		}
		if err := orbit.Check(g); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadConfig, err)
		}
	} else if k.needsGroup {
		return nil, fmt.Errorf("%w: kernel %s needs a group", ErrBadConfig, k.Name())
	}
	if k.err != nil {
		return nil, k.err
	}
	env := famEnv{d: d, workers: cfg.Workers, be: cfg.Backend, budget: cfg.Budget, landmarks: cfg.Landmarks}
	ks := k.arms
	if ks == nil {
		ks = []Kernel{k}
	}
	arms := make([]arm, len(ks))
	for i, ak := range ks {
		fam, err := ak.family(env)
		if err != nil {
			return nil, wrapf(err, "kernel %s", ak.Name())
		}
		arms[i] = arm{k: ak, fam: fam}
		if ak.canon {
			arms[i].canon, _ = newCanonMap(ak.group)
		}
	}
	o := &Optimizer{
		cfg: cfg, lo: append([]float64(nil), lo...), hi: append([]float64(nil), hi...),
		d: d, seed: seed, sign: 1, arms: arms,
	}
	o.use(0)
	if cfg.Minimize {
		o.sign = -1
	}
	o.mlo, o.mhi = o.lo, o.hi
	if cfg.Normalize {
		o.units = newUnits(o.lo, o.hi, k.group)
		o.mlo, o.mhi = o.units.toModelTo(nil, o.lo), o.units.toModelTo(nil, o.hi)
	}
	if cfg.ARD {
		o.classes = ardClasses(k, d)
		if o.classes != nil {
			o.ardCanon, o.canonClasses = classCanon(k.ardGroup(), o.classes)
		}
	}
	// What the first BO step is sure to run into is refused now, before
	// the initial design's evaluations are spent.
	if err := o.checkModelBox(); err != nil {
		return nil, err
	}
	if err := o.checkFirstStepMemory(); err != nil {
		return nil, err
	}
	return o, nil
}

// checkModelBox fails (wrapping ErrBadConfig) for a box whose arithmetic
// overflows float64 in the model's coordinates (the user's without
// Normalize), which every BO step would run into once the initial design
// had been evaluated: a side whose width hi − lo overflows (the kernels
// take differences of points of the box: their gradient at two points
// that far apart is 0·∞, "∂k/∂x = NaN"), and, for a kernel over a group
// with a canonical map, a box whose far corner (each coordinate's bound of
// larger magnitude) has a canonical image that is not finite
// (rotation2d's radius ‖x‖, which every kernel over it computes: a
// corner beyond MaxFloat64 from the origin). With Normalize the model's
// box is about [−1, 1] and neither arises (but over a scaling group,
// whose coordinates are not mapped).
func (o *Optimizer) checkModelBox() error {
	far := make([]float64, o.d)
	for i := range o.mlo {
		if math.IsInf(o.mhi[i]-o.mlo[i], 0) {
			return fmt.Errorf("%w: coordinate %d's range [%v, %v] is wider than float64 holds (hi − lo overflows): differences of points in it overflow the kernel's arithmetic, and the first BO step would fail once the initial design was evaluated; rescale the parameter (divide it by 2), or set Normalize (the front ends' normalize setting, on by default)", ErrBadConfig, i, o.lo[i], o.hi[i])
		}
		far[i] = o.mhi[i]
		if math.Abs(o.mlo[i]) > math.Abs(o.mhi[i]) {
			far[i] = o.mlo[i]
		}
	}
	c, ok := o.cfg.Kernel.group.(orbit.Canonicalizer)
	if !ok {
		return nil
	}
	z := make([]float64, c.CanonicalDim())
	c.CanonicalTo(z, far)
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: the box's far corner %v has a canonical image under %s that overflows float64 (%v): the kernel's arithmetic overflows there, and the first BO step would fail once the initial design was evaluated; rescale the parameters (divide them by 2), or set Normalize (the front ends' normalize setting, on by default)", ErrBadConfig, o.toUser(far), o.cfg.Kernel.group.Name(), z)
		}
	}
	return nil
}

// checkFirstStepMemory fails (wrapping orbit.ErrOverBudget) where the
// first BO step is sure to exceed the memory budget, however the initial
// design is told: its raw samples (checkRawMemory), or, for every kernel
// it could predict with, a GP on Init points — the fewest that step fits
// (Init observations) or conditions on (observations and pending or
// failed points, at least Init of them).
func (o *Optimizer) checkFirstStepMemory() error {
	if err := o.checkRawMemory(); err != nil {
		return err
	}
	n := o.cfg.Init
	least, name := math.Inf(1), ""
	for i, a := range o.arms {
		if len(o.arms) > 1 && o.skipArm(i, n) {
			continue
		}
		if m := gp.Memory(a.fam, n); m < least {
			least, name = m, a.k.Name()
		}
	}
	if math.IsInf(least, 1) {
		return nil
	}
	if err := budget.Limit(o.cfg.Budget).Check(fmt.Sprintf("a GP of kernel %s on the %d initial points (the first BO step's)", name, n), least); err != nil {
		return fmt.Errorf("%w (Config.Init, Config.Budget)", err)
	}
	return nil
}

// checkRunMemory fails (wrapping orbit.ErrOverBudget) when a run of
// total evaluations, asked in rounds of at most q, is sure to exceed the
// memory budget: its raw samples (checkRawMemory), or a GP of some kernel
// of the optimizer at the run's largest (gp.Memory, which each fit and
// conditioning checks again) — on total − 1 points (the last step's
// observations and pending points), or for a candidate that sits out
// above the landmark cap (soft) on the Landmarks observations it fits at
// most and q − 1 pending points. Every kernel is checked, so that no
// candidate's fit is refused within a run that starts.
func (o *Optimizer) checkRunMemory(total, q int) error {
	if err := o.checkRawMemory(); err != nil {
		return err
	}
	lim := budget.Limit(o.cfg.Budget)
	n := total - 1
	for i, a := range o.arms {
		m := n
		if len(o.arms) > 1 && o.skipArm(i, n) {
			m = min(n, o.cfg.Landmarks+q-1)
		}
		if err := lim.Check(fmt.Sprintf("a GP of kernel %s on %d points (the run's largest)", a.k.Name(), m), gp.Memory(a.fam, m)); err != nil {
			return err
		}
	}
	return nil
}

// checkRawMemory fails (wrapping orbit.ErrOverBudget) when a step's raw
// samples — RawSamples+1 points of d coordinates, two scores and an error
// slot each, held at once by rawScores — exceed the memory budget.
func (o *Optimizer) checkRawMemory() error {
	// The samples and their scores, and the scrambled Halton sequence's
	// tables (quadratic in d: about 90 MB at d = MaxDim).
	raw := float64(o.cfg.RawSamples+1)*float64(o.d*8+2*8+16) + qmc.TableBytes(o.d)
	if err := budget.Limit(o.cfg.Budget).Check(fmt.Sprintf("the acquisition's %d raw samples in dimension %d (and their quasi-random tables)", o.cfg.RawSamples, o.d), raw); err != nil {
		return fmt.Errorf("%w (Config.RawSamples, Config.Budget)", err)
	}
	return nil
}

// syncModel brings the images of the observed, pending and failed points
// up to date (with units; nothing to do without): the observed ones are
// mapped once each, as they are told, the pending and failed ones anew,
// as they come and go.
func (o *Optimizer) syncModel() {
	if o.units == nil {
		return
	}
	for len(o.mxs) < len(o.xs) {
		o.mxs = append(o.mxs, o.units.toModelTo(nil, o.xs[len(o.mxs)]))
	}
	o.mpend, o.mfailed = o.toModelAll(o.pend), o.toModelAll(o.failed)
}

// modelXs, modelPend and modelFailed are the observed, pending and failed
// points in the model's coordinates: the points themselves without units,
// else their images as of the last syncModel.
func (o *Optimizer) modelXs() [][]float64 {
	if o.units == nil {
		return o.xs
	}
	return o.mxs
}

func (o *Optimizer) modelPend() [][]float64 {
	if o.units == nil {
		return o.pend
	}
	return o.mpend
}

func (o *Optimizer) modelFailed() [][]float64 {
	if o.units == nil {
		return o.failed
	}
	return o.mfailed
}

// toModelAll returns the images of ps in the model's coordinates.
func (o *Optimizer) toModelAll(ps [][]float64) [][]float64 {
	out := make([][]float64, len(ps))
	for i, p := range ps {
		out[i] = o.units.toModelTo(nil, p)
	}
	return out
}

// toUser returns the model's point u in the user's coordinates, clamped
// into the box (u itself without units).
func (o *Optimizer) toUser(u []float64) []float64 {
	if o.units == nil {
		return u
	}
	return o.units.toUser(u, o.lo, o.hi)
}

// asTold returns the model's point u as the optimizer holds it once the
// user's point toUser(u) is told: the model's image of toUser(u), which
// differs from u by the rounding of the user's coordinates (u itself
// without units).
func (o *Optimizer) asTold(u []float64) []float64 {
	if o.units == nil {
		return u
	}
	return o.units.toModelTo(nil, o.units.toUser(u, o.lo, o.hi))
}

// arm is a kernel an Optimizer can predict with: its own, or one of
// auto's candidates.
type arm struct {
	k     Kernel
	fam   gp.Family
	canon *canonMap // non-nil: predict in canonical coordinates (max, plus)
}

// use makes arm i the one the optimizer predicts with.
func (o *Optimizer) use(i int) {
	o.cur = i
	o.fam, o.canon = o.arms[i].fam, o.arms[i].canon
}

// scratchDim is the coordinate dimension acquisition scratch must hold:
// d, or the largest canonical dimension of an arm.
func (o *Optimizer) scratchDim() int {
	pd := o.d
	for _, a := range o.arms {
		if a.canon != nil {
			pd = max(pd, a.canon.cd)
		}
	}
	return pd
}

// Config returns the configuration with defaults filled in.
func (o *Optimizer) Config() Config {
	if o == nil {
		return Config{}
	}
	return o.cfg
}

// Dim returns d, the dimension of the box.
func (o *Optimizer) Dim() int {
	if o == nil {
		return 0
	}
	return o.d
}

// N returns the number of observations told.
func (o *Optimizer) N() int {
	if o == nil {
		return 0
	}
	return len(o.xs)
}

// Best returns a copy of the best observed point (largest y, or smallest
// with Config.Minimize; the earliest on ties) and its y; ok is false
// before the first Tell.
func (o *Optimizer) Best() (x []float64, y float64, ok bool) {
	if o == nil {
		return nil, 0, false
	}
	i := o.bestIndex()
	if i < 0 {
		return nil, 0, false
	}
	return append([]float64(nil), o.xs[i]...), o.ys[i], true
}

func (o *Optimizer) bestIndex() int {
	b := -1
	for i, y := range o.ys {
		if b < 0 || o.sign*y > o.sign*o.ys[b] {
			b = i
		}
	}
	return b
}

// Diagnostics describes how the most recent Ask chose its point (the zero
// value before the first). Its slices are the caller's own copies.
func (o *Optimizer) Diagnostics() Diagnostics {
	if o == nil {
		return Diagnostics{}
	}
	return o.last.clone()
}

// clone returns d with its slices copied: the optimizer's own share them
// with its fitted state (an edit by a caller changed what the next Ask
// of the batch reported).
func (d Diagnostics) clone() Diagnostics {
	d.Hyper.Lengthscales = slices.Clone(d.Hyper.Lengthscales)
	d.Evidence = slices.Clone(d.Evidence)
	d.Means = slices.Clone(d.Means)
	d.LeftOut = slices.Clone(d.LeftOut)
	return d
}

// Ask returns the next point to evaluate (a fresh slice inside the box)
// and records it as pending — asked, not yet told — so that Ask may be
// called again before its value is known (parallel evaluations).
//
// While fewer than Init points have been observed, are pending or failed,
// and for as long as nothing has been observed (every earlier point
// pending or failed: the start of a parallel study, or failing
// evaluations), it returns the next point of the uniform initial design
// (point i draws from stream (seed, i), i counting from the number of
// points handed out so far), skipping any design point that falls within
// the exclusion radius of the orbit of an observed, pending or failed
// point. Afterwards it fits the GP to the observations, conditions it on
// the pending and failed points with the constant liar (each is told, for
// the acquisition only, the mean of the values observed so far, so the
// posterior variance — the acquisition's exploration bonus — vanishes
// near it and, with an invariant kernel, near its whole orbit), and
// maximizes the acquisition off their orbits (and off the observed
// points' with Config.ExcludeObserved; ErrSpaceExhausted when no point is left:
// see "The exclusion radius" in the package documentation). The point
// is a function of the configuration, the seed, the observations, the
// pending points and the failed points.
func (o *Optimizer) Ask() ([]float64, error) {
	if o == nil || o.fam == nil {
		return nil, errNotNew
	}
	n, k := len(o.xs), len(o.pend)+len(o.failed)
	if n+k >= MaxEvaluations {
		return nil, fmt.Errorf("%w: %d observations and %d pending or failed points reach MaxEvaluations", ErrBadConfig, n, k)
	}
	// The one boundary between the user's coordinates and the model's:
	// everything below sees the model's (Config.Normalize), and its point
	// u comes back here.
	o.syncModel()
	var u []float64
	if n+k < o.cfg.Init || n == 0 {
		var err error
		if u, err = o.nextDesignPoint(n + k); err != nil {
			return nil, err
		}
		o.last = Diagnostics{Phase: PhaseInit, Beta: math.NaN(), Acq: math.NaN()}
	} else {
		var err error
		u, err = o.acquire()
		if err != nil {
			return nil, err
		}
	}
	x := o.toUser(u)
	o.pend = append(o.pend, x)
	return append([]float64(nil), x...), nil
}

// maxDesignSkips bounds the design points nextDesignPoint passes over
// (each within the exclusion radius of an orbit already handed out, which
// uniform points almost never are: the bound stops a degenerate box).
const maxDesignSkips = 1 << 12

// nextDesignPoint returns design point i, or the first of i+1, i+2, …
// that is not within the exclusion radius of the orbit of an observed,
// pending or failed point.
func (o *Optimizer) nextDesignPoint(i int) ([]float64, error) {
	for j := range maxDesignSkips {
		x := o.designPoint(i + j)
		if !o.onExcludedOrbit(x, true) {
			return x, nil
		}
	}
	return nil, fmt.Errorf("%w: %d initial-design points in a row fall on the orbits of the %d observed, pending or failed points", ErrSpaceExhausted, maxDesignSkips, len(o.xs)+len(o.pend)+len(o.failed))
}

// AskBatch returns q points to evaluate in parallel: the points q
// successive Asks return (each pending for the next). With an invariant
// kernel no two of them lie on one orbit. It is all or nothing: on an
// error no point of the batch stays pending.
func (o *Optimizer) AskBatch(q int) ([][]float64, error) {
	if q < 1 || q > MaxBatch {
		return nil, fmt.Errorf("%w: batch size %d outside [1, %d]", ErrBadConfig, q, MaxBatch)
	}
	out := make([][]float64, 0, q)
	for range q {
		x, err := o.Ask()
		if err != nil {
			for _, p := range out {
				o.Cancel(p)
			}
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// Pending returns copies of the pending points, in the order they were
// asked.
func (o *Optimizer) Pending() [][]float64 {
	if o == nil {
		return nil
	}
	return copyPoints(o.pend)
}

func copyPoints(ps [][]float64) [][]float64 {
	out := make([][]float64, len(ps))
	for i, p := range ps {
		out[i] = append([]float64(nil), p...)
	}
	return out
}

// AddPending records x as pending (asked elsewhere — by another process,
// or before a restart — and not yet told), as if this optimizer had
// returned it. x must be a point of the box: ErrBadPoint otherwise (its
// length, a NaN or infinite coordinate, a coordinate outside the box);
// ErrBadConfig beyond MaxEvaluations points in all or for an Optimizer
// New did not make.
func (o *Optimizer) AddPending(x []float64) error {
	if o == nil || o.fam == nil {
		return errNotNew
	}
	if err := o.checkPoint(x); err != nil {
		return err
	}
	if len(o.xs)+len(o.pend)+len(o.failed) >= MaxEvaluations {
		return fmt.Errorf("%w: too many pending points", ErrBadConfig)
	}
	o.pend = append(o.pend, append([]float64(nil), x...))
	return nil
}

// Fail records that the evaluation of x failed (the black box crashed,
// timed out or returned no usable value); x, if pending (bit for bit),
// stops being pending. Neither x nor any point of its orbit (within the
// exclusion radius, under the kernel's group) is proposed again, in the
// initial design or afterwards; and, once something has been observed, a
// failed point is told the mean of the observed values for the
// acquisition only, like a pending point that never returns (the constant
// liar), so the exploration bonus also vanishes around it. The GP's
// hyperparameters are fitted to the real observations alone. An
// observation supersedes a failure, in either order: a failed point that
// is told later (Tell with the same bits) stops being failed, and Fail of
// a point already observed (bit for bit: an evaluation repeated, which
// failed) records no failure — it only ends a pending copy of x, if any,
// and returns nil — so no point is ever both observed and failed, and the
// liar never conditions on a copy of an observed point. x must be a point
// of the box; failed points count towards MaxEvaluations and are kept in
// History. Fail costs O(n·d) for n observations.
func (o *Optimizer) Fail(x []float64) error {
	if o == nil || o.fam == nil {
		return errNotNew
	}
	if err := o.checkPoint(x); err != nil {
		return err
	}
	cancelled := o.Cancel(x)
	if o.observed(x) {
		return nil
	}
	if !cancelled && len(o.xs)+len(o.pend)+len(o.failed) >= MaxEvaluations {
		return fmt.Errorf("%w: too many failed points", ErrBadConfig)
	}
	o.failed = append(o.failed, append([]float64(nil), x...))
	return nil
}

// Failed returns copies of the failed points, in the order they were
// reported.
func (o *Optimizer) Failed() [][]float64 {
	if o == nil {
		return nil
	}
	return copyPoints(o.failed)
}

// Cancel forgets the pending point x (bit for bit equal to one Ask
// returned), e.g. when its evaluation failed: one copy of it, if x was
// added as pending more than once. It reports whether x was pending.
func (o *Optimizer) Cancel(x []float64) bool {
	if o == nil {
		return false
	}
	for i, p := range o.pend {
		if check.SameBits(p, x) {
			o.pend = append(o.pend[:i:i], o.pend[i+1:]...)
			return true
		}
	}
	return false
}

// designPoint returns point i of the uniform initial design (stream
// (seed, tagInit, i)), in the model's box.
func (o *Optimizer) designPoint(i int) []float64 {
	rng := stream(o.seed, tagInit, uint64(i))
	x := make([]float64, o.d)
	for k := range x {
		x[k] = lerp(o.mlo[k], o.mhi[k], rng.Float64())
	}
	clampInto(x, o.mlo, o.mhi)
	return x
}

// Tell records the observation y at x. x must have length d, finite
// coordinates inside the box, and y must be finite; otherwise Tell returns
// an error (wrapping ErrBadPoint or ErrBadValue) and the optimizer is
// unchanged. x need not come from Ask; if it is pending or failed (bit for
// bit), it stops being so — every copy of it (AddPending twice, or Fail
// twice): an observed point is never pending or failed right after its
// Tell, and never failed at all (see Fail). Duplicate points are allowed.
// An observation that is neither pending nor failed beyond
// MaxEvaluations points in all is ErrBadConfig, as AddPending's and
// Fail's are: a History the optimizer writes is one Restore reads.
func (o *Optimizer) Tell(x []float64, y float64) error {
	if o == nil || o.fam == nil {
		return errNotNew
	}
	if err := o.checkPoint(x); err != nil {
		return err
	}
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return fmt.Errorf("%w: y = %v is not finite; report an evaluation that failed with Fail (perf suggest: --failed), not as a value", ErrBadValue, y)
	}
	if len(o.xs)+len(o.pend)+len(o.failed) >= MaxEvaluations && !o.isPendingOrFailed(x) {
		return fmt.Errorf("%w: too many observations (%d observed, %d pending and %d failed points: at most MaxEvaluations = %d in all)",
			ErrBadConfig, len(o.xs), len(o.pend), len(o.failed), MaxEvaluations)
	}
	o.xs = append(o.xs, append([]float64(nil), x...))
	o.ys = append(o.ys, y)
	// x, if pending or failed (every copy), is now observed.
	o.pend, o.failed = without(o.pend, x), without(o.failed, x)
	return nil
}

// without returns ps without the points bit for bit equal to x: ps itself
// when there is none, else a fresh slice (ps may be shared).
func without(ps [][]float64, x []float64) [][]float64 {
	i := slices.IndexFunc(ps, func(p []float64) bool { return check.SameBits(p, x) })
	if i < 0 {
		return ps
	}
	out := append(make([][]float64, 0, len(ps)-1), ps[:i]...)
	for _, p := range ps[i+1:] {
		if !check.SameBits(p, x) {
			out = append(out, p)
		}
	}
	return out
}

// isPendingOrFailed reports whether x (bit for bit) is pending or failed:
// telling it then adds no point to the optimizer's count.
func (o *Optimizer) isPendingOrFailed(x []float64) bool {
	same := func(p []float64) bool { return check.SameBits(p, x) }
	return slices.ContainsFunc(o.pend, same) || slices.ContainsFunc(o.failed, same)
}

// observed reports whether x (bit for bit) has been told.
func (o *Optimizer) observed(x []float64) bool {
	return slices.ContainsFunc(o.xs, func(p []float64) bool { return check.SameBits(p, x) })
}

func (o *Optimizer) checkPoint(x []float64) error {
	if err := o.checkFinite(x, "x"); err != nil {
		return err
	}
	for i, v := range x {
		if v < o.lo[i] || v > o.hi[i] {
			return fmt.Errorf("%w: x[%d] = %v is outside [%v, %v]", ErrBadPoint, i, v, o.lo[i], o.hi[i])
		}
	}
	return nil
}

// checkFinite refuses (ErrBadPoint) a point p, named what in the error,
// whose length is not d or which has a non-finite coordinate.
func (o *Optimizer) checkFinite(p []float64, what string) error {
	if len(p) != o.d {
		return fmt.Errorf("%w: %s has length %d, want %d", ErrBadPoint, what, len(p), o.d)
	}
	for i, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s[%d] = %v is not finite", ErrBadPoint, what, i, v)
		}
	}
	return nil
}

// step returns the BO step t = n − Init + 1 (at least 1) of an ask with
// n observations, pending and failed points: β's t and the probe
// window's.
func (o *Optimizer) step(n int) int {
	return max(n-o.cfg.Init+1, 1)
}

// beta returns t and β for n observations, pending and failed points.
func (o *Optimizer) beta(n int) (int, float64) {
	t := o.step(n)
	var b float64
	switch o.cfg.Beta {
	case BetaAuthors:
		b = 0.5 * float64(o.d) * math.Log(2*float64(n))
	default:
		b = 0.5 * float64(o.d) * math.Log(float64(t))
	}
	if s := o.cfg.BetaScale; s > 0 {
		b *= s
	}
	return t, max(b, 0)
}

// fit fits the GP to the observations.
func (o *Optimizer) fit() error {
	o.syncModel()
	n := len(o.xs)
	if o.model == nil || o.fitN != n {
		if err := o.fitModel(); err != nil {
			return err
		}
		o.fitN = n
	}
	return o.condition()
}

// fitModel fits the GP to the observations. It is a function of the
// observations alone, so fit reuses it while only pending points change
// (the asks of one batch).
func (o *Optimizer) fitModel() error {
	n := len(o.xs)
	x := mat.NewDense(n, o.d, nil)
	for i, p := range o.modelXs() {
		x.SetRow(i, p)
	}
	// No warm start from the previous fit: the fit, like every step, is a
	// function of the observations (see Optimizer).
	opts := gp.FitOptions{
		Backend:  o.cfg.Backend,
		Mode:     o.cfg.FitMode,
		Restarts: o.cfg.Restarts,
		Seed:     mix(o.seed, tagFit, uint64(n)),
		FixNoise: o.cfg.FixNoise,
		Noise:    o.cfg.Noise,
		Budget:   o.cfg.Budget,
		Mean:     o.cfg.Mean,

		LandmarkFit:      o.cfg.LandmarkFit,
		ResidualVariance: o.cfg.ResidualVariance,
	}
	if o.cfg.Prior != gp.PriorNone {
		opts.Prior = o.cfg.Prior
		for i := range o.mlo {
			opts.PriorScale = max(opts.PriorScale, width(o.mlo[i], o.mhi[i]))
		}
	}
	o.ard = o.fitClasses(x, opts)
	scaleRows(x, o.ard)
	// Auto: every candidate is fitted with the same options; the highest
	// log marginal likelihood predicts (ties: the earlier candidate). A
	// candidate whose fit fails drops out of this step; the step fails
	// only when all do.
	// With several candidates and workers they are fitted concurrently
	// (each fit is a function of the observations and opts alone, so the
	// bits are the same; each is its own request within the budget).
	// Anchored (DecideOptions.CandidateFit): the last candidate first, then the
	// others around its lengthscale — still a function of the
	// observations alone.
	ys := o.signed()
	fits := make([]*gp.GP, len(o.arms))
	errs := make([]error, len(o.arms))
	anchor := -1
	if last := len(o.arms) - 1; last > 0 && o.cfg.Kernel.decide.CandidateFit == CandidateFitAnchored && !o.skipArm(last, n) {
		anchor = last
		fits[anchor], errs[anchor] = gp.Fit(o.arms[anchor].fam, x, ys, opts)
	}
	parallel.For(len(o.arms), o.cfg.Workers, func(_, i int) {
		if i == anchor {
			return
		}
		if len(o.arms) > 1 && o.skipArm(i, n) {
			errs[i] = errArmSkipped
			return
		}
		oi := opts
		if anchor >= 0 && errs[anchor] == nil {
			oi.Around = fits[anchor].Hyper().Lengthscale
		}
		fits[i], errs[i] = gp.Fit(o.arms[i].fam, x, ys, oi)
	})
	var m *gp.GP
	var evidence []float64
	best, bestLML := -1, math.Inf(-1)
	var firstErr error
	loo := o.looScores(fits, errs)
	for i, a := range o.arms {
		mi, err := fits[i], errs[i]
		if err != nil {
			if len(o.arms) == 1 {
				return wrapf(err, "fit at n = %d", n)
			}
			if err == errArmSkipped {
				evidence = append(evidence, math.NaN())
				continue
			}
			if firstErr == nil {
				firstErr = wrapf(err, "fit of %s at n = %d", a.k.Name(), n)
			}
			evidence = append(evidence, math.NaN())
			continue
		}
		lml := mi.LogMarginal()
		if o.deciding() {
			evidence = append(evidence, lml)
		}
		score := lml
		if loo != nil {
			score = loo[i]
		}
		if o.cfg.Kernel.isFavoured(i) {
			score += o.cfg.Kernel.logOdds()
		}
		if best < 0 || score > bestLML {
			best, bestLML, m = i, score, mi
		}
	}
	if best < 0 {
		return firstErr
	}
	o.armFits, o.refArm = fits, best
	o.fitted = Diagnostics{}
	o.setModel(best, m)
	if o.deciding() {
		o.fitted.Evidence = evidence
	}
	return nil
}

// looScores returns the candidates' leave-one-out log predictive
// densities (DecideOptions.Referee = RefereeLOO), or nil: with the
// evidence rule, with one candidate, or when a fitted candidate has none
// (a landmark GP), so that every candidate is scored alike.
func (o *Optimizer) looScores(fits []*gp.GP, errs []error) []float64 {
	if o.cfg.Kernel.decide.Referee != RefereeLOO || len(o.arms) < 2 {
		return nil
	}
	s := make([]float64, len(fits))
	for i, m := range fits {
		if errs[i] != nil {
			continue
		}
		v, err := m.LOOLogPredictive()
		if err != nil || math.IsNaN(v) {
			return nil
		}
		s[i] = v
	}
	return s
}

// setModel makes arm i, fitted as m, the model the optimizer predicts
// with, and records its fit.
func (o *Optimizer) setModel(i int, m *gp.GP) {
	o.use(i)
	h := m.Hyper()
	o.model = m
	o.fitted.Hyper = Hyper{Variance: h.Variance, Lengthscale: h.Lengthscale, Noise: h.Noise, Jitter: m.Jitter(), Landmarks: m.Landmarks(), PriorMean: m.PriorMean()}
	if o.ard != nil {
		o.fitted.Hyper.Lengthscales = make([]float64, o.d)
		for k, s := range o.ard {
			o.fitted.Hyper.Lengthscales[k] = h.Lengthscale / s
		}
	}
	o.fitted.LogMarginal = m.LogMarginal()
	o.fitted.Kernel = ""
	if o.deciding() {
		o.fitted.Kernel = o.arms[i].k.Name()
	}
}

// deciding reports whether the kernel is auto or portfolio, whose
// Diagnostics name the candidate used and every candidate's evidence —
// also when the affordability rule left it one candidate.
func (o *Optimizer) deciding() bool { return o.cfg.Kernel.arms != nil }

// errArmSkipped marks a candidate left out of a step by skipArm.
var errArmSkipped = errclass.New(errclass.Internal, "bo: candidate left out above the landmark cap")

// skipArm reports whether candidate i of auto or portfolio sits out a
// step on n observations: an uncapped built-in candidate (soft) above
// Config.Landmarks, whose exact fit would cost O(n³) where the others'
// cost O(n·m²).
func (o *Optimizer) skipArm(i, n int) bool {
	return !o.arms[i].k.capped && o.cfg.Landmarks > 0 && n > o.cfg.Landmarks
}

// landmarked reports whether a GP of the kernel on count points uses
// landmarks (a built-in kernel with more points than Config.Landmarks).
func (o *Optimizer) landmarked(count int) bool {
	return o.arms[o.cur].k.capped && o.cfg.Landmarks > 0 && count > o.cfg.Landmarks
}

// condition sets the predicting model: the fitted one conditioned on the
// pending points with the constant liar, in canonical coordinates for max
// and plus over a group with a canonical map.
func (o *Optimizer) condition() error {
	n, m := len(o.xs), o.model
	ys := o.signed()
	o.pred = m
	var err error
	xs := o.ardPoints(o.modelXs())
	// A landmark GP predicts in the original coordinates: its landmarks
	// are chosen there (the canonical twin would choose its own).
	canon := o.canon
	if o.landmarked(n + len(o.pend) + len(o.failed)) {
		canon = nil
	}
	o.predCanon = canon
	if lies := o.lies(); len(lies) > 0 {
		// Constant liar: the pending and failed points are told the mean
		// of the observed values (CL-mean; or the worst, Config.Liar), with
		// the hyperparameters fitted to the observations.
		var lie float64
		switch o.cfg.Liar {
		case LiarWorst:
			lie = ys[0]
			for _, v := range ys {
				lie = min(lie, v)
			}
		default:
			lie = liarMean(ys)
		}
		xs = append(append([][]float64(nil), xs...), o.ardPoints(lies)...)
		ys = append(append([]float64(nil), ys...), make([]float64, len(lies))...)
		for i := range lies {
			ys[n+i] = lie
		}
		if canon == nil {
			xp := mat.NewDense(len(xs), o.d, nil)
			for i, p := range xs {
				xp.SetRow(i, p)
			}
			if o.pred, err = gp.New(o.fam, xp, ys, m.Hyper(), gp.Options{Backend: o.cfg.Backend, Budget: o.cfg.Budget, Mean: o.cfg.Mean, ResidualVariance: o.cfg.ResidualVariance}); err != nil {
				return wrapf(err, "pending points")
			}
		}
	}
	if canon != nil {
		o.pred, err = canonModel(o.cfg, o.arms[o.cur].k, canon, xs, ys, m.Hyper())
		if err != nil {
			return err
		}
	}
	return nil
}

// lies returns the points the constant liar conditions on: the pending
// points, then the failed ones (a shared slice: do not modify).
func (o *Optimizer) lies() [][]float64 {
	if len(o.modelFailed()) == 0 {
		return o.modelPend()
	}
	return append(append([][]float64(nil), o.modelPend()...), o.modelFailed()...)
}

// liarMean returns the mean of ys (not empty, finite): their sum over n,
// bit for bit, when the sum is finite, and otherwise the mean of ys
// scaled by the largest |y| (a power of two), which is finite for any
// finite ys (1e308 and 1.5e308: the sum overflows, the mean does not).
func liarMean(ys []float64) float64 {
	var s float64
	for _, v := range ys {
		s += v
	}
	if !math.IsInf(s, 0) && !math.IsNaN(s) {
		return s / float64(len(ys))
	}
	top := 0.0
	for _, v := range ys {
		top = max(top, math.Abs(v))
	}
	// Dividing by 2^e, e the exponent of top, is exact (the values are
	// normal numbers this large) and leaves each |v|·2^-e below 1.
	_, e := math.Frexp(top)
	s = 0
	for _, v := range ys {
		s += math.Ldexp(v, -e)
	}
	return math.Ldexp(s/float64(len(ys)), e)
}

// signed returns sign·y: the values the GP models, maximized.
func (o *Optimizer) signed() []float64 {
	if o.sign > 0 {
		return o.ys
	}
	ys := make([]float64, len(o.ys))
	for i, y := range o.ys {
		ys[i] = -y
	}
	return ys
}

// errNotNew reports a method called on a nil or zero Optimizer.
var errNotNew = fmt.Errorf("%w: the Optimizer was not made by New", ErrBadConfig)

// lerp returns lo + (hi − lo)·u for u in [0, 1] without overflow when
// hi − lo exceeds the largest float64 (a box such as [−1e308, 1e308]);
// the first form, bit for bit, whenever hi − lo is finite.
func lerp(lo, hi, u float64) float64 {
	if w := hi - lo; w <= math.MaxFloat64 {
		return lo + w*u
	}
	return lo*(1-u) + hi*u
}

// width returns hi − lo, or the largest float64 when that overflows.
func width(lo, hi float64) float64 { return min(hi-lo, math.MaxFloat64) }

// acqFunc evaluates the acquisition (and its gradient when grad is not
// nil) of the current model on the standardized output scale: the
// acquisitions there are positive affine images of theirs in the units of
// y, with the same maximizers, and never overflow.
type acqFunc struct {
	m     gp.Posterior // predicting model (on φ(X) when canon is set)
	canon *canonMap    // nil: predict at x itself
	scale []float64    // the fit's ard: m predicts at scale ⊙ x (nil: x)
	acq   Acquisition
	ctx   AcqContext
}

// acqScratch is one goroutine's scratch for acqFunc.eval.
type acqScratch struct {
	ws          gp.Workspace
	xs          []float64      // scale ⊙ x (acqFunc.scale)
	z           []float64      // φ(x), or x
	dmean, dvar []float64      // gradients at z
	gz          []float64      // ∇_z α
	cs          *canon.Scratch // Jacobian of φ
}

func newAcqScratch(d int, cm *canonMap) *acqScratch {
	pd := d
	if cm != nil {
		// Room for either: a landmark GP predicts at x itself.
		pd = max(d, cm.cd)
	}
	return newAcqScratchDim(d, pd)
}

// newAcqScratchDim is newAcqScratch for predicting coordinates of
// dimension at most pd ≥ d.
func newAcqScratchDim(d, pd int) *acqScratch {
	return &acqScratch{
		xs: make([]float64, d),
		z:  make([]float64, pd), dmean: make([]float64, pd), dvar: make([]float64, pd),
		gz: make([]float64, pd), cs: canon.NewScratch(d, pd),
	}
}

// input returns x in the model's input space (xs: x scaled by the class
// lengthscales, when ARD is on) and the point the GP sees (z: xs's
// canonical coordinates under a canonical map, else xs itself), both in
// s's scratch where they differ from x.
func (a *acqFunc) input(s *acqScratch, x []float64) (xs, z []float64) {
	xs = x
	if a.scale != nil {
		xs = s.xs[:len(x)]
		for i, v := range x {
			xs[i] = v * a.scale[i]
		}
	}
	z = xs
	if a.canon != nil {
		z = s.z[:a.canon.cd]
		a.canon.c.CanonicalTo(z, xs)
	}
	return xs, z
}

// eval returns α(x) and, when grad is not nil, writes ∇α(x) into it: the
// acquisition's ∂α/∂μ and ∂α/∂σ chained through the posterior's
// gradients (∂σ/∂z = ∂σ²/∂z / 2σ) and, in canonical coordinates, the
// Jacobian of φ.
func (a *acqFunc) eval(s *acqScratch, x, grad []float64) (float64, error) {
	x, z := a.input(s, x)
	pd := len(z)
	sm, sv := s.dmean[:pd], s.dvar[:pd]
	dmean, dvar := sm, sv
	if grad == nil {
		dmean, dvar = nil, nil
	}
	mu, v, err := a.m.PredictStandardized(&s.ws, z, dmean, dvar)
	if err != nil {
		return math.Inf(-1), err
	}
	sd := math.Sqrt(v)
	val, dmu, dsd := a.acq.Value(a.ctx, mu, sd)
	if grad != nil {
		gz := s.gz[:pd]
		for i := range gz {
			switch {
			case sd > 0:
				gz[i] = dmu*sm[i] + dsd*sv[i]/(2*sd)
			case dmu != 0:
				gz[i] = dmu * sm[i]
			default:
				gz[i] = 0
			}
		}
		if a.canon != nil {
			a.canon.chainTo(grad, x, gz, s)
		} else {
			copy(grad, gz)
		}
		for i, c := range a.scale {
			grad[i] *= c
		}
	}
	return val, nil
}

// predict returns the standardized posterior mean and standard
// deviation at x (what eval's acquisition is a function of).
func (a *acqFunc) predict(s *acqScratch, x []float64) (mu, sd float64, err error) {
	_, z := a.input(s, x)
	mu, v, err := a.m.PredictStandardized(&s.ws, z, nil, nil)
	return mu, math.Sqrt(v), err
}

// mean returns the standardized posterior mean at x.
func (a *acqFunc) mean(s *acqScratch, x []float64) (float64, error) {
	_, z := a.input(s, x)
	mu, _, err := a.m.PredictStandardized(&s.ws, z, nil, nil)
	return mu, err
}

// newAcq returns the acquisition of the current model.
func (o *Optimizer) newAcq() *acqFunc {
	t, b := o.beta(len(o.xs) + len(o.pend) + len(o.failed))
	ctx := AcqContext{T: t, Beta: b, Best: o.pred.Standardize(o.sign * o.ys[o.bestIndex()])}
	return &acqFunc{m: o.pred, canon: o.predCanon, scale: o.ard, acq: o.cfg.Acquisition, ctx: ctx}
}

// acquire fits the model and maximizes the acquisition.
func (o *Optimizer) acquire() ([]float64, error) {
	n := len(o.xs)
	t0 := time.Now()
	if err := o.fit(); err != nil {
		return nil, err
	}
	info := o.fitted
	info.Phase = PhaseBO
	info.LeftOut = o.cfg.Kernel.LeftOut()
	info.Timings.Fit = time.Since(t0)
	t1 := time.Now()
	a := o.newAcq()
	k := len(o.pend) + len(o.failed)
	info.T, info.Beta = o.beta(n + k)
	if _, ok := a.acq.(BetaUser); !ok {
		info.Beta = math.NaN()
	}
	x, err := o.cfg.Kernel.proposer().propose(o, a, n+k, &info)
	if err != nil {
		return nil, err
	}
	info.Timings.Acq = time.Since(t1)
	o.last = info
	return x, nil
}

// isAvgArm reports whether candidate i is avg or avgnorm, whose
// evaluations cost the most per pair (a permanent, a quadrature or |G|
// base-kernel terms).
func (o *Optimizer) isAvgArm(i int) bool {
	name := o.arms[i].k.name
	return name == NameAvg || name == NameAvgNorm
}

// cutSearch reports whether the step's searches are cut, so that a list
// naming avg keeps its step near plus's (docs/performance.md, "Deciding
// kernels over groups within the limit"): under DecideOptions.Afford,
// where an avg or avgnorm candidate fitted, every candidate, the referee
// included, searches with DecideOptions.CandidateStarts ascents (when
// set) instead of the referee's Config.Starts, and avg and avgnorm score
// the first cutRaw(Config.RawSamples) raw samples instead of all of
// them (all of them again where every candidate of the prefix search is
// excluded: whether the candidate is exhausted is the full raw samples'
// verdict).
func (o *Optimizer) cutSearch() bool {
	if !o.cfg.Kernel.decide.Afford {
		return false
	}
	for i, m := range o.armFits {
		if m != nil && o.isAvgArm(i) {
			return true
		}
	}
	return false
}

// CutRawShare is the share of the raw samples an avg or avgnorm
// candidate scores in a cut search (cutSearch): the first
// ⌈RawSamples/CutRawShare⌉ of the step's scrambled Halton points, a
// prefix of the stream the others score.
const CutRawShare = 2

// cutRaw is the number of raw samples a cut candidate scores out of r.
func cutRaw(r int) int { return (r + CutRawShare - 1) / CutRawShare }

// portfolio is Portfolio's acquisition: every candidate whose fit
// succeeded proposes its own acquisition maximizer; the proposal with the
// highest posterior mean under the evidence's choice (refArm, with the
// pending points' lies) is returned, ties to the evidence's own proposal,
// then to the earlier candidate. A search that finds every point it rates
// excluded (ErrSpaceExhausted) proposes nothing (a nil props entry, a NaN
// mean) and the others choose among themselves, ties then to the earliest
// proposal where the excluded one is the evidence's; the step returns the
// first such search's error only when no search proposes. info gets the
// winner's kernel, fit and acquisition value.
func (o *Optimizer) portfolio(n int, info *Diagnostics) ([]float64, error) {
	bestObs := o.modelXs()[o.bestIndex()]
	ref := o.refArm
	// With Hedge, props and infos hold each candidate's proposal, then
	// each candidate's hedging proposal (index len(o.arms) + i).
	hs := hedgeStarts(o.cfg)
	np := len(o.arms)
	var h Acquisition
	if hs > 0 {
		np *= 2
		h = HedgeAcquisition(o.cfg.Acquisition)
	}
	props := make([][]float64, np)
	infos := make([]Diagnostics, np)
	// Each candidate's conditioned model, kept for the referee and the
	// winner: condition is a function of the arm and the points only.
	type conditioned struct {
		pred  gp.Posterior
		canon *canonMap
	}
	preds := make([]conditioned, len(o.arms))
	raw, err := o.rawPoints(n)
	if err != nil {
		return nil, err
	}
	cut := o.cutSearch()
	// exhausted is the first search's ErrSpaceExhausted, the step's error
	// where no search proposes.
	var exhausted error
	use := func(i int) error {
		o.setModel(i, o.armFits[i])
		if c := preds[i]; c.pred != nil {
			o.pred, o.predCanon = c.pred, c.canon
			return nil
		}
		if err := o.condition(); err != nil {
			return err
		}
		preds[i] = conditioned{o.pred, o.predCanon}
		return nil
	}
	for i, m := range o.armFits {
		if m == nil {
			continue
		}
		if err := use(i); err != nil {
			return nil, err
		}
		infos[i] = *info
		// The referee's search runs Config.Starts ascents; the other
		// candidates' DecideOptions.CandidateStarts, and so does the
		// referee of a cut search (cutSearch), whose avg and avgnorm
		// score a prefix of the raw samples.
		starts, r := o.cfg.Starts, raw
		if cs := candidateStarts(o.cfg); cs > 0 && (i != ref || cut) {
			starts = cs
		}
		if cut && o.isAvgArm(i) {
			r = raw[:cutRaw(o.cfg.RawSamples)*o.d]
		}
		if hs == 0 {
			x, err := o.maximizeAcq(o.newAcq(), r, starts, n, bestObs, &infos[i])
			if len(r) < len(raw) && errors.Is(err, ErrSpaceExhausted) {
				// The prefix and the ascent ends are all excluded: the
				// candidate is exhausted only if every raw sample is.
				infos[i] = *info
				x, err = o.maximizeAcq(o.newAcq(), raw, starts, n, bestObs, &infos[i])
			}
			if errors.Is(err, ErrSpaceExhausted) {
				// Every point this candidate's search rates is excluded:
				// it does not propose, and the step is exhausted only if
				// no candidate does.
				exhausted = cmp.Or(exhausted, err)
				continue
			}
			if err != nil {
				return nil, err
			}
			props[i] = x
			continue
		}
		j := len(o.arms) + i
		infos[j] = *info
		x, xh, err := o.maximizeHedged(o.newAcq(), h, r, starts, hs, n, bestObs, &infos[i], &infos[j])
		if len(r) < len(raw) && errors.Is(err, ErrSpaceExhausted) {
			// As above, for either search: both search again.
			infos[i], infos[j] = *info, *info
			x, xh, err = o.maximizeHedged(o.newAcq(), h, raw, starts, hs, n, bestObs, &infos[i], &infos[j])
		}
		if errors.Is(err, ErrSpaceExhausted) {
			// One search or both exhausted (nil): as above, each search
			// that is not proposes.
			exhausted = cmp.Or(exhausted, err)
		} else if err != nil {
			return nil, err
		}
		infos[j].Hedged = true
		// β is the hedging acquisition's: NaN for EI, β_t for UCB.
		infos[j].Beta = math.NaN()
		if _, ok := h.(BetaUser); ok {
			_, infos[j].Beta = o.beta(n)
		}
		props[i], props[j] = x, xh
	}
	if !slices.ContainsFunc(props, func(x []float64) bool { return x != nil }) {
		// Every search is exhausted (the referee's fit succeeded, so its
		// search proposed, failed the step or is exhausted).
		return nil, cmp.Or(exhausted, errors.New("bo: portfolio: no candidate proposed"))
	}
	// The referee: the evidence's model, conditioned as the others were.
	if err := use(ref); err != nil {
		return nil, err
	}
	a := o.newAcq()
	o.ensureWorkers()
	s := o.ws[0]
	means := make([]float64, np)
	for i, x := range props {
		means[i] = math.NaN()
		if x == nil {
			continue
		}
		mu, err := a.mean(s, x)
		if err != nil {
			return nil, wrapf(err, "portfolio: mean at %s's proposal", o.arms[i%len(o.arms)].k.Name())
		}
		means[i] = mu
	}
	// Ties to the referee's proposal, then to the earlier one; where the
	// referee's search was exhausted, to the earliest proposal.
	win := ref
	if props[ref] == nil {
		win = slices.IndexFunc(props, func(x []float64) bool { return x != nil })
	}
	for i, mu := range means {
		if mu > means[win] {
			win = i
		}
	}
	probe, err := o.fixedPointProbe(props, n)
	if err != nil {
		return nil, err
	}
	if probe >= 0 && probe != win && o.cfg.Kernel.decide.Probe == ProbeEarned {
		// The referee's own acquisition must rate the probe's point at
		// least as high as the proposal its means picked.
		ap, err := a.eval(s, props[probe], nil)
		if err != nil {
			return nil, wrapf(err, "portfolio: acquisition at the probe's point")
		}
		aw, err := a.eval(s, props[win], nil)
		if err != nil {
			return nil, wrapf(err, "portfolio: acquisition at %s's proposal", o.arms[win%len(o.arms)].k.Name())
		}
		if ap < aw {
			probe = -1
		}
	}
	if probe >= 0 {
		win = probe
	}
	// Predict (and condition further asks of a batch) with the winner's
	// candidate; the referee is conditioned already.
	if arm := win % len(o.arms); arm != ref {
		if err := use(arm); err != nil {
			return nil, err
		}
	}
	evidence := info.Evidence
	*info = infos[win]
	info.Hyper, info.LogMarginal, info.Kernel = o.fitted.Hyper, o.fitted.LogMarginal, o.fitted.Kernel
	info.Evidence, info.Means, info.Probe = evidence, means, probe >= 0
	info.CutStarts = cut
	return props[win], nil
}

// ProbeShare is the fixed-point share above which Portfolio's probe
// counts a point as on the fixed-point set of the group, and
// ProbeScale the lengthscale of the share as a fraction of the box
// diagonal (see fixedPointProbe; the box in the model's coordinates, the
// normalized one with Config.Normalize).
const (
	ProbeShare = 0.9
	ProbeScale = 1e-2
)

// fixedPointProbe is Portfolio's fixed-point probe: it returns the index
// of the avg candidate when its proposal is on the fixed-point set
// Fix(G) = {x : gx = x for every g} of the group and no observed, pending
// or failed point is, and −1 otherwise (also when avg is not a candidate
// or its fit or proposal failed, and at BO steps after
// DecideOptions.ProbeWindow for n observations, pending and failed
// points).
//
// On Fix(G) avg's prior variance k_avg(x, x) peaks, so avg's acquisition
// proposes there first; an invariant function's optimum often lies there
// (Ackley, Griewank, Rastrigin at the origin), and no posterior mean
// under another candidate rates an unvisited point there before one is
// evaluated. The probe evaluates that bet once;
// afterwards the referee's means decide as before. "On Fix(G)" is the
// share s(x) = k_avg(x, x)/σ² ≥ ProbeShare of avg's base shape at the
// lengthscale ℓ₀ = ProbeScale × the box diagonal: s is the group average
// of k(|x − gx|/ℓ₀), 1 exactly on Fix(G), at most the stabilizer's share
// |G_x|/|G| (≤ ½) at points a lengthscale off it, so the test does not
// depend on the fit. Cost: one kernel diagonal over the n + pending +
// failed points (O(|G|·d) each when k_avg is enumerated).
func (o *Optimizer) fixedPointProbe(props [][]float64, n int) (int, error) {
	if w := o.cfg.Kernel.decide.ProbeWindow; w > 0 && o.step(n) > w || o.cfg.Kernel.decide.Probe == ProbeOff {
		return -1, nil
	}
	a := -1
	for i, ar := range o.arms {
		if ar.k.Name() == NameAvg && o.armFits[i] != nil && props[i] != nil {
			a = i
		}
	}
	if a < 0 {
		return -1, nil
	}
	pts := append(append(append([][]float64{}, o.modelXs()...), o.modelPend()...), o.modelFailed()...)
	share, err := o.fixedShares(a, append(pts, props[a]))
	if err != nil {
		return -1, err
	}
	last := len(share) - 1
	if share[last] < ProbeShare {
		return -1, nil
	}
	for _, v := range share[:last] {
		if v >= ProbeShare {
			return -1, nil
		}
	}
	return a, nil
}

// fixedShares returns the fixed-point share s(x) = k_avg(x, x)/σ² of
// each point at the lengthscale ProbeScale × the box diagonal, with the
// base shape and group of arm a (avg; the exact k_avg, also when the arm
// is landmarked).
//
// Where ℓ₀ falls outside the kernel's range [kernel.MinLengthscale,
// kernel.MaxLengthscale] (boxes with sides above about 1e152 or below
// about 1e-148) the points and ℓ₀ are both scaled by 2^−e, e the binary
// exponent of the widest side: for a group of linear isometries (finite
// groups, rotations) s depends on them only through |x − gx|/ℓ₀, which
// the scaling keeps (exactly, but for coordinates so small beside the
// widest side that they round), and the scaled ℓ₀ lies in
// [ProbeScale/2, ProbeScale·√d]. Over another group (scaling: its orbits
// depend on its box) every point counts as on Fix(G) there, so there is
// no probe. A box within the range is computed as before, bit for bit.
func (o *Optimizer) fixedShares(a int, pts [][]float64) ([]float64, error) {
	// The diagonal without overflow: the widest side times the norm of
	// the sides over it.
	top, sum := 0.0, 0.0
	for i := range o.mlo {
		top = max(top, width(o.mlo[i], o.mhi[i]))
	}
	for i := range o.mlo {
		r := width(o.mlo[i], o.mhi[i]) / top
		sum += r * r
	}
	l0 := ProbeScale * top * math.Sqrt(sum)
	if !(l0 >= kernel.MinLengthscale && l0 <= kernel.MaxLengthscale) {
		e, ok := o.boxExponent(o.arms[a].k.group)
		if !ok {
			return slices.Repeat([]float64{1}, len(pts)), nil
		}
		l0 = ProbeScale * math.Ldexp(top, -e) * math.Sqrt(sum)
		scaled := make([][]float64, len(pts))
		for i, p := range pts {
			scaled[i] = scaledBy(nil, p, -e)
		}
		pts = scaled
	}
	ak := o.arms[a].k
	k, err := kernel.NewAvg(kernel.Params{Shape: ak.shape, Variance: 1, Lengthscale: l0}, ak.group,
		kernel.Options{Workers: o.cfg.Workers, Budget: o.cfg.Budget})
	if err != nil {
		return nil, wrapf(err, "portfolio: fixed-point probe")
	}
	x := mat.NewDense(len(pts), o.d, nil)
	for i, p := range pts {
		x.SetRow(i, p)
	}
	share, err := k.DiagTo(nil, x)
	if err != nil {
		return nil, wrapf(err, "portfolio: fixed-point probe")
	}
	return share, nil
}

const rawChunk = 32

// maximizeAcq scores the step's raw samples (raw: rawPoints(n), drawn
// here when nil) and the best observed point, starts a bounded
// quasi-Newton ascent from the best starts of them (Config.Starts but for
// a portfolio's candidates other than the referee, and the referee of a
// cut search: candidateStarts, cutSearch), and
// returns the best end point (ties: the better-ranked start).
func (o *Optimizer) maximizeAcq(a *acqFunc, raw []float64, starts, n int, bestObs []float64, info *Diagnostics) ([]float64, error) {
	cand, scores, err := o.rawScores(a, nil, raw, n, bestObs)
	if err != nil {
		return nil, err
	}
	return o.ascend(a, cand, scores[0], starts, info)
}

// maximizeHedged is maximizeAcq for a (from starts ascents) and, on the
// same raw samples (one posterior evaluation each, scored by both), for a
// with the acquisition h, whose ascents start from the best hedgeStarts
// raw samples under h. It returns a's maximizer and h's (each with its
// own Diagnostics' Acq and FromBest); a's is maximizeAcq's, bit for bit.
// A search whose every candidate is excluded (ErrSpaceExhausted) returns
// a nil point and the other search runs all the same: err is then the
// first exhausted search's error, beside the other's point (nil too when
// both are exhausted). Any other error returns no point.
func (o *Optimizer) maximizeHedged(a *acqFunc, h Acquisition, raw []float64, starts, hedgeStarts, n int, bestObs []float64, info, hinfo *Diagnostics) (x, xh []float64, err error) {
	cand, scores, err := o.rawScores(a, h, raw, n, bestObs)
	if err != nil {
		return nil, nil, err
	}
	x, err = o.ascend(a, cand, scores[0], starts, info)
	if err != nil && !errors.Is(err, ErrSpaceExhausted) {
		return nil, nil, err
	}
	ah := *a
	ah.acq = h
	xh, errh := o.ascend(&ah, cand, scores[1], hedgeStarts, hinfo)
	if errh != nil && !errors.Is(errh, ErrSpaceExhausted) {
		return nil, nil, errh
	}
	return x, xh, cmp.Or(err, errh)
}

// rawPoints returns the step's RawSamples scrambled Halton points of
// stream (seed, n) in the model's box, d coordinates each, concatenated:
// a function of the seed, n and the box alone, so a portfolio draws them
// once for all its candidates.
func (o *Optimizer) rawPoints(n int) ([]float64, error) {
	if err := o.checkRawMemory(); err != nil {
		return nil, err
	}
	pts := make([]float64, o.cfg.RawSamples*o.d)
	if err := o.rawPointsTo(pts, n); err != nil {
		return nil, err
	}
	return pts, nil
}

// rawPointsTo writes rawPoints(n) into dst[:RawSamples·d], without the
// memory check (the caller's, before it allocated dst).
func (o *Optimizer) rawPointsTo(dst []float64, n int) error {
	d, R := o.d, o.cfg.RawSamples
	hq, err := qmc.NewHalton(d, mix(o.seed, tagQMC, uint64(n)))
	if err != nil {
		return fmt.Errorf("bo: %w", err)
	}
	for i := range R {
		p := dst[i*d : (i+1)*d]
		hq.PointTo(p, uint64(i))
		for k := range p {
			p[k] = lerp(o.mlo[k], o.mhi[k], p[k])
		}
		clampInto(p, o.mlo, o.mhi)
	}
	return nil
}

// rawScores returns the raw samples of the step (raw — rawPoints(n) or a
// prefix of it —, rawPoints(n) when nil, then bestObs, concatenated) and
// their scores under a's acquisition and, when h is not nil, under h
// (scores[1]): one posterior evaluation per point. raw is only read.
func (o *Optimizer) rawScores(a *acqFunc, h Acquisition, raw []float64, n int, bestObs []float64) ([]float64, [][]float64, error) {
	d, R := o.d, o.cfg.RawSamples
	if raw != nil {
		R = len(raw) / d
	}
	if raw == nil {
		if err := o.checkRawMemory(); err != nil {
			return nil, nil, err
		}
	}
	cand := make([]float64, (R+1)*d)
	if raw == nil {
		if err := o.rawPointsTo(cand, n); err != nil {
			return nil, nil, err
		}
	} else {
		copy(cand, raw)
	}
	copy(cand[R*d:], bestObs)
	nc := R + 1
	scores := [][]float64{make([]float64, nc)}
	if h != nil {
		scores = append(scores, make([]float64, nc))
	}
	errs := make([]error, nc)
	workers := o.ensureWorkers()
	nchunks := (nc + rawChunk - 1) / rawChunk
	parallel.For(nchunks, workers, func(w, c int) {
		for i := c * rawChunk; i < min(nc, (c+1)*rawChunk); i++ {
			mu, sd, err := a.predict(o.ws[w], cand[i*d:(i+1)*d])
			if errs[i] = err; err != nil {
				continue
			}
			v, _, _ := a.acq.Value(a.ctx, mu, sd)
			scores[0][i] = finiteOr(v)
			if h != nil {
				vh, _, _ := h.Value(a.ctx, mu, sd)
				scores[1][i] = finiteOr(vh)
			}
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, nil, wrapf(err, "acquisition at raw sample %d", i)
		}
	}
	return cand, scores, nil
}

// bestStarts returns the indices of the k highest scores, best first,
// ties to the lower index: the first k of a stable sort by descending
// score. Up to bestStartsInsert starts it inserts into a sorted prefix,
// O(len(score)·k) comparisons at worst and about len(score) on raw
// samples; above, it sorts, O(len(score)·log²len(score)). Scores hold no
// NaN (finiteOr).
func bestStarts(score []float64, k int) []int {
	if k > bestStartsInsert {
		all := make([]int, len(score))
		for i := range all {
			all[i] = i
		}
		sort.SliceStable(all, func(i, j int) bool { return score[all[i]] > score[all[j]] })
		return all[:k]
	}
	top := make([]int, 0, k)
	for i, v := range score {
		if len(top) == k && (k == 0 || !(v > score[top[k-1]])) {
			continue
		}
		// The first place whose score is below v; an equal score keeps
		// its place ahead of i.
		p := len(top)
		for p > 0 && score[top[p-1]] < v {
			p--
		}
		if len(top) < k {
			top = append(top, 0)
		}
		copy(top[p+1:], top[p:len(top)-1])
		top[p] = i
	}
	return top
}

// bestStartsInsert is the most starts bestStarts selects by insertion.
const bestStartsInsert = 32

// ascend starts a bounded quasi-Newton ascent of a from the best starts
// of the raw samples cand (scored score, the last one the best observed
// point) and returns the best end point (ties: the better-ranked start)
// off the excluded orbits — with Config.StepAside, unless a point beside
// a better-ranked end on an observed orbit (stepAside) rates higher —
// else the best raw sample off them.
func (o *Optimizer) ascend(a *acqFunc, cand, score []float64, starts int, info *Diagnostics) ([]float64, error) {
	d := o.d
	nc := len(score)
	R := nc - 1
	ns := min(starts, nc)
	order := bestStarts(score, ns)
	ends := make([]float64, ns*d)
	vals := make([]float64, ns)
	serrs := make([]error, ns)
	parallel.For(ns, o.ensureWorkers(), func(w, s int) {
		ws, q := o.ws[w], o.qn[w]
		var ferr error
		f := func(x, grad []float64) float64 {
			v, err := a.eval(ws, x, grad)
			if err != nil && ferr == nil {
				ferr = err
			}
			return v
		}
		start := cand[order[s]*d : (order[s]+1)*d]
		vals[s] = q.maximize(f, ends[s*d:(s+1)*d], start)
		serrs[s] = ferr
	})
	rank := make([]int, ns)
	for s := range ns {
		if serrs[s] != nil {
			return nil, wrapf(serrs[s], "acquisition ascent from start %d", s)
		}
		rank[s] = s
		clampInto(ends[s*d:(s+1)*d], o.mlo, o.mhi)
	}
	// The best end point (ties: the better-ranked start) that is not on
	// an excluded orbit (pending, failed, and with ExcludeObserved
	// observed points); the raw samples if every end is.
	sort.SliceStable(rank, func(i, j int) bool { return vals[rank[i]] > vals[rank[j]] })
	// excluded counts the points of finite acquisition passed over for
	// lying on an excluded orbit.
	excluded := 0
	// With StepAside, aside is the best point found just outside the
	// exclusion radius of the excluded ends ranked above the first end
	// off every excluded orbit, and asideVal its acquisition value.
	var aside []float64
	asideVal := math.Inf(-1)
	for _, s := range rank {
		x := ends[s*d : (s+1)*d]
		if math.IsInf(vals[s], -1) {
			break
		}
		if o.onExcludedOrbit(x, o.cfg.ExcludeObserved) {
			excluded++
			if o.cfg.StepAside {
				y, v, err := o.stepAside(a, x)
				if err != nil {
					return nil, err
				}
				if y != nil && v > asideVal {
					aside, asideVal = y, v
				}
			}
			continue
		}
		if aside != nil && asideVal > vals[s] {
			break
		}
		info.Acq, info.FromBest = vals[s], order[s] == R
		return append([]float64(nil), x...), nil
	}
	if aside != nil {
		info.Acq, info.FromBest, info.Aside = asideVal, false, true
		return aside, nil
	}
	// Every end is excluded: the raw samples, best first.
	for _, i := range bestStarts(score, nc) {
		x := cand[i*d : (i+1)*d]
		if math.IsInf(score[i], -1) {
			continue
		}
		if !o.onExcludedOrbit(x, o.cfg.ExcludeObserved) {
			info.Acq, info.FromBest = score[i], i == R
			return append([]float64(nil), x...), nil
		}
		excluded++
	}
	if excluded > 0 {
		// Every candidate the acquisition rates lies on an excluded
		// orbit: the search is exhausted (the study covers every point
		// it searched, not necessarily the box).
		return nil, o.errExhausted(excluded)
	}
	return nil, fmt.Errorf("bo: acquisition is not finite at any start")
}

// pendingExclusion is the radius, as a fraction of the box diagonal (the
// box in the model's coordinates: normalized with Config.Normalize), of
// the neighbourhood of a pending or failed point's orbit (its point alone
// for a kernel without a group) that Ask never proposes in: the constant
// liar lowers the acquisition there, and this makes it a guarantee, so a
// batch never holds two points of one orbit, nor near-duplicates, and a
// failed point's orbit is never proposed again.
const pendingExclusion = 1e-3

// stepAside returns the best, by a's value, of the points x ± ρ·e_k
// (k = 1…d, each clamped into the box, then at 2ρ where ρ still falls on
// an excluded orbit), ρ = (1 + 2⁻²⁰)·r with r the exclusion radius: the
// acquisition's best off the excluded orbits next to an ascent end x
// that lies on an observed point's (Config.StepAside). It returns nil
// when x lies on a pending or failed point's orbit (a batch keeps its
// spread: the constant liar lowers the acquisition there anyway), when
// the radius is not a normal number, or when every such point is
// excluded too. Cost: 4·d exclusion tests and at most 4·d acquisition
// values.
func (o *Optimizer) stepAside(a *acqFunc, x []float64) ([]float64, float64, error) {
	if o.onExcludedOrbit(x, false) {
		return nil, 0, nil
	}
	r2 := o.radius2(0)
	if !(r2 >= 0x1p-1022) || math.IsInf(r2, 1) {
		return nil, 0, nil
	}
	rho := math.Sqrt(r2) * (1 + 0x1p-20)
	var best []float64
	bestVal := math.Inf(-1)
	y := make([]float64, len(x))
	for k := range x {
		for _, sign := range []float64{1, -1} {
			for _, t := range []float64{rho, 2 * rho} {
				copy(y, x)
				y[k] += sign * t
				clampInto(y, o.mlo, o.mhi)
				if o.onExcludedOrbit(y, o.cfg.ExcludeObserved) {
					continue
				}
				v, err := a.eval(o.ws[0], y, nil)
				if err != nil {
					return nil, 0, wrapf(err, "acquisition beside an excluded orbit")
				}
				if v > bestVal {
					best, bestVal = append(best[:0], y...), v
				}
				break
			}
		}
	}
	if best == nil || math.IsInf(bestVal, -1) {
		return nil, 0, nil
	}
	return best, bestVal, nil
}

// onExcludedOrbit reports whether x lies within pendingExclusion of the
// box diagonal of the orbit of a pending or failed point (and, with
// observed, of an observed point) under the kernel's group
// (Config.Kernel's Group: a custom kernel's too).
//
// Where the squared radius is not a normal number (box sides below about
// 1e-151, where it underflows and every point was within it; or above
// about 1e151) and the group's elements are linear isometries, the test
// runs on the points scaled by 2^−e, e the binary exponent of the widest
// side (exact, and the same test); a box within the range is tested as
// before, bit for bit.
//
// The test runs on x as the optimizer will hold it once the user's point
// toUser(x) is told (asTold): the user's coordinates round x, by a
// sizeable part of the radius on a box whose sides are tiny beside its
// coordinates, so a point just outside the radius in the model's
// coordinates may fall inside once rounded.
func (o *Optimizer) onExcludedOrbit(x []float64, observed bool) bool {
	if len(o.modelPend())+len(o.modelFailed()) == 0 && (!observed || len(o.modelXs()) == 0) {
		return false
	}
	near := o.nearTo(o.asTold(x))
	return slices.ContainsFunc(o.modelPend(), near) || slices.ContainsFunc(o.modelFailed(), near) ||
		(observed && slices.ContainsFunc(o.modelXs(), near))
}

// nearTo returns the test of onExcludedOrbit for one point p: whether x
// (in the model's coordinates, as p) lies within the exclusion radius of
// p's orbit.
func (o *Optimizer) nearTo(x []float64) func(p []float64) bool {
	g := o.cfg.Kernel.group
	diag := o.radius2(0)
	e, scale := 0, false
	if !(diag >= 0x1p-1022) || math.IsInf(diag, 1) {
		e, scale = o.boxExponent(g)
		if scale {
			diag = o.radius2(-e)
			x = scaledBy(nil, x, -e)
		}
	}
	var buf []float64
	return func(p []float64) bool {
		if scale {
			buf = scaledBy(buf, p, -e)
			p = buf
		}
		// A distance that overflows is far (the radius may overflow
		// too, on a box near ±MaxFloat64).
		d2 := excludeDist2(g, x, p, o.cfg.ExcludeObserved)
		return d2 <= diag && !math.IsInf(d2, 1)
	}
}

// Near reports, for each of points, whether x lies within the exclusion
// radius of its orbit: the test by which Ask passes over the orbits of
// pending and failed points (and, with Config.ExcludeObserved, of
// observed ones) — pendingExclusion = 1e-3 of the box's diagonal, in the
// model's coordinates (Config.Normalize), under the kernel's group (the
// point itself for a kernel without one, such as base and nystrom). It
// lets a caller that keeps points of its own (a sampler whose other
// workers' trials this optimizer was not told) apply the same rule. x and
// the points are in the user's coordinates and must have finite
// coordinates and length d (ErrBadPoint); they need not lie in the box,
// but one so far outside it that its normalized coordinates overflow
// (Config.Normalize; beyond about 1e308 times the box's side) is
// ErrBadPoint too. The points' images and the answers (about 8d + 25
// bytes a point) are sized against Config.Budget before they are made
// (orbit.ErrOverBudget). The answer does not depend on the optimizer's history. Cost: one orbit
// distance per point (O(d log d) with a canonical map, O(|G|·d) by
// enumeration).
func (o *Optimizer) Near(x []float64, points [][]float64) ([]bool, error) {
	if o == nil || o.fam == nil {
		return nil, errNotNew
	}
	if err := o.checkFinite(x, "x"); err != nil {
		return nil, err
	}
	for i, p := range points {
		if err := o.checkFinite(p, fmt.Sprintf("point %d", i)); err != nil {
			return nil, err
		}
	}
	// The model's images, refused where they overflow: a point so far
	// outside the box that its normalized coordinates are not finite
	// cannot be measured (its distance to itself would be inf − inf).
	model := func(p []float64, what string) ([]float64, error) {
		if o.units == nil {
			return p, nil
		}
		u := o.units.toModelTo(nil, p)
		for i, v := range u {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: %s[%d] = %v is too far outside the box to measure (its normalized coordinate overflows)", ErrBadPoint, what, i, p[i])
			}
		}
		return u, nil
	}
	mx, err := model(x, "x")
	if err != nil {
		return nil, err
	}
	// The points' images (with Normalize, d floats each) and the answers,
	// sized against the budget before they are made.
	if err := budget.Limit(o.cfg.Budget).Check(fmt.Sprintf("near's %d points in dimension %d", len(points), o.d), float64(len(points))*float64(8*o.d+24+1)); err != nil {
		return nil, fmt.Errorf("%w (Config.Budget)", err)
	}
	ms := make([][]float64, len(points))
	for i, p := range points {
		if ms[i], err = model(p, fmt.Sprintf("point %d", i)); err != nil {
			return nil, err
		}
	}
	near := o.nearTo(mx)
	out := make([]bool, len(points))
	for i, m := range ms {
		out[i] = near(m)
	}
	return out, nil
}

// radius2 is the squared exclusion radius, (pendingExclusion × the
// diagonal of the box scaled by 2^e)², in the model's coordinates.
func (o *Optimizer) radius2(e int) float64 {
	var r2 float64
	for i := range o.mlo {
		w := math.Ldexp(width(o.mlo[i], o.mhi[i]), e) * pendingExclusion
		r2 += w * w
	}
	return r2
}

// boxExponent returns e, the binary exponent of the box's widest side
// (top = m·2^e, m in [½, 1)), and whether g acts by linear isometries
// (nil, a finite group or a rotation), so that distances between points
// scaled by 2^−e are those between the points, scaled.
func (o *Optimizer) boxExponent(g orbit.Group) (int, bool) {
	top := 0.0
	for i := range o.mlo {
		top = max(top, width(o.mlo[i], o.mhi[i]))
	}
	_, finite := g.(orbit.Finite)
	_, iso := g.(orbit.Isometric)
	if !(top > 0) || !(g == nil || finite || iso) {
		return 0, false
	}
	_, e := math.Frexp(top)
	return e, true
}

// scaledBy returns x·2^e in dst (resized).
func scaledBy(dst, x []float64, e int) []float64 {
	dst = append(dst[:0], x...)
	for i, v := range dst {
		dst[i] = math.Ldexp(v, e)
	}
	return dst
}

// ensureWorkers makes room for the scratch of the workers of a raw
// samples' scoring or an ascent and returns their number, which those
// must run on: with Workers 0 it is GOMAXPROCS now, which may change
// before the next call (the runtime's CPU-limit updates, another
// goroutine).
func (o *Optimizer) ensureWorkers() int {
	w := parallel.Workers(o.cfg.Workers, max(o.cfg.Starts, (o.cfg.RawSamples+rawChunk)/rawChunk))
	for len(o.ws) < w {
		o.ws = append(o.ws, newAcqScratchDim(o.d, o.scratchDim()))
		o.qn = append(o.qn, newBoxQN(o.mlo, o.mhi, o.cfg.MaxIter))
	}
	return w
}
