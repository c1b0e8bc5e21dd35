package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg/internal/eigsym"
)

// EigenProj holds the eigenvalues of a symmetric n×n matrix
// a = Q·diag(Values)·Qᵀ and the projections Proj = Qᵀ·b of the columns of
// an n×p matrix b on its eigenvectors, without Q. The zero value is ready
// for use as a dst.
type EigenProj struct {
	Values []float64  // ascending, length n
	Proj   *mat.Dense // n×p; row j: the projections on the eigenvector of Values[j]
}

// eigenProjector is implemented by backends with their own reduction for
// EigenSymProject.
type eigenProjector interface {
	eigenSymProject(dst *EigenProj, a *mat.SymDense, n int) error
}

// EigenSymProject computes the eigenvalues of the symmetric n×n a in
// ascending order into dst.Values, and dst.Proj = Qᵀ·b for the n×p b: row
// j holds the projections of b's columns on the unit eigenvector of
// Values[j]. Each row is determined up to its sign (an eigenvector's), and
// the rows of a multiple eigenvalue up to a rotation among them: what is
// determined, and what callers may rely on, are the sums
// Σ_j f(Values[j])·P_jc·P_jc′ for any f (with f = 1, b's Gram matrix). Q
// is never formed: about 4n³/3 + 4n²·p flops (the tridiagonal reduction,
// the reflectors applied to b, then implicit QL on the tridiagonal with
// its rotations applied to the projections), against EigenSym's 4.7n³
// (gonum backend) and the product's 2n²·p. On the gonum backend it is
// linalg/internal/eigsym's ValuesProject; on openblas LAPACK's dsytrd and
// dormtr, then the same tridiagonal iteration; both are deterministic (the
// same bits for every GOMAXPROCS). The eigenvalues are EigenSym's to
// O(n·ε·‖a‖), the projections accurate to O(n·ε·‖b‖) absolute (a column
// of b with an entry above 2⁴⁸⁵ is first scaled by a power of two, so
// that only a projection that itself overflows is ErrOverflow).
//
// Errors: ErrNotFinite (wrapped) for a NaN or infinite entry of a's upper
// triangle or of b; ErrOverflow (wrapped) when an eigenvalue or a
// projection overflows; ErrShape (wrapped) for an empty a or a b without
// n rows; an error when the tridiagonal iteration does not converge (never
// observed). dst.Proj may share storage with a or b (the results are
// those of a separate dst). Safe for concurrent use on distinct dst.
func EigenSymProject(be Backend, dst *EigenProj, a *mat.SymDense, b *mat.Dense) error {
	if be == nil {
		return fmt.Errorf("linalg: EigenSymProject: nil backend: %w", ErrNilArgument)
	}
	n, err := checkArgs("EigenSymProject", dst == nil, a)
	if err != nil {
		return err
	}
	var r, p int
	if b != nil {
		r, p = b.Dims()
	}
	if r != n || n == 0 {
		return fmt.Errorf("linalg: EigenSymProject: b has %d rows, a is %d×%d: %w", r, n, n, ErrShape)
	}
	// A dst.Proj whose storage holds a (one scratch buffer for both)
	// would be resized (zeroed) and take b's entries over a's before a is
	// read: decompose a copy. One holding b: its resize would zero b.
	a = detachSym(a, dst.Proj)
	if sharesStorage(dst.Proj, b.RawMatrix().Data) {
		b = mat.DenseCopyOf(b)
	}
	resizeProj(dst, n, p)
	dst.Proj.Copy(b)
	raw := dst.Proj.RawMatrix()
	for i := range n {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("linalg: EigenSymProject: b: %w", ErrNotFinite)
			}
		}
	}
	// Columns of b near MaxFloat64 would overflow inside the reduction's
	// reflectors and the rotations though no projection does: scale them
	// down (exactly) first.
	exps := scaleColumns(raw.Data, n, p, raw.Stride)
	if ep, ok := be.(eigenProjector); ok {
		if err := ep.eigenSymProject(dst, a, n); err != nil {
			return err
		}
	} else {
		// Any other backend: its eigenvectors, then the product.
		var e Eigen
		if err := be.EigenSym(&e, a); err != nil {
			return err
		}
		copy(dst.Values, e.Values)
		be.Gemm(true, false, 1, e.Vectors, mat.DenseCopyOf(dst.Proj), 0, dst.Proj)
	}
	unscaleColumns(raw.Data, n, p, raw.Stride, exps)
	return checkSpectrum("EigenSymProject", dst.Values, raw.Data, n, p, raw.Stride)
}

// projMax is the largest magnitude of a column of b that EigenSymProject
// does not scale (dsyevd's bound for a): the reflectors and rotations
// applied to b make intermediate sums a small multiple of ‖b‖.
const projMax = 0x1p+485

// scaleColumns multiplies each column of the n×p row-major b (stride ld)
// whose largest magnitude m exceeds projMax by 2^k, k such that 2^k·m lies
// in [½, 1) — exact, but for entries below 2⁻¹⁰²¹·m that may lose bits to
// underflow, far below the projections' error O(n·ε·‖b‖) — and returns
// the k of every column, or nil when no column was scaled (the results
// are then the bits of an unscaled computation).
func scaleColumns(b []float64, n, p, ld int) []int {
	var exps []int
	for c := range p {
		var m float64
		for i := range n {
			m = max(m, math.Abs(b[i*ld+c]))
		}
		if m <= projMax {
			continue
		}
		_, e := math.Frexp(m)
		if exps == nil {
			exps = make([]int, p)
		}
		exps[c] = -e
		for i := range n {
			b[i*ld+c] = math.Ldexp(b[i*ld+c], -e)
		}
	}
	return exps
}

// unscaleColumns undoes scaleColumns on the projections: a projection
// that overflows becomes ±Inf (checkSpectrum reports it).
func unscaleColumns(b []float64, n, p, ld int, exps []int) {
	if exps == nil {
		return
	}
	for c, k := range exps {
		if k == 0 {
			continue
		}
		for i := range n {
			b[i*ld+c] = math.Ldexp(b[i*ld+c], -k)
		}
	}
}

// eigenSymProject runs eigsym.ValuesProject on a copy of a's upper
// triangle; dst.Proj holds b.
func (gonumBackend) eigenSymProject(dst *EigenProj, a *mat.SymDense, n int) error {
	work := getF64(n * n)
	defer f64Pool.Put(work)
	copyUpper(*work, n, a)
	raw := dst.Proj.RawMatrix()
	_, p := dst.Proj.Dims()
	if err := eigsym.ValuesProject(n, *work, n, dst.Values, raw.Data, raw.Stride, p, 0); err != nil {
		return fmt.Errorf("linalg: EigenSymProject: %w", err)
	}
	return nil
}

// resizeProj resizes dst for an n×n problem with p vectors (n, p ≥ 1).
func resizeProj(dst *EigenProj, n, p int) {
	if cap(dst.Values) >= n {
		dst.Values = dst.Values[:n]
	} else {
		dst.Values = make([]float64, n)
	}
	dst.Proj = resizeDense(dst.Proj, n, p)
}
