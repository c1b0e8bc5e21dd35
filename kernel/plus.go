package kernel

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

var (
	_ Kernel     = (*Plus)(nil)
	_ Gramer     = (*Plus)(nil)
	_ Gradienter = (*Plus)(nil)
)

// PlusOptions configure NewPlus. The zero value is the default.
type PlusOptions struct {
	// Backend computes the eigendecomposition and the products; nil means
	// linalg.Default().
	Backend linalg.Backend
	// RelTol drops the eigenvalues λ ≤ RelTol·λ_max of k_max(D, D) (the
	// negative ones always go: that is the PSD projection). 0 means n·ε
	// (ε = 2⁻⁵², n = |D|), the usual numerical-rank threshold (as in
	// LAPACK's and NumPy's pinv): a backward-stable eigensolver determines
	// eigenvalues only to about n·ε·λ_max, so smaller ones are noise, and
	// keeping them would amplify rounding through Λ₊^{−1/2}. Must lie in
	// [0, 1).
	RelTol float64
}

// Plus is the PSD-projected Nyström kernel of the paper (equations
// (5)–(6)): with K = k_max(D, D) = Q·Λ·Qᵀ and K₊ = Q·max(Λ, 0)·Qᵀ,
//
//	k_plus(x, y) = k_max(x, D)·K₊^†·k_max(D, y) = φ(x)·φ(y),
//	φ(x) = Λ₊^{−1/2}·Qᵀ·k_max(D, x) ∈ R^r,
//
// over the r eigenvalues kept (λ > RelTol·λ_max). On D×D it reproduces
// K₊ (up to the dropped eigenvalues below the tolerance), and it equals
// k_max there whenever k_max(D, D) is PSD.
//
// The features of the design, φ(D) (n×r), are computed once by NewPlus.
// Whenever an argument of CrossTo, GramTo, DiagTo or GradTo equals the
// design set element for element (same dimensions and the same float64
// bits; checked in O(n·d), so a caller's own copy of D qualifies and later
// changes to it are seen), its features are taken from that cache rather
// than recomputed, with identical results. A single query x against the
// design then costs one k_max row (n orbit distances or enumerations) and
// two n×r products: O(n·|G|·d + n·r), or O(n·d log d + n·r) with a closed
// k_max (the paper's Table 2).
type Plus struct {
	max    *Max
	design *mat.Dense
	be     linalg.Backend
	values []float64  // all eigenvalues of K, ascending
	w      *mat.Dense // n×r: Q_r·Λ_r^{−1/2}
	feat   *mat.Dense // n×r: φ(D) = K·W
	r      int
	pool   sync.Pool // *plusScratch
}

// plusScratch is per-call scratch: matrices are Reset before reuse so
// that their backing arrays are recycled.
type plusScratch struct {
	kx, fx, fy, t, gx mat.Dense
}

func (p *Plus) scratch() *plusScratch {
	if s, ok := p.pool.Get().(*plusScratch); ok {
		return s
	}
	return new(plusScratch)
}

func (p *Plus) release(s *plusScratch) {
	s.kx.Reset()
	s.fx.Reset()
	s.fy.Reset()
	s.t.Reset()
	s.gx.Reset()
	p.pool.Put(s)
}

// isDesign reports whether x equals the design set bit for bit.
func (p *Plus) isDesign(x *mat.Dense) bool {
	if x == p.design {
		return true
	}
	n, d := p.design.Dims()
	if r, c := x.Dims(); r != n || c != d {
		return false
	}
	for i := range n {
		a, b := row(x, i), row(p.design, i)
		for k, v := range a {
			if math.Float64bits(v) != math.Float64bits(b[k]) {
				return false
			}
		}
	}
	return true
}

// NewPlus builds k_plus from m and the design set D (n×d, copied).
// Errors: a nil m or a RelTol outside [0, 1) (ErrInvalid); a design the
// methods would refuse as points (ErrBadPoints); k_max(D, D) over m's
// budget (orbit.ErrOverBudget) or with no positive finite largest
// eigenvalue (ErrSpectrum).
func NewPlus(m *Max, design *mat.Dense, o PlusOptions) (*Plus, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: plus: nil max kernel", ErrInvalid)
	}
	n, err := checkPoints("plus design", design, m.Dim(), m.p.Lengthscale)
	if err != nil {
		return nil, err // "kernel: invalid points: plus design …"
	}
	if !(o.RelTol >= 0 && o.RelTol < 1) {
		return nil, fmt.Errorf("%w: plus: RelTol must lie in [0, 1), got %v", ErrInvalid, o.RelTol)
	}
	be := o.Backend
	if be == nil {
		if be, err = linalg.Default(); err != nil {
			return nil, fmt.Errorf("kernel: plus: %w", err)
		}
	}
	p := &Plus{max: m, design: mat.DenseCopyOf(design), be: be}
	var k mat.SymDense
	if err := m.GramTo(&k, p.design); err != nil {
		return nil, fmt.Errorf("kernel: plus: %w", err)
	}
	var eig linalg.Eigen
	if err := be.EigenSym(&eig, &k); err != nil {
		if errors.Is(err, linalg.ErrOverflow) {
			// A spectrum past MaxFloat64 has no positive finite largest
			// eigenvalue: the class Truncate refuses.
			return nil, fmt.Errorf("kernel: plus: k_max(D, D): %w: %w", ErrSpectrum, err)
		}
		return nil, fmt.Errorf("kernel: plus: eigendecomposition of k_max(D, D): %w", err)
	}
	p.values = append([]float64(nil), eig.Values...)
	first, _, err := Truncate(p.values, o.RelTol)
	if err != nil {
		return nil, fmt.Errorf("kernel: plus: k_max(D, D): %w", err)
	}
	p.r = n - first
	p.w = mat.NewDense(n, p.r, nil)
	for c := range p.r {
		j := first + c
		s := 1 / math.Sqrt(p.values[j])
		for i := range n {
			p.w.Set(i, c, eig.Vectors.At(i, j)*s)
		}
	}
	// φ(D) exactly as featuresTo computes it for x = D (same CrossTo, same
	// Gemm shapes), so cached and fresh features agree bit for bit.
	var kd mat.Dense
	if err := m.CrossTo(&kd, p.design, p.design); err != nil {
		return nil, fmt.Errorf("kernel: plus: %w", err)
	}
	p.feat = new(mat.Dense)
	be.Gemm(false, false, 1, &kd, p.w, 0, p.feat)
	return p, nil
}

// Dim is d.
func (p *Plus) Dim() int { return p.max.Dim() }

// Method reports how the underlying k_max is evaluated.
func (p *Plus) Method() Method { return p.max.Method() }

// Group returns the group of the underlying k_max.
func (p *Plus) Group() orbit.Group { return p.max.Group() }

// Rank is r, the number of eigenvalues kept.
func (p *Plus) Rank() int { return p.r }

// Eigenvalues returns a copy of all eigenvalues of k_max(D, D), ascending.
func (p *Plus) Eigenvalues() []float64 { return append([]float64(nil), p.values...) }

// FeaturesTo fills dst (n×r) with φ(x_i) for x n×d.
func (p *Plus) FeaturesTo(dst *mat.Dense, x *mat.Dense) error {
	n, err := checkPoints("x", x, p.Dim(), p.max.p.Lengthscale)
	if err != nil {
		return err
	}
	if err := checkDst(dst, n, p.r); err != nil {
		return err
	}
	s := p.scratch()
	f := p.features(x, &s.kx, &s.fx)
	resizeDense(dst, n, p.r)
	dst.Copy(f)
	p.release(s)
	return nil
}

// features returns φ(x) for validated x: the cache if x is the design,
// else computed into fx (empty) with kx (empty) as scratch.
func (p *Plus) features(x *mat.Dense, kx, fx *mat.Dense) *mat.Dense {
	if p.isDesign(x) {
		return p.feat
	}
	n, _ := x.Dims()
	resizeDense(kx, n, p.design.RawMatrix().Rows)
	m, _ := p.design.Dims()
	crossTo(p.max.ev, p.max.nw(), kx, x, p.design, n, m)
	p.mul(false, kx, p.w, fx)
	return fx
}

// mul sets c = a·b (transB false) or a·bᵀ (transB true), c empty. A
// single row of a (one query point, the acquisition loop) is multiplied
// here, serially and without allocating; larger products go to the
// backend's Gemm. Both are deterministic for any worker count.
func (p *Plus) mul(transB bool, a, b, c *mat.Dense) {
	ar, _ := a.Dims()
	if ar != 1 {
		p.be.Gemm(false, transB, 1, a, b, 0, c)
		return
	}
	v := row(a, 0)
	if transB {
		br, _ := b.Dims()
		resizeDense(c, 1, br)
		out := row(c, 0)
		for j := range br {
			out[j] = dot(v, row(b, j))
		}
		return
	}
	_, bc := b.Dims()
	resizeDense(c, 1, bc)
	out := row(c, 0)
	clear(out)
	for i, vi := range v {
		for k, bik := range row(b, i) {
			out[k] += vi * bik
		}
	}
}

// CrossTo fills dst (n×m) with φ(x_i)·φ(y_j).
func (p *Plus) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	n, m, err := p.max.checkCross(dst, x, y)
	if err != nil {
		return err
	}
	resizeDense(dst, n, m)
	s := p.scratch()
	fx := p.features(x, &s.kx, &s.fx)
	s.kx.Reset()
	fy := p.features(y, &s.kx, &s.fy)
	if n != 1 {
		p.be.Gemm(false, true, 1, fx, fy, 0, dst)
	} else {
		out := row(dst, 0)
		v := row(fx, 0)
		for j := range m {
			out[j] = dot(v, row(fy, j))
		}
	}
	p.release(s)
	// φ(x)·φ(y) can round past MaxFloat64 where k_max's does not (v
	// within a few ulps of it: ‖φ(x)‖² = v·(1 + ε)).
	raw := dst.RawMatrix()
	return finiteRows("k(x, y)", raw.Data, raw.Rows, raw.Cols, raw.Stride)
}

// GramTo fills dst with φ(x_i)·φ(x_j); the diagonal is exactly DiagTo's.
func (p *Plus) GramTo(dst *mat.SymDense, x *mat.Dense) error {
	n, err := p.max.checkGram(dst, x)
	if err != nil {
		return err
	}
	resizeSym(dst, n)
	s := p.scratch()
	f := p.features(x, &s.kx, &s.fx)
	c := &s.t
	p.be.Gemm(false, true, 1, f, f, 0, c)
	for i := range n {
		for j := i + 1; j < n; j++ {
			dst.SetSym(i, j, c.At(i, j))
		}
		fi := row(f, i)
		dst.SetSym(i, i, dot(fi, fi))
	}
	p.release(s)
	return finiteSym(dst)
}

// DiagTo writes ‖φ(x_i)‖² into dst.
func (p *Plus) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	n, err := p.max.checkDiag(dst, x)
	if err != nil {
		return dst, err
	}
	dst = resizeVec(dst, n)
	s := p.scratch()
	f := p.features(x, &s.kx, &s.fx)
	for i := range n {
		fi := row(f, i)
		dst[i] = dot(fi, fi)
	}
	p.release(s)
	return dst, finiteRows("k(x, x)", dst, 1, len(dst), len(dst))
}

// GradTo writes ∇ₓk_plus(x, y_j) = φ(y_j)ᵀ·Wᵀ·∇ₓk_max(x, D) (the
// transpose of (∇ₓk_max(x, D))ᵀ·K₊^†·k_max(D, y_j), W = Q_r·Λ_r^{−1/2})
// into row j of dst (m×d): O(n·r·d + m·r·d) after the k_max gradients
// and the features of y.
func (p *Plus) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	m, err := p.max.checkGrad(dst, x, y)
	if err != nil {
		return err
	}
	resizeDense(dst, m, p.Dim())
	s := p.scratch()
	fy := p.features(y, &s.kx, &s.fy)
	n, d := p.design.Dims()
	resizeDense(&s.gx, n, d) // n×d: ∇ₓk_max(x, D_i) in row i
	p.max.gradAll(&s.gx, x, p.design, n)
	// t = Wᵀ·∇ (r×d) and dst = φ(y)·t (m×d), d small: row-by-row axpys
	// in a fixed order (serial, deterministic, no allocation).
	resizeDense(&s.t, p.r, d)
	t := s.t.RawMatrix().Data
	clear(t)
	for i := range n {
		gi := row(&s.gx, i)
		for c, wic := range row(p.w, i) {
			tc := t[c*d : c*d+d]
			for k, g := range gi {
				tc[k] += wic * g
			}
		}
	}
	for j := range m {
		out := row(dst, j)
		clear(out)
		for c, f := range row(fy, j) {
			for k, tk := range t[c*d : c*d+d] {
				out[k] += f * tk
			}
		}
	}
	p.release(s)
	// gradAll skips Max's own check: ∇k_max or the sums can overflow.
	return finiteGrad(dst)
}
