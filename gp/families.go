package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

var (
	_ Family = (*distanceFamily)(nil)
	_ Family = (*plusFamily)(nil)
	_ Family = (*rebuildFamily)(nil)
	_ baser  = (*distanceFamily)(nil)
	_ baser  = (*plusFamily)(nil)
	_ baser  = (*rebuildFamily)(nil)

	_ spectrumer = (*plusBound)(nil)
)

func checkShape(s kernel.Shape) error {
	return kernel.Params{Shape: s, Variance: 1, Lengthscale: 1}.Validate()
}

// distanceFamily is C_ℓ(x, y) = κ(δ(x, y)/ℓ) for a distance δ: the
// Euclidean distance (the base kernel, NewBaseFamily) or the orbit distance
// d_G (the max kernel k_max = v·κ(d_G/ℓ), NewMaxFamily). Bind computes the
// n×n distance matrix once (n(n−1)/2 distance evaluations), after which
// CorrTo costs O(n²) with an analytic ∂C/∂log ℓ = −(δ/ℓ)·κ'(δ/ℓ).
//
// k_max is PSD for sign flips, permutations, signed permutations and planar
// rotations (the paper's Proposition 1) but not in general; a non-PSD
// k_max(X, X) plus noise may fail to factor, which fails that fit start.
type distanceFamily struct {
	shape kernel.Shape
	d     int
	group orbit.Group // nil for the base kernel
	opts  kernel.Options
}

// NewBaseFamily is the base kernel v·κ(‖x − y‖/ℓ) on R^d.
func NewBaseFamily(shape kernel.Shape, d int) (Family, error) {
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	if d < 1 {
		return nil, fmt.Errorf("%w: dimension %d < 1", ErrInvalid, d)
	}
	return &distanceFamily{shape: shape, d: d}, nil
}

// NewMaxFamily is k_max for the group g: the orbit distance comes from
// orbit.Distancer when g has one, else from enumerating a finite group of
// isometries (d_G(x, y)² = min_g ‖x − g·y‖², O(|G|·d) per pair). Prediction
// uses kernel.NewMax(…, g, o). What every such kernel would refuse (a nil
// or typed-nil group, options out of range, an enumeration over the memory
// budget) is refused here, before any fit.
func NewMaxFamily(shape kernel.Shape, g orbit.Group, o kernel.Options) (Family, error) {
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	if orbit.IsNil(g) {
		return nil, fmt.Errorf("gp: %w: nil group", orbit.ErrInvalid)
	}
	// The kernel's own checks (options, quadrature caps, the group's
	// size against the memory budget) decide now, not at the first fit.
	if _, err := kernel.NewMax(kernel.Params{Shape: shape, Variance: 1, Lengthscale: 1}, g, o); err != nil {
		return nil, fmt.Errorf("gp: max family: %w", err)
	}
	switch g.(type) {
	case orbit.Distancer:
	case orbit.Finite:
		if _, err := orbit.Size(g); err != nil {
			return nil, fmt.Errorf("gp: max family: %w", err)
		}
	default:
		return nil, fmt.Errorf("%w: group %s has neither a closed-form orbit distance nor finite enumeration", ErrInvalid, g.Name())
	}
	return &distanceFamily{shape: shape, d: g.Dim(), group: g, opts: o}, nil
}

// Dim is d.
func (f *distanceFamily) Dim() int { return f.d }

// Base returns the base family (the Euclidean distance, same shape).
func (f *distanceFamily) Base() Family {
	return &distanceFamily{shape: f.shape, d: f.d}
}

// Bind computes the distance matrix of x.
func (f *distanceFamily) Bind(x *mat.Dense) (Bound, error) {
	dm, err := f.distances(x)
	if err != nil {
		return nil, err
	}
	return &distBound{f: f, dist: dm}, nil
}

func (f *distanceFamily) distances(x *mat.Dense) (*mat.SymDense, error) {
	if err := checkBind(x, f.d); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	dm := mat.NewSymDense(n, nil)
	if err := kernel.OrbitDistTo(dm, f.group, x, f.opts); err != nil {
		return nil, fmt.Errorf("gp: distances: %w", err)
	}
	return dm, nil
}

// kernel returns the covariance kernel with variance v and lengthscale l.
func (f *distanceFamily) kernel(v, l float64) (*kernel.Base, *kernel.Max, error) {
	p := kernel.Params{Shape: f.shape, Variance: v, Lengthscale: l}
	if f.group == nil {
		k, err := kernel.NewBase(p, f.d)
		return k, nil, err
	}
	k, err := kernel.NewMax(p, f.group, f.opts)
	return nil, k, err
}

type distBound struct {
	f    *distanceFamily
	dist *mat.SymDense
}

func (b *distBound) constantDiag() bool { return true }

// corrTo fills dst (and dLog) with κ(D/ℓ) (and −u·κ'(u)).
func corrTo(shape kernel.Shape, dist, dst, dLog *mat.SymDense, l float64) error {
	n := dist.SymmetricDim()
	if err := checkCorr(n, dst, dLog, l); err != nil {
		return err
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	}
	if dLog != nil && dLog.IsEmpty() {
		dLog.ReuseAsSym(n)
	}
	p := kernel.Params{Shape: shape, Variance: 1, Lengthscale: l}
	draw := dist.RawSymmetric()
	craw := dst.RawSymmetric()
	for i := range n {
		di := draw.Data[i*draw.Stride : i*draw.Stride+n]
		ci := craw.Data[i*craw.Stride : i*craw.Stride+n]
		for j := i; j < n; j++ {
			ci[j] = p.Kappa(di[j])
		}
	}
	if dLog == nil {
		return nil
	}
	lraw := dLog.RawSymmetric()
	for i := range n {
		di := draw.Data[i*draw.Stride : i*draw.Stride+n]
		li := lraw.Data[i*lraw.Stride : i*lraw.Stride+n]
		for j := i; j < n; j++ {
			li[j] = p.KappaDLog(di[j])
		}
	}
	return nil
}

func (b *distBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	return corrTo(b.f.shape, b.dist, dst, dLog, l)
}

func (b *distBound) Kernel(v, l float64) (kernel.Kernel, error) {
	kb, km, err := b.f.kernel(v, l)
	if err != nil {
		return nil, err
	}
	if kb != nil {
		return kb, nil
	}
	return km, nil
}

// plusFamily is k_plus with the training inputs as design set D: on D×D it
// is K₊ = clip(k_max(D, D)), the PSD projection (eigenvalues λ ≤
// RelTol·λ_max set to 0, as kernel.Plus does), so C_ℓ = clip(κ(d_G/ℓ)).
// Each CorrTo costs an eigendecomposition and, with the derivative, four
// n×n matrix products: ∂K₊ = Q·(F ∘ (Qᵀ·∂K·Q))·Qᵀ (Daleckii–Krein) with
// F_ij = (f(λ_i) − f(λ_j))/(λ_i − λ_j), F_ii = f'(λ_i), f the clipping.
// The derivative is exact while no eigenvalue crosses the threshold; the
// threshold's own dependence on ℓ (through λ_max) is ignored.
type plusFamily struct {
	max  *distanceFamily
	opts kernel.PlusOptions
}

// NewPlusFamily is k_plus over k_max for the group g (see NewMaxFamily) with
// kernel.Plus options po (its Backend also computes the eigendecompositions).
func NewPlusFamily(shape kernel.Shape, g orbit.Group, o kernel.Options, po kernel.PlusOptions) (Family, error) {
	m, err := NewMaxFamily(shape, g, o)
	if err != nil {
		return nil, err
	}
	if !(po.RelTol >= 0 && po.RelTol < 1) {
		return nil, fmt.Errorf("%w: plus RelTol %v outside [0, 1)", ErrInvalid, po.RelTol)
	}
	if po.Backend == nil {
		if po.Backend, err = linalg.Default(); err != nil {
			return nil, fmt.Errorf("gp: %w", err)
		}
	}
	return &plusFamily{max: m.(*distanceFamily), opts: po}, nil
}

// Dim is d.
func (f *plusFamily) Dim() int { return f.max.d }

// Base returns the base family.
func (f *plusFamily) Base() Family { return f.max.Base() }

// Bind computes the orbit distance matrix of x and keeps x as the design.
func (f *plusFamily) Bind(x *mat.Dense) (Bound, error) {
	dm, err := f.max.distances(x)
	if err != nil {
		return nil, err
	}
	return &plusBound{f: f, dist: dm, design: mat.DenseCopyOf(x)}, nil
}

type plusBound struct {
	f      *plusFamily
	dist   *mat.SymDense
	design *mat.Dense
}

func (b *plusBound) Kernel(v, l float64) (kernel.Kernel, error) {
	_, km, err := b.f.max.kernel(v, l)
	if err != nil {
		return nil, err
	}
	return kernel.NewPlus(km, b.design, b.f.opts)
}

// CorrTo is safe for concurrent use: its scratch is allocated per call.
func (b *plusBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	n := b.dist.SymmetricDim()
	if err := checkCorr(n, dst, dLog, l); err != nil {
		return err
	}
	be := b.f.opts.Backend
	var m, dm mat.SymDense
	var dmp *mat.SymDense
	if dLog != nil {
		dmp = &dm
	}
	if err := corrTo(b.f.max.shape, b.dist, &m, dmp, l); err != nil {
		return err
	}
	var eig linalg.Eigen
	if err := be.EigenSym(&eig, &m); err != nil {
		return fmt.Errorf("gp: plus: %w", err)
	}
	lam := eig.Values
	full, qs := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	clipped, err := kernel.ProjectTo(be, full, qs, &eig, b.f.opts.RelTol)
	if err != nil {
		return fmt.Errorf("gp: plus: %w", err)
	}
	if !clipped {
		// Nothing clipped (k_max(D, D) PSD, e.g. the groups of the paper's
		// Proposition 1): K₊ = K and ∂K₊ = ∂K (F ≡ 1).
		copySym(dst, &m)
		if dLog != nil {
			copySym(dLog, &dm)
		}
		return nil
	}
	_, thr, _ := kernel.Truncate(lam, b.f.opts.RelTol)
	clip := func(v float64) float64 {
		if v > thr {
			return v
		}
		return 0
	}
	q := eig.Vectors
	symTo(dst, full)
	if dLog == nil {
		return nil
	}
	// A = Qᵀ·∂K·Q, then A ∘= F, then Q·A·Qᵀ.
	dk := mat.NewDense(n, n, nil)
	dk.Copy(&dm)
	t := mat.NewDense(n, n, nil)
	be.Gemm(true, false, 1, q, dk, 0, t)
	a := mat.NewDense(n, n, nil)
	be.Gemm(false, false, 1, t, q, 0, a)
	scale := max(math.Abs(lam[0]), math.Abs(lam[n-1]))
	for i := range n {
		for j := range n {
			a.Set(i, j, a.At(i, j)*dkWeight(lam[i], lam[j], thr, scale, clip))
		}
	}
	be.Gemm(false, false, 1, q, a, 0, t)
	be.Gemm(false, true, 1, t, q, 0, full)
	symTo(dLog, full)
	return nil
}

// spectrumTo writes the eigendecomposition of C_ℓ = clip(κ(D/ℓ)): that of
// κ(D/ℓ) with the clipped eigenvalues set to 0.
func (b *plusBound) spectrumTo(eig *linalg.Eigen, scratch *mat.SymDense, l float64) error {
	if err := corrTo(b.f.max.shape, b.dist, scratch, nil, l); err != nil {
		return err
	}
	if err := b.f.opts.Backend.EigenSym(eig, scratch); err != nil {
		return fmt.Errorf("gp: plus: %w", err)
	}
	lam := eig.Values
	first, _, err := kernel.Truncate(lam, b.f.opts.RelTol)
	if err != nil {
		return fmt.Errorf("gp: plus: %w", err)
	}
	for i := range first {
		lam[i] = 0
	}
	return nil
}

// dkWeight is the Daleckii–Krein divided difference of the clipping f.
func dkWeight(li, lj, thr, scale float64, f func(float64) float64) float64 {
	step := func(v float64) float64 {
		if v > thr {
			return 1
		}
		return 0
	}
	if math.Abs(li-lj) <= 1e-12*scale {
		return step(0.5 * (li + lj))
	}
	return (f(li) - f(lj)) / (li - lj)
}

// copySym copies a into dst (resized if empty).
func copySym(dst, a *mat.SymDense) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(a.SymmetricDim())
	}
	dst.CopySym(a)
}

// symTo writes the symmetric part of the square a into dst.
func symTo(dst *mat.SymDense, a *mat.Dense) {
	n, _ := a.Dims()
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	}
	for i := range n {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, 0.5*(a.At(i, j)+a.At(j, i)))
		}
	}
}

// rebuildFamily builds the kernel New(Params{Shape, 1, ℓ}) and its Gram for
// every ℓ: the generic route for kernels that are not a function of one
// precomputable distance (k_avg). ∂C/∂log ℓ is a central difference with
// step Step in log ℓ (two more Grams; truncation error O(Step²)), or, with
// Step < 0, not provided (ErrNoDerivative: Fit then searches without
// gradients).
type rebuildFamily struct {
	Shape kernel.Shape
	D     int
	New   func(p kernel.Params) (kernel.Kernel, error)
	// Step in log ℓ for the central difference; 0 means 1e-4.
	Step float64
}

// FamilyOf returns the family of any covariance on R^d: newKernel(p)
// builds the kernel for the parameters p (Fit asks for unit variance,
// Variance = 1, and the lengthscales it tries; the signal variance is
// fitted apart), and the family rebuilds the kernel and its Gram for every
// lengthscale, with ∂C/∂log ℓ by a central difference in log ℓ (two more
// Grams). shape is passed through in p and names the base kernel for
// ModeBase. The kernels need only kernel.Kernel's methods: GramTo
// (kernel.Gramer) and GradTo (kernel.Gradienter) are used where they
// exist, and otherwise the Gram comes from CrossTo and PredictGrad's
// gradients from central differences (kernel.Grad, steps relative to the
// lengthscale). This is how a caller plugs a kernel of its own into Fit
// and bo.
func FamilyOf(d int, shape kernel.Shape, newKernel func(p kernel.Params) (kernel.Kernel, error)) (Family, error) {
	if d < 1 {
		return nil, fmt.Errorf("%w: FamilyOf: dimension %d", ErrInvalid, d)
	}
	if newKernel == nil {
		return nil, fmt.Errorf("%w: FamilyOf needs a kernel constructor", ErrNilArgument)
	}
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	return &rebuildFamily{Shape: shape, D: d, New: newKernel}, nil
}

// NewAvgFamily is the rebuildFamily of kernel.NewAvg(…, g, o); like
// NewMaxFamily it refuses up front what kernel.NewAvg would refuse.
func NewAvgFamily(shape kernel.Shape, g orbit.Group, o kernel.Options) (Family, error) {
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	if orbit.IsNil(g) {
		return nil, fmt.Errorf("gp: %w: nil group", orbit.ErrInvalid)
	}
	// Decide the options and the group's size now, not at the first fit.
	if _, err := kernel.NewAvg(kernel.Params{Shape: shape, Variance: 1, Lengthscale: 1}, g, o); err != nil {
		return nil, fmt.Errorf("gp: avg family: %w", err)
	}
	return &rebuildFamily{Shape: shape, D: g.Dim(), New: func(p kernel.Params) (kernel.Kernel, error) {
		return kernel.NewAvg(p, g, o)
	}}, nil
}

// Dim is d.
func (f *rebuildFamily) Dim() int { return f.D }

// Base returns the base family.
func (f *rebuildFamily) Base() Family {
	return &distanceFamily{shape: f.Shape, d: f.D}
}

// Bind keeps a copy of x.
func (f *rebuildFamily) Bind(x *mat.Dense) (Bound, error) {
	if err := checkBind(x, f.D); err != nil {
		return nil, err
	}
	if f.New == nil {
		return nil, fmt.Errorf("gp: rebuildFamily without constructor")
	}
	return &rebuildBound{f: f, x: mat.DenseCopyOf(x)}, nil
}

type rebuildBound struct {
	f *rebuildFamily
	x *mat.Dense
}

func (b *rebuildBound) Kernel(v, l float64) (kernel.Kernel, error) {
	k, err := b.f.New(kernel.Params{Shape: b.f.Shape, Variance: v, Lengthscale: l})
	if err == nil && check.IsNil(k) {
		// A caller's constructor (FamilyOf) that returned neither.
		return nil, fmt.Errorf("%w: the family's kernel constructor returned no kernel and no error", ErrNilArgument)
	}
	return k, err
}

func (b *rebuildBound) gram(dst *mat.SymDense, l float64) error {
	k, err := b.Kernel(1, l)
	if err != nil {
		return err
	}
	return gramTo(k, dst, b.x)
}

func (b *rebuildBound) CorrTo(dst, dLog *mat.SymDense, l float64) error {
	n, _ := b.x.Dims()
	if err := checkCorr(n, dst, dLog, l); err != nil {
		return err
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	}
	if err := b.gram(dst, l); err != nil {
		return prefixed(err)
	}
	if dLog == nil {
		return nil
	}
	h := b.f.Step
	if h < 0 {
		return ErrNoDerivative
	}
	if h == 0 {
		h = 1e-4
	}
	if dLog.IsEmpty() {
		dLog.ReuseAsSym(n)
	}
	var lo mat.SymDense
	lo.ReuseAsSym(n)
	if err := b.gram(dLog, l*math.Exp(h)); err != nil {
		return prefixed(err)
	}
	if err := b.gram(&lo, l*math.Exp(-h)); err != nil {
		return prefixed(err)
	}
	for i := range n {
		for j := i; j < n; j++ {
			dLog.SetSym(i, j, (dLog.At(i, j)-lo.At(i, j))/(2*h))
		}
	}
	return nil
}
