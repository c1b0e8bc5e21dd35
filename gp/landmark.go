package gp

import (
	"fmt"
	"math"
	"sync"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

var (
	_ Family            = (*landmarkFamily)(nil)
	_ baser             = (*landmarkFamily)(nil)
	_ lowRankSpectrumer = (*landmarkBound)(nil)
)

// landmarkFamily is k_plus over k_max for a group with a design of at most
// m points: on n ≤ m training inputs it is plusFamily (the design is every
// input, the paper's kernel, the same bits); above, the design D is m
// landmarks chosen from the inputs by a greedy pivoted Cholesky of
// C = κ(d_G(X, X)/ℓ) at the lengthscale ℓ in question (selectTo), and the
// correlation is the rank-r Nyström form C_ℓ = Φ·Φᵀ, Φ = φ(X) =
// κ(d_G(X, D)/ℓ)·Q_r·Λ_r^{−1/2} with k_max(D, D) = QΛQᵀ truncated as
// kernel.Plus truncates it: exactly kernel.NewPlus(k_max, D).
//
// The method, in full:
//
// With more than m inputs X (n×d), the design of k_plus is a set D of
// k ≤ m landmarks chosen among them at the lengthscale ℓ in question:
// greedy pivoted Cholesky of the unit-variance k_max Gram C = κ(d_G/ℓ) —
// the next landmark is the input of largest residual prior variance
// C_ii − Σ_t L_it² given the landmarks so far (ties: the smallest index;
// the first is therefore input 0), until m are chosen or every residual is
// at most n·ε. This is the greedy minimizer of the trace of the Nyström
// error C − C_XD·C_DD⁻¹·C_DX, needs only the k columns κ(d_G(X, x_j)/ℓ)
// of the chosen landmarks (n·k orbit distances, kernel.OrbitDist, cached
// across lengthscales up to 4m columns) and O(n·k²) flops, and it is
// deterministic and serial, so independent of GOMAXPROCS. The landmark
// Gram is positive definite by construction (its pivots are positive), so
// the PSD projection only drops rounding-level eigenvalues, even for a
// k_max that is not PSD. Inputs closer than ≈ ℓ to a landmark have small
// residuals: a cluster of late observations around the incumbent is
// represented through the landmarks among and near it, at the resolution
// of the fitted lengthscale, while the budget goes first to the inputs the
// landmarks so far explain worst (farthest, in the kernel's metric).
//
// The kernel is exactly kernel.NewPlus(k_max, D): with
// k_max(D, D) = QΛQᵀ truncated by kernel.Truncate, W = Q_r·Λ_r^{−1/2} and
// the features Φ = κ(d_G(X, D)/ℓ)·W (n×r), C_ℓ = ΦΦᵀ has rank r ≤ k, and
// K = v·ΦΦᵀ + σ²·I. The profile likelihood needs its spectrum and the
// projections of y: a Householder QR κ(d_G(X, D)/ℓ) = Q₁R (with y carried
// along as an extra column, giving Qᵀy), then the eigendecomposition of
// T·Tᵀ (k×k, T = R·W) gives the nonzero eigenvalues of ΦΦᵀ (its k − r
// smallest, zero in exact arithmetic, are set to 0) and the projections of
// Q₁ᵀy on their eigenvectors; the remaining n − k eigenvalues are 0 and y's
// squared norm on them is that of the trailing n − k entries of Qᵀy (no
// difference of large numbers). With MeanConstant the vector of ones rides
// along as one more column (Qᵀ1), and the zero block is rotated so that
// 1's part in it lies along one unit vector: y's projection on it and the
// squared norm of the rest make the GLS sums O(k) per step. So an
// evaluation costs the selection,
// O(n·k²) for the QR and two k×k eigenproblems: k_max(D, D)'s
// eigendecomposition, and T·Tᵀ's eigenvalues with the projections on its
// eigenvectors, which are never formed (linalg.EigenSymProject, about a
// third of an eigendecomposition's flops; the posterior, built once per
// fit, takes them from EigenSym's eigenvectors, the same to rounding):
// O(n·m² + m³) instead of O(n³), and the jitter rule is the profile's,
// applied to this spectrum. The likelihood equals the dense GP's of
// kernel.NewPlus on the same landmarks to 1e-9 relative; with m ≥ n the
// family is NewPlusFamily itself (the same bits).
//
// The posterior is Bayesian linear regression on the r features,
// φ(x) = Wᵀ·κ(d_G(D, x)/ℓ), weights w ~ N(0, v·I), noise s² = σ² + jitter:
// with TᵀT = U·diag(τ)·Uᵀ and γ = s²/v (Woodbury),
//
//	mean(x) = κ(x, D)·u,    u = W·U·diag(1/(τ+γ))·Uᵀ·Tᵀ·Q₁ᵀy,
//	var(x)  = φᵀ·M·φ,       M = U·diag(s²/(τ+γ))·Uᵀ,
//
// so a prediction with gradient costs one k_max row against the k
// landmarks and its gradient plus O(k·r + r²).
// GP.Landmarks reports k; GP.Kernel is kernel.NewPlus(k_max, D).
type landmarkFamily struct {
	plus *plusFamily
	m    int
}

// NewLandmarkPlusFamily is k_plus over k_max for the group g (see
// NewPlusFamily) whose design set is capped at m points: while there are
// at most m training inputs it is NewPlusFamily's (the design is all of
// them); with more, m landmarks are chosen from them for each lengthscale
// by a greedy pivoted Cholesky of the unit-variance k_max Gram (the point
// of largest residual prior variance given the landmarks so far, ties to
// the smallest index; it stops early when every residual is below n·ε),
// and the GP is the rank-r model v·Φ·Φᵀ + σ²·I: a likelihood evaluation
// costs O(n·m²) plus two m×m eigendecompositions instead of an n×n one,
// a prediction one k_max row against the m landmarks plus O(m·r + r²).
// The group must have an orbit distance (kernel.NewOrbitDist). m must be
// at least 1.
func NewLandmarkPlusFamily(shape kernel.Shape, g orbit.Group, o kernel.Options, po kernel.PlusOptions, m int) (Family, error) {
	if m < 1 {
		return nil, fmt.Errorf("%w: landmark count %d < 1", ErrInvalid, m)
	}
	f, err := NewPlusFamily(shape, g, o, po)
	if err != nil {
		return nil, err
	}
	return &landmarkFamily{plus: f.(*plusFamily), m: m}, nil
}

// Dim is d.
func (f *landmarkFamily) Dim() int { return f.plus.Dim() }

// Base returns the base family capped at the same m (NewLandmarkFamily),
// so that ModeBase above m points fits on a subset too rather than
// exactly in O(n³).
func (f *landmarkFamily) Base() Family {
	return &sparseFamily{inner: f.plus.Base(), m: f.m, be: f.plus.opts.Backend}
}

// lmCacheCols caps the distance columns a landmarkBound keeps (beyond
// them, columns are recomputed when needed): the pivots of the about 20
// lengthscales of a fit overlap, so a few times m covers them.
func lmCacheCols(n, m int) int { return min(n, 4*m) }

// memory returns the bytes a GP of this family on n points holds at most:
// plusFamily's five n×n matrices up to m points, else the landmark
// columns, the Cholesky factor, the QR's copy and the distance cache.
func (f *landmarkFamily) memory(n int) float64 {
	if n <= f.m {
		return denseMemory(n)
	}
	nf, mf := float64(n), float64(f.m)
	// (+ an exact GP on m points, for LandmarkFitSubset, and above the
	// likelihood cap the landmark model on its subset and the exact GP on
	// the seed's)
	mem := 8*nf*(3*mf+float64(lmCacheCols(n, f.m))+float64(f.Dim())+4) + denseMemory(f.m)
	if s := likelihoodCap(f.m); n > s {
		mem += f.memory(s) + denseMemory(seedSize(f.m))
	}
	return mem
}

// Bind keeps x; above m points it prepares the orbit distances to the
// inputs (kernel.NewOrbitDist, O(n) canonical forms or orbits).
func (f *landmarkFamily) Bind(x *mat.Dense) (Bound, error) {
	if err := checkBind(x, f.Dim()); err != nil {
		return nil, err
	}
	if n, _ := x.Dims(); n <= f.m {
		return f.plus.Bind(x)
	}
	return f.bindLandmarks(x)
}

// bindLandmarks binds the landmark model to x whatever its size.
func (f *landmarkFamily) bindLandmarks(x *mat.Dense) (*landmarkBound, error) {
	n, _ := x.Dims()
	od, err := kernel.NewOrbitDist(f.plus.max.group, x, f.plus.max.opts)
	if err != nil {
		return nil, fmt.Errorf("gp: landmarks: %w", err)
	}
	xc := mat.DenseCopyOf(x)
	src := &distSource{x: xc, od: od, n: n, m: f.m, shape: f.plus.max.shape, max: f.plus.max, cols: make([][]float64, n)}
	lb := &landmarkBound{src: src, m: f.m, be: f.plus.opts.Backend, relTol: f.plus.opts.RelTol, x: xc, n: n,
		nystrom: true, plusOpts: f.plus.opts, mem: f.memory(n), defaultFit: LandmarkFitLikelihood}
	lb.sub.mk = exactOn(xc, f.m, f.plus.Bind)
	lb.lik.mk = func() (*subsetFit, error) { return likelihoodSubset(xc, f.m, f.bindLandmarks) }
	lb.seed.mk = exactOn(xc, seedSize(f.m), f.plus.Bind)
	return lb, nil
}

// landmarkBound is a landmark family bound to n > m inputs: the columns
// of the unit-variance correlation come from src, the rest (selection,
// factors, spectrum, posterior) is the same for every kernel. Its methods
// are safe for concurrent use: scratch is per call.
type landmarkBound struct {
	src    lmSource
	m      int
	be     linalg.Backend
	relTol float64
	x      *mat.Dense
	n      int
	// nystrom: the covariance is the Nyström extension from the landmarks
	// itself (k_plus: kernel.NewPlus(unit kernel, D)), so the posterior is
	// subset of regressors; otherwise the landmark model approximates the
	// kernel's own GP and the prediction adds the prior variance the
	// landmarks miss (DTC: v·(c(x, x) − q(x, x))).
	nystrom  bool
	plusOpts kernel.PlusOptions
	// constDiag: c(x, x) does not depend on x (DTC's correction then needs
	// no kernel diagonal or its gradient).
	constDiag bool
	mem       float64 // the family's memory bound at n
	// sub is the subset LandmarkFitSubset fits on; defaultFit the
	// family's rule for LandmarkFitDefault.
	sub        subsetBound
	defaultFit LandmarkFit
	// lik is the landmark model on likelihoodCap(m) of the inputs, which
	// LandmarkFitLikelihood fits on when n exceeds them.
	lik subsetBound
	// seed is the exact family on seedSize(m) of the inputs, whose
	// likelihood locates ℓ for LandmarkFitLikelihood above the cap
	// (capSeed).
	seed subsetBound
	// tol, when positive, is the tolerance in log ℓ of a fit's Brent
	// refinement on this bound (capTol on the likelihood subset).
	tol float64
	// work recycles the scratch of factor and spectrumOf (*lmScratch,
	// about 8·n·(2m+4) + 32·m² bytes) across the about 20 evaluations of
	// a fit: every entry read is written first, so reuse changes no bit.
	work sync.Pool
}

// lmSource supplies the columns of the unit-variance correlation C_ℓ on
// the bound inputs X (n×d) and the kernel the posterior evaluates against
// the landmarks.
type lmSource interface {
	// level returns C_ℓ's columns and diagonal at the lengthscale l.
	level(l float64) (lmLevel, error)
	// unitKernel returns the unit-variance kernel c at l whose row c(x, D)
	// a prediction needs: k_max for k_plus, C_ℓ itself otherwise.
	unitKernel(l float64) (kernel.Kernel, error)
}

// lmLevel is C_ℓ at one lengthscale: colTo writes C_ℓ(X, x_j) into dst
// (length n; scratch has length n and may be overwritten); diag is
// C_ℓ(x_i, x_i), nil when every entry is 1.
type lmLevel struct {
	colTo func(dst []float64, j int, scratch []float64) error
	diag  []float64
}

// distSource is the source of k_plus's landmarks: κ(d_G(X, x_j)/ℓ) from
// the orbit distances, whose columns are cached across lengthscales up
// to lmCacheCols of them.
type distSource struct {
	x     *mat.Dense
	od    *kernel.OrbitDist
	n, m  int
	shape kernel.Shape
	max   *distanceFamily

	mu     sync.Mutex
	cols   [][]float64 // squared orbit distances to x_j, nil until computed
	cached int
}

func (s *distSource) level(l float64) (lmLevel, error) {
	return lmLevel{colTo: func(dst []float64, j int, scratch []float64) error {
		d2, err := s.dist2(j, scratch)
		if err != nil {
			return err
		}
		kappaTo(dst, d2, l, s.shape)
		return nil
	}}, nil
}

func (s *distSource) unitKernel(l float64) (kernel.Kernel, error) {
	_, km, err := s.max.kernel(1, l)
	if err != nil {
		return nil, err
	}
	return km, nil
}

// dist2 returns the squared orbit distances from every input to x_j: the
// cached column, or one computed into scratch (length n) and cached while
// the cache has room. Columns are a function of j alone, so the cache
// changes no result.
func (s *distSource) dist2(j int, scratch []float64) ([]float64, error) {
	s.mu.Lock()
	c := s.cols[j]
	s.mu.Unlock()
	if c != nil {
		return c, nil
	}
	if err := s.od.ColumnTo(scratch, s.x.RawRowView(j)); err != nil {
		return nil, fmt.Errorf("gp: landmarks: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cols[j] == nil && s.cached < lmCacheCols(s.n, s.m) {
		s.cols[j] = append([]float64(nil), scratch...)
		s.cached++
	}
	return scratch, nil
}

// lmWork is the scratch of one landmark computation at one lengthscale.
// Matrices are column-major: column j is the n entries at j·n.
type lmWork struct {
	n, m int
	// c holds m+2 columns: column j = κ(d_G(X, x_piv[j])/ℓ); the QR puts
	// y in the column after the last landmark's (and the ones after it,
	// for a constant mean).
	c    []float64
	l    []float64 // m columns: the pivoted Cholesky factor
	res  []float64 // n: residual variances
	dcol []float64 // n: distances of an uncached column
	piv  []int
}

func newLMWork(n, m int) *lmWork {
	return &lmWork{n: n, m: m, c: make([]float64, n*(m+2)), l: make([]float64, n*m),
		res: make([]float64, n), dcol: make([]float64, n), piv: make([]int, 0, m)}
}

// lmScratch is the scratch of one likelihood evaluation: the selection's
// and QR's work, the two eigendecompositions and their m×m inputs.
type lmScratch struct {
	w         *lmWork
	eig, eig2 linalg.Eigen     // C_DD's; T·Tᵀ's for the posterior
	proj      linalg.EigenProj // T·Tᵀ's spectrum and projections
	sym, sq   []float64        // m·m each: C_DD's upper triangle, T·Tᵀ
	pv        []float64        // 2m: Q₁ᵀy and Q₁ᵀ1 as the columns to project
}

// scratch returns a scratch for b's n and m from b's pool (put it back
// with b.work.Put when done; nothing of it may escape).
func (b *landmarkBound) scratch() *lmScratch {
	if s, ok := b.work.Get().(*lmScratch); ok {
		return s
	}
	return &lmScratch{w: newLMWork(b.n, b.m), sym: make([]float64, b.m*b.m), sq: make([]float64, b.m*b.m), pv: make([]float64, 2*b.m)}
}

// kappaTo writes κ(√d2_i/l) into dst, by kernel.KappaU2To (vectorized
// exponentials, the same bits on every SIMD path).
func kappaTo(dst, d2 []float64, l float64, shape kernel.Shape) {
	inv2 := 1 / (l * l)
	for i, v := range d2 {
		dst[i] = max(v, 0) * inv2
	}
	kernel.KappaU2To(dst, dst, shape)
}

// selectTo chooses the landmarks at lengthscale l by greedy pivoted
// Cholesky of C = C_ℓ(X, X): the next landmark is the input of largest
// residual variance res_i = C_ii − Σ_t L_it² (ties: the smallest index),
// until m are chosen or every residual is at most n·ε·max_i C_ii. It
// leaves the landmark indices in w.piv (in the order chosen) and the
// columns C_ℓ(X, x_piv[j]) in w.c. O(n·m²) flops (vector kernels on the
// factor's contiguous columns) and one column of the source per landmark.
func (b *landmarkBound) selectTo(w *lmWork, l float64) error {
	// The lengthscale the kernels would refuse, refused here by the
	// same rule, before the landmarks' distances turn it into NaN.
	if err := (kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: l}).Validate(); err != nil {
		return fmt.Errorf("gp: landmarks: %w", err)
	}
	lv, err := b.src.level(l)
	if err != nil {
		return fmt.Errorf("gp: landmarks: %w", err)
	}
	n, m := b.n, b.m
	top := 1.0
	if lv.diag != nil {
		top = 0
		for i, v := range lv.diag {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("gp: landmarks: prior variance %v at input %d", v, i)
			}
			w.res[i] = v
			top = max(top, v)
		}
	} else {
		for i := range w.res {
			w.res[i] = 1
		}
	}
	w.piv = w.piv[:0]
	tol := float64(n) * 0x1p-52 * top
	for j := range m {
		q := 0
		for i, r := range w.res {
			if r > w.res[q] {
				q = i
			}
		}
		if !(w.res[q] > tol) {
			break
		}
		cj, lj := w.c[j*n:j*n+n], w.l[j*n:j*n+n]
		if err := lv.colTo(cj, q, w.dcol); err != nil {
			return err
		}
		// L[:, j] = (C[:, j] − L[:, :j]·L[q, :j]ᵀ)/√res_q.
		// Four columns at a time (f64.AddScaled4: the same fused
		// multiply-adds in the same order as one AddScaled per column, a
		// quarter of the passes over L[:, j]); zero coefficients skipped.
		copy(lj, cj)
		var a [4]float64
		var xs [4][]float64
		cnt := 0
		for t := range j {
			if lqt := w.l[t*n+q]; lqt != 0 {
				a[cnt], xs[cnt] = -lqt, w.l[t*n:t*n+n]
				if cnt++; cnt == 4 {
					f64.AddScaled4(lj, &a, xs[0], xs[1], xs[2], xs[3])
					cnt = 0
				}
			}
		}
		for k := range cnt {
			f64.AddScaled(lj, a[k], xs[k])
		}
		inv := 1 / math.Sqrt(w.res[q])
		for i, v := range lj {
			v *= inv
			lj[i] = v
			w.res[i] -= v * v
		}
		w.res[q] = math.Inf(-1) // chosen: never again
		w.piv = append(w.piv, q)
	}
	return nil
}

// lmFactors is the landmark model at one lengthscale: the k landmarks, the
// r kept eigenpairs of C_DD = κ(d_G(D, D)/ℓ) as W = Q_r·Λ_r^{−1/2} (k×r),
// the thin QR C_XD = Q₁·R and T = R·W (k×r), so that Φ = C_XD·W = Q₁·T.
type lmFactors struct {
	k, r int
	piv  []int
	w    []float64 // k×r
	t    []float64 // k×r
	qty  []float64 // n: Qᵀy (Q the full orthogonal factor of the QR)
	qto  []float64 // n: Qᵀ1 (constant mean only, else nil)
}

// factor computes the landmark model at l for the outputs y (nil: no
// projections) into w and returns its factors; ones adds the projections
// of the vector of ones (a constant mean; only with y).
func (b *landmarkBound) factor(sc *lmScratch, l float64, y []float64, ones bool) (*lmFactors, error) {
	w := sc.w
	if err := b.selectTo(w, l); err != nil {
		return nil, err
	}
	n, k := b.n, len(w.piv)
	if k == 0 {
		return nil, fmt.Errorf("gp: landmarks: no input has positive prior variance")
	}
	be := b.be
	// C_DD from the columns: entry (a, c), a ≤ c, is row piv[a] of column c.
	cdd := mat.NewSymDense(k, sc.sym[:k*k])
	for a := range k {
		for c := a; c < k; c++ {
			cdd.SetSym(a, c, w.c[c*n+w.piv[a]])
		}
	}
	eig := &sc.eig
	if err := be.EigenSym(eig, cdd); err != nil {
		return nil, fmt.Errorf("gp: landmarks: %w", err)
	}
	first, _, err := kernel.Truncate(eig.Values, b.relTol)
	if err != nil {
		return nil, fmt.Errorf("gp: landmarks: %w", err)
	}
	r := k - first
	fc := &lmFactors{k: k, r: r, piv: append([]int(nil), w.piv...), w: make([]float64, k*r), t: make([]float64, k*r)}
	q := eig.Vectors.RawMatrix()
	for c := range r {
		s := 1 / math.Sqrt(eig.Values[first+c])
		for a := range k {
			fc.w[a*r+c] = q.Data[a*q.Stride+first+c] * s
		}
	}
	// Thin QR of C_XD (n×k, in place in w.c), y in column k comes back
	// as Qᵀy.
	cols := k
	if y != nil {
		cols = k + 1
		copy(w.c[k*n:k*n+n], y)
		if ones {
			cols = k + 2
			o := w.c[(k+1)*n : (k+1)*n+n]
			for i := range o {
				o[i] = 1
			}
		}
	}
	householderQR(be, w.c, n, k, cols, n, make([]float64, k))
	if y != nil {
		fc.qty = append([]float64(nil), w.c[k*n:k*n+n]...)
		if ones {
			fc.qto = append([]float64(nil), w.c[(k+1)*n:(k+1)*n+n]...)
		}
	}
	// T = R·W, R the upper triangle of the factored C_XD.
	for a := range k {
		ta := fc.t[a*r : a*r+r]
		for j := a; j < k; j++ {
			if rj := w.c[j*n+a]; rj != 0 {
				f64.AddScaled(ta, rj, fc.w[j*r:j*r+r])
			}
		}
	}
	return fc, nil
}

// lowRankSpec is the spectrum of C_ℓ = Φ·Φᵀ (n×n, rank ≤ k) as the
// profile likelihood needs it: k eigenvalues lam with the squared
// projections yt2 of y on their eigenvectors, and zeros = n − k further
// zero eigenvalues on whose eigenvectors y has squared norm rest.
//
// With a constant mean (mean true) yt and ot hold the projections of y and
// of the ones on the k eigenvectors instead, and the zero block is rotated
// so that the ones' part in it, of norm tailO, lies along one unit vector
// e: y projects on e to tailY and rest is the squared norm of y's part of
// the block orthogonal to e.
type lowRankSpec struct {
	lam, yt2 []float64
	zeros    int
	rest     float64

	mean         bool
	yt, ot       []float64
	tailY, tailO float64
}

// lowRankSpectrumer is implemented by Bounds whose correlation has low
// rank, so that the profile likelihood never forms the n×n matrix. mean
// asks for the projections of the ones as well (lowRankSpec).
type lowRankSpectrumer interface {
	lowRankSpectrumTo(dst *lowRankSpec, y []float64, l float64, mean bool) error
}

// lowRankSpectrumTo writes the spectrum of C_l = Φ·Φᵀ: with Φ = Q₁·T, the
// nonzero eigenvalues are those of T·Tᵀ (k×k; its k − r smallest are 0 in
// exact arithmetic and set to 0), the projections of y those of Q₁ᵀy on
// its eigenvectors, and rest the squared norm of the trailing n − k
// entries of Qᵀy — no cancellation, as in the dense profile.
func (b *landmarkBound) lowRankSpectrumTo(dst *lowRankSpec, y []float64, l float64, mean bool) error {
	sc := b.scratch()
	defer b.work.Put(sc)
	fc, err := b.factor(sc, l, y, mean)
	if err != nil {
		return err
	}
	return b.spectrumOf(sc, dst, fc, false)
}

// spectrumOf writes the spectrum of the factors fc into dst. The
// likelihood (lowRankSpectrumTo, about 20 times a fit) takes T·Tᵀ's
// eigenvalues and the projections without forming its eigenvectors
// (linalg.EigenSymProject: a third of EigenSym's flops); the posterior
// (vectors true, once a fit) projects on EigenSym's eigenvectors, as
// before EigenSymProject existed: the same quantities to rounding, kept
// so that the committed studies fitted on a subset (lab/results/
// landmarks-every) still reproduce bit for bit.
func (b *landmarkBound) spectrumOf(sc *lmScratch, dst *lowRankSpec, fc *lmFactors, vectors bool) error {
	k, r := fc.k, fc.r
	be := b.be
	tm := mat.NewDense(k, r, fc.t)
	tt := mat.NewDense(k, k, sc.sq[:k*k])
	be.Gemm(false, true, 1, tm, tm, 0, tt)
	s := mat.NewSymDense(k, tt.RawMatrix().Data) // the upper triangle of T·Tᵀ
	p := 1
	if fc.qto != nil {
		p = 2
	}
	ep := &sc.proj
	sc.pv = sc.pv[:k*p] // cap 2m
	if vectors {
		eig := &sc.eig2
		if err := be.EigenSym(eig, s); err != nil {
			return fmt.Errorf("gp: landmarks: %w", err)
		}
		ep.Values = append(ep.Values[:0], eig.Values...)
		v := eig.Vectors.RawMatrix()
		for c := range k {
			var py, po float64
			for a := range k {
				py += v.Data[a*v.Stride+c] * fc.qty[a]
				if p == 2 {
					po += v.Data[a*v.Stride+c] * fc.qto[a]
				}
			}
			sc.pv[c*p] = py
			if p == 2 {
				sc.pv[c*p+1] = po
			}
		}
	} else {
		pv := mat.NewDense(k, p, sc.pv)
		for a := range k {
			pv.Set(a, 0, fc.qty[a])
			if p == 2 {
				pv.Set(a, 1, fc.qto[a])
			}
		}
		if err := linalg.EigenSymProject(be, ep, s, pv); err != nil {
			return fmt.Errorf("gp: landmarks: %w", err)
		}
		raw := ep.Proj.RawMatrix()
		for c := range k {
			copy(sc.pv[c*p:c*p+p], raw.Data[c*raw.Stride:c*raw.Stride+p])
		}
	}
	dst.lam = append(dst.lam[:0], ep.Values...)
	for i := range k - r {
		dst.lam[i] = 0
	}
	for i := k - r; i < k; i++ {
		dst.lam[i] = max(dst.lam[i], 0)
	}
	proj := sc.pv // row c: the projections of Q₁ᵀy (and Q₁ᵀ1) on eigenvector c
	dst.zeros = b.n - k
	if fc.qto != nil {
		dst.mean = true
		dst.yt, dst.ot = dst.yt[:0], dst.ot[:0]
		for c := range k {
			dst.yt = append(dst.yt, proj[c*p])
			dst.ot = append(dst.ot, proj[c*p+1])
		}
		// The zero block: e = (Qᵀ1)[k:]/tailO.
		ty, to := fc.qty[k:], fc.qto[k:]
		dst.tailO = math.Sqrt(f64.Inner(to, to))
		dst.tailY, dst.rest = 0, 0
		if dst.tailO > 0 {
			dst.tailY = f64.Inner(ty, to) / dst.tailO
		}
		c := 0.0
		if dst.tailO > 0 {
			c = dst.tailY / dst.tailO
		}
		for i, q := range ty {
			r := q - c*to[i]
			dst.rest += r * r
		}
		return nil
	}
	dst.mean = false
	dst.yt2 = dst.yt2[:0]
	for c := range k {
		py := proj[c*p]
		dst.yt2 = append(dst.yt2, py*py)
	}
	dst.rest = 0
	for _, q := range fc.qty[k:] {
		dst.rest += q * q
	}
	return nil
}

// CorrTo writes C_l = Φ·Φᵀ (O(n²·r); the profile fit does not need it) and
// has no derivative (ErrNoDerivative when dLog is not nil).
func (b *landmarkBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	if err := checkCorr(b.n, dst, dLog, l); err != nil {
		return err
	}
	sc := b.scratch()
	defer b.work.Put(sc)
	fc, err := b.factor(sc, l, nil, false)
	if err != nil {
		return err
	}
	phi, err := b.features(fc, l)
	if err != nil {
		return err
	}
	n, r := b.n, fc.r
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	}
	for i := range n {
		pi := phi[i*r : i*r+r]
		for j := i; j < n; j++ {
			dst.SetSym(i, j, f64.Inner(pi, phi[j*r:j*r+r]))
		}
	}
	if dLog != nil {
		return ErrNoDerivative
	}
	return nil
}

// features returns Φ = C_ℓ(X, D)·W (n×r row-major).
func (b *landmarkBound) features(fc *lmFactors, l float64) ([]float64, error) {
	lv, err := b.src.level(l)
	if err != nil {
		return nil, fmt.Errorf("gp: landmarks: %w", err)
	}
	n, r := b.n, fc.r
	phi := make([]float64, n*r)
	scratch, kap := make([]float64, n), make([]float64, n)
	for a, j := range fc.piv {
		if err := lv.colTo(kap, j, scratch); err != nil {
			return nil, err
		}
		wa := fc.w[a*r : a*r+r]
		for i, c := range kap {
			f64.AddScaled(phi[i*r:i*r+r], c, wa)
		}
	}
	return phi, nil
}

// design returns the landmarks (k×d).
func (b *landmarkBound) design(piv []int) *mat.Dense {
	_, d := b.x.Dims()
	dm := mat.NewDense(len(piv), d, nil)
	for a, j := range piv {
		dm.SetRow(a, b.x.RawRowView(j))
	}
	return dm
}

// Kernel returns, for k_plus, kernel.NewPlus(k_max, D) with the landmarks
// D chosen at lengthscale l; otherwise the family's own kernel v·C_ℓ (the
// covariance the landmark posterior approximates).
func (b *landmarkBound) Kernel(v, l float64) (kernel.Kernel, error) {
	if !b.nystrom {
		return b.src.(*kernSource).kernel(v, l)
	}
	w := newLMWork(b.n, b.m)
	if err := b.selectTo(w, l); err != nil {
		return nil, err
	}
	if len(w.piv) == 0 {
		return nil, fmt.Errorf("gp: landmarks: no input has positive prior variance")
	}
	return b.plusKernel(v, l, b.design(w.piv))
}

// plusKernel is kernel.NewPlus(v·k_max, d) (k_plus only).
func (b *landmarkBound) plusKernel(v, l float64, d *mat.Dense) (kernel.Kernel, error) {
	_, km, err := b.src.(*distSource).max.kernel(v, l)
	if err != nil {
		return nil, err
	}
	return kernel.NewPlus(km, d, b.plusOpts)
}

// lowRankSums is profiler.sums for the spectrum s (the full spectrum is
// one with no zero block and no tail): A = Σ ỹ²_i/d_i (with a
// constant mean, the GLS residual's: glsSpectral) and B = Σ log d_i over
// all n eigenvalues, d_i = α·λ_i + β (+ jitter), with the zero block
// counted once per multiplicity; jit is the jitter factorJitter would add
// (the rule of profiler.sums), ok false when even the largest does not
// make every d_i safely positive.
func lowRankSums(s *lowRankSpec, alpha, beta float64) (a, b, jit float64, ok bool) {
	n := len(s.lam) + s.zeros
	dmin, dmax, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, l := range s.lam {
		d := alpha*l + beta
		dmin, dmax = min(dmin, d), max(dmax, d)
		sum += d
	}
	if s.zeros > 0 {
		dmin, dmax = min(dmin, beta), max(dmax, beta)
		sum += float64(s.zeros) * beta
	}
	if jit, ok = spectralJitter(n, dmin, dmax, sum); !ok {
		return 0, 0, 0, false
	}
	if s.mean {
		for _, l := range s.lam {
			b += math.Log(alpha*l + beta + jit)
		}
		if s.zeros > 0 {
			b += float64(s.zeros) * math.Log(beta+jit)
		}
		_, a = glsSpectral(s.lam, s.yt, s.ot, alpha, beta, jit, s.tailY, s.tailO, s.rest)
		return a, b, jit, true
	}
	for i, l := range s.lam {
		d := alpha*l + beta + jit
		a += s.yt2[i] / d
		b += math.Log(d)
	}
	if s.zeros > 0 {
		d := beta + jit
		a += s.rest / d
		b += float64(s.zeros) * math.Log(d)
	}
	return a, b, jit, true
}

// landmarkPost is the posterior of a landmark GP: Bayesian linear
// regression on the r features φ(x) = Wᵀ·c(D, x), c the unit-variance
// k_max, with weights w ~ N(0, v·I) and noise s² = σ² + jitter. With
// Φ = φ(X) = Q₁·T and TᵀT = U·diag(τ)·Uᵀ, γ = s²/v:
//
//	mean(x) = c(x, D)·u,      u = W·β,  β = U·diag(1/(τ+γ))·Uᵀ·Tᵀ·Q₁ᵀy,
//	var(x)  = φ(x)ᵀ·M·φ(x),   M = U·diag(s²/(τ+γ))·Uᵀ (r×r),
//
// (Woodbury: M = s²·(ΦᵀΦ + γ·I)⁻¹, no difference of large terms), and the
// gradients chain through ∇ₓc(x, D) only: ∇mean = ∇cᵀ·u,
// ∇var = 2·∇cᵀ·W·M·φ. A prediction with gradient costs one k_max row
// against the k landmarks and its gradient plus O(k·r + r²).
type landmarkPost struct {
	km   kernel.Kernel    // unit-variance k_max
	kmd  *kernel.Prepared // km's preparation of d (crossWith)
	kg   kernel.Gradienter
	d    *mat.Dense // k×d landmarks
	piv  []int
	k, r int
	w    []float64 // k×r
	u    []float64 // k
	m    []float64 // r×r, symmetric
	jit  float64
	lml  float64
	m0   float64 // the constant prior mean (standardized), 0 for MeanSample
	// dtc: add the prior variance the landmarks miss, v·(c(x, x) −
	// ‖φ(x)‖²) (clamped at 0), with c(x, x) = 1 when constDiag.
	dtc       bool
	constDiag bool
	v         float64
}

// newLandmarkPost builds the posterior of the bound b for standardized
// outputs ys under h, with a constant prior mean fitted by GLS when mean
// is set (the posterior is then that of ys − m̂ plus m̂); resid adds the
// prior variance the landmarks miss to a Nyström bound's variance too
// (Options.ResidualVariance: the other bounds always add it).
func newLandmarkPost(b *landmarkBound, ys []float64, h Hyper, mean, resid bool) (*landmarkPost, error) {
	l := h.Lengthscale
	sc := b.scratch()
	defer b.work.Put(sc)
	fc, err := b.factor(sc, l, ys, mean)
	if err != nil {
		return nil, err
	}
	var spec lowRankSpec
	if err := b.spectrumOf(sc, &spec, fc, true); err != nil {
		return nil, err
	}
	a, lb, jit, ok := lowRankSums(&spec, h.Variance, h.Noise)
	if !ok {
		// The mean diagonal lowRankSums' jitter is a multiple of.
		sum := float64(spec.zeros) * h.Noise
		for _, l := range spec.lam {
			sum += h.Variance*l + h.Noise
		}
		if m := sum / float64(b.n); jitterTooSmall(m) {
			return nil, fmt.Errorf("%w: landmark covariance (n = %d) not positive definite, and its mean diagonal %g too small for a jitter in float64 (raise the variance or the noise): %w",
				ErrOverflow, b.n, m, linalg.ErrNotPositiveDefinite)
		}
		return nil, fmt.Errorf("gp: landmark covariance (n = %d) not positive definite even with jitter (%.0e × mean diagonal): %w",
			b.n, jitterMax, linalg.ErrNotPositiveDefinite)
	}
	n := float64(b.n)
	post := &landmarkPost{d: b.design(fc.piv), piv: fc.piv, k: fc.k, r: fc.r, w: fc.w, jit: jit,
		dtc: !b.nystrom || resid, constDiag: b.constDiag, v: h.Variance,
		lml: gaussLML(a, lb, n)}
	if mean {
		// Qᵀ(y − m̂·1) replaces Qᵀy below.
		post.m0, _ = glsSpectral(spec.lam, spec.yt, spec.ot, h.Variance, h.Noise, jit, spec.tailY, spec.tailO, spec.rest)
		for i, o := range fc.qto {
			fc.qty[i] -= post.m0 * o
		}
	}
	km, err := b.src.unitKernel(l)
	if err != nil {
		return nil, kernelError(err)
	}
	post.km = km
	post.kmd = prepare(km, post.d)
	if kg, ok := kernel.Kernel(km).(kernel.Gradienter); ok {
		post.kg = kg
	}
	k, r := fc.k, fc.r
	s2 := h.Noise + jit
	gam := s2 / h.Variance
	// TᵀT (r×r) and Tᵀ·Q₁ᵀy.
	be := b.be
	tm := mat.NewDense(k, r, fc.t)
	ttd := mat.NewDense(r, r, nil)
	be.Gemm(true, false, 1, tm, tm, 0, ttd)
	tt := mat.NewSymDense(r, ttd.RawMatrix().Data)
	ty := make([]float64, r)
	for a := range k {
		f64.AddScaled(ty, fc.qty[a], fc.t[a*r:a*r+r])
	}
	var eig linalg.Eigen
	if err := be.EigenSym(&eig, tt); err != nil {
		return nil, fmt.Errorf("gp: landmarks: %w", err)
	}
	uq := eig.Vectors.RawMatrix()
	// β = U·diag(1/(τ+γ))·Uᵀ·ty; M = U·diag(s²/(τ+γ))·Uᵀ.
	inv := make([]float64, r)
	z := make([]float64, r)
	for c := range r {
		inv[c] = 1 / (max(eig.Values[c], 0) + gam)
		var p float64
		for i := range r {
			p += uq.Data[i*uq.Stride+c] * ty[i]
		}
		z[c] = p * inv[c]
	}
	ue := make([]float64, r*r) // U·diag(s²/(τ+γ))
	beta := make([]float64, r)
	for i := range r {
		ui := uq.Data[i*uq.Stride : i*uq.Stride+r]
		beta[i] = f64.Inner(ui, z)
		for c, v := range ui {
			ue[i*r+c] = v * s2 * inv[c]
		}
	}
	post.m = make([]float64, r*r)
	for i := range r {
		for j := i; j < r; j++ {
			s := f64.Inner(ue[i*r:i*r+r], uq.Data[j*uq.Stride:j*uq.Stride+r])
			post.m[i*r+j], post.m[j*r+i] = s, s
		}
	}
	post.u = make([]float64, k)
	for a := range k {
		post.u[a] = f64.Inner(fc.w[a*r:a*r+r], beta)
	}
	return post, nil
}

// predict returns the standardized mean and variance at ws.xbuf, leaving
// c(x, D) in ws.ks, φ(x) in ws.phi and M·φ(x) in ws.mphi (with DTC,
// M·φ(x) − v·φ(x) when the prior-variance gap is not clamped, and the
// gap's sign in ws.diag[0]: 1 kept, 0 clamped).
func (p *landmarkPost) predict(ws *Workspace) (mean, variance float64, err error) {
	if err := crossWith(p.km, p.kmd, ws.ks, ws.xr, p.d); err != nil {
		return 0, 0, fmt.Errorf("gp: cross-covariance: %w", err)
	}
	k, r := p.k, p.r
	ks := ws.ks.RawMatrix().Data[:k]
	phi, mphi := ws.phi[:r], ws.mphi[:r]
	clear(phi)
	for a, c := range ks {
		mean += c * p.u[a]
		f64.AddScaled(phi, c, p.w[a*r:a*r+r])
	}
	var q float64
	for i := range r {
		s := f64.Inner(p.m[i*r:i*r+r], phi)
		mphi[i] = s
		variance += phi[i] * s
		q += phi[i] * phi[i]
	}
	if !p.dtc {
		return mean, variance, nil
	}
	cxx := 1.0
	if !p.constDiag {
		if _, err := p.km.DiagTo(ws.diag, ws.xr); err != nil {
			return 0, 0, fmt.Errorf("gp: prior variance: %w", err)
		}
		cxx = ws.diag[0]
	}
	ws.diag[0] = 0
	if gap := cxx - q; gap > 0 {
		variance += p.v * gap
		ws.diag[0] = 1
		for i, f := range phi {
			mphi[i] -= p.v * f
		}
	}
	return mean, variance, nil
}

// grad writes the standardized gradients of the mean and variance after
// predict (vs the standardized variance).
func (p *landmarkPost) grad(ws *Workspace, x, dmean, dvar []float64, vs float64, scale float64) error {
	var err error
	if p.kg != nil {
		err = p.kg.GradTo(ws.gr, x, p.d)
	} else {
		err = kernel.Grad(p.km, ws.gr, x, p.d, scale)
	}
	if err != nil {
		return fmt.Errorf("gp: kernel gradient: %w", err)
	}
	gr := ws.gr.RawMatrix()
	k, r := p.k, p.r
	d := len(x)
	if dmean != nil {
		clear(dmean)
		for a, u := range p.u[:k] {
			f64.AddScaled(dmean, u, gr.Data[a*gr.Stride:a*gr.Stride+d])
		}
	}
	if dvar != nil {
		clear(dvar)
		if vs > 0 {
			// ∇(φᵀMφ) = 2·∇cᵀ·W·Mφ; with DTC's gap also
			// v·(∇c(x, x) − 2·∇cᵀ·W·φ), folded into mphi by predict.
			mphi := ws.mphi[:r]
			for a := range k {
				z := 2 * f64.Inner(p.w[a*r:a*r+r], mphi)
				f64.AddScaled(dvar, z, gr.Data[a*gr.Stride:a*gr.Stride+d])
			}
			if p.dtc && !p.constDiag && ws.diag[0] == 1 {
				// c symmetric: ∇c(x, x) = 2·∂₁c(x, y)|_{y=x}.
				if p.kg != nil {
					err = p.kg.GradTo(ws.gd, x, ws.xr)
				} else {
					err = kernel.Grad(p.km, ws.gd, x, ws.xr, scale)
				}
				if err != nil {
					return fmt.Errorf("gp: kernel gradient: %w", err)
				}
				f64.AddScaled(dvar, 2*p.v, ws.gd.RawMatrix().Data[:d])
			}
		}
	}
	return nil
}
