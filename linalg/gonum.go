package linalg

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg/internal/eigsym"
)

// gonumBackend is the pure-Go backend. Its BLAS calls go to gonum's
// implementation directly, so blas64.Use elsewhere does not affect Gemm or
// the solves (gonum's LAPACK routines use blas64's registered
// implementation internally).
type gonumBackend struct{}

var _ Backend = gonumBackend{}

// Gonum returns the pure-Go backend.
func Gonum() Backend { return gonumBackend{} }

func (gonumBackend) Name() string { return "gonum" }

// EigenSym runs linalg/internal/eigsym (tridiagonal reduction, divide and
// conquer, blocked back-transformation; see the package documentation) on
// a copy of a's upper triangle.
func (gonumBackend) EigenSym(dst *Eigen, a *mat.SymDense) error {
	n, err := checkArgs("EigenSym", dst == nil, a)
	if err != nil {
		return err
	}
	work := getF64(n * n)
	defer f64Pool.Put(work)
	copyUpper(*work, n, a) // before resizing dst, which may hold a (zeroed by a resize)
	resizeEigen(dst, n)
	raw := dst.Vectors.RawMatrix()
	if err := eigsym.Eigen(n, *work, n, dst.Values, raw.Data, raw.Stride, 0); err != nil {
		return fmt.Errorf("linalg: EigenSym: %w", err)
	}
	if err := checkSpectrum("EigenSym", dst.Values, raw.Data, n, n, raw.Stride); err != nil {
		return err
	}
	normalizeSigns(raw.Data, n, raw.Stride)
	return nil
}

func (gonumBackend) Cholesky(dst *Cholesky, a *mat.SymDense) error {
	n, err := checkArgs("Cholesky", dst == nil, a)
	if err != nil {
		return err
	}
	prepareCholesky(dst, a, n, gonumSolver{})
	if !(lapackgonum.Implementation{}).Dpotrf(blas.Lower, n, dst.l, n) || !pivotsPositive(dst.l, n) {
		return fmt.Errorf("linalg: Cholesky (n = %d): %w", n, ErrNotPositiveDefinite)
	}
	dst.n = n
	return nil
}

// Gemm is eigsym's packed FMA GEMM (the one the eigensolver runs on): each
// entry one fused multiply-add chain in k order, so the bits depend neither
// on GOMAXPROCS nor on the SIMD path; several times faster than gonum's
// Dgemm (measured: docs/performance.md, "A BO step at n = 1000").
func (gonumBackend) Gemm(transA, transB bool, alpha float64, a, b *mat.Dense, beta float64, c *mat.Dense) {
	m, n, k := gemmShape(transA, transB, a, b, beta, c)
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	eigsym.Gemm(transA, transB, m, n, k, alpha, ar.Data, ar.Stride, br.Data, br.Stride, beta, cr.Data, cr.Stride, 0)
}

type gonumSolver struct{}

func (gonumSolver) trsm(trans blas.Transpose, n, nrhs int, l, b []float64, ldb int) {
	blasgonum.Implementation{}.Dtrsm(blas.Left, blas.Lower, trans, blas.NonUnit, n, nrhs, 1, l, n, b, ldb)
}

func (gonumSolver) trsv(trans blas.Transpose, n int, l, x []float64) {
	blasgonum.Implementation{}.Dtrsv(blas.Lower, trans, blas.NonUnit, n, l, n, x, 1)
}
