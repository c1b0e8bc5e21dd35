package kernel

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/linalg"
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
type Plus struct {
	max    *Max
	design *mat.Dense
	be     linalg.Backend
	values []float64  // all eigenvalues of K, ascending
	w      *mat.Dense // n×r: Q_r·Λ_r^{−1/2}
	r      int
}

// NewPlus builds k_plus from m and the design set D (n×d, copied).
func NewPlus(m *Max, design *mat.Dense, o PlusOptions) (*Plus, error) {
	if m == nil {
		return nil, fmt.Errorf("kernel: plus: nil max kernel")
	}
	n, err := checkPoints("design", design, m.Dim())
	if err != nil {
		return nil, fmt.Errorf("kernel: plus: %w", err)
	}
	if !(o.RelTol >= 0 && o.RelTol < 1) {
		return nil, fmt.Errorf("kernel: plus: RelTol must lie in [0, 1), got %v", o.RelTol)
	}
	be := o.Backend
	if be == nil {
		if be, err = linalg.Default(); err != nil {
			return nil, fmt.Errorf("kernel: plus: %w", err)
		}
	}
	tol := o.RelTol
	if tol == 0 {
		tol = float64(n) * 0x1p-52
	}
	p := &Plus{max: m, design: mat.DenseCopyOf(design), be: be}
	var k mat.SymDense
	if err := m.GramTo(&k, p.design); err != nil {
		return nil, fmt.Errorf("kernel: plus: %w", err)
	}
	var eig linalg.Eigen
	if err := be.EigenSym(&eig, &k); err != nil {
		return nil, fmt.Errorf("kernel: plus: eigendecomposition of k_max(D, D): %w", err)
	}
	p.values = append([]float64(nil), eig.Values...)
	lmax := p.values[n-1]
	if !(lmax > 0) {
		return nil, fmt.Errorf("kernel: plus: k_max(D, D) has no positive eigenvalue (largest %v)", lmax)
	}
	first := n
	for first > 0 && p.values[first-1] > tol*lmax {
		first--
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
	return p, nil
}

// Dim is d.
func (p *Plus) Dim() int { return p.max.Dim() }

// Method reports how the underlying k_max is evaluated.
func (p *Plus) Method() string { return p.max.Method() }

// Rank is r, the number of eigenvalues kept.
func (p *Plus) Rank() int { return p.r }

// Eigenvalues returns a copy of all eigenvalues of k_max(D, D), ascending.
func (p *Plus) Eigenvalues() []float64 { return append([]float64(nil), p.values...) }

// FeaturesTo fills dst (n×r) with φ(x_i) for x n×d.
func (p *Plus) FeaturesTo(dst *mat.Dense, x *mat.Dense) error {
	n, err := checkPoints("x", x, p.Dim())
	if err != nil {
		return err
	}
	resizeDense(dst, n, p.r)
	var kx mat.Dense
	if err := p.max.CrossTo(&kx, x, p.design); err != nil {
		return err
	}
	p.be.Gemm(false, false, 1, &kx, p.w, 0, dst)
	return nil
}

// CrossTo fills dst (n×m) with φ(x_i)·φ(y_j).
func (p *Plus) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	var fx, fy mat.Dense
	if err := p.FeaturesTo(&fx, x); err != nil {
		return err
	}
	if err := p.FeaturesTo(&fy, y); err != nil {
		return err
	}
	n, _ := fx.Dims()
	m, _ := fy.Dims()
	resizeDense(dst, n, m)
	p.be.Gemm(false, true, 1, &fx, &fy, 0, dst)
	return nil
}

// GramTo fills dst with φ(x_i)·φ(x_j); the diagonal is exactly DiagTo's.
func (p *Plus) GramTo(dst *mat.SymDense, x *mat.Dense) error {
	var f mat.Dense
	if err := p.FeaturesTo(&f, x); err != nil {
		return err
	}
	n, _ := f.Dims()
	resizeSym(dst, n)
	var c mat.Dense
	p.be.Gemm(false, true, 1, &f, &f, 0, &c)
	for i := range n {
		for j := i + 1; j < n; j++ {
			dst.SetSym(i, j, c.At(i, j))
		}
		fi := row(&f, i)
		dst.SetSym(i, i, dot(fi, fi))
	}
	return nil
}

// DiagTo writes ‖φ(x_i)‖² into dst.
func (p *Plus) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	var f mat.Dense
	if err := p.FeaturesTo(&f, x); err != nil {
		return dst, err
	}
	n, _ := f.Dims()
	dst = resizeVec(dst, n)
	for i := range n {
		fi := row(&f, i)
		dst[i] = dot(fi, fi)
	}
	return dst, nil
}

// GradTo writes ∇ₓk_plus(x, y_j) = (∇ₓk_max(x, D))ᵀ·K₊^†·k_max(D, y_j)
// into row j of dst (m×d).
func (p *Plus) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	if err := checkVec("x", x, p.Dim()); err != nil {
		return err
	}
	var fy mat.Dense
	if err := p.FeaturesTo(&fy, y); err != nil {
		return err
	}
	m, _ := fy.Dims()
	resizeDense(dst, m, p.Dim())
	var gx mat.Dense // n×d
	if err := p.max.GradTo(&gx, x, p.design); err != nil {
		return err
	}
	var a mat.Dense // n×m: K₊^†·k_max(D, y_j) = W·φ(y_j)
	p.be.Gemm(false, true, 1, p.w, &fy, 0, &a)
	p.be.Gemm(true, false, 1, &a, &gx, 0, dst)
	return nil
}
