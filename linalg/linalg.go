package linalg

import (
	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/errclass"
)

// ErrNotPositiveDefinite is returned by Cholesky when the matrix is not
// (numerically) positive definite. It is an internal error: the matrices
// symbo factors are its own (a covariance after the GP's jitter), so one
// that is not positive definite is a numerical failure, not bad input.
var ErrNotPositiveDefinite = errclass.New(errclass.Internal, "linalg: matrix not positive definite")

// ErrUnavailable is returned by ByName for a backend that this build does not
// contain.
var ErrUnavailable = errclass.New(errclass.Input, "linalg: backend not available in this build")

// Backend is a dense linear-algebra implementation. All methods are safe for
// concurrent use. Inputs are never modified.
type Backend interface {
	// Name returns the backend's name: "gonum" or "openblas".
	Name() string

	// EigenSym computes a = Q·diag(w)·Qᵀ for the symmetric n×n matrix a,
	// eigenvalues in ascending order, into dst (resized as needed).
	EigenSym(dst *Eigen, a *mat.SymDense) error

	// Cholesky factors the symmetric positive definite a = L·Lᵀ into dst
	// (resized as needed). It returns an error wrapping
	// ErrNotPositiveDefinite when a is not positive definite.
	Cholesky(dst *Cholesky, a *mat.SymDense) error

	// Gemm computes c = alpha·op(a)·op(b) + beta·c, where op(m) is m or mᵀ
	// as transA/transB say. c must have the right shape (an empty c is
	// resized when beta is 0). c must not share an element with a or
	// b; views of one matrix that share none (disjoint column blocks) may
	// be passed together. As in the reference BLAS, a and b are not read
	// when alpha is 0 (c = beta·c, whatever NaN or ±Inf they hold), nor c
	// when beta is 0.
	Gemm(transA, transB bool, alpha float64, a, b *mat.Dense, beta float64, c *mat.Dense)
}
