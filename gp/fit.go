package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// Mode selects what likelihood the hyperparameters maximize.
type Mode int

const (
	// ModeOwn fits every kernel on its own log marginal likelihood (the
	// default).
	ModeOwn Mode = iota
	// ModeBase fits the base (Euclidean) kernel of the family and reuses
	// its hyperparameters in the family's kernel, as the paper authors'
	// public code does. The family must have a method Base() Family
	// returning that base family (the families of this package and
	// FamilyOf's do).
	ModeBase
)

func (m Mode) String() string {
	switch m {
	case ModeOwn:
		return "own"
	case ModeBase:
		return "base"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Default bounds (FitOptions), on the standardized output scale. The
// lengthscale bounds are multiples of the data scale s, the diagonal of the
// bounding box of the training inputs (1 if all inputs coincide, or
// differ only by rounding: see atRounding).
const (
	defaultVarianceMin = 1e-3
	defaultVarianceMax = 1e3
	defaultLengthMin   = 1e-3 // × s
	defaultLengthMax   = 1e3  // × s
	defaultNoiseMin    = 1e-6
	defaultNoiseMax    = 1
)

// FitOptions configure Fit. The zero value is the default.
type FitOptions struct {
	// Backend does the factorizations; nil means linalg.Default().
	Backend linalg.Backend
	// Mode: ModeOwn (default) or ModeBase.
	Mode Mode
	// Init, if not nil, is a start (typically the previous optimum) on the
	// standardized scale, clamped into the bounds. It must be a valid
	// Hyper, as New's: a variance or ℓ not positive and finite, a noise
	// not non-negative and finite, or ℓ outside the kernels' range
	// [kernel.MinLengthscale, kernel.MaxLengthscale], is ErrInvalid.
	Init *Hyper
	// Restarts is the number of random starts besides the default start
	// and Init: 0 means 2, negative means none, at most MaxRestarts.
	Restarts int
	// Seed seeds the random starts: start i draws from
	// rand.NewPCG(Seed, i).
	Seed uint64
	// FixNoise holds the noise variance at Noise (in the units of y, so the
	// known noise level of a benchmark can be passed as is) instead of
	// fitting it. Noise 0 is allowed (jitter then keeps K definite).
	FixNoise bool
	Noise    float64 // the fixed noise variance (units of y), used with FixNoise only
	// Bounds [min, max] on the standardized scale; a zero array means the
	// default: v ∈ [1e-3, 1e3], ℓ ∈ [1e-3·s, 1e3·s] with s the diagonal of
	// the bounding box of the training inputs (1 if they coincide, or
	// differ by at most 2⁻⁴⁴ of their largest |coordinate|: by rounding
	// alone), σ² ∈ [1e-6, 1] (PriorBoTorch:
	// [1e-4, 1]). The lengthscale bounds are absolute when set.
	VarianceBounds, LengthscaleBounds, NoiseBounds [2]float64
	// Method: fitProfile (default) or fitBFGS.
	method fitMethod
	// search restricts fitProfile's outer search (capSeed): searchFull
	// (the default), searchGrid (the starts and the grid, no refinement)
	// or searchAround (starts at around and a factor 2 either side of
	// it, no grid, then the refinement).
	search fitSearch
	around float64 // log ℓ, with searchAround
	// Around, when positive, is a lengthscale located already (another
	// model's fit on the same inputs; bo's anchored candidate fits): the
	// profile search then starts only at Around and a factor 2 either
	// side of it (clamped into the bounds), extends its bracket towards
	// the bounds while the profile increases, and refines by Brent's
	// method — about half the likelihood evaluations of the default's
	// default, random and grid starts, at the risk of a local maximum
	// where the profile has several. Above the landmark likelihood cap it
	// replaces the exact-likelihood seed search. 0 means the full search;
	// negative, NaN or ±Inf is an error.
	Around float64
	// MaxIterations per start (fitBFGS only); 0 means 200.
	MaxIterations int
	// Prior: PriorNone (default: the plain likelihood) or PriorBoTorch
	// (MAP with BoTorch's classic priors; see Prior).
	Prior Prior
	// PriorScale is the width w of the box the priors' unit cube maps to:
	// the lengthscale prior is on ℓ/w. 0 means the largest side of the
	// bounding box of the training inputs (1 where they coincide or differ
	// only by rounding, as for the data scale); bo passes the search box's
	// largest side. Ignored without a prior.
	PriorScale float64
	// Mean is the prior mean: MeanSample (default, the sample mean of y)
	// or MeanConstant (a constant fitted by maximum likelihood, profiled
	// out in closed form; see Mean). The GP returned uses the same.
	Mean Mean
	// Budget is the memory budget in bytes, as Options.Budget: for the
	// GP's work matrices and for the profile's concurrent scratch (fewer
	// workers when their scratch would exceed it; the result does not
	// depend on it). 0 means orbit.DefaultBudget (8 GiB), never the
	// environment; negative is an error.
	Budget int64
	// LandmarkFit is how the hyperparameters of a landmark GP are fitted
	// (a family with a landmark cap, on more inputs than the cap):
	// LandmarkFitDefault (the family's rule), LandmarkFitSubset,
	// LandmarkFitLikelihood or LandmarkFitFull. Other GPs ignore it.
	LandmarkFit LandmarkFit
	// ResidualVariance is Options.ResidualVariance for the GP returned;
	// the fit itself does not depend on it.
	ResidualVariance bool
}

// fitInfo describes a fit. With a Prior, LogMarginal is the maximized
// objective lml + log prior. With fitProfile, Starts holds one entry per
// distinct lengthscale of the starts and the grid (From = To, the inner
// optimum over (v, σ²) at that ℓ) and, last, the Brent refinement from the
// best of them; Evaluations counts the profile evaluations (one
// correlation matrix and eigendecomposition each) and Gradient is false.
type fitInfo struct {
	Mode        Mode
	Starts      []fitStart // in the order tried
	Best        int        // index into Starts of the chosen optimum
	Evaluations int        // likelihood evaluations over all starts
	Gradient    bool       // false if a derivative-free search was used
}

// fitStart is one local optimization of a fit.
type fitStart struct {
	From, To    Hyper
	LogMarginal float64 // at To; NaN if the start failed
	Err         error
}

// MaxRestarts caps FitOptions.Restarts: each start is a full local
// search, so a thousand already cost a thousand fits.
const MaxRestarts = 1000

// Fit maximizes the log marginal likelihood of the standardized outputs
// over (log v, log ℓ, log σ²) within box bounds, from several starts, and
// returns the GP posterior at the best optimum. The result is deterministic
// given the options.
//
// Errors: ErrNilArgument for a nil family; invalid options, bounds,
// priors or data (NaN or infinite values, mismatched shapes) as input
// errors; orbit.ErrOverBudget for a GP over the budget, before anything
// is allocated; when every start fails (a start that fails counts as −∞
// likelihood), an error wrapping the first start's, e.g.
// linalg.ErrNotPositiveDefinite; ErrOverflow for a best
// optimum whose K⁻¹y overflows, or a FixNoise noise that overflows once
// divided by the variance of y (see the package's Errors).
func Fit(fam Family, x *mat.Dense, y []float64, opts FitOptions) (*GP, error) {
	if check.IsNil(fam) {
		return nil, fmt.Errorf("%w: Fit needs a family", ErrNilArgument)
	}
	if err := opts.Mean.check(); err != nil {
		return nil, err
	}
	if err := opts.LandmarkFit.check(); err != nil {
		return nil, err
	}
	if a := opts.Around; a < 0 || math.IsNaN(a) || math.IsInf(a, 0) {
		return nil, fmt.Errorf("%w: FitOptions.Around = %v (want a lengthscale > 0, or 0 for the full search)", ErrInvalid, a)
	}
	if opts.Restarts > MaxRestarts {
		return nil, fmt.Errorf("%w: FitOptions.Restarts = %d exceeds %d", ErrInvalid, opts.Restarts, MaxRestarts)
	}
	lim, err := limitOf(opts.Budget)
	if err != nil {
		return nil, err
	}
	xc, err := checkData(x, y, fam.Dim(), func(n int) float64 { return familyMemory(fam, n) }, lim)
	if err != nil {
		return nil, err
	}
	be, err := backendOr(opts.Backend)
	if err != nil {
		return nil, err
	}
	ys, u := standardizeUnits(y)
	b, err := bind(fam, xc)
	if err != nil {
		return nil, fmt.Errorf("gp: bind: %w", err)
	}
	fb := b
	switch opts.Mode {
	case ModeOwn:
	case ModeBase:
		bf, ok := fam.(baser)
		if !ok {
			return nil, errNoBase(fam)
		}
		if fb, err = bind(bf.Base(), xc); err != nil {
			return nil, fmt.Errorf("gp: bind base: %w", err)
		}
	default:
		return nil, fmt.Errorf("%w: unknown fit mode %d", ErrInvalid, int(opts.Mode))
	}
	target, fy, err := fitTarget(fb, ys, opts.LandmarkFit)
	if err != nil {
		return nil, fmt.Errorf("gp: bind: %w", err)
	}
	seedEvals := 0
	if opts.Around > 0 {
		opts.search, opts.around = searchAround, math.Log(opts.Around)
	} else if sb, sy, ok, err := capSeed(fb, ys, opts); err != nil {
		return nil, fmt.Errorf("gp: bind: %w", err)
	} else if ok {
		// Above the likelihood cap: the exact likelihood on seedSize(m)
		// inputs locates ℓ (its starts and grid, O(k³) each), and the
		// landmark likelihood refines around it.
		so := opts
		so.search = searchGrid
		if hs, sinfo, err := fitHyper(sb, be, xc, sy, u, so); err == nil {
			opts.search, opts.around = searchAround, math.Log(hs.Lengthscale)
			seedEvals = sinfo.Evaluations
		}
	}
	h, info, err := fitHyper(target, be, xc, fy, u, opts)
	if err != nil {
		return nil, err
	}
	info.Evaluations += seedEvals
	info.Mode = opts.Mode
	g, err := build(b, xc, ys, u, h, Options{Backend: be, Budget: opts.Budget, Mean: opts.Mean, ResidualVariance: opts.ResidualVariance})
	if err != nil {
		return nil, err
	}
	g.fit = &info
	return g, nil
}

// dataScale is the diagonal of the bounding box of x, or 1 if it is 0 or
// at the rounding level of x's coordinates (atRounding).
func dataScale(x *mat.Dense) float64 {
	_, d := x.Dims()
	var s, m float64
	for j := range d {
		lo, hi := colRange(x, j)
		s += (hi - lo) * (hi - lo)
		m = max(m, math.Abs(lo), math.Abs(hi))
	}
	s = math.Sqrt(s)
	if math.IsInf(s, 0) {
		// (hi − lo)² overflowed: the same diagonal, scaled.
		s = scaledDiagonal(x)
	}
	if !(s > 0) || math.IsInf(s, 0) || atRounding(s, m) {
		return 1
	}
	return s
}

// colRange returns the smallest and the largest entry of column j of x
// (+Inf and −Inf for no rows).
func colRange(x *mat.Dense, j int) (lo, hi float64) {
	n, _ := x.Dims()
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range n {
		v := x.At(i, j)
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// atRounding reports whether inputs whose bounding box has diagonal s and
// whose largest |coordinate| is m differ only by rounding: s ≤ 2⁻⁴⁴·m, a
// few hundred ulps of m (0.1·3 beside 0.3, a log–exp round trip). Such
// inputs count as coinciding, with data scale 1: a scale of s put the
// lengthscale bounds 1e3·s near 1e-13 for inputs one ulp apart, where
// equal inputs get [1e-3, 1e3], and the fit then saw every other point
// of the space as uncorrelated with the data.
func atRounding(s, m float64) bool { return s <= 0x1p-44*m }

// scaledDiagonal is the bounding-box diagonal computed as w·‖w_j/w‖ with w
// the widest side (halved first, so that hi − lo cannot overflow).
func scaledDiagonal(x *mat.Dense) float64 {
	_, d := x.Dims()
	w := make([]float64, d)
	var top float64
	for j := range d {
		lo, hi := colRange(x, j)
		w[j] = hi/2 - lo/2
		top = max(top, w[j])
	}
	if !(top > 0) {
		return 0
	}
	var s float64
	for _, v := range w {
		s += (v / top) * (v / top)
	}
	return min(2*top*math.Sqrt(s), math.MaxFloat64)
}

// box maps unconstrained z to log-parameters θ = lo + (hi−lo)·σ(z) with the
// logistic σ, a smooth bijection onto the open box.
type box struct{ lo, hi [3]float64 }

func (b *box) theta(z float64, i int) (theta, dtheta float64) {
	s := 1 / (1 + math.Exp(-z))
	w := b.hi[i] - b.lo[i]
	return b.lo[i] + w*s, w * s * (1 - s)
}

func (b *box) z(theta float64, i int) float64 {
	f := (theta - b.lo[i]) / (b.hi[i] - b.lo[i])
	f = min(max(f, 1e-6), 1-1e-6)
	return math.Log(f / (1 - f))
}

func boundsOr(b [2]float64, lo, hi float64, name string) ([2]float64, error) {
	if b == [2]float64{} {
		return [2]float64{lo, hi}, nil
	}
	if !(b[0] > 0 && b[1] > b[0]) || math.IsInf(b[1], 0) {
		return b, fmt.Errorf("%w: %s bounds %v: want 0 < min < max < ∞", ErrInvalid, name, b)
	}
	return b, nil
}

// fitHyper fits the hyperparameters of the bound family b to the
// standardized outputs ys (scale: the standardization's, for a fixed
// noise in units of y) by opts.method: the profile likelihood (default)
// or multi-start BFGS.
func fitHyper(b Bound, be linalg.Backend, xc *mat.Dense, ys []float64, u yUnits, opts FitOptions) (Hyper, fitInfo, error) {
	sp, err := newFitSpace(xc, u, opts)
	if err != nil {
		return Hyper{}, fitInfo{}, err
	}
	switch opts.method {
	case fitProfile:
		return fitProfileLikelihood(b, be, ys, sp.s, sp.bx, sp.fixedLogNoise, sp.pr, opts)
	case fitBFGS:
		return fitBFGSStarts(b, be, ys, sp, opts)
	}
	return Hyper{}, fitInfo{}, fmt.Errorf("gp: unknown fit method %d", int(opts.method))
}

// fitSpace is where a fit searches: the box of log hyperparameters, the
// prior, the data scale and the fixed noise.
type fitSpace struct {
	s             float64 // the data scale (dataScale)
	bx            box     // log bounds of (variance, lengthscale, noise)
	pr            *priorSpec
	fixedLogNoise float64 // log of the fixed noise (FixNoise), NaN otherwise
	nvar          int     // 3, or 2 with the noise fixed
}

// newFitSpace checks opts' bounds and prior against the data xc (outputs
// standardized in the units u) and returns the search space.
func newFitSpace(xc *mat.Dense, u yUnits, opts FitOptions) (*fitSpace, error) {
	s := dataScale(xc)
	vb, err := boundsOr(opts.VarianceBounds, defaultVarianceMin, defaultVarianceMax, "variance")
	if err != nil {
		return nil, err
	}
	// The default bounds follow the data scale, within the range kernels
	// accept (kernel.MinLengthscale…MaxLengthscale).
	llo := min(max(defaultLengthMin*s, kernel.MinLengthscale), kernel.MaxLengthscale/1e6)
	lhi := max(min(defaultLengthMax*s, kernel.MaxLengthscale), kernel.MinLengthscale*1e6)
	lb, err := boundsOr(opts.LengthscaleBounds, llo, lhi, "lengthscale")
	if err != nil {
		return nil, err
	}
	if lb[1] < kernel.MinLengthscale || lb[0] > kernel.MaxLengthscale {
		return nil, fmt.Errorf("%w: lengthscale bounds %v lie outside the range kernels accept, [%g, %g]", ErrInvalid, lb, kernel.MinLengthscale, kernel.MaxLengthscale)
	}
	noiseMin := defaultNoiseMin
	if opts.Prior != PriorNone {
		noiseMin = botorchNoiseMin
	}
	nb, err := boundsOr(opts.NoiseBounds, noiseMin, defaultNoiseMax, "noise")
	if err != nil {
		return nil, err
	}
	w := opts.PriorScale
	if w == 0 {
		w = maxSide(xc)
	}
	pr, err := newPriorSpec(opts.Prior, w)
	if err != nil {
		return nil, err
	}
	if pr != nil {
		pr.fixedNoise = opts.FixNoise
	}
	sp := &fitSpace{s: s, pr: pr, fixedLogNoise: math.NaN(), nvar: 3}
	for i, r := range [3][2]float64{vb, lb, nb} {
		sp.bx.lo[i], sp.bx.hi[i] = math.Log(r[0]), math.Log(r[1])
	}
	if opts.FixNoise {
		if !(opts.Noise >= 0) || math.IsInf(opts.Noise, 0) {
			return nil, fmt.Errorf("%w: fixed noise %v must be non-negative and finite", ErrInvalid, opts.Noise)
		}
		// log(Noise/scale²), −Inf for Noise 0 (exp gives 0); as a
		// difference of logs where scale² under- or overflows (below
		// scale ≈ 1e−162 it was 0, and 0/0 NaN), with log(scale) from
		// the scaled units where scale itself rounds to 0 (y among the
		// subnormals).
		if s2 := u.scale * u.scale; s2 > 0 && !math.IsInf(s2, 0) {
			sp.fixedLogNoise = math.Log(opts.Noise / s2)
		} else {
			sp.fixedLogNoise = math.Log(opts.Noise) - 2*u.logScale()
		}
		// A noise beyond the float64 range on the standardized scale
		// (far above y's own variance: Noise 1e300 over a y that varies
		// by 1e-5) is not represented: every start failed on a
		// covariance of infinite diagonal, "not positive definite" (an
		// internal error) for an input the fit cannot take.
		if math.IsInf(math.Exp(sp.fixedLogNoise), 1) {
			return nil, fmt.Errorf("%w: fixed noise %v exceeds the float64 range once standardized (divided by the variance of y): far above the variance of the outputs", ErrOverflow, opts.Noise)
		}
		sp.nvar = 2
	}
	return sp, nil
}

// full maps the optimizer's unconstrained z to log hyperparameters and
// their derivatives dθ/dz (the fixed noise in place).
func (sp *fitSpace) full(z []float64) (th [3]float64, dth [3]float64) {
	for i := range sp.nvar {
		th[i], dth[i] = sp.bx.theta(z[i], i)
	}
	if sp.nvar == 2 {
		th[2] = sp.fixedLogNoise
	}
	return th, dth
}

// bfgsStarts returns the starts of fitBFGS in log space: opts.Init, a
// default, then opts.Restarts random ones (stream (Seed, i)).
func (sp *fitSpace) bfgsStarts(opts FitOptions) ([][3]float64, error) {
	var starts [][3]float64
	if h := opts.Init; h != nil {
		if err := h.check(); err != nil {
			return nil, fmt.Errorf("gp: Init: %w", err)
		}
		starts = append(starts, [3]float64{math.Log(h.Variance), math.Log(h.Lengthscale), math.Log(max(h.Noise, 1e-300))})
	}
	s := sp.s
	starts = append(starts, [3]float64{0, math.Log(0.25 * s), math.Log(1e-2)})
	return append(starts, randomStarts(opts, s)...), nil
}

// randomStarts are the random starts (log variance, log ℓ, log noise) of
// a fit with opts on inputs of scale s: opts.Restarts of them (0: 2),
// start i drawn from the stream (opts.Seed, i). fitBFGS starts from them
// and the profile fit from their ℓ, so both see the same draws.
func randomStarts(opts FitOptions, s float64) [][3]float64 {
	nr := opts.Restarts
	if nr == 0 {
		nr = 2
	}
	var starts [][3]float64
	for i := range max(nr, 0) {
		rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
		u := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
		starts = append(starts, [3]float64{
			u(math.Log(0.2), math.Log(5)),
			u(math.Log(0.05*s), math.Log(s)),
			u(math.Log(1e-4), math.Log(1e-1)),
		})
	}
	return starts
}

// fitBFGSStarts is fitHyper for fitBFGS: multi-start quasi-Newton (BFGS
// with the analytic gradient, Nelder–Mead where the family has no
// lengthscale derivative) on the log marginal likelihood plus the log
// prior, in the unconstrained coordinates of sp's box.
func fitBFGSStarts(b Bound, be linalg.Backend, ys []float64, sp *fitSpace, opts FitOptions) (Hyper, fitInfo, error) {
	var info fitInfo
	starts, err := sp.bfgsStarts(opts)
	if err != nil {
		return Hyper{}, info, err
	}
	nvar, pr := sp.nvar, sp.pr
	obj := newObjective(b, be, ys)
	obj.mean = opts.Mean == MeanConstant
	var g3 [3]float64
	prob := optimize.Problem{
		Func: func(z []float64) float64 {
			th, _ := sp.full(z)
			l, err := obj.eval(th, nil)
			if err != nil || math.IsNaN(l) {
				return math.Inf(1)
			}
			return -(l + pr.logDensity(th, nil))
		},
		Grad: func(grad, z []float64) {
			th, dth := sp.full(z)
			_, err := obj.eval(th, g3[:])
			pr.logDensity(th, g3[:])
			for i := range nvar {
				if err != nil || math.IsNaN(g3[i]) {
					grad[i] = 0
					continue
				}
				grad[i] = -g3[i] * dth[i]
			}
		},
	}
	// Probe whether the family has a lengthscale derivative.
	info.Gradient = true
	{
		th, _ := sp.full(starts[0][:nvar])
		if _, err := obj.eval(th, g3[:]); errors.Is(err, ErrNoDerivative) {
			info.Gradient = false
			prob.Grad = nil
		}
	}
	maxIt := opts.MaxIterations
	if maxIt == 0 {
		maxIt = 200
	}
	best, bestL := -1, math.Inf(-1)
	for _, st := range starts {
		obj.lastErr = nil
		var z [3]float64
		var from [3]float64
		for i := range 3 {
			from[i] = st[i]
			if i < nvar {
				z[i] = sp.bx.z(st[i], i)
				from[i], _ = sp.bx.theta(z[i], i)
			}
		}
		if opts.FixNoise {
			from[2] = sp.fixedLogNoise
		}
		rec := fitStart{From: hyperOf(from), LogMarginal: math.NaN()}
		var method optimize.Method = &optimize.BFGS{}
		if !info.Gradient {
			method = &optimize.NelderMead{}
		}
		settings := &optimize.Settings{
			GradientThreshold: 1e-6,
			MajorIterations:   maxIt,
			FuncEvaluations:   20 * maxIt,
			Converger:         &optimize.FunctionConverge{Absolute: 1e-9, Relative: 1e-9, Iterations: 10},
		}
		res, err := optimize.Minimize(prob, z[:nvar], settings, method)
		if res == nil || math.IsInf(res.F, 0) || math.IsNaN(res.F) {
			if obj.lastErr != nil {
				err = obj.lastErr
			} else if err == nil {
				err = errors.New("gp: no finite likelihood")
			}
			rec.Err = fmt.Errorf("gp: fit start %d: %w", len(info.Starts), err)
			info.Starts = append(info.Starts, rec)
			continue
		}
		th, _ := sp.full(res.X)
		rec.To = hyperOf(th)
		rec.LogMarginal = -res.F
		info.Starts = append(info.Starts, rec)
		if rec.LogMarginal > bestL {
			best, bestL = len(info.Starts)-1, rec.LogMarginal
		}
	}
	info.Evaluations = obj.evals
	if best < 0 {
		return Hyper{}, info, fmt.Errorf("gp: fit: all %d starts failed: %w", len(info.Starts), info.Starts[0].Err)
	}
	info.Best = best
	return info.Starts[best].To, info, nil
}

func hyperOf(th [3]float64) Hyper {
	return Hyper{Variance: math.Exp(th[0]), Lengthscale: math.Exp(th[1]), Noise: math.Exp(th[2])}
}
