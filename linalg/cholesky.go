package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// Cholesky is the factorization a = L·Lᵀ of a symmetric positive definite
// matrix, made by Backend.Cholesky. Solves run on the backend that made it.
// The zero value is ready for use as a dst; until it holds a factorization
// its solves return an error wrapping ErrNotFactored, and LogDet and LTo
// panic.
type Cholesky struct {
	n      int
	l      []float64 // n×n row-major; lower triangle is L, strict upper is 0
	solver triSolver
}

// triSolver is the backend-specific part of the solves: the BLAS
// triangular solves with the n×n row-major lower-triangular l. A·X = B is
// solved as L·Y = B, Lᵀ·X = Y, which is what LAPACK's dpotrs does; calling
// dpotrs through LAPACKE's row-major interface instead copies and transposes
// L on every call: an O(n²) copy per solve, the order of the solve
// itself for one right-hand side (BenchmarkDpotrs: docs/performance.md,
// "One right-hand side: dpotrs through LAPACKE").
type triSolver interface {
	// trsm overwrites the n×nrhs row-major b (stride ldb) with op(L)⁻¹·b,
	// where op(L) is L, or Lᵀ when trans is blas.Trans.
	trsm(trans blas.Transpose, n, nrhs int, l, b []float64, ldb int)
	// trsv overwrites the vector x of length n with op(L)⁻¹·x.
	trsv(trans blas.Transpose, n int, l, x []float64)
}

// prepareCholesky makes room in c for an n×n factor and copies a into its
// lower triangle.
func prepareCholesky(c *Cholesky, a *mat.SymDense, n int, s triSolver) {
	if cap(c.l) >= n*n {
		c.l = c.l[:n*n]
	} else {
		c.l = make([]float64, n*n)
	}
	copyLower(c.l, n, a)
	c.n = 0 // not factored yet
	c.solver = s
}

// pivotsPositive reports whether the factor l (n×n, row-major) has a
// positive, finite diagonal: a factorization that reports success but
// met a NaN pivot (OpenBLAS's potrf tests ajj ≤ 0 only, which a NaN
// passes: an Inf−Inf in a row of a finite, non-positive-definite matrix)
// is a failure. O(n).
func pivotsPositive(l []float64, n int) bool {
	for i := range n {
		if v := l[i*n+i]; !(v > 0) || math.IsInf(v, 1) {
			return false
		}
	}
	return true
}

// mustBeFactored panics, for the methods without an error result, on a
// nil c or one that holds no factorization.
func (c *Cholesky) mustBeFactored() {
	if c == nil || c.n == 0 {
		panic("linalg: Cholesky used before a successful factorization")
	}
}

// checkFactored returns the solves' error for a nil c (ErrNilArgument) or
// one that holds no factorization (ErrNotFactored).
func (c *Cholesky) checkFactored(op string) error {
	if c == nil {
		return fmt.Errorf("linalg: %s: nil *Cholesky: %w", op, ErrNilArgument)
	}
	if c.n == 0 {
		return fmt.Errorf("linalg: %s: %w (the zero value, or the dst of a failed Cholesky)", op, ErrNotFactored)
	}
	return nil
}

// Size returns n for a factorization of an n×n matrix, 0 for none (and
// for a nil c).
func (c *Cholesky) Size() int {
	if c == nil {
		return 0
	}
	return c.n
}

// SolveTo solves A·X = B for X and stores it in dst. An empty dst is resized
// to the shape of b; otherwise dst must have b's shape (else an error
// wrapping ErrShape). dst may be b itself (the solve is then in place) but
// must not otherwise overlap b. It returns an error wrapping ErrShape and
// mat.ErrShape if b does not have Size() rows, ErrNilArgument for a nil c,
// dst or b, ErrNotFactored when c holds no factorization. The result is not checked: a b
// with a NaN or ±Inf entry, or a solution beyond float64's range (an A
// near singular at huge entries), gives non-finite entries with a nil
// error — a caller that needs finite values checks them (gp does), at
// O(n·m) against the solve's O(n²·m).
func (c *Cholesky) SolveTo(dst, b *mat.Dense) error {
	return c.solveDense("SolveTo", false, dst, b)
}

// SolveLTo solves L·X = B for X (forward substitution) and stores it in dst,
// with the same rules as SolveTo. ‖X‖² column-wise gives the quadratic forms
// bᵀA⁻¹b used for GP predictive variances.
func (c *Cholesky) SolveLTo(dst, b *mat.Dense) error {
	return c.solveDense("SolveLTo", true, dst, b)
}

func (c *Cholesky) solveDense(op string, lowerOnly bool, dst, b *mat.Dense) error {
	if err := c.checkFactored(op); err != nil {
		return err
	}
	if dst == nil || b == nil {
		return fmt.Errorf("linalg: %s: nil dst or b: %w", op, ErrNilArgument)
	}
	r, nrhs := b.Dims()
	if r != c.n {
		return fmt.Errorf("linalg: %s: b has %d rows, want %d: %w (%w)", op, r, c.n, ErrShape, mat.ErrShape)
	}
	if dst != b {
		if dst.IsEmpty() {
			dst.ReuseAs(r, nrhs)
		} else if dr, dc := dst.Dims(); dr != r || dc != nrhs {
			return fmt.Errorf("linalg: %s: dst is %d×%d, want %d×%d: %w", op, dr, dc, r, nrhs, ErrShape)
		}
		dst.Copy(b)
	}
	raw := dst.RawMatrix()
	c.solver.trsm(blas.NoTrans, c.n, nrhs, c.l, raw.Data, raw.Stride)
	if !lowerOnly {
		c.solver.trsm(blas.Trans, c.n, nrhs, c.l, raw.Data, raw.Stride)
	}
	return nil
}

// SolveVecTo solves A·x = b for x and stores it in dst, which must have
// length Size(). dst may be b itself but must not otherwise overlap it. It
// returns an error wrapping ErrShape if len(b) or len(dst) != Size(), and
// SolveTo's errors for a nil or unfactored c. As with SolveTo, the result is
// not checked for finiteness.
func (c *Cholesky) SolveVecTo(dst, b []float64) error {
	if err := c.checkFactored("SolveVecTo"); err != nil {
		return err
	}
	if len(b) != c.n {
		return fmt.Errorf("linalg: SolveVecTo: len(b) = %d, want %d: %w (%w)", len(b), c.n, ErrShape, mat.ErrShape)
	}
	if len(dst) != c.n {
		return fmt.Errorf("linalg: SolveVecTo: len(dst) = %d, want %d: %w", len(dst), c.n, ErrShape)
	}
	copy(dst, b)
	c.solver.trsv(blas.NoTrans, c.n, c.l, dst)
	c.solver.trsv(blas.Trans, c.n, c.l, dst)
	return nil
}

// LogDet returns log det A = 2·Σ log L_ii.
func (c *Cholesky) LogDet() float64 {
	c.mustBeFactored()
	var s float64
	for i := range c.n {
		s += math.Log(c.l[i*c.n+i])
	}
	return 2 * s
}

// LTo copies L into dst. An empty dst is resized to n×n lower; otherwise dst
// must be n×n and lower triangular.
func (c *Cholesky) LTo(dst *mat.TriDense) {
	c.mustBeFactored()
	if dst == nil {
		panic("linalg: LTo: nil dst")
	}
	n := c.n
	if dst.IsEmpty() {
		dst.ReuseAsTri(n, mat.Lower)
	} else if m, kind := dst.Triangle(); m != n || kind != mat.Lower {
		panic(fmt.Sprintf("linalg: LTo: dst is %d×%d (lower=%v), want %d×%d lower", m, m, kind == mat.Lower, n, n))
	}
	raw := dst.RawTriangular()
	for i := range n {
		copy(raw.Data[i*raw.Stride:i*raw.Stride+i+1], c.l[i*n:i*n+i+1])
	}
}
