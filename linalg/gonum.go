package linalg

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
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

func (gonumBackend) EigenSym(dst *Eigen, a *mat.SymDense) error {
	n, err := checkFinite("EigenSym", a)
	if err != nil {
		return err
	}
	prepareEigen(dst, a, n)
	raw := dst.Vectors.RawMatrix()
	var impl lapackgonum.Implementation
	var query [1]float64
	impl.Dsyev(lapack.EVCompute, blas.Upper, n, raw.Data, raw.Stride, dst.Values, query[:], -1)
	work := getF64(int(query[0]))
	defer f64Pool.Put(work)
	if !impl.Dsyev(lapack.EVCompute, blas.Upper, n, raw.Data, raw.Stride, dst.Values, *work, len(*work)) {
		return fmt.Errorf("linalg: EigenSym: gonum Dsyev did not converge (n = %d)", n)
	}
	normalizeSigns(raw.Data, n, raw.Stride)
	return nil
}

func (gonumBackend) Cholesky(dst *Cholesky, a *mat.SymDense) error {
	n, err := checkFinite("Cholesky", a)
	if err != nil {
		return err
	}
	prepareCholesky(dst, a, n, gonumSolver{})
	if !(lapackgonum.Implementation{}).Dpotrf(blas.Lower, n, dst.l, n) {
		return fmt.Errorf("linalg: Cholesky (n = %d): %w", n, ErrNotPositiveDefinite)
	}
	dst.n = n
	return nil
}

func (gonumBackend) Gemm(transA, transB bool, alpha float64, a, b *mat.Dense, beta float64, c *mat.Dense) {
	m, n, k := gemmShape(transA, transB, a, b, beta, c)
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	blasgonum.Implementation{}.Dgemm(blasTrans(transA), blasTrans(transB), m, n, k,
		alpha, ar.Data, ar.Stride, br.Data, br.Stride, beta, cr.Data, cr.Stride)
}

type gonumSolver struct{}

func (gonumSolver) trsm(trans blas.Transpose, n, nrhs int, l, b []float64, ldb int) {
	blasgonum.Implementation{}.Dtrsm(blas.Left, blas.Lower, trans, blas.NonUnit, n, nrhs, 1, l, n, b, ldb)
}

func (gonumSolver) trsv(trans blas.Transpose, n int, l, x []float64) {
	blasgonum.Implementation{}.Dtrsv(blas.Lower, trans, blas.NonUnit, n, l, n, x, 1)
}
