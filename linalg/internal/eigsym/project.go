package eigsym

import (
	"fmt"
	"math"
)

// ValuesProject computes the eigenvalues of the symmetric n×n matrix held
// in the upper triangle of a (row-major, row stride lda ≥ n) in ascending
// order into vals, and overwrites the n×p matrix b (row-major, row stride
// ldb ≥ p) with Vᵀ·b, V the n×n matrix of unit eigenvectors in the order
// of vals: row j of the result holds the projections of b's columns on
// the eigenvector of vals[j]. V itself is never formed, and each row's
// sign is unspecified (as an eigenvector's); for a multiple eigenvalue
// only the sums of squares over its rows are determined. a is
// overwritten; it must be finite (callers check). workers bounds the
// goroutines of the reduction (0 means GOMAXPROCS); the results are the
// same bits for every value.
//
// Method: Eigen's scaling and Householder reduction T = Qᵀ·A·Q (sytrd),
// then Qᵀ·b reflector by reflector, then implicit QL with Wilkinson shifts
// on each unreduced block of T (split and scaled as stedc splits and
// scales), each plane rotation applied to the p projections instead of to
// an n×n Z. Cost: 4n³/3 flops for the reduction, 4n²·p for Qᵀ·b and
// O(n²·(1+p)) for the QL iterations — against about 4.7n³ for Eigen and
// 2n²·p more for Vᵀ·b. Eigenvalues have Eigen's accuracy (both are
// backward stable: O(n·ε·‖A‖)), the projections O(n·ε·‖b‖) absolute error.
// It returns an error if a block's QL iteration does not converge.
func ValuesProject(n int, a []float64, lda int, vals []float64, b []float64, ldb, p int, workers int) error {
	if p < 0 || n > 0 && (lda < n || ldb < p || len(a) < (n-1)*lda+n || len(vals) < n || (p > 0 && len(b) < (n-1)*ldb+p)) {
		panic(fmt.Sprintf("eigsym: ValuesProject: n = %d, lda = %d, len(a) = %d, ldb = %d, p = %d, len(b) = %d, len(vals) = %d", n, lda, len(a), ldb, p, len(b), len(vals)))
	}
	if n == 0 {
		return nil
	}
	w := numWorkers(workers)
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)

	sigma := ScaleUpper(n, a, lda)
	d := ws.floats(&ws.d, n)
	e := ws.floats(&ws.e, n)
	tau := ws.floats(&ws.tau, n)
	if sigma == 0 { // a = 0: every eigenvalue 0, V = I
		clear(d)
		clear(e)
	} else {
		sytrd(n, a, lda, d, e, tau, ws, w)
	}
	if sigma != 0 {
		// Qᵀ·b = H_{n−2}⋯H_0·b, H_i = I − τ_i·u·uᵀ, u = (0…0, 1, a[i][i+2:]).
		for i := range n - 1 {
			ti := tau[i]
			if ti == 0 {
				continue
			}
			u := a[i*lda+i+2 : i*lda+n]
			for c := range p {
				s := b[(i+1)*ldb+c]
				for j, uj := range u {
					s += uj * b[(i+2+j)*ldb+c]
				}
				s *= ti
				b[(i+1)*ldb+c] -= s
				for j, uj := range u {
					b[(i+2+j)*ldb+c] -= s * uj
				}
			}
		}
	}
	if err := SolveTridiagProject(n, d, e, vals, b, ldb, p); err != nil {
		return fmt.Errorf("eigsym: ValuesProject (n = %d): %w", n, err)
	}
	if sigma != 0 && sigma != 1 {
		for j := range vals[:n] {
			vals[j] /= sigma
		}
	}
	return nil
}

// SolveTridiagProject finishes ValuesProject from a reduction T = Qᵀ·A·Q
// made elsewhere (LAPACK's dsytrd and dormtr, for instance): given T's
// diagonal d and off-diagonal e (length ≥ n−1; both destroyed) and Qᵀ·b
// in the n×p matrix b (row-major, row stride ldb ≥ p), it writes T's
// eigenvalues in ascending order into vals (length ≥ n) and overwrites b
// with Wᵀ·Qᵀ·b, W T's unit eigenvectors in that order (see TridiagProject).
func SolveTridiagProject(n int, d, e, vals, b []float64, ldb, p int) error {
	if n == 0 {
		return nil
	}
	ws := wsPool.Get().(*workspace)
	defer wsPool.Put(ws)
	t := ws.floats(&ws.proj, p*n) // bᵀ: each vector contiguous
	for i := range n {
		for c := range p {
			t[c*n+i] = b[i*ldb+c]
		}
	}
	if err := TridiagProject(n, d, e, t, n, p); err != nil {
		return err
	}
	order := ws.ints(&ws.order, n)
	argsort(d[:n], order)
	for j, o := range order {
		vals[j] = d[o]
		for c := range p {
			b[j*ldb+c] = t[c*n+o]
		}
	}
	return nil
}

// TridiagProject computes the eigenvalues of the symmetric tridiagonal
// n×n matrix with diagonal d and off-diagonal e (length ≥ n−1, destroyed)
// into d, unsorted, and overwrites the p×n matrix t (row-major, row stride
// ldt ≥ n) with t·V, V the unit eigenvectors in the order of d: row c
// of t, a vector bᵀ on entry, ends as its projections on the eigenvectors.
// It splits T where stedc does, scales each unreduced block to norm in
// [½, 1) by a power of two, and runs implicit QL on it with the rotations
// applied to t's columns (the work of LAPACK's dsteqr with COMPZ = 'V'
// on a p×n Z). An off-diagonal counts as converged by steqr's relative
// test or when below ε (the block's norm is about 1), so that a cluster of
// eigenvalues at 0 — a rank-deficient matrix — converges; the eigenvalues
// are then accurate to O(ε·‖T‖) absolute, as divide and conquer's. It
// returns an error if a block's iteration does not converge.
func TridiagProject(n int, d, e []float64, t []float64, ldt, p int) error {
	for s := 0; s < n; {
		f := blockEnd(n, s, d, e)
		if m := f - s + 1; m > 1 {
			if s1, s2 := scaleBlock(d[s:f+1], e[s:f]); s1 != 0 {
				if !ql(m, d[s:f+1], e[s:f], t[s:], ldt, p, eps) {
					return errNoConvergence
				}
				unscaleBlock(d[s:f+1], s1, s2)
			}
		}
		s = f + 1
	}
	return nil
}

// ScaleUpper scales the upper triangle of the n×n a by a power of two σ
// (exact) into [rmin, rmax] when its largest entry is outside, as dsyevd,
// and returns σ (1 when no scaling was needed, 0 when a is zero).
func ScaleUpper(n int, a []float64, lda int) float64 {
	var anrm float64
	for i := range n {
		for _, v := range a[i*lda+i : i*lda+n] {
			anrm = max(anrm, math.Abs(v))
		}
	}
	if anrm == 0 {
		return 0
	}
	sigma := 1.0
	switch {
	case anrm < rmin:
		_, e := math.Frexp(rmin / anrm)
		sigma = math.Ldexp(1, e-1)
	case anrm > rmax:
		_, e := math.Frexp(anrm / rmax)
		sigma = math.Ldexp(1, -e)
	}
	if sigma != 1 {
		for i := range n {
			for j := i; j < n; j++ {
				a[i*lda+j] *= sigma
			}
		}
	}
	return sigma
}
