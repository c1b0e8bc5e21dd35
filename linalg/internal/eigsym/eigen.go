package eigsym

import (
	"fmt"
	"sync"
)

var wsPool = sync.Pool{New: func() any { return new(workspace) }}

// Eigen computes all eigenvalues and eigenvectors of the symmetric n×n
// matrix held in the upper triangle of a (row-major, row stride lda ≥ n),
// as LAPACK's dsyevd: vals gets the eigenvalues in ascending order and
// column j of z (n×n, row stride ldz ≥ n) a unit eigenvector for vals[j].
// a is overwritten (its strict lower triangle is never read); it must be
// finite (callers check: NaN or ±Inf entries give unspecified results) and
// must not overlap z. workers bounds the goroutines (0 means GOMAXPROCS); the
// results are the same bits for every value. It returns an error if an
// eigenvalue of a tridiagonal block fails to converge.
func Eigen(n int, a []float64, lda int, vals, z []float64, ldz int, workers int) error {
	if n == 0 {
		return nil
	}
	if lda < n || ldz < n || len(a) < (n-1)*lda+n || len(z) < (n-1)*ldz+n || len(vals) < n {
		panic(fmt.Sprintf("eigsym: Eigen: n = %d, lda = %d, len(a) = %d, ldz = %d, len(z) = %d, len(vals) = %d", n, lda, len(a), ldz, len(z), len(vals)))
	}
	w := numWorkers(workers)
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)

	// Scale into [rmin, rmax] by a power of two (exact), as dsyevd.
	sigma := ScaleUpper(n, a, lda)
	if sigma == 0 {
		for i := range n {
			vals[i] = 0
			row := z[i*ldz : i*ldz+n]
			clear(row)
			row[i] = 1
		}
		return nil
	}

	d := ws.floats(&ws.d, n)
	e := ws.floats(&ws.e, n)
	tau := ws.floats(&ws.tau, n)
	sytrd(n, a, lda, d, e, tau, ws, w)
	if err := stedc(n, d, e, z, ldz, ws, w); err != nil {
		return fmt.Errorf("eigsym: Eigen (n = %d): %w", n, err)
	}
	ormtr(n, a, lda, tau, z, ldz, ws, w)
	for i := range n {
		vals[i] = d[i] / sigma
	}
	return nil
}
