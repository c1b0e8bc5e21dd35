package gp

import (
	"fmt"
	"strings"
	"sync"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

var (
	_ Family   = (*sparseFamily)(nil)
	_ baser    = (*sparseFamily)(nil)
	_ memoryer = (*sparseFamily)(nil)
)

// LandmarkOptions are the settings of NewLandmarkFamily. The zero value
// is the default.
type LandmarkOptions struct {
	// Backend computes the eigendecompositions and the QR of the landmark
	// model; nil means linalg.Default().
	Backend linalg.Backend
}

// sparseFamily is any family whose kernels do not depend on the training
// inputs, capped at m points: exact on n ≤ m inputs, a landmark (DTC)
// model above (see NewLandmarkFamily).
//
// The method, in full:
//
// Above m inputs the landmarks are chosen as for k_plus (greedy pivoted
// Cholesky, now of fam's unit-variance Gram C_ℓ at the fitted ℓ, whose
// diagonal need not be 1: the first pivot is the input of largest prior
// variance, and the selection stops once every residual is below
// n·ε·max C_ii); the columns come from the kernel's CrossTo against one
// input (n evaluations, recomputed per lengthscale: no cache). The
// training covariance is the subset-of-regressors one, v·Φ·Φᵀ + σ²·I with
// Φ = C_ℓ(X, D)·W (W as for k_plus, from C_ℓ(D, D), truncated by
// kernel.Truncate), so the likelihood, the mean and the spectrum are the
// k_plus code's; the variance is DTC's (Quiñonero-Candela & Rasmussen
// 2005): the SoR variance φᵀMφ plus the prior variance the landmarks do
// not explain, v·(c(x, x) − ‖φ(x)‖²) clamped at 0, with its gradient
// v·(∇c(x, x) − 2·∇c(x, D)ᵀ·W·φ) (∇c(x, x) only for kernels whose
// diagonal varies, avg). Far from every landmark the variance returns to
// the prior's, where SoR's would vanish. With every input a landmark the
// mean and variance are the exact GP's (to 1e-10, with their gradients).
type sparseFamily struct {
	inner Family
	m     int
	be    linalg.Backend
}

// NewLandmarkFamily caps the exact GP of fam at m training inputs. On
// n ≤ m inputs it is fam itself (the same bits). On more, the GP is the
// deterministic training conditional (DTC, Quiñonero-Candela & Rasmussen
// 2005) of fam's kernel on m landmarks chosen among the inputs:
//
//   - Hyperparameters are fitted by Fit on a subset of m of the inputs
//     (subset of data; Chalupka, Williams & Murray 2013 found it the
//     cost-effective way to set the hyperparameters of the sparse
//     approximations), the exact profile likelihood of fam there: O(m³)
//     per lengthscale, independent of n. The subset is the inputs of
//     indices ⌊t·n/m⌋, t = 0…m−1: evenly spaced in the order given (gaps
//     of ⌊n/m⌋ or ⌈n/m⌉, every other one at n = 2m), so in BO the early space-filling points and the late ones near
//     the incumbent in proportion; no seed.
//   - At the fitted lengthscale the landmarks D are chosen among all n
//     inputs by greedy pivoted Cholesky of the unit-variance Gram C_ℓ (the
//     input of largest residual prior variance C_ii − Σ_t L_it² next, ties
//     to the smallest index, at most m, stopping when every residual is
//     below n·ε·max C_ii), as NewLandmarkPlusFamily chooses k_plus's design.
//   - The posterior is that of the low-rank-plus-noise model
//     v·C_XD·C_DD⁺·C_DX + σ²·I (C_DD⁺ the pseudo-inverse truncated as
//     kernel.Plus truncates) for the mean; the variance adds to the
//     subset-of-regressors variance the prior variance the landmarks do not
//     explain, v·(c(x, x) − c(x, D)·C_DD⁺·c(D, x)), so far from every
//     landmark it returns to the prior's (the SoR variance would vanish
//     there, starving UCB of exploration). GP.LogMarginal is this model's
//     likelihood on all n inputs; GP.Kernel is fam's own kernel v·C_ℓ.
//
// With every input a landmark (C_DD well conditioned) the mean and
// variance are the exact GP's. Cost above m: the fit O(m³) per
// lengthscale (an exact fit on m points), then m columns of n kernel
// evaluations, O(n·m²) for the selection and the QR and two m×m
// eigendecompositions; a prediction m kernel evaluations against the
// landmarks (and their gradient) plus O(m·r + r²), r ≤ m.
//
// fam's kernels must not depend on the training inputs (Bound.Kernel
// gives the same kernel whatever x was bound): true of NewBaseFamily,
// NewMaxFamily, NewAvgFamily and FamilyOf; k_plus's design is its inputs,
// so NewPlusFamily, NewLandmarkPlusFamily, NewLandmarkFamily's own and a
// NewMixFamily with such a part are refused (ErrInvalid; use
// NewLandmarkPlusFamily for k_plus). m must be at least 1 (ErrInvalid); a
// nil fam is ErrNilArgument.
func NewLandmarkFamily(fam Family, m int, o LandmarkOptions) (Family, error) {
	if check.IsNil(fam) {
		return nil, fmt.Errorf("%w: NewLandmarkFamily needs a family", ErrNilArgument)
	}
	if m < 1 {
		return nil, fmt.Errorf("%w: landmark count %d < 1", ErrInvalid, m)
	}
	if dependsOnInputs(fam) {
		return nil, fmt.Errorf("%w: NewLandmarkFamily: %T's kernel depends on its inputs (use NewLandmarkPlusFamily for k_plus)", ErrInvalid, fam)
	}
	be := o.Backend
	if be == nil {
		var err error
		if be, err = linalg.Default(); err != nil {
			return nil, fmt.Errorf("gp: %w", err)
		}
	}
	return &sparseFamily{inner: fam, m: m, be: be}, nil
}

// Dim is d.
func (f *sparseFamily) Dim() int { return f.inner.Dim() }

// Base is the inner family's base family with the same cap, so that
// ModeBase fits on a subset too (an exact base fit on n points costs
// O(n³)).
func (f *sparseFamily) Base() Family {
	bf, ok := f.inner.(baser)
	if !ok {
		return errFamily{d: f.Dim(), err: errNoBase(f.inner)}
	}
	return &sparseFamily{inner: bf.Base(), m: f.m, be: f.be}
}

// memory is the inner family's on n ≤ m points; above, its memory on the
// m-point subset plus the landmark model's n×(2m+2) columns, scratch and
// the inputs, and above likelihoodCap(m) inputs the landmark model on
// that many (LandmarkFitLikelihood's subset).
func (f *sparseFamily) memory(n int) float64 {
	if n <= f.m {
		return familyMemory(f.inner, n)
	}
	nf, mf := float64(n), float64(f.m)
	mem := familyMemory(f.inner, f.m) + 8*nf*(2*mf+float64(f.Dim())+8)
	if s := likelihoodCap(f.m); n > s {
		// the landmark model on the likelihood subset, the exact one on
		// the seed's
		mem += f.memory(s) + familyMemory(f.inner, seedSize(f.m))
	}
	return mem
}

// dependsOnInputs reports whether fam's kernel depends on the inputs it
// is bound to: k_plus (its design is its inputs), the landmark families,
// and a mix with such a part.
func dependsOnInputs(fam Family) bool {
	switch f := fam.(type) {
	case *plusFamily, *landmarkFamily, *sparseFamily:
		return true
	case *mixFamily:
		return dependsOnInputs(f.a) || dependsOnInputs(f.b)
	}
	return false
}

// subsetIndices returns ⌊t·n/m⌋ for t = 0…m−1 (strictly increasing for
// n > m).
func subsetIndices(n, m int) []int {
	idx := make([]int, m)
	for t := range idx {
		idx[t] = t * n / m
	}
	return idx
}

// subsetFit is the fitting subset of a landmark bound: fam bound to the
// inputs idx.
type subsetFit struct {
	b   Bound
	idx []int
}

// subsetBound is a landmark bound's fitting subset, made on first use
// (mk binds the exact family to the subset's inputs).
type subsetBound struct {
	once sync.Once
	mk   func() (*subsetFit, error)
	done bool
	fit  *subsetFit
	err  error
}

// subset returns the fitting subset of b.
func (b *landmarkBound) subset() (*subsetFit, error) { return b.sub.get() }

// get returns the subset, made on first use.
func (s *subsetBound) get() (*subsetFit, error) {
	if s.done {
		return s.fit, nil
	}
	s.once.Do(func() {
		if s.mk == nil {
			s.err = fmt.Errorf("gp: landmarks: no fitting subset")
			return
		}
		s.fit, s.err = s.mk()
	})
	return s.fit, s.err
}

// likelihoodCap is the number of inputs LandmarkFitLikelihood evaluates
// the landmark likelihood on at m landmarks: all n up to
// max(4·m, 1024), above that the max(4·m, 1024) inputs of indices
// ⌊t·n/s⌋ (subsetIndices). Above it the search is also shorter: the
// starts and grid run on the exact likelihood of seedSize(m) inputs
// (capSeed), the landmark likelihood only at the best of them and a
// factor 2 either side, then Brent's refinement of log ℓ to capTol
// instead of 10⁻⁴. Every committed study has n ≤ 1024, so none
// changes; above the cap a landmark evaluation costs O(s·m²) instead of
// O(n·m²), independent of n, and a fit needs fewer of them (the counts
// measured are in docs/performance.md, "Every kernel at scale",
// "Locating ℓ before the landmark likelihood").
func likelihoodCap(m int) int { return max(4*m, 1024) }

// seedSize is the number of inputs (of indices ⌊t·n/k⌋) whose exact
// likelihood locates ℓ before a LandmarkFitLikelihood fit above the cap
// refines it (capSeed): m/2, at least min(m, 64). Its evaluations cost
// O(k³), an eighth of the m-point subset's.
func seedSize(m int) int { return max(m/2, min(m, 64)) }

// capTol is the tolerance in log ℓ of a likelihood fit above the cap:
// ℓ to about 5%, the likelihood within a few hundredths of its maximum.
// TestLandmarkCapSeed holds the located fit's subset profile within 1 of
// the global search's; the differences it logs are recorded in
// docs/performance.md, "Every kernel at scale", "Locating ℓ before the
// landmark likelihood".
const capTol = 5e-2

// likelihoodSubset binds the landmark model (bind: its family's
// bindLandmarks) to the likelihoodCap(m) inputs of x that
// LandmarkFitLikelihood fits on.
func likelihoodSubset(x *mat.Dense, m int, bind func(*mat.Dense) (*landmarkBound, error)) (*subsetFit, error) {
	idx, xs := subsetOf(x, likelihoodCap(m))
	b, err := bind(xs)
	if err != nil {
		return nil, err
	}
	b.tol = capTol
	return &subsetFit{b: b, idx: idx}, nil
}

// exactOn returns a maker of the family bound (bind) to the k inputs of
// x of indices ⌊t·n/k⌋: a landmark bound's subset or seed.
func exactOn(x *mat.Dense, k int, bind func(*mat.Dense) (Bound, error)) func() (*subsetFit, error) {
	return func() (*subsetFit, error) {
		idx, xs := subsetOf(x, k)
		b, err := bind(xs)
		if err != nil {
			return nil, err
		}
		return &subsetFit{b: b, idx: idx}, nil
	}
}

// subsetOf returns the inputs of x (n×d) at the m indices ⌊t·n/m⌋.
func subsetOf(x *mat.Dense, m int) ([]int, *mat.Dense) {
	n, d := x.Dims()
	idx := subsetIndices(n, min(m, n))
	xs := mat.NewDense(len(idx), d, nil)
	for t, i := range idx {
		xs.SetRow(t, x.RawRowView(i))
	}
	return idx, xs
}

// gather returns y at the subset's indices.
func (s *subsetFit) gather(y []float64) []float64 {
	out := make([]float64, len(s.idx))
	for t, i := range s.idx {
		out[t] = y[i]
	}
	return out
}

// Bind is the inner family's on n ≤ m inputs; above, it binds the inner
// family to the fitting subset and keeps x for the landmark model.
func (f *sparseFamily) Bind(x *mat.Dense) (Bound, error) {
	if err := checkBind(x, f.Dim()); err != nil {
		return nil, err
	}
	if n, _ := x.Dims(); n <= f.m {
		return bind(f.inner, x)
	}
	return f.bindLandmarks(x)
}

// bindLandmarks binds the landmark model to x (n×d) whatever n (with
// n ≤ m the subset is every input).
func (f *sparseFamily) bindLandmarks(x *mat.Dense) (*landmarkBound, error) {
	n, d := x.Dims()
	idx, xs := subsetOf(x, f.m)
	sub, err := bind(f.inner, xs)
	if err != nil {
		return nil, err
	}
	xc := mat.DenseCopyOf(x)
	unit := false
	if c, ok := sub.(constDiag); ok && c.constantDiag() {
		unit = true
	}
	src := &kernSource{x: xc, n: n, d: d, kernel: func(v, l float64) (kernel.Kernel, error) { return boundKernel(sub, v, l) }, unit: unit}
	lb := &landmarkBound{src: src, m: f.m, be: f.be, x: xc, n: n, constDiag: unit,
		mem: f.memory(n), defaultFit: LandmarkFitSubset}
	lb.sub.fit, lb.sub.done = &subsetFit{b: sub, idx: idx}, true
	lb.lik.mk = func() (*subsetFit, error) { return likelihoodSubset(xc, f.m, f.bindLandmarks) }
	lb.seed.mk = exactOn(xc, seedSize(f.m), func(x *mat.Dense) (Bound, error) { return bind(f.inner, x) })
	return lb, nil
}

// kernSource is the landmark source of a family whose kernel does not
// depend on the inputs: C_ℓ's columns by CrossTo of its unit-variance
// kernel (the row c(x_j, X), a symmetric kernel's column), n evaluations
// each, recomputed at every lengthscale.
type kernSource struct {
	x      *mat.Dense
	n, d   int
	kernel func(v, l float64) (kernel.Kernel, error)
	unit   bool // C_ℓ(x, x) = 1
}

func (s *kernSource) unitKernel(l float64) (kernel.Kernel, error) { return s.kernel(1, l) }

func (s *kernSource) level(l float64) (lmLevel, error) {
	k, err := s.kernel(1, l)
	if err != nil {
		return lmLevel{}, err
	}
	var lv lmLevel
	if !s.unit {
		if lv.diag, err = k.DiagTo(nil, s.x); err != nil {
			return lmLevel{}, fmt.Errorf("prior variance: %w", err)
		}
	}
	lv.colTo = func(dst []float64, j int, _ []float64) error {
		// One row c(x_j, X), contiguous, rather than n rows of one entry:
		// the kernels vectorize along their second argument.
		xj := mat.NewDense(1, s.d, s.x.RawRowView(j))
		if err := k.CrossTo(mat.NewDense(1, s.n, dst), xj, s.x); err != nil {
			return fmt.Errorf("gp: landmarks: cross-covariance: %w", err)
		}
		return nil
	}
	return lv, nil
}

// errFamily is a family whose Bind fails with err.
type errFamily struct {
	d   int
	err error
}

func (f errFamily) Dim() int                       { return f.d }
func (f errFamily) Bind(*mat.Dense) (Bound, error) { return nil, f.err }

// LandmarkFit says how Fit sets the hyperparameters of a GP whose family
// uses landmarks on the inputs given (NewLandmarkFamily,
// NewLandmarkPlusFamily above their cap m); other GPs ignore it.
type LandmarkFit int

const (
	// LandmarkFitDefault is the family's own rule: LandmarkFitSubset for
	// NewLandmarkFamily, LandmarkFitLikelihood for NewLandmarkPlusFamily
	// (its rule since it was introduced, which the committed landmark
	// study used).
	LandmarkFitDefault LandmarkFit = iota
	// LandmarkFitSubset maximizes the exact likelihood of the family
	// itself on m of the n inputs, those of indices ⌊t·n/m⌋, t = 0…m−1
	// (for k_plus: NewPlusFamily with that subset as design): O(m³) per
	// lengthscale whatever n.
	LandmarkFitSubset
	// LandmarkFitLikelihood maximizes the landmark model's own likelihood,
	// the landmarks chosen anew for every lengthscale tried, on the n
	// inputs up to likelihoodCap(m) = max(4·m, 1024) of them and on that
	// many (indices ⌊t·n/s⌋) above: O(min(n, s)·m² + m³) per lengthscale.
	// Above s, ℓ is first located by the exact likelihood of
	// max(m/2, min(m, 64)) inputs and the landmark likelihood refines it
	// locally.
	LandmarkFitLikelihood
	// LandmarkFitFull is LandmarkFitLikelihood on all n inputs whatever
	// n: O(n·m² + m³) per lengthscale (the same fit up to the cap).
	LandmarkFitFull
)

func (f LandmarkFit) String() string {
	switch f {
	case LandmarkFitDefault:
		return "default"
	case LandmarkFitSubset:
		return "subset"
	case LandmarkFitLikelihood:
		return "likelihood"
	case LandmarkFitFull:
		return "full"
	}
	return fmt.Sprintf("LandmarkFit(%d)", int(f))
}

// ParseLandmarkFit parses "default", "subset", "likelihood" or "full"
// (case-insensitive; "" is "default").
func ParseLandmarkFit(s string) (LandmarkFit, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "default", "":
		return LandmarkFitDefault, nil
	case "subset":
		return LandmarkFitSubset, nil
	case "likelihood":
		return LandmarkFitLikelihood, nil
	case "full":
		return LandmarkFitFull, nil
	}
	return 0, fmt.Errorf("%w: unknown landmark fit %q (want default, subset, likelihood or full)", ErrInvalid, s)
}

func (f LandmarkFit) check() error {
	if f < LandmarkFitDefault || f > LandmarkFitFull {
		return fmt.Errorf("%w: unknown landmark fit %d", ErrInvalid, int(f))
	}
	return nil
}

// capSeed returns the bound and outputs whose exact likelihood locates ℓ
// before the landmark likelihood refines it: the family on seedSize(m)
// of the inputs (lb.seed), when b is a landmark bound fitted by
// LandmarkFitLikelihood above likelihoodCap(m) with fitProfile (ok false
// otherwise: no seed, the full search).
func capSeed(b Bound, ys []float64, opts FitOptions) (Bound, []float64, bool, error) {
	lb, ok := b.(*landmarkBound)
	if !ok || opts.method != fitProfile {
		return nil, nil, false, nil
	}
	f := opts.LandmarkFit
	if f == LandmarkFitDefault {
		f = lb.defaultFit
	}
	if f != LandmarkFitLikelihood || lb.n <= likelihoodCap(lb.m) {
		return nil, nil, false, nil
	}
	sf, err := lb.seed.get()
	if err != nil {
		return nil, nil, false, err
	}
	return sf.b, sf.gather(ys), true, nil
}

// fitTarget returns the bound and outputs Fit maximizes the likelihood of
// for the bound b (all n inputs, outputs ys) under the rule f.
func fitTarget(b Bound, ys []float64, f LandmarkFit) (Bound, []float64, error) {
	lb, ok := b.(*landmarkBound)
	if !ok {
		return b, ys, nil
	}
	if f == LandmarkFitDefault {
		f = lb.defaultFit
	}
	if f == LandmarkFitFull {
		return b, ys, nil
	}
	if f == LandmarkFitLikelihood {
		if lb.n <= likelihoodCap(lb.m) {
			return b, ys, nil
		}
		// The landmark model's likelihood on likelihoodCap(m) of the
		// inputs (lb.lik: the same family bound to them).
		sf, err := lb.lik.get()
		if err != nil {
			return nil, nil, err
		}
		return sf.b, sf.gather(ys), nil
	}
	sf, err := lb.subset()
	if err != nil {
		return nil, nil, err
	}
	return sf.b, sf.gather(ys), nil
}
