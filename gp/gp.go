package gp

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/canon"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Hyper are the GP hyperparameters on the standardized output scale: the
// prior covariance of standardized outputs is Variance·C_Lengthscale(x, x')
// plus Noise on the diagonal.
type Hyper struct {
	Variance    float64 // signal variance v > 0
	Lengthscale float64 // ℓ > 0
	Noise       float64 // noise variance σ² ≥ 0
}

func (h Hyper) check() error {
	if !(h.Variance > 0) || math.IsInf(h.Variance, 0) {
		return fmt.Errorf("%w: variance %v must be positive and finite", ErrInvalid, h.Variance)
	}
	if !(h.Lengthscale > 0) || math.IsInf(h.Lengthscale, 0) {
		return fmt.Errorf("%w: lengthscale %v must be positive and finite", ErrInvalid, h.Lengthscale)
	}
	if !(h.Lengthscale >= kernel.MinLengthscale && h.Lengthscale <= kernel.MaxLengthscale) {
		// The kernels' own range: invalid hyperparameters, and the
		// kernels' refusal too.
		return fmt.Errorf("%w: %w: lengthscale must lie in [%g, %g], got %v", ErrInvalid, kernel.ErrInvalid, kernel.MinLengthscale, kernel.MaxLengthscale, h.Lengthscale)
	}
	if !(h.Noise >= 0) || math.IsInf(h.Noise, 0) {
		return fmt.Errorf("%w: noise %v must be non-negative and finite", ErrInvalid, h.Noise)
	}
	return nil
}

// checkTrace refuses, as ErrInvalid, hyperparameters whose covariance on
// n observations does not fit in a float64 with room to spare: its trace,
// at most n·(v + σ²) (unit-variance correlations), must not exceed
// math.MaxFloat64/2. That bounds every diagonal entry, the mean diagonal
// and the jitter factorJitter adds (at most jitterMax × mean diagonal),
// and every eigenvalue (at most the trace) of the matrices New builds.
// Each of v and σ² finite was not enough: v = σ² = MaxFloat64 put +Inf on
// the diagonal, and v = MaxFloat64/4 on 8 points summed the diagonal to
// +Inf when a jitter was needed, both linalg.ErrNotFinite from the
// Cholesky; a k_plus family's eigendecomposition overflowed
// (linalg.ErrOverflow) and a landmark family's covariance was "not
// positive definite" (internal). Checked from the shapes alone, before the
// Gram is allocated.
func (h Hyper) checkTrace(n int) error {
	if t := float64(n) * (h.Variance + h.Noise); !(t <= math.MaxFloat64/2) {
		return fmt.Errorf("%w: variance %v plus noise %v on %d observations: the covariance's trace n·(variance + noise) exceeds %g, half the float64 range",
			ErrInvalid, h.Variance, h.Noise, n, math.MaxFloat64/2)
	}
	return nil
}

// Options configure New. The zero value is the default.
type Options struct {
	// Backend does the Cholesky factorization; nil means linalg.Default().
	Backend linalg.Backend
	// Mean is the prior mean: MeanSample (default, 0 on the standardized
	// scale) or MeanConstant (the GLS estimate m̂ for the covariance of
	// the given hyperparameters; see Mean).
	Mean Mean
	// Budget is the memory budget in bytes for the GP's work matrices
	// (checked before anything is allocated: about five n×n float64
	// matrices for an exact GP, O(n·m) for a landmark one); 0 means
	// orbit.DefaultBudget (8 GiB), never the environment; negative is an
	// error. The family's kernels have their own, kernel.Options.Budget.
	Budget int64
	// ResidualVariance adds to the predictive variance of a Nyström GP —
	// k_plus (NewPlusFamily, NewLandmarkPlusFamily, a mix of two of them
	// such as bo's Soft) — the prior variance its design misses at x:
	// per part, v_p − ‖φ_p(x)‖² = k_max,p(x, x) − k_plus,p(x, x), clamped
	// at 0. The variance is then k_max's own prior variance less what the
	// observations explain through the features, v − φᵀ·M·φ, instead of
	// k_plus's, which falls towards 0 away from the design (for the base
	// kernel's Nyström form, exactly the base GP's variance). The mean,
	// the likelihood and the fit are unchanged; at the design the residual
	// is 0 up to the eigenvalues dropped below the tolerance (the PSD
	// projection only raises the diagonal). It is the test-point
	// correction of the DTC approximation that the landmark GPs of the
	// other kernels always apply. Other GPs ignore it. Cost: O(r) more per
	// prediction. false (the zero value) is the paper's k_plus posterior.
	ResidualVariance bool
}

// limitOf validates a Budget option (0: the default, negative: an error).
func limitOf(b int64) (budget.Limit, error) {
	if b < 0 {
		return 0, fmt.Errorf("%w: negative Budget %d", ErrInvalid, b)
	}
	return budget.Limit(b), nil
}

func backendOr(b linalg.Backend) (linalg.Backend, error) {
	if b != nil {
		return b, nil
	}
	b, err := linalg.Default()
	if err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	return b, nil
}

// GP is an exact GP posterior on standardized outputs. It is immutable after
// construction and safe for concurrent use; each goroutine needs its own
// Workspace.
type GP struct {
	k         kernel.Kernel
	constDiag bool
	x         *mat.Dense // n×d copy of the training inputs
	n, d      int
	yMean     float64
	yScale    float64
	yu        yUnits // yMean and yScale with the exponent standardize scaled y by
	hyper     Hyper  // NaN fields for newKernelGP, except Noise
	jitter    float64
	l         blas64.Triangular // lower Cholesky factor of K + noise·I + jitter·I
	alpha     []float64         // K⁻¹·(y_standardized − m0)
	m0        float64           // constant prior mean (standardized; MeanConstant), else 0
	meanOn    bool              // Mean is MeanConstant
	lml       float64
	fit       *fitInfo
	// Feature form of a k_plus posterior (a plusBound, or a mix of two:
	// plusParts), built on first prediction: plusOnce guards plus and
	// plusErr.
	plusParts []plusPart
	plusOnce  sync.Once
	plus      *plusPost
	plusErr   error
	resid     bool // Options.ResidualVariance
	// lm is the posterior of a landmark k_plus GP (landmarkBound): then
	// l and alpha are unused.
	lm *landmarkPost
	// kx is k's preparation of x (kernel.Preparer; nil without one),
	// built on first prediction under kxOnce.
	kxOnce sync.Once
	kx     *kernel.Prepared
	id     uint64 // unique per GP, keys Workspace's prediction cache
}

// buildLandmark is build for a landmark bound: the low-rank posterior,
// never an n×n matrix.
func buildLandmark(b *landmarkBound, xc *mat.Dense, ys []float64, u yUnits, h Hyper, opts Options) (*GP, error) {
	post, err := newLandmarkPost(b, ys, h, opts.Mean == MeanConstant, opts.ResidualVariance)
	if err != nil {
		return nil, err
	}
	if err := finiteFit(post.u, post.lml); err != nil {
		return nil, err
	}
	var k kernel.Kernel
	if b.nystrom {
		k, err = b.plusKernel(h.Variance, h.Lengthscale, post.d)
	} else {
		k, err = b.Kernel(h.Variance, h.Lengthscale)
	}
	if err != nil {
		return nil, kernelError(err)
	}
	n, d := xc.Dims()
	return &GP{
		id: gpIDs.Add(1), k: k, constDiag: false, x: xc, n: n, d: d,
		yMean: u.mean, yScale: u.scale, yu: u, hyper: h, jitter: post.jit, lml: post.lml, lm: post,
		m0: post.m0, meanOn: opts.Mean == MeanConstant,
	}, nil
}

// Landmarks returns the number of landmarks of a GP of a landmark k_plus
// family (NewLandmarkPlusFamily) on more inputs than its cap, whose design
// is those landmarks; 0 when the design is every training input or the
// kernel is not a Nyström extension.
func (g *GP) Landmarks() int {
	if g.lm == nil {
		return 0
	}
	return g.lm.k
}

// made returns ErrNilArgument for a nil *GP or a GP that New or Fit did
// not make (the zero value), whose error-returning methods would
// otherwise dereference nil.
func (g *GP) made() error {
	if g == nil || g.k == nil {
		return fmt.Errorf("%w: a GP made by New or Fit, got a nil or zero one", ErrNilArgument)
	}
	return nil
}

// gpIDs numbers GPs for Workspace's prediction cache (a pointer could be
// reused after a GP is collected).
var gpIDs atomic.Uint64

// ErrOverflow reports a prediction that does not fit in a float64 in the
// units of y (outputs of magnitude ≳ 1e154, whose variance overflows); the
// standardized predictions are still available. New and
// LOOLogPredictive return it too for a covariance so small (variance and
// noise near the smallest float64) that K⁻¹y, the log marginal likelihood
// or the leave-one-out density is not finite.
var ErrOverflow = errclass.New(errclass.Input, "gp: overflow")

// ErrInvalid reports invalid input: hyperparameters, bounds, priors,
// means, fit modes, dimensions, landmark counts, budgets, and training
// data with the wrong shape or a NaN or infinite value. Its text is the
// package's prefix alone, so a wrapped message reads "gp: <what is
// wrong>".
var ErrInvalid = errclass.New(errclass.Input, "gp")

// ErrNilArgument reports a nil family or kernel (a nil family given to New,
// Fit or a family constructor, a nil kernel constructor), or a GP New or Fit
// did not make. Missing training data (a nil or empty x) is ErrInvalid.
var ErrNilArgument = errclass.New(errclass.Input, "gp: nil argument")

// prefixed returns err with this package's prefix, "gp: ", unless its
// message starts with it already (an error of this package, such as
// ErrNilArgument from a FamilyOf constructor that returned no kernel,
// which "gp: %w" made "gp: gp: nil argument: …"); errors.Is and
// errors.As see err either way.
func prefixed(err error) error {
	if msg := err.Error(); msg == "gp" || strings.HasPrefix(msg, "gp: ") {
		return err
	}
	return fmt.Errorf("gp: %w", err)
}

// kernelError wraps an error of building a GP's kernel as "gp: kernel:
// …", or "gp: …" when its message says "kernel: …" already (package
// kernel's constructors, a FamilyOf constructor returning one of their
// errors), which "gp: kernel: %w" made "gp: kernel: kernel: …";
// errors.Is and errors.As see err either way.
func kernelError(err error) error {
	if msg := err.Error(); msg == "kernel" || strings.HasPrefix(msg, "kernel: ") {
		return fmt.Errorf("gp: %w", err)
	}
	return fmt.Errorf("gp: kernel: %w", err)
}

// denseMemory is the memory, in bytes, of an exact GP on n points:
// fitting and prediction hold about five n×n matrices (Gram, Cholesky
// factor, derivative, eigenvectors, products).
func denseMemory(n int) float64 { return 5 * 8 * float64(n) * float64(n) }

// memoryer is implemented by families whose GPs do not hold n×n matrices
// (landmarkFamily): memory(n) bounds the bytes of one on n points.
type memoryer interface {
	memory(n int) float64
}

// Memory is the memory in bytes of a GP of fam on n points: what New
// and Fit check against their budget before they allocate, so that a
// caller that will grow a GP to n points can check it once, up front.
// n ≤ 0 is 0 (no GP holds fewer than one point).
func Memory(fam Family, n int) float64 {
	if n <= 0 {
		return 0
	}
	return familyMemory(fam, n)
}

// familyMemory is the memory of a GP of fam on n points.
func familyMemory(fam Family, n int) float64 {
	if m, ok := fam.(memoryer); ok {
		return m.memory(n)
	}
	return denseMemory(n)
}

// checkData validates x (n×d) and y (length n) and returns a copy of x.
// mem(n) is the memory of the GP to check against the budget l (nil:
// denseMemory).
func checkData(x *mat.Dense, y []float64, d int, mem func(int) float64, l budget.Limit) (*mat.Dense, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("%w: no training inputs", ErrInvalid)
	}
	n, c := x.Dims()
	if c != d {
		return nil, fmt.Errorf("%w: training inputs have %d columns, kernel dimension is %d", ErrInvalid, c, d)
	}
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d outputs for %d inputs", ErrInvalid, len(y), n)
	}
	if mem == nil {
		mem = denseMemory
	}
	if err := l.Check(fmt.Sprintf("a GP on %d observations", n), mem(n)); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	for i := range n {
		for j := range d {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: training input (%d, %d) is %v", ErrInvalid, i, j, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("%w: training output %d is %v", ErrInvalid, i, y[i])
		}
	}
	return mat.DenseCopyOf(x), nil
}

// yUnits are the units of a GP's training outputs: y = mean + scale·z for
// z standardized. When standardize scaled y by 2⁻ᵉˣᵖ first (exp ≠ 0), tmean
// and tscale are the mean and scale of y·2⁻ᵉˣᵖ, and mean and scale theirs
// times 2ᵉˣᵖ — which round, or vanish, where they fall among the
// subnormals (y of magnitude about 1e-308 and below): Standardize then
// works on y·2⁻ᵉˣᵖ, as the training outputs were standardized.
type yUnits struct {
	mean, scale   float64
	exp           int
	tmean, tscale float64
}

// standardizeUnits returns (y − mean)/scale with the population standard
// deviation as scale, or scale 1 when y is constant. It is safe at every
// magnitude of y: when max|y| exceeds 2⁵⁰⁰ (~3e150), where the sums and
// squares below could overflow, or falls below 2⁻⁴⁰⁰ (~4e-121), where
// the squared deviations could underflow (to zero or to subnormals that
// lose digits, which made y × 1e-200 look constant), y is first scaled by
// a power of two (exactly) and mean and scale scaled back; otherwise it
// computes the plain formulas. So the standardized values — and every
// suggestion made from them — do not depend on the units of y.
func standardizeUnits(y []float64) (ys []float64, u yUnits) {
	var top float64
	for _, v := range y {
		top = max(top, math.Abs(v))
	}
	if top == 0 || (top <= 0x1p500 && top >= 0x1p-400) {
		ys, u.mean, u.scale = standardizeUnscaled(y)
		return ys, u
	}
	e := math.Ilogb(top) + 1 // |y|·2⁻ᵉ < 1
	yt := make([]float64, len(y))
	for i, v := range y {
		yt[i] = math.Ldexp(v, -e)
	}
	ys, mean, scale := standardizeUnscaled(yt)
	if scale == 1 { // y is constant (|yt| < 1 gives a scale below 1 otherwise)
		return ys, yUnits{mean: math.Ldexp(mean, e), scale: 1}
	}
	return ys, yUnits{mean: math.Ldexp(mean, e), scale: math.Ldexp(scale, e), exp: e, tmean: mean, tscale: scale}
}

// logScale is log(scale), also where scale rounds to 0 or overflows in
// the units of y (it is computed from tscale and exp then).
func (u yUnits) logScale() float64 {
	if u.scale > 0 && !math.IsInf(u.scale, 0) {
		return math.Log(u.scale)
	}
	return math.Log(u.tscale) + float64(u.exp)*math.Ln2
}

// standardize is standardizeUnits with the mean and scale in the units of y.
func standardize(y []float64) (ys []float64, mean, scale float64) {
	ys, u := standardizeUnits(y)
	return ys, u.mean, u.scale
}

func standardizeUnscaled(y []float64) (ys []float64, mean, scale float64) {
	if len(y) > 0 && !slices.ContainsFunc(y, func(v float64) bool { return v != y[0] }) {
		// Constant: Σy/n need not be y[0] (0.1·3/3 is not 0.1), and the
		// deviations from it, rounding noise, would be taken for a scale.
		return make([]float64, len(y)), y[0], 1
	}
	n := float64(len(y))
	for _, v := range y {
		mean += v
	}
	mean /= n
	var ss float64
	for _, v := range y {
		ss += (v - mean) * (v - mean)
	}
	scale = math.Sqrt(ss / n)
	if !(scale > 0) || scale < 1e-300 {
		scale = 1
	}
	ys = make([]float64, len(y))
	for i, v := range y {
		ys[i] = (v - mean) / scale
	}
	return ys, mean, scale
}

// New returns the GP posterior of the family fam with hyperparameters h
// (standardized scale) given training inputs x (n×d) and outputs y.
//
// Errors: ErrNilArgument for a nil family; invalid hyperparameters, mean
// or data (NaN or infinite values, mismatched shapes) as input errors —
// hyperparameters whose covariance does not fit in a float64 (n·(v + σ²)
// over math.MaxFloat64/2 on n observations) are ErrInvalid, decided
// before the Gram is allocated;
// orbit.ErrOverBudget for a GP over Options.Budget, before anything is
// allocated; linalg.ErrNotPositiveDefinite for a covariance that stays
// non-positive-definite after the largest jitter; ErrOverflow when K⁻¹y
// or the log marginal likelihood is not finite, or when the largest
// jitter is zero or subnormal (a covariance near the smallest float64).
func New(fam Family, x *mat.Dense, y []float64, h Hyper, opts Options) (*GP, error) {
	if check.IsNil(fam) {
		return nil, fmt.Errorf("%w: New needs a family", ErrNilArgument)
	}
	if err := h.check(); err != nil {
		return nil, err
	}
	if err := opts.Mean.check(); err != nil {
		return nil, err
	}
	lim, err := limitOf(opts.Budget)
	if err != nil {
		return nil, err
	}
	xc, err := checkData(x, y, fam.Dim(), func(n int) float64 { return familyMemory(fam, n) }, lim)
	if err != nil {
		return nil, err
	}
	if err := h.checkTrace(xc.RawMatrix().Rows); err != nil {
		return nil, err
	}
	b, err := bind(fam, xc)
	if err != nil {
		return nil, fmt.Errorf("gp: bind: %w", err)
	}
	ys, u := standardizeUnits(y)
	return build(b, xc, ys, u, h, opts)
}

func build(b Bound, xc *mat.Dense, ys []float64, u yUnits, h Hyper, opts Options) (*GP, error) {
	if lb, ok := b.(*landmarkBound); ok {
		return buildLandmark(lb, xc, ys, u, h, opts)
	}
	k, err := boundKernel(b, h.Variance, h.Lengthscale)
	if err != nil {
		return nil, kernelError(err)
	}
	g, err := newGP(k, xc, ys, u, h.Noise, opts)
	if err != nil {
		return nil, err
	}
	g.hyper = h
	if c, ok := b.(constDiag); ok && c.constantDiag() {
		g.constDiag = true
	}
	g.plusParts = plusParts(b, h.Variance)
	g.resid = opts.ResidualVariance
	return g, nil
}

// newKernelGP returns the GP posterior with covariance k for the
// standardized outputs and noise variance noise (standardized scale) given
// x (n×d) and y: New without a family (tests). Hyper then reports NaN
// variance and lengthscale.
func newKernelGP(k kernel.Kernel, x *mat.Dense, y []float64, noise float64, opts Options) (*GP, error) {
	if check.IsNil(k) {
		return nil, fmt.Errorf("%w: newKernelGP needs a kernel", ErrNilArgument)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return nil, fmt.Errorf("%w: noise %v must be non-negative and finite", ErrInvalid, noise)
	}
	lim, err := limitOf(opts.Budget)
	if err != nil {
		return nil, err
	}
	xc, err := checkData(x, y, k.Dim(), nil, lim)
	if err != nil {
		return nil, err
	}
	ys, u := standardizeUnits(y)
	return newGP(k, xc, ys, u, noise, opts)
}

func newGP(k kernel.Kernel, xc *mat.Dense, ys []float64, u yUnits, noise float64, opts Options) (*GP, error) {
	be, err := backendOr(opts.Backend)
	if err != nil {
		return nil, err
	}
	n, d := xc.Dims()
	kk := mat.NewSymDense(n, nil)
	if err := gramTo(k, kk, xc); err != nil {
		return nil, fmt.Errorf("gp: Gram: %w", err)
	}
	for i := range n {
		kk.SetSym(i, i, kk.At(i, i)+noise)
	}
	var chol linalg.Cholesky
	jit, err := factorJitter(be, &chol, kk, &mat.SymDense{})
	if err != nil {
		return nil, err
	}
	g := &GP{
		id: gpIDs.Add(1),
		k:  k, x: xc, n: n, d: d, yMean: u.mean, yScale: u.scale, yu: u,
		hyper:  Hyper{Variance: math.NaN(), Lengthscale: math.NaN(), Noise: noise},
		jitter: jit, alpha: make([]float64, n),
	}
	var l mat.TriDense
	chol.LTo(&l)
	g.l = l.RawTriangular()
	if err := chol.SolveVecTo(g.alpha, ys); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	var quad float64
	if opts.Mean == MeanConstant {
		// m̂ = 1ᵀK⁻¹y / 1ᵀK⁻¹1; α = K⁻¹(y − m̂·1) = K⁻¹y − m̂·K⁻¹1.
		g.meanOn = true
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		kio := make([]float64, n)
		if err := chol.SolveVecTo(kio, ones); err != nil {
			return nil, fmt.Errorf("gp: %w", err)
		}
		var yo, oo float64
		for i, a := range g.alpha {
			yo += a
			oo += kio[i]
		}
		if oo > 0 && !math.IsInf(oo, 0) {
			g.m0 = yo / oo
		}
		for i, a := range g.alpha {
			a -= g.m0 * kio[i]
			g.alpha[i] = a
			quad += a * (ys[i] - g.m0)
		}
	} else {
		for i, a := range g.alpha {
			quad += a * ys[i]
		}
	}
	g.lml = gaussLML(quad, chol.LogDet(), float64(n))
	if err := finiteFit(g.alpha, g.lml); err != nil {
		return nil, err
	}
	return g, nil
}

// finiteFit returns an error wrapping ErrOverflow when α = K⁻¹(y − m̂)
// (a landmark GP's u) or the log marginal likelihood is not finite: a covariance so small (a
// variance and noise near the smallest float64) that its inverse overflows.
func finiteFit(alpha []float64, lml float64) error {
	for i, a := range alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Errorf("%w: K⁻¹y entry %d is %v: the covariance is too small for float64 (raise the variance or the noise)", ErrOverflow, i, a)
		}
	}
	if math.IsNaN(lml) || math.IsInf(lml, 0) {
		return fmt.Errorf("%w: the log marginal likelihood is %v: the covariance is too small for float64 (raise the variance or the noise)", ErrOverflow, lml)
	}
	return nil
}

// gramTo fills dst with k(x_i, x_j), through kernel.Gramer when available.
func gramTo(k kernel.Kernel, dst *mat.SymDense, x *mat.Dense) error {
	if g, ok := k.(kernel.Gramer); ok {
		return g.GramTo(dst, x)
	}
	n, _ := x.Dims()
	var c mat.Dense
	c.ReuseAs(n, n)
	if err := k.CrossTo(&c, x, x); err != nil {
		return err
	}
	for i := range n {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, 0.5*(c.At(i, j)+c.At(j, i)))
		}
	}
	return nil
}

// N is the number of training points.
func (g *GP) N() int { return g.n }

// Dim is d.
func (g *GP) Dim() int { return g.d }

// Hyper returns the hyperparameters (standardized scale).
func (g *GP) Hyper() Hyper { return g.hyper }

// Kernel returns the prior covariance of the standardized outputs.
func (g *GP) Kernel() kernel.Kernel { return g.k }

// Jitter returns the diagonal jitter that the Cholesky factorization needed
// (standardized scale), 0 when none.
func (g *GP) Jitter() float64 { return g.jitter }

// LogMarginal returns the log marginal likelihood of the standardized
// outputs (jitter included); with MeanConstant, at the fitted mean m̂.
func (g *GP) LogMarginal() float64 { return g.lml }

// PriorMean returns the prior mean of the standardized outputs: 0 with
// MeanSample, the GLS estimate m̂ with MeanConstant. In the units of y it
// is mean + scale·m̂ with the mean and scale of the training outputs
// (Standardize's).
func (g *GP) PriorMean() float64 { return g.m0 }

// Standardize returns y on the standardized output scale, (y − mean)/scale
// with the mean and scale of the training outputs (scale 1 when they are
// constant), computed as y/scale − mean/scale when the difference
// overflows. Where the training outputs were scaled by a power of two to
// be standardized, y is scaled alike, so that the result is the training
// outputs' standardized value even where their scale is subnormal.
func (g *GP) Standardize(y float64) float64 {
	if u := g.yu; u.exp != 0 {
		yt := math.Ldexp(y, -u.exp)
		if z := (yt - u.tmean) / u.tscale; !math.IsInf(z, 0) {
			return z
		}
		return yt/u.tscale - u.tmean/u.tscale
	}
	if z := (y - g.yMean) / g.yScale; !math.IsInf(z, 0) {
		return z
	}
	return y/g.yScale - g.yMean/g.yScale
}

// NoiseVariance returns the noise variance in the units of y.
func (g *GP) NoiseVariance() float64 { return g.hyper.Noise * g.yScale * g.yScale }

// Workspace holds the scratch of Predict and PredictGrad. The zero value is
// ready for use; it sizes itself on first use (and again if used with a GP
// of another size), after which predictions allocate nothing. A Workspace
// must not be used by two goroutines at once.
type Workspace struct {
	n, d  int
	xbuf  []float64
	xr    *mat.Dense // 1×d view of xbuf
	ks    *mat.Dense // 1×n
	diag  []float64  // length 1
	v     []float64  // n
	gr    *mat.Dense // n×d
	gd    *mat.Dense // 1×d
	phi   []float64  // r: plus features (feature-form posterior)
	mphi  []float64  // r
	canon *canonScratch
	ready bool
	// Prediction cache: the standardized mean and variance of GP cacheID
	// at xbuf, with ks, v (and phi, mphi) as predict left them; cacheID 0
	// when invalid. A PredictGrad right after a Predict at the same point
	// (the acquisition ascent's accepted trial point) reuses them.
	cacheID          uint64
	cacheM, cacheVar float64
}

// Reset releases the workspace's storage.
func (w *Workspace) Reset() { *w = Workspace{} }

// canonScratch is a Workspace's storage for a feature-form part in
// canonical coordinates (plusBlock.canon).
type canonScratch struct {
	n, d, cd int
	z        []float64  // φ(x), cd
	zr       *mat.Dense // 1×cd view of z
	gr       *mat.Dense // n×cd
	gm, gv   []float64  // cd: ∇_z mean, ∇_z var
	dm, dv   []float64  // d: chained to x
	cs       *canon.Scratch
}

// canonical returns the scratch for n points in R^d with canonical
// dimension cd, allocating it when the sizes change.
func (w *Workspace) canonical(n, d, cd int) *canonScratch {
	if c := w.canon; c != nil && c.n == n && c.d == d && c.cd == cd {
		return c
	}
	c := &canonScratch{n: n, d: d, cd: cd, z: make([]float64, cd), gr: mat.NewDense(n, cd, nil),
		gm: make([]float64, cd), gv: make([]float64, cd), dm: make([]float64, d), dv: make([]float64, d),
		cs: canon.NewScratch(d, cd)}
	c.zr = mat.NewDense(1, cd, c.z)
	w.canon = c
	return c
}

func (w *Workspace) size(n, d int) {
	if w.ready && w.n == n && w.d == d {
		return
	}
	w.n, w.d = n, d
	w.xbuf = make([]float64, d)
	w.xr = mat.NewDense(1, d, w.xbuf)
	w.ks = mat.NewDense(1, n, nil)
	w.diag = make([]float64, 1)
	w.v = make([]float64, n)
	w.gr = mat.NewDense(n, d, nil)
	w.gd = mat.NewDense(1, d, nil)
	w.ready = true
}

func (g *GP) checkX(x []float64) error {
	if len(x) != g.d {
		return fmt.Errorf("gp: %w: point has length %d, want %d", kernel.ErrBadPoints, len(x), g.d)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("gp: %w: point coordinate %d is %v", kernel.ErrBadPoints, i, v)
		}
	}
	return nil
}

// Predict returns the posterior mean and variance of the latent function at
// x (length d), in the units of y. The variance excludes the observation
// noise (add NoiseVariance for a predictive variance of y) and is clamped at
// 0. ws may be nil (a temporary workspace is then allocated). Errors:
// kernel.ErrBadPoints for a point of the wrong length or with a NaN or
// infinite coordinate, ErrOverflow when the prediction does not fit in the
// units of y, ErrNilArgument for a GP New or Fit did not make.
func (g *GP) Predict(ws *Workspace, x []float64) (mean, variance float64, err error) {
	if err := g.made(); err != nil {
		return 0, 0, err
	}
	if ws == nil {
		ws = &Workspace{}
	}
	ms, vs, err := g.predict(ws, x)
	if err != nil {
		return 0, 0, err
	}
	return g.unstandardize(ms, vs)
}

// PredictStandardized is Predict, and with a non-nil dmean or dvar
// PredictGrad, on the standardized output scale: the posterior mean and
// latent variance (clamped at 0) of the standardized outputs
// (Standardize(f(x))) and their gradients. It never overflows, whatever the
// magnitude of y; acquisition functions that are invariant under a
// positive affine map of y (UCB's argmax, EI's) use it directly.
func (g *GP) PredictStandardized(ws *Workspace, x, dmean, dvar []float64) (mean, variance float64, err error) {
	if err := g.made(); err != nil {
		return 0, 0, err
	}
	if dmean == nil && dvar == nil {
		if ws == nil {
			ws = &Workspace{}
		}
		ms, vs, err := g.predict(ws, x)
		return ms, max(vs, 0), err
	}
	ms, vs, err := g.predictGrad(ws, x, dmean, dvar, 1)
	return ms, max(vs, 0), err
}

// unstandardize maps a standardized prediction to the units of y, or
// fails with ErrOverflow when it does not fit in a float64 (|y| ≳ 1e154
// makes the variance scale² overflow).
func (g *GP) unstandardize(ms, vs float64) (mean, variance float64, err error) {
	// scale·(scale·v), not scale²·v: scale² overflows for |y| ≳ 1e154
	// while the product may not, and Inf·0 would be NaN where v = 0.
	mean, variance = g.yMean+g.yScale*ms, g.yScale*(g.yScale*max(vs, 0))
	if !isFinite(mean) || !isFinite(variance) {
		return 0, 0, fmt.Errorf("%w: the prediction in the units of y (scale %g) exceeds the float64 range; use the standardized predictions", ErrOverflow, g.yScale)
	}
	return mean, variance, nil
}

// predict returns the standardized mean and unclamped variance, leaving
// k(x, X) in ws.ks and L⁻¹k(X, x) in ws.v.
func (g *GP) predict(ws *Workspace, x []float64) (mean, variance float64, err error) {
	if err := g.checkX(x); err != nil {
		return 0, 0, err
	}
	cols := g.n
	if g.lm != nil {
		cols = g.lm.k
	}
	ws.size(cols, g.d)
	if ws.cacheID == g.id && check.SameBits(ws.xbuf, x) {
		return ws.cacheM, ws.cacheVar, nil
	}
	ws.cacheID = 0
	copy(ws.xbuf, x)
	mean, variance, err = g.predictAt(ws)
	if g.meanOn {
		mean += g.m0
	}
	if err == nil {
		ws.cacheID, ws.cacheM, ws.cacheVar = g.id, mean, variance
	}
	return mean, variance, err
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// prepare returns k's preparation of the fixed points y when k has one
// (kernel.Preparer), else nil; also nil if y is refused, which crossWith's
// CrossTo then reports.
func prepare(k kernel.Kernel, y *mat.Dense) *kernel.Prepared {
	pk, ok := k.(kernel.Preparer)
	if !ok {
		return nil
	}
	p, err := pk.Prepare(y)
	if err != nil {
		return nil
	}
	return p
}

// crossWith is k.CrossTo(dst, x, y), through p, y's preparation by k,
// when it is not nil: the same bits without y's O(m·d) validation and
// preparation per call.
func crossWith(k kernel.Kernel, p *kernel.Prepared, dst, x, y *mat.Dense) error {
	if p != nil {
		return k.(kernel.Preparer).CrossPreparedTo(dst, x, p)
	}
	return k.CrossTo(dst, x, y)
}

// errPlusPanicked is a GP's error for every prediction after building
// plus's posterior panicked (predictAt).
var errPlusPanicked = errclass.New(errclass.Internal, "gp: plus's posterior: its construction panicked")

// predictAt is predict at ws.xbuf without the cache.
func (g *GP) predictAt(ws *Workspace) (mean, variance float64, err error) {
	if g.lm != nil {
		if len(ws.phi) < g.lm.r {
			ws.phi, ws.mphi = make([]float64, g.lm.r), make([]float64, g.lm.r)
		}
		return g.lm.predict(ws)
	}
	if g.plusParts != nil {
		g.plusOnce.Do(func() {
			// Kept if newPlusPost panics (a caller may recover): every
			// later prediction then fails, where it would have taken the
			// exact path without plus's posterior.
			g.plusErr = errPlusPanicked
			g.plus, g.plusErr = newPlusPost(g.plusParts, g)
		})
		if g.plusErr != nil {
			return 0, 0, g.plusErr
		}
	}
	if g.plus != nil {
		if len(ws.phi) < g.plus.r {
			ws.phi, ws.mphi = make([]float64, g.plus.r), make([]float64, g.plus.r)
		}
		return g.plus.predict(g, ws)
	}
	g.kxOnce.Do(func() { g.kx = prepare(g.k, g.x) })
	fused := false
	if cd, ok := g.k.(kernel.CrossDiagPreparer); ok && g.kx != nil {
		// The same bits as the two calls below, which also word an error.
		_, err := cd.CrossDiagPreparedTo(ws.ks, ws.diag, ws.xr, g.kx)
		fused = err == nil
	}
	if !fused {
		if err := crossWith(g.k, g.kx, ws.ks, ws.xr, g.x); err != nil {
			return 0, 0, fmt.Errorf("gp: cross-covariance: %w", err)
		}
		if _, err := g.k.DiagTo(ws.diag, ws.xr); err != nil {
			return 0, 0, fmt.Errorf("gp: prior variance: %w", err)
		}
	}
	ks := ws.ks.RawMatrix().Data[:g.n]
	for i, a := range g.alpha {
		mean += a * ks[i]
	}
	copy(ws.v, ks)
	blas64.Trsv(blas.NoTrans, g.l, blas64.Vector{N: g.n, Data: ws.v, Inc: 1})
	var q float64
	for _, v := range ws.v {
		q += v * v
	}
	return mean, ws.diag[0] - q, nil
}

// PredictGrad is Predict that also writes the gradients of the mean and of
// the variance with respect to x into dmean and dvar (length d each; either
// may be nil). Where the variance is clamped at 0 its gradient is 0. The
// kernel's gradient comes from kernel.Grad: its GradTo, or for a kernel
// without one (kernel.Gradienter) central differences of CrossTo with
// steps relative to the lengthscale.
func (g *GP) PredictGrad(ws *Workspace, x, dmean, dvar []float64) (mean, variance float64, err error) {
	if err := g.made(); err != nil {
		return 0, 0, err
	}
	ms, vs, err := g.predictGrad(ws, x, dmean, dvar, g.yScale)
	if err != nil {
		return 0, 0, err
	}
	mean, variance, err = g.unstandardize(ms, vs)
	if err == nil {
		for _, v := range dmean {
			if !isFinite(v) {
				return 0, 0, fmt.Errorf("%w: the mean gradient in the units of y exceeds the float64 range", ErrOverflow)
			}
		}
		for _, v := range dvar {
			if !isFinite(v) {
				return 0, 0, fmt.Errorf("%w: the variance gradient in the units of y exceeds the float64 range", ErrOverflow)
			}
		}
	}
	return mean, variance, err
}

// predictGrad returns the standardized mean and unclamped variance and
// writes their gradients times s and s² into dmean and dvar (the variance's
// as (v·s)·s, so that a zero gradient stays 0 when s² overflows).
func (g *GP) predictGrad(ws *Workspace, x, dmean, dvar []float64, s float64) (mean, variance float64, err error) {
	if (dmean != nil && len(dmean) != g.d) || (dvar != nil && len(dvar) != g.d) {
		return 0, 0, fmt.Errorf("%w: PredictGrad: gradient buffers have lengths %d and %d, want %d (or nil)", ErrInvalid, len(dmean), len(dvar), g.d)
	}
	if ws == nil {
		ws = &Workspace{}
	}
	ms, vs, err := g.predict(ws, x)
	if err != nil {
		return 0, 0, err
	}
	ws.cacheID = 0 // the gradient below may overwrite ws.v
	if g.lm != nil || g.plus != nil {
		// The feature-form posteriors give standardized gradients.
		if g.lm != nil {
			err = g.lm.grad(ws, x, dmean, dvar, vs, g.hyper.Lengthscale)
		} else {
			err = g.plus.grad(g, ws, x, dmean, dvar, vs)
		}
		if err != nil {
			return 0, 0, err
		}
		for j := range dmean {
			dmean[j] *= s
		}
		for j := range dvar {
			dvar[j] = dvar[j] * s * s
		}
		return ms, vs, nil
	}
	if err := g.gradTrain(ws.gr, x); err != nil {
		return 0, 0, fmt.Errorf("gp: kernel gradient: %w", err)
	}
	gr := ws.gr.RawMatrix()
	if dmean != nil {
		clear(dmean)
		for i, a := range g.alpha {
			row := gr.Data[i*gr.Stride : i*gr.Stride+g.d]
			for j, v := range row {
				dmean[j] += a * v
			}
		}
		for j := range dmean {
			dmean[j] *= s
		}
	}
	if dvar != nil {
		clear(dvar)
		if vs > 0 {
			// ∂var/∂x = ∂k(x,x)/∂x − 2·Gᵀ K⁻¹ k(X, x), K⁻¹k = L⁻ᵀ(L⁻¹k).
			blas64.Trsv(blas.Trans, g.l, blas64.Vector{N: g.n, Data: ws.v, Inc: 1})
			for i, w := range ws.v {
				row := gr.Data[i*gr.Stride : i*gr.Stride+g.d]
				for j, v := range row {
					dvar[j] -= 2 * w * v
				}
			}
			if !g.constDiag {
				// k symmetric: d k(x,x)/dx = 2·∂₁k(x, y)|_{y=x}.
				if err := g.gradTo(ws.gd, x, ws.xr); err != nil {
					return 0, 0, fmt.Errorf("gp: kernel gradient: %w", err)
				}
				gd := ws.gd.RawMatrix().Data[:g.d]
				for j, v := range gd {
					dvar[j] += 2 * v
				}
			}
			for j := range dvar {
				dvar[j] = dvar[j] * s * s
			}
		}
	}
	return ms, vs, nil
}

// gradTrain is gradTo against the training points, through their
// preparation when the kernel differentiates against one
// (kernel.GradPreparer: the same bits).
func (g *GP) gradTrain(dst *mat.Dense, x []float64) error {
	if gk, ok := g.k.(kernel.GradPreparer); ok {
		g.kxOnce.Do(func() { g.kx = prepare(g.k, g.x) })
		if g.kx != nil {
			return gk.GradPreparedTo(dst, x, g.kx)
		}
	}
	return g.gradTo(dst, x, g.x)
}

// gradTo writes ∂k(x, y_j)/∂x into row j of dst through kernel.Grad: the
// kernel's GradTo, else central differences with steps relative to the
// lengthscale (1 for newKernelGP's GPs, which have none).
func (g *GP) gradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	scale := g.hyper.Lengthscale
	if !(scale > 0) {
		scale = 1
	}
	return kernel.Grad(g.k, dst, x, y, scale)
}
