//go:build cgo && openblas

package linalg

/*
#cgo LDFLAGS: -llapacke -lopenblas
extern void openblas_set_num_threads(int num_threads);
extern int openblas_get_num_threads(void);
extern char* openblas_get_corename(void);
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/netlib/blas/netlib"
	"gonum.org/v1/netlib/lapack/lapacke"

	"github.com/symbo/symbo/linalg/internal/eigsym"
)

const openBLASCompiled = true

// openBLASInit pins OpenBLAS's thread count, once per process, to
// SYMBO_OPENBLAS_THREADS (default 1), independent of GOMAXPROCS, so results
// are the same bits on every run.
var openBLASInit = sync.OnceValues(func() (int, error) {
	threads := 1
	if s := os.Getenv(EnvOpenBLASThreads); s != "" {
		// At most C's int: a larger count would wrap in the conversion
		// (2³² + 1 to 1 thread, 2³¹ to a negative count, OpenBLAS's
		// default of every core).
		t, err := strconv.ParseInt(s, 10, 32)
		if err != nil || t < 1 {
			return 0, fmt.Errorf("%w: %s=%q: want a positive integer of threads (at most %d)", ErrBadBackend, EnvOpenBLASThreads, s, math.MaxInt32)
		}
		threads = int(t)
	}
	C.openblas_set_num_threads(C.int(threads))
	return threads, nil
})

func openBLAS() (Backend, error) {
	if _, err := openBLASInit(); err != nil {
		return nil, err
	}
	return openBLASBackend{}, nil
}

// OpenBLASCoreName returns the CPU core type OpenBLAS dispatched to (for
// example "Haswell"), or "" in builds without the openblas backend.
func OpenBLASCoreName() string { return C.GoString(C.openblas_get_corename()) }

// OpenBLASThreads returns the number of threads OpenBLAS runs with, or 0 in
// builds without the openblas backend.
func OpenBLASThreads() int {
	openBLASInit() // an invalid SYMBO_OPENBLAS_THREADS leaves the library's own setting
	return int(C.openblas_get_num_threads())
}

// openBLASBackend calls OpenBLAS through cgo: CBLAS via netlib's blas
// package, LAPACK (dsyevd, dpotrf) through LAPACKE's row-major interface.
type openBLASBackend struct{}

var _ Backend = openBLASBackend{}

func (openBLASBackend) Name() string { return "openblas" }

func (openBLASBackend) EigenSym(dst *Eigen, a *mat.SymDense) error {
	n, err := checkArgs("EigenSym", dst == nil, a)
	if err != nil {
		return err
	}
	prepareEigen(dst, detachSym(a, dst.Vectors), n)
	raw := dst.Vectors.RawMatrix()
	var work [1]float64
	var iwork [1]int32
	if !lapacke.Dsyevd('V', 'U', n, raw.Data, raw.Stride, dst.Values, work[:], -1, iwork[:], -1) {
		return fmt.Errorf("linalg: EigenSym: OpenBLAS dsyevd workspace query failed (n = %d)", n)
	}
	lwork, liwork := int(work[0]), int(iwork[0])
	w, iw := getF64(lwork), getI32(liwork)
	defer f64Pool.Put(w)
	defer i32Pool.Put(iw)
	if !lapacke.Dsyevd('V', 'U', n, raw.Data, raw.Stride, dst.Values, *w, lwork, *iw, liwork) {
		return fmt.Errorf("linalg: EigenSym: OpenBLAS dsyevd did not converge (n = %d)", n)
	}
	if err := checkSpectrum("EigenSym", dst.Values, raw.Data, n, n, raw.Stride); err != nil {
		return err
	}
	normalizeSigns(raw.Data, n, raw.Stride)
	return nil
}

func (openBLASBackend) Cholesky(dst *Cholesky, a *mat.SymDense) error {
	n, err := checkArgs("Cholesky", dst == nil, a)
	if err != nil {
		return err
	}
	prepareCholesky(dst, a, n, openBLASSolver{})
	if !lapacke.Dpotrf('L', n, dst.l, n) || !pivotsPositive(dst.l, n) {
		return fmt.Errorf("linalg: Cholesky (n = %d): %w", n, ErrNotPositiveDefinite)
	}
	dst.n = n
	return nil
}

// Gemm calls OpenBLAS's dgemm, except for alpha = 0: c = beta·c here,
// without reading a or b, as the BLAS reference and the gonum backend do
// (OpenBLAS's small-matrix kernels compute 0·a·b, NaN for an Inf or NaN
// in a or b).
func (openBLASBackend) Gemm(transA, transB bool, alpha float64, a, b *mat.Dense, beta float64, c *mat.Dense) {
	m, n, k := gemmShape(transA, transB, a, b, beta, c)
	if alpha == 0 {
		scaleGemmC(c, beta)
		return
	}
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	netlib.Implementation{}.Dgemm(blasTrans(transA), blasTrans(transB), m, n, k,
		alpha, ar.Data, ar.Stride, br.Data, br.Stride, beta, cr.Data, cr.Stride)
}

type openBLASSolver struct{}

func (openBLASSolver) trsm(trans blas.Transpose, n, nrhs int, l, b []float64, ldb int) {
	netlib.Implementation{}.Dtrsm(blas.Left, blas.Lower, trans, blas.NonUnit, n, nrhs, 1, l, n, b, ldb)
}

func (openBLASSolver) trsv(trans blas.Transpose, n int, l, x []float64) {
	netlib.Implementation{}.Dtrsv(blas.Lower, trans, blas.NonUnit, n, l, n, x, 1)
}

// prepareEigen resizes dst for an n×n problem and copies the upper triangle
// of a into dst.Vectors.
func prepareEigen(dst *Eigen, a *mat.SymDense, n int) {
	resizeEigen(dst, n)
	raw := dst.Vectors.RawMatrix()
	copyUpper(raw.Data, raw.Stride, a)
}

// i32Pool holds the integer workspace of the LAPACK calls.
var i32Pool sync.Pool // *[]int32

func getI32(n int) *[]int32 {
	if p, ok := i32Pool.Get().(*[]int32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]int32, n)
	return &s
}

func blasTrans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// eigenSymProject reduces a copy of a's upper triangle with LAPACK's
// dsytrd, applies Qᵀ to dst.Proj (holding b) with dormtr, and finishes
// with eigsym's tridiagonal iteration on the projections.
func (openBLASBackend) eigenSymProject(dst *EigenProj, a *mat.SymDense, n int) error {
	work := getF64(n*n + 3*n)
	defer f64Pool.Put(work)
	aw, d, e, tau := (*work)[:n*n], (*work)[n*n:n*n+n], (*work)[n*n+n:n*n+2*n], (*work)[n*n+2*n:]
	copyUpper(aw, n, a)
	raw := dst.Proj.RawMatrix()
	_, p := dst.Proj.Dims()
	sigma := eigsym.ScaleUpper(n, aw, n) // as dsyevd: no overflow in the reduction
	if sigma == 0 {                      // a = 0: every eigenvalue 0, Q = I
		clear(dst.Values)
		return nil
	}
	var q [1]float64
	if !lapacke.Dsytrd('U', n, aw, n, d, e, tau, q[:], -1) {
		return fmt.Errorf("linalg: EigenSymProject: OpenBLAS dsytrd workspace query failed (n = %d)", n)
	}
	var q2 [1]float64
	if !lapacke.Dormtr('L', 'U', 'T', n, p, aw, n, tau, raw.Data, raw.Stride, q2[:], -1) {
		return fmt.Errorf("linalg: EigenSymProject: OpenBLAS dormtr workspace query failed (n = %d)", n)
	}
	lw := max(int(q[0]), int(q2[0]), 1)
	w := getF64(lw)
	defer f64Pool.Put(w)
	if !lapacke.Dsytrd('U', n, aw, n, d, e, tau, *w, lw) {
		return fmt.Errorf("linalg: EigenSymProject: OpenBLAS dsytrd failed (n = %d)", n)
	}
	if !lapacke.Dormtr('L', 'U', 'T', n, p, aw, n, tau, raw.Data, raw.Stride, *w, lw) {
		return fmt.Errorf("linalg: EigenSymProject: OpenBLAS dormtr failed (n = %d)", n)
	}
	if err := eigsym.SolveTridiagProject(n, d, e, dst.Values, raw.Data, raw.Stride, p); err != nil {
		return fmt.Errorf("linalg: EigenSymProject: %w", err)
	}
	if sigma != 1 {
		for j := range dst.Values {
			dst.Values[j] /= sigma
		}
	}
	return nil
}

// scaleGemmC sets c = beta·c, Gemm's result for alpha = 0: each entry
// multiplied by beta, left as it is for beta = 1, and set to 0 without
// being read for beta = 0 (the bits of the gonum backend's GEMM).
func scaleGemmC(c *mat.Dense, beta float64) {
	if beta == 1 {
		return
	}
	cr := c.RawMatrix()
	for i := range cr.Rows {
		row := cr.Data[i*cr.Stride : i*cr.Stride+cr.Cols]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
